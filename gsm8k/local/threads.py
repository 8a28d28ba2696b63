"""How many threads llama.cpp gets: the cores nobody else is using when the engine starts.

The count changes speed, not text. llama.cpp's CPU kernels give each output value to one
thread, which computes it whole, so the same prompt gives the same greedy tokens whatever the
count (SmolLM2, 60 GSM8K test questions: the same 11,970 tokens on 1 thread and on 2; the
``local_model`` tests compare 1, 3 and the default on every run of the slow tier). The count
changes speed, in both directions: llama.cpp's threads wait for each other after every
operation, so on idle cores two threads generate about 1.6 times as fast as one, while on cores
another program keeps busy two threads crawl (2 cores, two busy loops beside: 48 tokens/s with
one thread, 7-23 with two). Hence the default follows the idle cores, measured once when the
engine starts, and each request records the count it ran with.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

MAX_AUTO_THREADS = 8
"""Beyond this, more threads gain little on the models people run on a CPU, and llama.cpp
itself would use the physical cores."""
MIN_THREAD_CEILING = 16
"""A count given by hand may be up to twice the usable cores, and at least this many."""
SAMPLE_SECONDS = 0.2
"""How long the machine is watched. At the kernel's 100 ticks a second, long enough to tell a
busy core from an idle one; short beside loading a model."""
_PROC_STAT = Path("/proc/stat")
_CGROUP_V2_MAX = Path("/sys/fs/cgroup/cpu.max")
_CGROUP_V1_DIR = Path("/sys/fs/cgroup/cpu")


def usable_cpus() -> set[int] | None:
    """The CPUs this process may run on (its affinity), or None where that is unknown."""
    try:
        return set(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return None


def usable_cores() -> int:
    """How many cores this process may use: its CPU affinity, lowered by a container's CPU
    quota (cgroup ``cpu.max``, or ``cpu.cfs_quota_us`` on cgroup v1) when it has one."""
    cpus = usable_cpus()
    cores = len(cpus) if cpus else (os.cpu_count() or 1)
    quota = cpu_quota()
    return max(1, min(cores, int(quota))) if quota is not None else cores


def cpu_quota() -> float | None:
    """The CPUs' worth of time this process's cgroup may use (``docker --cpus``), or None."""
    try:
        limit, _, period = _CGROUP_V2_MAX.read_text().partition(" ")
        if limit.strip() != "max":
            return int(limit) / int(period)
        return None
    except (OSError, ValueError, ZeroDivisionError):
        pass
    try:
        v1_quota = int((_CGROUP_V1_DIR / "cpu.cfs_quota_us").read_text())
        v1_period = int((_CGROUP_V1_DIR / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError):
        return None
    return v1_quota / v1_period if v1_quota > 0 and v1_period > 0 else None


def idle_cores(seconds: float = SAMPLE_SECONDS) -> float | None:
    """Of the CPUs this process may use, how many other processes left idle over the next
    ``seconds`` (this process's own work counts as idle, since it is about to wait for the
    engine), from Linux's per-CPU lines in ``/proc/stat``. None where they cannot be read."""
    cpus = usable_cpus()
    before = _cpu_ticks(cpus)
    if before is None:
        return None
    own_before = _own_cpu_seconds()
    time.sleep(seconds)
    after = _cpu_ticks(cpus)
    if after is None or after[2] != before[2]:
        return None
    own = _own_cpu_seconds() - own_before
    total = after[0] - before[0]
    idle = after[1] - before[1]
    cores = after[2]
    if total <= 0 or cores <= 0:
        return None
    ticks_per_core = total / cores
    busy_by_others = max(0.0, (total - idle) - own * _ticks_per_second())
    return max(0.0, cores - busy_by_others / ticks_per_core)


def auto_threads() -> int:
    """The default thread count: the idle cores this process may use, rounded, at least 1 and
    at most ``MAX_AUTO_THREADS``. Without ``/proc/stat``, the cores the 1-minute load average
    leaves free."""
    cores = usable_cores()
    idle = idle_cores()
    if idle is None:
        try:
            idle = max(0.0, (os.cpu_count() or 1) - os.getloadavg()[0])
        except OSError:
            idle = 1.0
    return max(1, min(cores, MAX_AUTO_THREADS, round(idle)))


def thread_count(value: object) -> int:
    """``-M n_threads`` / ``--n-threads`` as a count: unset or ``auto`` picks
    :func:`auto_threads`; otherwise a whole number, 1 or more."""
    if value is None or value == "" or (isinstance(value, str) and value.lower() == "auto"):
        return auto_threads()
    try:
        count = int(str(value))
    except ValueError:
        count = 0
    if count < 1:
        raise ValueError(f"n_threads={value}: pass a whole number of 1 or more, or auto.")
    most = max(2 * usable_cores(), MIN_THREAD_CEILING)
    if count > most:
        # Thousands of threads do not fail in llama.cpp: the first request never returns.
        raise ValueError(
            f"n_threads={value}: this machine has {usable_cores()} usable core(s); pass at most "
            f"{most}, or auto."
        )
    return count


def _cpu_ticks(cpus: set[int] | None) -> tuple[int, int, int] | None:
    """(all ticks, idle ticks, CPUs counted) since boot, summed over ``cpus`` (every CPU when
    None); idle includes waiting for I/O."""
    try:
        lines = _PROC_STAT.read_text().splitlines()
    except OSError:
        return None
    total = idle = counted = 0
    for line in lines:
        fields = line.split()
        if not fields or not fields[0].startswith("cpu") or fields[0] == "cpu":
            continue
        try:
            cpu = int(fields[0][3:])
            # user nice system idle iowait irq softirq steal; guest time is already counted in
            # user and nice.
            ticks = [int(value) for value in fields[1:9]]
        except ValueError:
            return None
        if (cpus is not None and cpu not in cpus) or len(ticks) < 5:
            continue
        total += sum(ticks)
        idle += ticks[3] + ticks[4]
        counted += 1
    return (total, idle, counted) if counted else None


def _ticks_per_second() -> int:
    try:
        return os.sysconf("SC_CLK_TCK")
    except (AttributeError, ValueError, OSError):
        return 100


def _own_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system
