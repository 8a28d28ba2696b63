"""How noisy the machine-wide counters a sandbox can still read are, between consecutive sandboxes.

    python -m benchmarks.sandbox_channels [--pairs 30]

The one machine-wide counter a sandbox still reads: the inode number of its stdin (a pipe the
runner made; one counter for pipes and sockets, handed out per CPU in batches). A note passes
through such a counter if a program can advance it and its drift between one sandbox and the next
is predictable. Runs ``--pairs`` pairs of sandboxes back to back; each reads the counter and tries
to advance it or read other totals (a pipe, a memfd, ``sysinfo(2)``: all refused by the filter).
Prints per value the most common drift from the first sandbox to the second, how often it
occurred (the share of notes a receiver who knows that drift would decode exactly, could a writer
set the counter), and the range.
"""

from __future__ import annotations

import argparse
import collections
import json
import os

from gsm8k.execution.runner import run_program

PROBE = """
import ctypes, json, os
class SysInfo(ctypes.Structure):
    _fields_ = [("uptime", ctypes.c_long), ("loads", ctypes.c_ulong * 3),
                ("totalram", ctypes.c_ulong), ("freeram", ctypes.c_ulong),
                ("sharedram", ctypes.c_ulong), ("bufferram", ctypes.c_ulong),
                ("totalswap", ctypes.c_ulong), ("freeswap", ctypes.c_ulong),
                ("procs", ctypes.c_ushort), ("pad", ctypes.c_char * 22)]
info = SysInfo()
made = int(ctypes.CDLL(None).sysinfo(ctypes.byref(info)) == 0)
for make in (os.pipe, lambda: os.memfd_create("note")):
    try:
        make()
        made += 1
    except OSError:
        pass
print(json.dumps({"stdin pipe inode": os.fstat(0).st_ino, "calls that worked": made}))
ans = 1
"""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=30)
    args = parser.parse_args()
    drifts: dict[str, list[int]] = collections.defaultdict(list)
    for _ in range(args.pairs):
        first, second = (json.loads(run_program(PROBE).stdout) for _ in range(2))
        for name in first:
            drifts[name].append(second[name] - first[name])
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{args.pairs} pairs of consecutive sandboxes; load {load}")
    for name, values in drifts.items():
        mode, count = collections.Counter(values).most_common(1)[0]
        print(
            f"{name:18} drift {mode:+d} in {count}/{len(values)} pairs, "
            f"range {min(values):+d} to {max(values):+d}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
