"""How many threads llama.cpp gets: the cores nobody else is using when the engine starts.

The count changes speed, not text. llama.cpp's CPU kernels give each output value to one
thread, which computes it whole, so the same prompt gives the same greedy tokens with 1, 2 or 3
threads (SmolLM2, 60 GSM8K test questions, 10,000+ generated tokens: the same text for each
count; the ``local_model`` tests check it on every run of the slow tier). What the count does
change is speed, and in both directions: llama.cpp's threads wait for each other after every
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
SAMPLE_SECONDS = 0.2
"""How long the machine is watched. At the kernel's 100 ticks a second, long enough to tell a
busy core from an idle one; short beside loading a model."""
_PROC_STAT = Path("/proc/stat")


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity), else all the machine's."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def idle_cores(seconds: float = SAMPLE_SECONDS) -> float | None:
    """Cores that other processes left idle over the next ``seconds`` (this process's own work
    counts as idle, since it is about to wait for the engine), from Linux's ``/proc/stat``.
    None where that file is missing or unreadable."""
    before = _cpu_ticks()
    if before is None:
        return None
    own_before = _own_cpu_seconds()
    time.sleep(seconds)
    after = _cpu_ticks()
    if after is None:
        return None
    own = _own_cpu_seconds() - own_before
    total = after[0] - before[0]
    idle = after[1] - before[1]
    cores = os.cpu_count() or 1
    if total <= 0:
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
    return count


def _cpu_ticks() -> tuple[int, int] | None:
    """(all ticks, idle ticks) summed over cores since boot; idle includes waiting for I/O."""
    try:
        with _PROC_STAT.open() as stat:
            fields = stat.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu" or len(fields) < 5:
        return None
    try:
        ticks = [int(value) for value in fields[1:]]
    except ValueError:
        return None
    # user nice system idle iowait irq softirq steal guest guest_nice; guest time is already
    # counted in user and nice.
    counted = ticks[:8]
    return sum(counted), ticks[3] + (ticks[4] if len(ticks) > 4 else 0)


def _ticks_per_second() -> int:
    try:
        return os.sysconf("SC_CLK_TCK")
    except (AttributeError, ValueError, OSError):
        return 100


def _own_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system
