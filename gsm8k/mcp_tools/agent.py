"""The model with an MCP server's tools, under the agent loop's limits (``-T mcp=...``).

Per sample: a fresh ``{workdir}``, the server started (or reached) through Inspect's own MCP
client, its tools offered to the model for the whole solve, and the task's tool loop
(:func:`gsm8k.execution.guard.guarded_generate`) until the model answers; the answer is graded
by the task's grader like any other. The loop's limits are Inspect's own, set on the task and
recorded in the log's eval config: turns (model replies, mcpbr's iterations), a per-sample time
limit and, when given, a token limit; ``--max-connections`` / ``--max-samples`` run samples in
parallel. A sample that reaches one is ended by Inspect, recorded as such, and graded on what
the model wrote by then (a scored failure).

A server that fails with no call of the model's in flight is not the model's failure: one that
does not start, offers more tools than a model can take, or is gone between calls ends the
sample unscored with the reason (:data:`FAILURE_KEY`), and the eval goes on. A server that dies
during or because of the model's calls is the model's outcome: the model reads that it exited,
and the sample goes on to its answer and is graded, its death in the log
(:data:`gsm8k.mcp_tools.liveness.DIED_KEY`). Only the harness's own look at the transport says
a server is gone, and when (:mod:`gsm8k.mcp_tools.liveness`); the text a tool returns never
does, since the model chooses what a tool echoes. Any other failed call, one that runs past
:data:`CALL_SECONDS`, and a call whose arguments cannot be sent
(:mod:`gsm8k.execution.arguments`) come back to the model as that call's error: its failure is
scored. A result is clipped at :data:`RESULT_BYTES`. What the server returns reaches the model
only: the grade is read from the model's own final reply.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import anyio
from inspect_ai.model import ChatMessageUser, GenerateConfig, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util._anyio import inner_exception

from gsm8k.execution.guard import guarded_generate
from gsm8k.grading.reasons import MCP_FAILURE_KEY as FAILURE_KEY
from gsm8k.mcp_tools.aftermath import without_server
from gsm8k.mcp_tools.calls import (
    CALL_SECONDS,
    RESULT_BYTES,
    ServerFailure,
    describe,
    guarded_tool,
    watched,
)
from gsm8k.mcp_tools.config import PROBLEM_SLOT, McpChoice, ServerSpec, parse_choice
from gsm8k.mcp_tools.liveness import (
    DIED_KEY,
    Watch,
    raised_in_client,
    transport_failure,
)
from gsm8k.mcp_tools.shared import SharedServer, preflight_shared, shareable
from gsm8k.mcp_tools.startup import START_KEY, START_WAIT_KEY, preflight, start_slot, start_timeout
from gsm8k.mcp_tools.workdir import sample_workdir

DEFAULT_TURNS = 15
"""Model replies per sample (mcpbr's ``max_iterations``, Inspect's turn limit): the tool calls of
each are run; a reply past the limit ends the sample."""
DEFAULT_TIME_LIMIT = 180
"""Seconds per sample (mcpbr's ``timeout_seconds``), server start and tool calls included."""
CLIENT_ERROR_KEY = "mcp_client_error"
"""Sample metadata key recording an error of the MCP client's transport that ended the sample
without evidence that the server was gone (the sample is scored)."""
MAX_TOOLS = 128
"""More tools than this (the most OpenAI's API accepts in one request) and the sample is given
up: no model can be offered them all."""


@dataclass(frozen=True)
class McpSetup:
    """What ``-T mcp=...`` adds to the task: the solve step, the limits and the log's record."""

    spec: ServerSpec | None
    """``None`` for ``mcp=none``: the same loop and limits without a server."""
    turns: int = DEFAULT_TURNS
    time_limit: int = DEFAULT_TIME_LIMIT
    start_seconds: float = 0.0
    """How long a server may take to start and list its tools (``-T mcp_start_timeout``)."""
    prompt: str | None = None
    """mcpbr's ``agent_prompt``: the question's user message, the question in its slot."""
    max_concurrent: int | None = None
    shared: bool = False
    """One server for the run (``gsm8k-mcp``, :mod:`gsm8k.mcp_tools.shared`), not one per
    sample."""

    def generate(self) -> Solver:
        return mcp_generate(self.spec, self.start_seconds, self.prompt, self.shared)

    def task_limits(self) -> dict[str, Any]:
        """Inspect's own per-sample limits (``--turn-limit``, ``--time-limit``, ``--token-limit``
        on the command line override them); mcpbr's ``max_concurrent`` as the model's
        connections, which Inspect's sample concurrency follows (``--max-connections``
        overrides it)."""
        limits: dict[str, Any] = {"turn_limit": self.turns, "time_limit": self.time_limit}
        if self.max_concurrent is not None:
            limits["config"] = GenerateConfig(max_connections=self.max_concurrent)
        return limits

    def metadata(self) -> dict[str, Any]:
        spec = self.spec
        return {
            "mcp_server": spec.describe() if spec else None,
            "mcp_server_name": spec.name if spec else None,
            "mcp_transport": spec.transport if spec else None,
            "mcp_runs_as": "the evaluating user" if spec and spec.transport == "stdio" else None,
            "mcp_start_timeout": self.start_seconds if spec else None,
            "mcp_shared": self.shared if spec else None,
            "mcp_call_seconds": CALL_SECONDS,
            "mcp_result_bytes": RESULT_BYTES,
            "mcp_agent_prompt": self.prompt,
        }

    def display_suffix(self) -> str:
        return f" mcp={self.spec.name if self.spec else 'none'}"


def mcp_setup(
    mcp: str | None,
    mode: str,
    tools: str,
    preset: str,
    default: str,
    start: float | None = None,
) -> McpSetup | None:
    """The MCP setup ``-T mcp=`` asks for; ``None`` without it. A server is started once here,
    before any sample (:func:`gsm8k.mcp_tools.startup.preflight`); ``gsm8k-mcp`` is started
    here for the whole run (:func:`gsm8k.mcp_tools.shared.preflight_shared`).

    Raises:
        ValueError: for a value that names no server, or with ``mode=pal``, ``tools=`` or a
            preset (the server's tools are the only ones offered, on the task's own prompt).
        TaskInputError: when the server cannot serve a sample (one line, nothing run).
    """
    if mcp is None:
        if start is not None:
            raise ValueError("mcp_start_timeout= goes with mcp=<server>.")
        return None
    choice: McpChoice = parse_choice(mcp)
    seconds = start_timeout(start)
    if mode != "cot" or tools != "none":
        raise ValueError(
            "mcp= offers the server's tools while the model reasons: use it with mode=cot and "
            "tools=none (the shipped gsm8k-mcp server has a calculator and a Python runner)."
        )
    if preset != default:
        raise ValueError(f"mcp= runs on the task's own prompt, not preset={preset}.")
    spec = choice.spec
    shared = spec is not None and shareable(spec)
    if spec is not None:
        spec = (
            preflight_shared(spec, seconds, MAX_TOOLS).spec
            if shared
            else preflight(spec, seconds, MAX_TOOLS)
        )
    # Registers the check that fails a run in which no sample was scored (mcp= runs only).
    from gsm8k.mcp_tools import outcome  # noqa: F401

    return McpSetup(
        spec,
        turns=choice.turns or DEFAULT_TURNS,
        time_limit=choice.time_limit or DEFAULT_TIME_LIMIT,
        start_seconds=seconds,
        prompt=choice.prompt,
        max_concurrent=choice.max_concurrent,
        shared=shared,
    )


@solver
def mcp_generate(
    spec: ServerSpec | None,
    start_seconds: float = 0.0,
    prompt: str | None = None,
    shared: bool = False,
) -> Solver:
    """The task's tool loop with ``spec``'s tools offered for the whole solve; with ``prompt``
    (mcpbr's ``agent_prompt``), the question's message is that prompt around the question;
    with ``shared``, each sample connects to the run's one server instead of starting its own."""
    loop = guarded_generate()

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if prompt is not None:
            ask(state, prompt)
        if spec is None:
            return await loop(state, generate)
        # The run's server, as the check before the run built it (built here otherwise).
        running = SharedServer.for_spec(spec) if shared else None
        async with _workdir(running) as workdir:
            try:
                return await with_server(
                    spec, workdir, state, generate, loop, start_seconds, running
                )
            except Exception as error:
                inner = inner_exception(error)
                if isinstance(inner, ServerFailure):
                    return failed(state, spec, str(inner))
                lost = transport_failure(inner)
                if lost is not None and DIED_KEY not in state.metadata:
                    # The client's own transport saw the connection fail, no call in flight.
                    return failed(state, spec, f"it stopped answering: {lost}")
                if raised_in_client(inner):
                    # Anything else the client's transport raised (a read that timed out on a
                    # server the model kept busy, a message it could not read, a server that
                    # died under the model's calls): the model's, so the sample is graded.
                    state.metadata[CLIENT_ERROR_KEY] = describe(inner)
                    if DIED_KEY in state.metadata:
                        return await without_server(state, generate, loop)
                    return state
                raise

    return solve


@contextlib.asynccontextmanager
async def _workdir(running: SharedServer | None) -> AsyncIterator[str]:
    """The sample's ``{workdir}``; none for the run's shared server, which takes no folder."""
    if running is not None:
        yield ""
        return
    async with sample_workdir() as workdir:
        yield workdir


def ask(state: TaskState, prompt: str) -> None:
    """Put the question into ``prompt``'s slot as the last user message (the question's own)."""
    text = prompt.replace(PROBLEM_SLOT, state.input_text)
    for index in range(len(state.messages) - 1, -1, -1):
        if isinstance(state.messages[index], ChatMessageUser):
            state.messages[index] = ChatMessageUser(content=text)
            return
    state.messages.append(ChatMessageUser(content=text))


async def with_server(
    spec: ServerSpec,
    workdir: str,
    state: TaskState,
    generate: Generate,
    loop: Solver,
    start_seconds: float,
    running: SharedServer | None = None,
) -> TaskState:
    """Connect, offer the server's tools, run the loop; the connection closes with the sample.

    The start waits for a turn (:func:`gsm8k.mcp_tools.startup.start_slot`); ``start_seconds``
    counts from the server's own start. Both times go into the sample's metadata. A connection
    to the run's ``running`` server starts no process and takes no turn.
    """
    asked = time.monotonic()
    watch: Watch | None = None
    slots = start_slot() if running is None else anyio.Semaphore(1)
    await slots.acquire()
    starting = True
    state.metadata[START_WAIT_KEY] = round(time.monotonic() - asked, 3)
    try:
        server = spec.server(workdir) if running is None else running.client()
        # A deadline for the start only: lifted once the tools are listed (one scope, so that
        # the client's own task groups nest inside it).
        with anyio.CancelScope(deadline=anyio.current_time() + start_seconds) as start:
            try:
                async with server:
                    offered = await server.tools()
                    start.deadline = math.inf
                    starting = False
                    slots.release()
                    state.metadata[START_KEY] = round(time.monotonic() - asked, 3)
                    if len(offered) > MAX_TOOLS:
                        raise ServerFailure(
                            f"it offers {len(offered)} tools, more than the {MAX_TOOLS} a model "
                            "can be offered at once"
                        )
                    watch = Watch(server)
                    state.tools = [guarded_tool(tool, watch) for tool in offered]
                    return await watched(watch, loop(state, generate))
            except ServerFailure:
                raise
            except Exception as error:
                if start.deadline != math.inf:
                    raise ServerFailure(f"it did not start: {describe(error)}") from error
                if watch is not None:
                    watch.escaped(inner_exception(error))
                raise
            finally:
                if watch is not None and watch.note():
                    state.metadata[DIED_KEY] = watch.note()
        raise ServerFailure(
            f"it did not start and list its tools within {start_seconds:g} s (-T mcp_start_timeout)"
        )
    finally:
        if starting:
            slots.release()


def failed(state: TaskState, spec: ServerSpec, why: str) -> TaskState:
    """End the sample unscored: the server, not the model, failed it."""
    reason = f"MCP server {spec.name!r} failed: {why}"
    state.metadata[FAILURE_KEY] = reason
    state.output = ModelOutput.from_content(model=str(state.model), content="")
    state.output.error = reason
    state.completed = True
    return state
