"""Run a model-written Python program in a throwaway sandbox, with limits, and read its result.

``isolation="bwrap"`` (the default) runs each program in its own bubblewrap sandbox
(:mod:`gsm8k.execution.isolation`): no view of the evaluator's files, processes, network or
environment, and every process it starts killed at the wall-clock limit. ``isolation="process"``
is for models the user trusts: a plain child process with the same limits, which can read what
the evaluator's user can read. In both, the program's result comes back on a pipe of its own
(the result channel, read by :mod:`gsm8k.execution.result_line`) and its output on
stdout/stderr, each kept up to a fixed size.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import IO

from gsm8k.execution.bootstrap import BOOTSTRAP, NOTHING_DEFINED
from gsm8k.execution.cgroup import CgroupError, entering, sandbox_cgroup
from gsm8k.execution.isolation import (
    UID_POOL,
    Isolation,
    bwrap_command,
    find_bwrap,
    python_runtime,
    sandbox_environment,
    sandbox_image,
)
from gsm8k.execution.packages import PACKAGES_ROOT, available_packages, process_paths
from gsm8k.execution.result_line import (
    CHANNEL_CAP_BYTES,
    MAX_RESULT_DIGITS,
    Status,
    printed_result,
    read_result_line,
)
from gsm8k.execution.seccomp import filter_descriptor

DEFAULT_TIMEOUT_SECONDS = 6.0
DEFAULT_CPU_SECONDS = 5
DEFAULT_MEMORY_MB = 512
DEFAULT_FILE_MB = 1
DEFAULT_PROCESSES = 8
OUTPUT_CAP_BYTES = 64 * 1024
"""Program output kept per stream; the rest is counted and dropped, never held in memory."""
KILL_GRACE_SECONDS = 2.0
"""How long output pipes may stay open after the sandbox was killed before they are abandoned."""


@dataclass(frozen=True)
class ExecutionResult:
    """What happened when a program ran. ``value`` is a plain decimal string when ``ok``."""

    status: Status
    value: str | None
    error: str | None
    stdout: str
    seconds: float
    stderr: str = ""
    dropped_bytes: int = 0
    """Output beyond :data:`OUTPUT_CAP_BYTES` per stream, counted and not kept."""

    @property
    def number(self) -> Decimal | None:
        return Decimal(self.value) if self.status == "ok" and self.value is not None else None


@dataclass(frozen=True)
class Limits:
    """Per-program limits (frozen, so one shared default instance is safe)."""

    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
    cpu_seconds: int = DEFAULT_CPU_SECONDS
    memory_mb: int = DEFAULT_MEMORY_MB
    file_mb: int = DEFAULT_FILE_MB
    processes: int = DEFAULT_PROCESSES


DEFAULT_LIMITS = Limits()


def bootstrap_arguments(
    limits: Limits,
    channel: int,
    uid: int | None,
    process_rlimit: bool = True,
    paths: list[str] | None = None,
) -> list[str]:
    """``python -I -S`` arguments that run the bootstrap with these limits, ``paths`` put first
    on ``sys.path`` (where the program packages are).

    ``process_rlimit=False`` leaves ``RLIMIT_NPROC`` alone: it counts every process of the user
    id on the host, so where that id is shared (every container runs as the same one) the
    container's own pids cgroup bounds processes instead.
    """
    settings = {
        "channel": channel,
        "cpu_seconds": limits.cpu_seconds,
        "memory_bytes": limits.memory_mb * 1024 * 1024,
        "file_bytes": limits.file_mb * 1024 * 1024,
        "processes": limits.processes if process_rlimit else None,
        "uid": uid,
        "max_digits": MAX_RESULT_DIGITS,
        "paths": paths or [],
        "nothing_defined": NOTHING_DEFINED,
    }
    return ["-c", BOOTSTRAP, json.dumps(settings)]


def _feed(descriptor: int, data: bytes) -> None:
    """Write ``data`` to the pipe ``descriptor`` and close it (the program gone: stop early)."""
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view) :]
    except OSError:
        pass
    finally:
        os.close(descriptor)


def source_pipe(code: str) -> int:
    """The read end of a pipe that delivers ``code`` and then end-of-file (a thread writes it;
    once the caller and the program close the read end it ends, whatever was read).

    A pipe, not a file: the program's stdin must not be something it can write, grow or reserve
    space on. An earlier runner passed a read-write temporary file on the evaluator's disk, and
    ``fallocate(FALLOC_FL_KEEP_SIZE)`` on stdin reserved gigabytes there past every size limit.
    """
    read_end, write_end = os.pipe()
    data = code.encode("utf-8", "replace")
    threading.Thread(target=_feed, args=(write_end, data), daemon=True).start()
    return read_end


def run_program(
    code: str, limits: Limits = DEFAULT_LIMITS, isolation: Isolation = "bwrap"
) -> ExecutionResult:
    """Run ``code`` and return its outcome; nothing the program does raises here.

    Raises:
        RuntimeError: when ``isolation="bwrap"`` and bubblewrap is not installed, and
            ``ImageUnavailable`` when its runtime image cannot be made (callers check
            :func:`gsm8k.execution.isolation.unavailable_reason` before a run starts).
    """
    if isolation == "bwrap":
        if find_bwrap() is None:
            raise RuntimeError("bubblewrap (bwrap) is not installed")
        sandbox_image()  # made once, before the first program's clock starts
    started = time.monotonic()
    scratch = tempfile.mkdtemp(prefix="gsm8k-program-") if isolation == "process" else None
    # The seccomp filter, read by bubblewrap at start (SeccompUnavailable: no run without it).
    seccomp_fd = filter_descriptor() if scratch is None else None
    read_end, write_end = os.pipe()
    write_open = True
    out_of_memory = False
    try:
        with (
            UID_POOL.uid() as uid,
            sandbox_cgroup(
                limits.memory_mb * 1024 * 1024, limits.processes, enabled=scratch is None
            ) as cgroup,
        ):
            packages = available_packages()
            arguments = bootstrap_arguments(
                limits,
                write_end,
                uid if isolation == "bwrap" else None,
                paths=[PACKAGES_ROOT] if scratch is None and packages else process_paths(packages),
            )
            environment = sandbox_environment()
            if scratch is None:
                assert seccomp_fd is not None
                command = entering(
                    cgroup,
                    bwrap_command(str(find_bwrap()), python_runtime(), arguments, seccomp_fd),
                )
            else:
                environment |= {"HOME": scratch, "TMPDIR": scratch}
                command = [sys.executable, "-I", "-S", *arguments]
            source = source_pipe(code)
            try:
                process = subprocess.Popen(
                    command,
                    stdin=source,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    pass_fds=(write_end,) if seccomp_fd is None else (write_end, seccomp_fd),
                    cwd=scratch,
                    env=environment,
                    start_new_session=True,
                )
            except OSError as error:  # the machine's failure (no processes left, ...), not the
                # program's: still only this sample's
                message = f"could not start the program's process: {error}"
                return ExecutionResult(
                    "sandbox_unavailable", None, message, "", time.monotonic() - started
                )
            finally:
                os.close(write_end)  # the sandbox holds the only write end now
                write_open = False
                os.close(source)  # and the only read end of its source
            try:
                assert process.stdout is not None and process.stderr is not None
                streams = _collect(
                    process,
                    {"stdout": process.stdout, "stderr": process.stderr, "channel": read_end},
                    started + limits.timeout_seconds,
                )
            finally:
                _kill(process)
            out_of_memory = cgroup is not None and cgroup.out_of_memory()
    except CgroupError as error:  # the machine's failure, not the program's: this sample's only
        return ExecutionResult(
            "sandbox_unavailable", None, str(error), "", time.monotonic() - started
        )
    finally:
        os.close(read_end)
        if write_open:
            os.close(write_end)
        if seccomp_fd is not None:
            os.close(seccomp_fd)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    seconds = time.monotonic() - started
    result = outcome(
        streams["channel"],
        streams["stdout"],
        streams["stderr"],
        process.returncode,
        seconds,
        timed_out=streams.timed_out,
        timeout_seconds=limits.timeout_seconds,
    )
    if out_of_memory:  # even if the program went on to a result: part of it was killed
        limit = f"the sandbox's memory limit of {limits.memory_mb} MB (all its processes)"
        return replace(result, status="memory", value=None, error=f"{limit} reached")
    return result


@dataclass
class Capture:
    """The first ``cap`` bytes of a stream and how many more there were."""

    cap: int
    kept: bytearray = field(default_factory=bytearray)
    dropped: int = 0

    def add(self, chunk: bytes) -> None:
        room = self.cap - len(self.kept)
        self.kept += chunk[:room]
        self.dropped += max(0, len(chunk) - room)

    def text(self) -> str:
        return self.kept.decode("utf-8", "replace")


class Streams(dict[str, Capture]):
    timed_out = False


def _collect(
    process: subprocess.Popen[bytes], sources: dict[str, IO[bytes] | int], deadline: float
) -> Streams:
    """Read every stream until all are closed, killing the sandbox at ``deadline``."""
    streams = Streams(
        {
            name: Capture(CHANNEL_CAP_BYTES if name == "channel" else OUTPUT_CAP_BYTES)
            for name in sources
        }
    )
    with selectors.DefaultSelector() as selector:
        for name, source in sources.items():
            selector.register(source, selectors.EVENT_READ, name)
        while selector.get_map():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                if streams.timed_out:
                    break  # pipes still open after the kill and the grace period: abandon them
                streams.timed_out = True
                _kill(process)
                deadline = time.monotonic() + KILL_GRACE_SECONDS
                continue
            for key, _ in selector.select(timeout=remaining):
                descriptor = key.fd
                chunk = os.read(descriptor, 65536)
                if chunk:
                    streams[key.data].add(chunk)
                else:
                    selector.unregister(key.fileobj)
    for source in sources.values():
        if not isinstance(source, int):
            source.close()
    return streams


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill the sandbox (bubblewrap's death takes its PID namespace with it) or, for a plain
    process, its process group; then reap it."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=10)


def outcome(
    channel: Capture,
    stdout: Capture,
    stderr: Capture,
    returncode: int | None,
    seconds: float,
    timed_out: bool = False,
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS,
) -> ExecutionResult:
    """The result of a run from what came back: the channel's one line, or why there is none."""
    printed, errors = stdout.text(), stderr.text()
    dropped = stdout.dropped + stderr.dropped

    def failure(status: Status, error: str) -> ExecutionResult:
        return ExecutionResult(status, None, error, printed, seconds, errors, dropped)

    if timed_out:
        return failure("timeout", f"wall-clock limit of {timeout_seconds:g} s reached")
    if not channel.kept and not channel.dropped:
        return failure(*_no_result_reason(returncode))
    status, value, error = read_result_line(bytes(channel.kept), channel.dropped)
    if status == "no_result" and error == NOTHING_DEFINED:
        status, value, error = printed_result(printed, stdout.dropped)
    return ExecutionResult(status, value, error, printed, seconds, errors, dropped)


def _no_result_reason(returncode: int | None) -> tuple[Status, str]:
    signals = {
        signal.SIGXCPU: ("timeout", "CPU time limit reached"),
        signal.SIGKILL: ("timeout", "CPU time limit reached (or the program killed itself)"),
        signal.SIGXFSZ: ("error", "file size limit reached"),
    }
    for number, (status, reason) in signals.items():
        # bubblewrap reports a signal death as 128 + signal; a direct child as -signal
        if returncode in (-number, 128 + number):
            return status, reason  # type: ignore[return-value]
    return "crashed", f"the program's process ended without a result (exit {returncode})"
