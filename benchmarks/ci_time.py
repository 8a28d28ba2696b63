"""Where CI's time goes: each test tier's wall and CPU time, and its ten slowest tests.

    python -m benchmarks.ci_time                # both tiers, as .ci/run runs them
    python -m benchmarks.ci_time --tier fast    # one tier
    python -m benchmarks.ci_time --busy 2       # with two `yes` loops on the cores meanwhile

Each tier runs as one child process; its CPU time is the child's and every descendant's it
reaped (pytest-xdist workers, `inspect` subprocesses, MCP servers, sandboxed programs), read from
``wait4``. The slowest tests come from the JUnit XML that pytest writes (setup, call and teardown
together, as ``--durations`` reports them). The load average is printed with every figure: a
2-core machine's timings mean little without it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TIERS: dict[str, list[str]] = {
    # The README's test command (CI runs it verbatim) and the slow tier as .ci/run runs it.
    "fast": ["-m", "pytest", "-n", "2"],
    "slow": ["-m", "pytest", "-m", "slow or local_model", "-n", "4", "--dist", "loadgroup"],
}


@dataclass(frozen=True)
class TierTime:
    tier: str
    status: int
    wall_s: float
    cpu_s: float
    tests: int
    load_before: float
    load_after: float
    slowest: list[tuple[float, str]]


def slowest_tests(junit: Path, count: int = 10) -> tuple[int, list[tuple[float, str]]]:
    """(number of test cases, the ``count`` longest as (seconds, id)) from a JUnit XML file."""
    cases = ET.parse(junit).getroot().iter("testcase")
    timed = [
        (float(case.get("time", "0")), f"{case.get('classname')}::{case.get('name')}")
        for case in cases
    ]
    timed.sort(reverse=True)
    return len(timed), timed[:count]


def run_tier(tier: str, extra: list[str]) -> TierTime:
    with tempfile.TemporaryDirectory(prefix="ci-time-") as scratch:
        junit = Path(scratch) / "junit.xml"
        command = [sys.executable, *TIERS[tier], *extra, "-q", f"--junitxml={junit}"]
        load_before = os.getloadavg()[0]
        started = time.perf_counter()
        child = subprocess.Popen(command, cwd=ROOT)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        load_after = os.getloadavg()[0]
        tests, slowest = slowest_tests(junit) if junit.exists() else (0, [])
    return TierTime(
        tier=tier,
        status=os.waitstatus_to_exitcode(status),
        wall_s=wall,
        cpu_s=usage.ru_utime + usage.ru_stime,
        tests=tests,
        load_before=load_before,
        load_after=load_after,
        slowest=slowest,
    )


def busy_loops(count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes that keep a core each busy, as CI's busy machine does."""
    return [
        subprocess.Popen(["yes"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(count)
    ]


def render(result: TierTime) -> str:
    lines = [
        f"## {result.tier} tier: exit {result.status}, {result.tests} tests, "
        f"{result.wall_s:.0f} s wall, {result.cpu_s:.0f} s CPU "
        f"(load {result.load_before:.1f} -> {result.load_after:.1f})",
        "",
        "| seconds | test |",
        "|---:|---|",
    ]
    lines += [f"| {seconds:.1f} | `{name}` |" for seconds, name in result.slowest]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tier", choices=[*TIERS, "both"], default="both")
    parser.add_argument("--busy", type=int, default=0, help="`yes` loops kept running meanwhile")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments, after --")
    args = parser.parse_args(argv)
    tiers = list(TIERS) if args.tier == "both" else [args.tier]
    loops = busy_loops(args.busy)
    worst = 0
    try:
        for tier in tiers:
            result = run_tier(tier, args.pytest_args)
            print(render(result), flush=True)
            worst = worst or result.status
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    return worst


if __name__ == "__main__":
    sys.exit(main())
