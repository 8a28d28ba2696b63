"""The with/without MCP pair at size, with the keyless tool caller: wall and CPU time per side,
the server start-up per sample, and whether every sample was scored.

    python -m benchmarks.mcp_pair_speed --limit 100
    python -m benchmarks.mcp_pair_speed --limit 100 --side "gsm8k-mcp" --side "none"
    python -m benchmarks.mcp_pair_speed --limit 100 --checkout /tmp/before --busy 2

Each side is one ``inspect eval gsm8k/task.py --model plumbing-demo/tool-caller -T fewshot=0
-T mcp=SIDE`` process, run from ``--checkout`` (default: this one) with that checkout first on
``PYTHONPATH``; its wall time is the command's and its CPU time the user and system time of the
command and every process it started (servers included), from ``getrusage``. A side named
``per-sample`` is ``gsm8k-mcp`` started once per sample (``python -m gsm8k.mcp_tools`` from the
checkout, through a server file), the way ``-T mcp=gsm8k-mcp`` ran before it was shared. The
load average is printed with every figure: on a shared machine, compare sides run in one
sitting only. ``--busy K`` keeps K ``yes >/dev/null`` loops running (ended by their ids).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from inspect_ai.log import list_eval_logs, read_eval_log

ROOT = Path(__file__).resolve().parent.parent
PER_SAMPLE = "per-sample"


@dataclass(frozen=True)
class Measured:
    side: str
    wall: float
    cpu: float
    samples: int
    scored: int
    start_mean: float | None
    start_max: float | None
    load: tuple[float, float, float]
    status: str


def server_file(folder: Path, checkout: Path) -> str:
    """``gsm8k-mcp`` started once per sample from ``checkout``, as a bare server block."""
    path = folder / "per-sample.json"
    block = {
        "command": sys.executable,
        "args": ["-m", "gsm8k.mcp_tools"],
        "env": {"PYTHONPATH": str(checkout)},
        "cwd": str(checkout),  # -m puts the working directory first on the path
    }
    path.write_text(json.dumps(block), encoding="utf-8")
    return str(path)


def run_side(side: str, limit: int, checkout: Path, folder: Path) -> Measured:
    logs = folder / f"logs-{len(list(folder.iterdir()))}"
    mcp = server_file(folder, checkout) if side == PER_SAMPLE else side
    command = [
        str(Path(sys.executable).parent / "inspect"),
        "eval",
        "gsm8k/task.py",
        "--model",
        "plumbing-demo/tool-caller",
        "--limit",
        str(limit),
        "--log-dir",
        str(logs),
        "--display",
        "none",
        "-T",
        "fewshot=0",
        "-T",
        f"mcp={mcp}",
    ]
    environment = os.environ | {"PYTHONPATH": str(checkout)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    done = subprocess.run(command, cwd=checkout, env=environment, capture_output=True, text=True)
    wall = time.monotonic() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    found = list_eval_logs(str(logs))
    if done.returncode != 0 or not found:
        print(done.stderr[-2000:], file=sys.stderr)
    log = read_eval_log(found[0]) if found else None
    samples = log.samples or [] if log else []
    starts = [
        float(s.metadata["mcp_start_seconds"])
        for s in samples
        if isinstance((s.metadata or {}).get("mcp_start_seconds"), (int, float))
    ]
    headline = log.results.scores[0] if log and log.results and log.results.scores else None
    scored = headline.scored_samples or 0 if headline else 0
    return Measured(
        side=side,
        wall=wall,
        cpu=cpu,
        samples=len(samples),
        scored=scored,
        start_mean=statistics.mean(starts) if starts else None,
        start_max=max(starts) if starts else None,
        load=load,
        status=log.status if log else f"exit {done.returncode}",
    )


def line(measured: Measured) -> str:
    starts = (
        f"start-up / sample {measured.start_mean:.3f} s (max {measured.start_max:.2f} s)"
        if measured.start_mean is not None
        else "no server start"
    )
    load = ", ".join(f"{value:.1f}" for value in measured.load)
    return (
        f"{measured.side}: wall {measured.wall:.1f} s, CPU {measured.cpu:.1f} s, "
        f"{measured.scored}/{measured.samples} scored, {starts}, {measured.status} "
        f"(load average {load})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=100, help="questions per side")
    parser.add_argument(
        "--side",
        action="append",
        help=f"-T mcp= of a side, or {PER_SAMPLE} (default: gsm8k-mcp, {PER_SAMPLE}, none)",
    )
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the code to run")
    parser.add_argument("--busy", type=int, default=0, help="`yes` loops kept running")
    args = parser.parse_args()
    sides = args.side or ["gsm8k-mcp", PER_SAMPLE, "none"]
    loops = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(args.busy)]
    print(f"checkout {args.checkout}, {args.limit} questions, {args.busy} busy loops")
    try:
        with tempfile.TemporaryDirectory(prefix="gsm8k-mcp-pair-") as folder:
            for side in sides:
                print(line(run_side(side, args.limit, args.checkout.resolve(), Path(folder))))
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


if __name__ == "__main__":
    main()
