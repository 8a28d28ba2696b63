"""Starting an MCP server: the check before any sample runs, and the start of each sample's.

Before the first sample, :func:`preflight` makes sure the experiment can run at all: the MCP
client is installed, a stdio server's command exists, and the server starts and lists its tools
(a URL answers) within the start timeout. Otherwise the task refuses in one line naming the
problem and what to do, and nothing runs: a run whose every sample would be unscored is no
experiment.

Each sample then starts its own stdio server. Starting one costs CPU and memory (the
interpreter, the SDK, for ``gsm8k-mcp`` a sandbox runtime of a few hundred MB), and servers
started together share the machine: ``gsm8k-mcp`` took 20 s alone and up to 45 s ten at once
with both cores of a 2-core machine busy (``benchmarks/mcp_startup.py``), past the 30 s the
start was once allowed. The default timeout, :data:`DEFAULT_START_SECONDS`, leaves room for that
at Inspect's default concurrency; :func:`start_slot` keeps a large ``--max-samples`` from
starting more servers at once than :func:`start_slots_count`, and the timeout counts from a
server's own start, the time a sample waited for its turn recorded apart
(:data:`START_WAIT_KEY`).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import TextIO

import anyio
from anyio.lowlevel import RunVar

from gsm8k.mcp_tools.config import ServerSpec, server_environment
from gsm8k.settings.errors import TaskInputError

DEFAULT_START_SECONDS = 120.0
"""Seconds a server may take to start and list its tools, counted from its own start (after
its turn, :func:`start_slot`): about 2.7 times the slowest of ten ``gsm8k-mcp`` started at once
on a busy 2-core machine. A server that needs more is given it with ``-T mcp_start_timeout=S``."""
MIN_START_SLOTS = 10
"""Inspect's default concurrency: at the default, every sample starts its server at once."""
SLOTS_PER_CORE = 4
START_KEY = "mcp_start_seconds"
"""Sample metadata: seconds from the sample asking for its server until the tools were listed
(the wait for a turn included); the report shows it apart from the solving time."""
START_WAIT_KEY = "mcp_start_wait_seconds"
"""Sample metadata: of :data:`START_KEY`, the seconds spent waiting for a turn to start."""
EXTRA = "pip install mcp==2.3.0 pyyaml (this package's mcp extra)"
CHECKING = "checking the server starts and lists its tools…"

_slots: RunVar[anyio.Semaphore] = RunVar("gsm8k_mcp_start_slots")


def start_slots_count() -> int:
    return max(MIN_START_SLOTS, SLOTS_PER_CORE * (os.cpu_count() or 1))


def start_slot() -> anyio.Semaphore:
    """The servers that may start at once in this event loop (one eval)."""
    try:
        return _slots.get()
    except LookupError:
        slots = anyio.Semaphore(start_slots_count())
        _slots.set(slots)
        return slots


class Announcement:
    """What the check before the run says while it runs and when it is done, on the error
    stream (which every Inspect display leaves alone while the task is built): a start takes
    seconds, and silence before the first sample reads as a hang.

    On a terminal, "checking…" is shown at once and finished with the tools and seconds, or
    erased when the check fails (the refusal is then the only line). Elsewhere (a log file, a
    pipe) one line is written when the check has passed.
    """

    def __init__(self, where: str, how: str = "", stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.head = f"gsm8k: {where}{f' ({how})' if how else ''}: {CHECKING}"
        self.live = self.stream.isatty()
        self.began = time.monotonic()
        if self.live:
            self.stream.write(self.head)
            self.stream.flush()

    def done(self, tools: int) -> None:
        seconds = time.monotonic() - self.began
        tail = f" {tools} tool{'s' if tools != 1 else ''} listed in {seconds:.1f} s\n"
        self.stream.write(tail if self.live else self.head + tail)
        self.stream.flush()

    def failed(self) -> None:
        if self.live:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def start_timeout(value: object) -> float:
    """``-T mcp_start_timeout``: seconds, or the default for ``None``.

    Raises:
        ValueError: for anything but a positive number.
    """
    if value is None:
        return DEFAULT_START_SECONDS
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError(
            f"mcp_start_timeout={value!r}: give the seconds a server may take to start and list "
            f"its tools, a positive number (default {DEFAULT_START_SECONDS:g})."
        )
    return float(value)


def require_client(where: str) -> None:
    """Raises :class:`TaskInputError` when the MCP client (the ``mcp`` extra) is missing."""
    try:
        import mcp  # noqa: F401
    except ImportError as error:
        raise TaskInputError(
            f"{where}: the MCP client is not installed ({error.name or 'mcp'} is missing): "
            f"{EXTRA} (nothing was run)."
        ) from error


def resolve_command(spec: ServerSpec) -> ServerSpec:
    """``spec`` with its command found: on the ``PATH`` the server gets, else beside this
    interpreter (a virtual environment's ``gsm8k-mcp`` when the environment is not activated).

    Raises:
        TaskInputError: naming the command that is nowhere to be found.
    """
    if spec.transport != "stdio":
        return spec
    path = spec.env.get("PATH", server_environment().get("PATH", os.defpath))
    if shutil.which(spec.command, path=path):
        return spec
    beside = Path(sys.executable).parent / spec.command
    if os.sep not in spec.command and shutil.which(str(beside)):
        return replace(spec, executable=str(beside))
    raise TaskInputError(
        f"mcp={spec.name}: the command {spec.command!r} was not found on PATH; install it, "
        "activate the environment that has it, or give its full path (nothing was run)."
    )


def preflight(spec: ServerSpec, seconds: float, max_tools: int) -> ServerSpec:
    """Start ``spec`` once (a throwaway ``{workdir}``) and list its tools, before any sample.

    Returns the spec with its command resolved (:func:`resolve_command`).

    Raises:
        TaskInputError: one line naming the server, what went wrong and what to do.
    """
    where = f"mcp={spec.name}"
    require_client(where)
    spec = resolve_command(spec)
    note = Announcement(where)
    # The task is built inside Inspect's event loop or outside any: a loop of its own, in a
    # thread, works in both.
    with ThreadPoolExecutor(max_workers=1) as pool:
        problem, offered = pool.submit(anyio.run, _probe, spec, seconds, max_tools).result()
    if problem:
        note.failed()
        raise TaskInputError(f"{where}: {problem} (nothing was run).")
    note.done(offered)
    return spec


async def _probe(spec: ServerSpec, seconds: float, max_tools: int) -> tuple[str | None, int]:
    """What keeps ``spec`` from serving a sample (or ``None``), and how many tools it lists."""
    problem = await _problem(spec, seconds, max_tools)
    return (problem, 0) if isinstance(problem, str) else (None, problem)


async def _problem(spec: ServerSpec, seconds: float, max_tools: int) -> str | int:
    """What keeps ``spec`` from serving a sample, or how many tools it lists."""
    fix = (
        "check that the server is running and the URL is right"
        if spec.transport == "http"
        else "run the command by hand to see why"
    )
    with tempfile.TemporaryDirectory(prefix="gsm8k-mcp-preflight-") as workdir:
        try:
            server = spec.server(workdir)
        except ValueError as error:
            return str(error)
        try:
            with anyio.fail_after(seconds):
                async with server:
                    offered = await server.tools()
        except TimeoutError:
            if spec.transport == "http":
                return f"it did not answer within {seconds:g} s; {fix}"
            return (
                f"it did not start and list its tools within {seconds:g} s; give it longer "
                "with -T mcp_start_timeout=SECONDS, or run the command by hand to see why"
            )
        except Exception as error:
            if spec.transport == "http":
                return f"{spec.url} did not answer: {describe(error)}; {fix}"
            return f"it did not start and list its tools: {describe(error)}; {fix}"
    if not offered:
        return "it lists no tools: there is nothing to offer the model"
    if len(offered) > max_tools:
        return (
            f"it offers {len(offered)} tools, more than the {max_tools} a model can be offered "
            "at once"
        )
    return len(offered)


def describe(error: BaseException) -> str:
    """An exception as one short line, the innermost of a group."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    lines = str(error).strip().splitlines()
    detail = lines[0][:300] if lines else ""
    return f"{type(error).__name__}: {detail}" if detail else type(error).__name__
