"""One memory and process cap for a whole sandbox, where the machine lets us make cgroups.

``RLIMIT_AS`` bounds each process's address space only: several processes, SysV shared memory
and files in a private tmpfs all escape it. A cgroup charges every page the sandbox's processes
use (shared memory and tmpfs included) to one account, and the kernel kills inside it when the
account is full. cgroup v2 (``memory.max``, ``memory.swap.max``, ``pids.max``) is used where it
is mounted with those controllers, else cgroup v1's ``memory`` and ``pids`` hierarchies; where
neither can be written (no root, a read-only ``/sys/fs/cgroup``), programs keep only the
per-process rlimits and :func:`memory_limit_kind` says so.
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

CGROUP_ROOT = Path("/sys/fs/cgroup")
GROUP_NAME = "inspect-gsm8k"
"""The parent of every sandbox's cgroup (v2 forbids processes in a cgroup with children)."""
EXTRA_PIDS = 4
"""bubblewrap's own processes, besides the program's."""
MemoryLimitKind = Literal["cgroup", "per-process rlimit"]


class CgroupError(OSError):
    """A sandbox's cgroup could not be made on a machine where cgroups work."""


@dataclass(frozen=True)
class Cgroup:
    """One sandbox's cgroup: the ``cgroup.procs`` files a process writes its pid into to enter
    it, and how to read whether the kernel killed inside it for memory."""

    directories: tuple[Path, ...]
    version: int

    @property
    def procs_files(self) -> list[str]:
        return [str(d / "cgroup.procs") for d in self.directories]

    def out_of_memory(self) -> bool:
        """Whether the kernel killed a process of the sandbox for its memory limit."""
        memory = self.directories[0]
        counters = "memory.events" if self.version == 2 else "memory.oom_control"
        with contextlib.suppress(OSError, ValueError):
            lines = (memory / counters).read_text().splitlines()
            return int(dict(line.split() for line in lines).get("oom_kill", "0")) > 0
        return False


def _layout() -> tuple[int, list[Path]] | None:
    """The cgroup version and the parent directories to create sandboxes in, if usable."""
    controllers = CGROUP_ROOT / "cgroup.controllers"
    if controllers.exists():
        if not {"memory", "pids"} <= set(controllers.read_text().split()):
            return None
        return 2, [CGROUP_ROOT / GROUP_NAME]
    memory, pids = CGROUP_ROOT / "memory", CGROUP_ROOT / "pids"
    if (memory / "cgroup.procs").exists() and (pids / "cgroup.procs").exists():
        return 1, [memory / GROUP_NAME, pids / GROUP_NAME]
    return None


def _prepare(version: int, parents: list[Path]) -> None:
    for parent in parents:
        parent.mkdir(exist_ok=True)
    if version == 2:
        # Children of the parent may only use controllers enabled on every level above them.
        for level in (CGROUP_ROOT, parents[0]):
            (level / "cgroup.subtree_control").write_text("+memory +pids")


def _configure(cgroup: Cgroup, memory_bytes: int, processes: int) -> None:
    if cgroup.version == 2:
        (directory,) = cgroup.directories
        (directory / "memory.max").write_text(str(memory_bytes))
        swap = directory / "memory.swap.max"
        if swap.exists():
            swap.write_text("0")
        (directory / "pids.max").write_text(str(processes))
        return
    memory, pids = cgroup.directories
    (memory / "memory.limit_in_bytes").write_text(str(memory_bytes))
    memsw = memory / "memory.memsw.limit_in_bytes"
    if memsw.exists():  # only with swap accounting; without it nothing can be swapped out
        memsw.write_text(str(memory_bytes))
    (pids / "pids.max").write_text(str(processes))


def _remove(cgroup: Cgroup) -> None:
    """Kill whatever is left in the cgroup and remove it (retrying while the kernel reaps)."""
    for directory in cgroup.directories:
        kill = directory / "cgroup.kill"
        with contextlib.suppress(OSError):
            if kill.exists():
                kill.write_text("1")
            else:
                for pid in (directory / "cgroup.procs").read_text().split():
                    with contextlib.suppress(OSError):
                        os.kill(int(pid), 9)
        for _ in range(100):
            try:
                directory.rmdir()
                break
            except FileNotFoundError:
                break
            except OSError:
                time.sleep(0.02)


@functools.cache
def _usable() -> tuple[int, list[Path]] | None:
    """The layout, if a test cgroup can be made, limited and removed here (checked once)."""
    layout = _layout()
    if layout is None:
        return None
    version, parents = layout
    try:
        _prepare(version, parents)
        probe = Cgroup(tuple(p / f"probe-{uuid.uuid4().hex}" for p in parents), version)
        for directory in probe.directories:
            directory.mkdir()
        try:
            _configure(probe, 64 * 2**20, 8)
        finally:
            _remove(probe)
    except OSError:
        return None
    return layout


def memory_limit_kind() -> MemoryLimitKind:
    """Which memory limit a bubblewrap sandbox gets on this machine."""
    return "cgroup" if _usable() is not None else "per-process rlimit"


@contextlib.contextmanager
def sandbox_cgroup(
    memory_bytes: int, processes: int, enabled: bool = True
) -> Iterator[Cgroup | None]:
    """A fresh cgroup capping all of one sandbox at ``memory_bytes`` and ``processes`` (plus
    bubblewrap's own), removed on exit with anything still in it; ``None`` when not
    ``enabled`` or where cgroups are not usable.

    Raises:
        CgroupError: when cgroups are usable here but this one could not be made.
    """
    layout = _usable() if enabled else None
    if layout is None:
        yield None
        return
    version, parents = layout
    cgroup = Cgroup(tuple(p / f"program-{uuid.uuid4().hex}" for p in parents), version)
    try:
        for directory in cgroup.directories:
            directory.mkdir()
        _configure(cgroup, memory_bytes, processes + EXTRA_PIDS)
    except OSError as error:
        _remove(cgroup)
        # Never run with less than the log records: this program fails instead.
        raise CgroupError(f"could not create the sandbox's cgroup: {error}") from error
    try:
        yield cgroup
    finally:
        _remove(cgroup)


def entering(cgroup: Cgroup | None, command: list[str]) -> list[str]:
    """``command`` started by a shell that first moves itself into ``cgroup`` (so that every
    process of the sandbox starts inside it), then execs the command in its place."""
    if cgroup is None:
        return command
    files = cgroup.procs_files
    script = (
        'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; '
        'n=$((n - 1)); done; exec "$@"'
    )
    return ["/bin/sh", "-c", script, "sh", str(len(files)), *files, *command]
