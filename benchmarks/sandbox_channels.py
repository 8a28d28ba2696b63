"""How noisy the machine-wide counters a sandbox can still read are, between consecutive sandboxes.

    python -m benchmarks.sandbox_channels [--pairs 30]

The one machine-wide counter a sandbox still reads: the inode number of its stdin (a pipe the
runner made; one counter for pipes and sockets, handed out per CPU in batches). A note passes
through such a counter if a program can advance it and its drift between one sandbox and the next
is predictable. Runs ``--pairs`` pairs of sandboxes back to back; each reads the counter and tries
to advance it or read other totals (a pipe, a memfd, ``sysinfo(2)``: all refused by the filter).
Prints the counter's most common drift from the first sandbox to the second, how often it occurred
(the share of notes a receiver who knows that drift would decode exactly, could a writer set the
counter) and the range, and how many of those calls worked in any sandbox.

Then ``--futex-trials`` times, two sandboxes at once: one waits on a futex at an address in its
read-only mapping of the C library, the other wakes the same address in its own mapping for two
seconds. A futex on a file page is keyed by the file, and every sandbox maps the same image: the
waiter is woken, an exact signal between concurrent samples that refusing would mean refusing the
futexes thread joins wait on. Prints how many waiters were woken.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import threading

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


FUTEX = """
import ctypes, errno, os, time
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                      ctypes.c_long]
NR_FUTEX = {{"x86_64": 202, "aarch64": 98}}[os.uname().machine]
fd = os.open({library!r}, os.O_RDONLY)
address = libc.mmap(None, 1 << 16, 1, 2, fd, 0) + 4096  # PROT_READ, MAP_PRIVATE
value = ctypes.c_uint.from_address(address).value
if {waiter!r}:
    timeout = (ctypes.c_long * 2)(4, 0)
    result = libc.syscall(NR_FUTEX, ctypes.c_void_p(address), 0, value, timeout, 0, 0)
    print("woken" if result == 0 else errno.errorcode[ctypes.get_errno()])
else:
    time.sleep(0.5)
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        libc.syscall(NR_FUTEX, ctypes.c_void_p(address), 1, 1, 0, 0, 0)
ans = 1
"""


def futex_trial(library: str) -> str:
    """One waiter and one waker sandbox at once; what the waiter saw."""
    seen: dict[str, str] = {}

    def wait() -> None:
        seen["waiter"] = run_program(FUTEX.format(library=library, waiter=True)).stdout.strip()

    waiter = threading.Thread(target=wait)
    waiter.start()
    run_program(FUTEX.format(library=library, waiter=False))
    waiter.join()
    return seen.get("waiter", "")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=30)
    parser.add_argument("--futex-trials", type=int, default=5)
    args = parser.parse_args()
    drifts: list[int] = []
    worked = 0
    for _ in range(args.pairs):
        first, second = (json.loads(run_program(PROBE).stdout) for _ in range(2))
        drifts.append(second["stdin pipe inode"] - first["stdin pipe inode"])
        worked = max(worked, first["calls that worked"], second["calls that worked"])
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{args.pairs} pairs of consecutive sandboxes; load {load}")
    mode, count = collections.Counter(drifts).most_common(1)[0]
    print(
        f"stdin pipe inode: drift {mode:+d} in {count}/{len(drifts)} pairs, "
        f"range {min(drifts):+d} to {max(drifts):+d}; "
        f"pipe, memfd and sysinfo calls that worked in any sandbox: {worked} of 3"
    )
    library = sandbox_libc()
    woken = [futex_trial(library) for _ in range(args.futex_trials)]
    print(f"futex on the shared C library: waiter woken in {woken.count('woken')}/{len(woken)}")
    return 0


def sandbox_libc() -> str:
    """The C library's path as the sandbox sees it."""
    found = run_program(
        "import os\n"
        "for folder in ('/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64',\n"
        "               '/usr/lib', '/lib'):\n"
        "    path = os.path.join(folder, 'libc.so.6')\n"
        "    if os.path.exists(path):\n"
        "        print(path)\n"
        "        break\n"
        "ans = 1\n"
    )
    return found.stdout.strip()


if __name__ == "__main__":
    raise SystemExit(main())
