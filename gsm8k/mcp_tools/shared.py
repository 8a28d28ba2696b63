"""One ``gsm8k-mcp`` for the whole run: the fast path of ``-T mcp=gsm8k-mcp``.

A ``gsm8k-mcp`` process keeps nothing a sample needs: each program already runs in a sandbox of
its own, and the calculator has no state. What a process per sample costs is its start (the
interpreter, the SDK, the sandbox's runtime image and its probe: seconds on a busy machine, the
whole of a run's time with a scripted model). So for that server the run builds one server, in
the evaluator's own process, when the task is built: the same
:func:`~gsm8k.mcp_tools.server.build_server` the command runs, whose sandbox runtime image and
probe are made once for the run. Each sample connects to it through the MCP SDK's in-memory
streams, with Inspect's own MCP client on its end (the sample's tools, calls, errors and events
are exactly those of a stdio server), and gets a connection of its own, whose every call
belongs to a session key no other sample has
(:data:`~gsm8k.mcp_tools.fairness.CONNECTION_KEY`; the SDK's request context cannot tell
connections apart: it is new on every call and, in memory, carries no headers). So the
per-session turns and program budget of :class:`~gsm8k.mcp_tools.fairness.FairRunner` apply to
each sample as they do to each process, and nothing of one sample's session reaches another.
(A server object per connection would do the same at about 0.1 s of CPU per sample: building
the tools' schemas is most of a connection's cost.)
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar

import anyio

from gsm8k.execution.isolation import Isolation
from gsm8k.mcp_tools.config import ServerSpec
from gsm8k.mcp_tools.fairness import CONNECTION_KEY, FairRunner
from gsm8k.mcp_tools.startup import Announcement, describe, require_client
from gsm8k.settings.errors import TaskInputError

COMMAND = "gsm8k-mcp"
TRUST_FLAG = "--trust-model-code"


def shareable(spec: ServerSpec) -> bool:
    """Whether ``spec`` is the shipped server by its bare command name (``gsm8k-mcp``, with
    ``--trust-model-code`` at most, no environment or folder of its own): the server one
    in-process instance of this package can stand in for. Named another way (its path,
    ``python -m gsm8k.mcp_tools``, a server file that gives it an environment) it is started
    once per sample, as written."""
    return (
        spec.transport == "stdio"
        and spec.command == COMMAND
        and set(spec.args) <= {TRUST_FLAG}
        and not spec.env
        and spec.cwd is None
    )


def preflight_shared(spec: ServerSpec, seconds: float, max_tools: int) -> SharedServer:
    """Build the run's server (its sandbox checked, its runtime image made) and list its tools
    through a connection of its own, before any sample; the samples then use this server.

    Raises:
        TaskInputError: one line naming the server, what went wrong and what to do.
    """
    where = f"mcp={spec.name}"
    require_client(where)
    note = Announcement(where, "one server for the run")
    try:
        running = SharedServer.for_spec(spec)
        # The task is built inside Inspect's event loop or outside any: a loop of its own, in
        # a thread, works in both (the server keeps no loop's objects between connections).
        with ThreadPoolExecutor(max_workers=1) as pool:
            offered = pool.submit(anyio.run, _listed, running, seconds).result()
    except SandboxRefused as error:
        note.failed()
        raise TaskInputError(f"{where}: {error} (nothing was run).") from error
    except Exception as error:
        note.failed()
        raise TaskInputError(
            f"{where}: it did not start and list its tools: {describe(error)} (nothing was run)."
        ) from error
    if not 0 < offered <= max_tools:
        note.failed()
        raise TaskInputError(f"{where}: it lists {offered} tools (nothing was run).")
    note.done(offered)
    return running


async def _listed(running: SharedServer, seconds: float) -> int:
    with anyio.fail_after(seconds):
        async with running.client() as server:
            return len(await server.tools())


class SandboxRefused(Exception):
    """The machine cannot sandbox the model's programs and the command line does not trust
    them."""


class SharedServer:
    """The run's one ``gsm8k-mcp``, and a client per sample connected to it in memory."""

    _running: ClassVar[dict[bool, SharedServer]] = {}
    """One per evaluator process and trust setting: a second task of the run (or an eval set)
    reuses the server, its sandbox check and its runtime image."""

    def __init__(self, spec: ServerSpec, runner: FairRunner | None = None) -> None:
        """The server for ``spec``; its programs take turns and are budgeted by ``runner``
        (by default the budget of ``tools=python`` per session)."""
        from gsm8k.execution.isolation import unavailable_reason
        from gsm8k.mcp_tools.server import build_server

        self.spec = spec
        self.trusted = TRUST_FLAG in spec.args
        # The sandbox's runtime image and its probe, once for the run (before any sample: a
        # program's first call must not wait for them, under its 30 s limit).
        reason = unavailable_reason()
        if reason is not None and not self.trusted:
            raise SandboxRefused(
                f"{COMMAND} runs the model's programs in a bubblewrap sandbox, and this machine "
                f"cannot start one: {reason}; install bubblewrap, or, only for a model whose code "
                f"you trust, name the server as '{COMMAND} {TRUST_FLAG}'"
            )
        self.isolation: Isolation = "bwrap" if reason is None else "process"
        self._server: Any = build_server(self.isolation, runner=runner or FairRunner())
        self._connections = itertools.count(1)

    @classmethod
    def for_spec(cls, spec: ServerSpec) -> SharedServer:
        """The run's server for ``spec``, built on first use."""
        trusted = TRUST_FLAG in spec.args
        running = cls._running.get(trusted)
        if running is None:
            running = cls._running[trusted] = cls(spec)
        return running

    def client(self) -> Any:
        """Inspect's MCP client for one sample: a connection of its own when entered."""
        from inspect_ai.tool._mcp._local import MCPServerLocal

        # Inspect types the factory as its stdio transport's; the in-memory streams have the
        # same read and write interface, which is all its client session uses.
        return MCPServerLocal(
            self._connect,  # type: ignore[arg-type]
            name=self.spec.name,
            events=True,
        )

    @contextlib.asynccontextmanager
    async def _connect(self) -> AsyncIterator[tuple[Any, Any]]:
        from mcp.shared.memory import create_client_server_memory_streams

        key = f"connection-{next(self._connections)}"
        # Set in the task that connects (the sample's): what it sends carries the key.
        CONNECTION_KEY.set(key)
        async with (
            create_client_server_memory_streams() as (client, served),
            anyio.create_task_group() as group,
        ):
            group.start_soon(self._serve, *served, key)
            try:
                yield client
            finally:
                group.cancel_scope.cancel()

    async def _serve(self, read: Any, write: Any, key: str) -> None:
        # And in the task that serves it, should a handler run in the server's context instead.
        CONNECTION_KEY.set(key)
        lowlevel = self._server._lowlevel_server
        await lowlevel.run(read, write, lowlevel.create_initialization_options())
