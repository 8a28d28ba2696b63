"""The gguf engine's default thread count: the cores other processes leave idle at start."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gsm8k.local import threads


class FakeMachine:
    """/proc/stat and this process's CPU time, advanced by each sleep: ``cores`` cores of which
    ``others`` are kept busy by other processes and ``own`` by this one."""

    def __init__(self, path: Path, cores: int, others: float, own: float = 0.0) -> None:
        self.path, self.cores, self.others, self.own = path, cores, others, own
        self.total = 10_000 * cores
        self.busy = 4_000 * cores
        self.own_seconds = 1.0
        self._write()

    def _write(self) -> None:
        idle = self.total - self.busy
        self.path.write_text(
            f"cpu  {self.busy} 0 0 {idle} 0 0 0 0 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n"
        )

    def sleep(self, seconds: float) -> None:
        ticks = round(seconds * 100)
        self.total += ticks * self.cores
        self.busy += round(ticks * (self.others + self.own))
        self.own_seconds += seconds * self.own
        self._write()

    def times(self) -> os.times_result:
        return os.times_result((self.own_seconds, 0.0, 0.0, 0.0, 0.0))


def machine(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cores: int, others: float, own: float = 0.0
) -> FakeMachine:
    fake = FakeMachine(tmp_path / "stat", cores, others, own)
    monkeypatch.setattr(threads, "_PROC_STAT", fake.path)
    monkeypatch.setattr(threads.time, "sleep", fake.sleep)
    monkeypatch.setattr(threads.os, "times", fake.times)
    monkeypatch.setattr(threads.os, "cpu_count", lambda: cores)
    monkeypatch.setattr(threads.os, "sysconf", lambda name: 100)
    monkeypatch.setattr(threads, "usable_cores", lambda: cores)
    return fake


@pytest.mark.parametrize(
    ("cores", "others", "own", "expected"),
    [
        (2, 0.0, 0.0, 2),  # a quiet 2-core machine: both
        (2, 0.1, 0.0, 2),  # background noise does not cost a thread
        (2, 0.0, 1.0, 2),  # this process's own start-up work is not another program's
        (2, 1.0, 0.0, 1),  # one core taken by another program
        (2, 2.0, 0.0, 1),  # both taken (two busy loops): one thread, never zero
        (2, 1.6, 0.3, 1),
        (16, 3.0, 0.0, 8),  # many idle cores: at most MAX_AUTO_THREADS
        (4, 1.0, 0.0, 3),
    ],
)
def test_the_default_follows_the_idle_cores(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    cores: int,
    others: float,
    own: float,
    expected: int,
) -> None:
    machine(monkeypatch, tmp_path, cores, others, own)
    assert threads.auto_threads() == expected
    assert threads.thread_count(None) == threads.thread_count("auto") == expected


def test_the_default_keeps_to_the_process_affinity(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    machine(monkeypatch, tmp_path, cores=8, others=0.0)
    monkeypatch.setattr(threads, "usable_cores", lambda: 2)
    assert threads.auto_threads() == 2


def test_without_proc_stat_the_load_average_decides(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(threads, "_PROC_STAT", tmp_path / "missing")
    monkeypatch.setattr(threads.os, "cpu_count", lambda: 4)
    monkeypatch.setattr(threads, "usable_cores", lambda: 4)
    monkeypatch.setattr(threads.os, "getloadavg", lambda: (1.2, 1.0, 1.0))
    assert threads.idle_cores() is None
    assert threads.auto_threads() == 3


@pytest.mark.parametrize("value", [1, 3, "2", " 4 "])
def test_a_given_count_is_kept(value: object) -> None:
    assert threads.thread_count(value) == int(str(value))


@pytest.mark.parametrize("value", [0, -1, "two", "1.5"])
def test_a_bad_count_names_the_argument(value: object) -> None:
    with pytest.raises(
        ValueError, match=r"^n_threads=.*: pass a whole number of 1 or more, or auto\.$"
    ):
        threads.thread_count(value)


def test_the_real_machine_gives_a_usable_count() -> None:
    count = threads.auto_threads()
    assert 1 <= count <= min(threads.usable_cores(), threads.MAX_AUTO_THREADS)


def test_an_unreadable_proc_stat_falls_back(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    stat = tmp_path / "stat"
    stat.write_text("cpu  12 x 3 4\n")
    monkeypatch.setattr(threads, "_PROC_STAT", stat)
    assert threads.idle_cores() is None
    assert threads.auto_threads() >= 1
