"""The gguf engine's default thread count: the cores other processes leave idle at start."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gsm8k.local import threads


class FakeMachine:
    """/proc/stat and this process's CPU time, advanced by each sleep: one busy fraction per CPU
    for other processes (``others``), plus ``own`` cores' worth of this process's work."""

    def __init__(self, path: Path, others: list[float], own: float = 0.0) -> None:
        self.path, self.others, self.own = path, others, own
        self.total = [10_000] * len(others)
        self.busy = [4_000] * len(others)
        self.own_seconds = 1.0
        self._write()

    def _write(self) -> None:
        lines = [f"cpu  {sum(self.busy)} 0 0 {sum(self.total) - sum(self.busy)} 0 0 0 0 0 0"]
        for cpu, (total, busy) in enumerate(zip(self.total, self.busy, strict=True)):
            lines.append(f"cpu{cpu} {busy} 0 0 {total - busy} 0 0 0 0 0 0")
        lines.append("intr 12345 0 0")
        self.path.write_text("\n".join(lines) + "\n")

    def sleep(self, seconds: float) -> None:
        ticks = round(seconds * 100)
        own_share = self.own / len(self.others)
        for cpu, busy in enumerate(self.others):
            self.total[cpu] += ticks
            self.busy[cpu] += round(ticks * min(1.0, busy + own_share))
        self.own_seconds += seconds * self.own
        self._write()

    def times(self) -> os.times_result:
        return os.times_result((self.own_seconds, 0.0, 0.0, 0.0, 0.0))


def machine(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    others: list[float],
    own: float = 0.0,
    affinity: set[int] | None = None,
) -> FakeMachine:
    fake = FakeMachine(tmp_path / "stat", others, own)
    monkeypatch.setattr(threads, "_PROC_STAT", fake.path)
    monkeypatch.setattr(threads, "_CGROUP_V2_MAX", tmp_path / "no-cgroup" / "cpu.max")
    monkeypatch.setattr(threads, "_CGROUP_V1_DIR", tmp_path / "no-cgroup")
    monkeypatch.setattr(threads.time, "sleep", fake.sleep)
    monkeypatch.setattr(threads.os, "times", fake.times)
    monkeypatch.setattr(threads.os, "sysconf", lambda name: 100)
    cpus = set(range(len(others))) if affinity is None else affinity
    monkeypatch.setattr(threads, "usable_cpus", lambda: cpus)
    return fake


@pytest.mark.parametrize(
    ("others", "own", "expected"),
    [
        ([0.0, 0.0], 0.0, 2),  # a quiet 2-core machine: both
        ([0.05, 0.05], 0.0, 2),  # background noise does not cost a thread
        ([0.0, 0.0], 1.0, 2),  # this process's own start-up work is not another program's
        ([1.0, 0.0], 0.0, 1),  # one core taken by another program
        ([1.0, 1.0], 0.0, 1),  # both taken (two busy loops): one thread, never zero
        ([0.8, 0.8], 0.3, 1),
        ([0.2] * 16, 0.0, 8),  # many idle cores: at most MAX_AUTO_THREADS
        ([1.0, 0.0, 0.0, 0.0], 0.0, 3),
    ],
)
def test_the_default_follows_the_idle_cores(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    others: list[float],
    own: float,
    expected: int,
) -> None:
    machine(monkeypatch, tmp_path, others, own)
    assert threads.auto_threads() == expected
    assert threads.thread_count(None) == threads.thread_count("auto") == expected


def test_only_the_cpus_this_process_may_use_count(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Pinned to two busy CPUs of eight (``taskset``, a container's cpuset), the six idle ones
    elsewhere do not make it start eight threads."""
    machine(monkeypatch, tmp_path, [1.0, 1.0] + [0.0] * 6, affinity={0, 1})
    assert threads.idle_cores() == pytest.approx(0.0)
    assert threads.auto_threads() == 1
    machine(monkeypatch, tmp_path, [1.0, 1.0] + [0.0] * 6, affinity={4, 5, 6})
    assert threads.auto_threads() == 3


@pytest.mark.parametrize(
    ("cpu_max", "v1", "expected"),
    [
        ("200000 100000\n", None, 2),  # docker --cpus=2 on cgroup v2
        ("150000 100000\n", None, 1),  # 1.5 CPUs: one thread's worth is what is sure
        ("max 100000\n", None, 8),  # no quota
        (None, ("300000", "100000"), 3),  # cgroup v1
        (None, ("-1", "100000"), 8),  # cgroup v1, no quota
    ],
)
def test_a_container_cpu_quota_caps_the_count(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    cpu_max: str | None,
    v1: tuple[str, str] | None,
    expected: int,
) -> None:
    machine(monkeypatch, tmp_path, [0.0] * 8)
    if cpu_max is not None:
        (tmp_path / "cpu.max").write_text(cpu_max)
        monkeypatch.setattr(threads, "_CGROUP_V2_MAX", tmp_path / "cpu.max")
    if v1 is not None:
        (tmp_path / "v1").mkdir()
        (tmp_path / "v1" / "cpu.cfs_quota_us").write_text(v1[0])
        (tmp_path / "v1" / "cpu.cfs_period_us").write_text(v1[1])
        monkeypatch.setattr(threads, "_CGROUP_V1_DIR", tmp_path / "v1")
    assert threads.auto_threads() == expected


def test_without_proc_stat_the_load_average_decides(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(threads, "_PROC_STAT", tmp_path / "missing")
    monkeypatch.setattr(threads.os, "cpu_count", lambda: 4)
    monkeypatch.setattr(threads, "usable_cores", lambda: 4)
    monkeypatch.setattr(threads.os, "getloadavg", lambda: (1.2, 1.0, 1.0))
    assert threads.idle_cores() is None
    assert threads.auto_threads() == 3


def test_an_unreadable_proc_stat_falls_back(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    stat = tmp_path / "stat"
    stat.write_text("cpu  12 0 3 4\ncpu0 12 x 3 4\n")
    monkeypatch.setattr(threads, "_PROC_STAT", stat)
    assert threads.idle_cores() is None
    assert threads.auto_threads() >= 1


@pytest.mark.parametrize("value", [1, 3, "2", " 4 "])
def test_a_given_count_is_kept(value: object) -> None:
    assert threads.thread_count(value) == int(str(value))


@pytest.mark.parametrize("value", [0, -1, "two", "1.5"])
def test_a_bad_count_names_the_argument(value: object) -> None:
    message = r"^n_threads=.*: pass a whole number of 1 or more, or auto\.$"
    with pytest.raises(ValueError, match=message):
        threads.thread_count(value)


def test_the_real_machine_gives_a_usable_count() -> None:
    count = threads.auto_threads()
    assert 1 <= count <= min(threads.usable_cores(), threads.MAX_AUTO_THREADS)


def test_an_absurd_count_is_refused_before_the_engine_hangs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """5,000 threads made llama.cpp's first request never return; the count is refused in one
    line instead."""
    monkeypatch.setattr(threads, "usable_cores", lambda: 2)
    assert threads.thread_count(16) == 16
    message = r"^n_threads=5000: this machine has 2 usable core\(s\); pass at most 16, or auto\.$"
    with pytest.raises(ValueError, match=message):
        threads.thread_count(5000)
    monkeypatch.setattr(threads, "usable_cores", lambda: 64)
    assert threads.thread_count(128) == 128
