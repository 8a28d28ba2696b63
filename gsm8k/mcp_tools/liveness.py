"""Whether an MCP server is gone, and whose outcome that is, by the harness's own look.

**Gone** is read from the transport and the process only, never from what the server says. A
tool's error text is whatever the server chose to write, often an echo of what the model sent
(``calculator("Connection closed")``, a program that prints it, a file name in an ENOENT
message), and a live server can answer the harness's own ``ping`` with the MCP SDK's error code
for a closed connection. So the server is gone only when the MCP client's own transport has
reached its end (the stdio server's output closed: its process exited, the relay in front of
it closed), or the client's transport itself raised a connection error (an HTTP server refused
or dropped the connection). After a failed call the connection is pinged, which lets an HTTP
transport find out; the ping's answer, or its error, is never read.

**Whose outcome** is read from when the harness saw it go, against the model's calls. A server
that dies while a call is in flight, within :data:`AFTER_CALL_SECONDS` of a call's end (a server
can answer and then die of the work), or at any time after a call the harness gave up waiting
for (the server may still be busy with it) died during or because of the model's calls: that is
the model's outcome. The model reads that the server exited, later calls are not run, and the
sample goes on to its answer and is graded. Only a server seen gone with no call in flight and
none just ended (between calls, as an HTTP server refusing the connection of a new call shows)
is the server's failure, and leaves the sample unscored. A stdio transport is watched while the
model thinks, so a death between calls is seen when it happens, not at the next call.

The watch reads the session of Inspect's MCP client that the sample's tools use. Where that
session cannot be found (another client version), it sees nothing: a failed call is then
always the model's to read, never a reason to leave a sample unscored.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import anyio

PING_SECONDS = 10.0
"""How long the ping may take; past this the server is busy, not gone."""
POLL_SECONDS = 0.1
"""How often the stdio transport is looked at while no call runs (the MCP SDK has no event for
its end)."""
AFTER_CALL_SECONDS = 10.0
"""A death seen this soon after a call ended is that call's: a server can send its answer and
then die of the work (freeing a huge reply, its heap exhausted), and the harness sees the end
of the transport late on a busy machine (more than 2 s after the death, measured on a loaded
2-core machine)."""
DIED_KEY = "mcp_server_died"
"""Sample metadata: how the server died during or because of the model's calls (the sample is
scored: the model's outcome)."""

_CLOSED_TRANSPORT = (
    anyio.ClosedResourceError,
    anyio.BrokenResourceError,
    anyio.EndOfStream,
    ConnectionError,
)


@dataclass(frozen=True)
class Death:
    """The server is gone: why, and whether that is the model's outcome."""

    why: str
    models: bool


class Watch:
    """One sample's connection to its server, against the model's calls to it."""

    def __init__(self, server: object) -> None:
        self.session = _client_session(server)
        self.calls = 0
        """Calls in flight."""
        self.ended = -math.inf
        """When the last call ended (``time.monotonic``)."""
        self.abandoned = False
        """A call was given up unanswered: the server may still be working on it."""
        self.cut = False
        """The last call was cut off by an error raised around it (the client's transport
        failing under it), not answered, failed or given up."""
        self.met = False
        """A call met the death (so it was reported to the sample, not only seen)."""
        self.death: Death | None = None
        self.tool = ""
        """The tool whose call the server died in, for the log."""

    def closed(self) -> bool:
        """Whether the MCP client's own transport has reached its end (the client's state: the
        stdio server's output closed, or the connection failed)."""
        dispatcher = getattr(self.session, "_dispatcher", None)
        return getattr(dispatcher, "_closed", False) is True

    def saw(self, why: str, in_flight: bool | None = None) -> Death:
        """Record that the server is gone (the first sighting counts), seen now, with a call in
        flight or not (``None``: whether one is)."""
        if self.death is None:
            if in_flight is None:
                in_flight = self.calls > 0
            recent = time.monotonic() - self.ended <= AFTER_CALL_SECONDS
            self.death = Death(why, in_flight or recent or self.abandoned)
        return self.death

    def escaped(self, error: BaseException) -> Death | None:
        """The death shown by ``error``, raised out of the client's transport (its task group
        ended the model's turns), or ``None`` when it shows none."""
        lost = transport_failure(error)
        if lost is None:
            return self.death
        self.met = True
        return self.saw(lost, in_flight=self.cut and not _refused(error))

    async def run(self) -> None:
        """Look at the transport until it ends, and record when (run beside the model's turns,
        cancelled with them)."""
        if self.session is None:
            return
        while not self.closed():
            await anyio.sleep(POLL_SECONDS)
        self.saw("its connection closed")

    def begin(self, tool: str) -> Death | None:
        """A call to ``tool`` starts; the death seen so far, if any (then the call is not run)."""
        if self.death is None and self.closed():
            self.saw("its connection closed")
        if self.death is not None:
            self.met = True
            return self.death
        self.calls += 1
        self.tool = tool
        return None

    def end(self, outcome: str) -> None:
        """A call ended: ``answered``, ``failed`` (an error the model reads), ``gave-up`` (no
        answer in time) or ``cut`` (an error raised around it)."""
        self.calls -= 1
        self.ended = time.monotonic()
        self.abandoned = self.abandoned or outcome == "gave-up"
        self.cut = outcome == "cut"

    async def after_failure(self, error: BaseException) -> Death | None:
        """After a call failed (still in flight): the death, when the harness sees one."""
        if self.death is not None or self.session is None:
            return self.death
        lost = transport_failure(error)
        if lost is None and not self.closed():
            lost = await ping_failure(self.session)
        if lost is None and self.closed():
            lost = "its connection closed"
        if lost is None:
            return None
        self.met = True
        refused = _refused(error) or lost.startswith("refused")
        return self.saw(lost, in_flight=not refused and self.calls > 0)

    def note(self) -> str | None:
        """What the log records of a death that left the sample scored: the model's outcome, or
        one between calls that no later call met."""
        if self.death is None or (self.met and not self.death.models):
            return None  # none, or the server's failure, which leaves the sample unscored
        if not self.death.models:
            return f"the MCP server exited between calls, and no call met it: {self.death.why}"
        during = f"during or just after a call to {self.tool}" if self.tool else "during a call"
        return f"the MCP server exited {during}: {self.death.why}"


async def ping_failure(session: Any) -> str | None:
    """Why a ping on ``session`` shows its transport gone, or ``None``: its answer, and any error
    it brings back, are the server's words and say nothing."""
    try:
        with anyio.fail_after(PING_SECONDS):
            await session.send_ping()
    except TimeoutError:
        return None  # slow is not gone
    except Exception as error:
        if isinstance(error, _CLOSED_TRANSPORT):
            return f"its connection is closed ({type(error).__name__})"
        lost = transport_failure(error)
        if lost is not None:
            return ("refused: " if _refused(error) else "") + lost
    return None


def transport_failure(error: BaseException) -> str | None:
    """Why ``error`` shows the connection to the server failed, or ``None``: a connection error
    (refused, reset, closed) raised inside the MCP SDK's client transport itself, which ends the
    connection's task group (an HTTP server that went away fails the client's next request
    there, before any reply can reach the tool call)."""
    closed = isinstance(error, _CLOSED_TRANSPORT) or _transport_error(error)
    if closed and not _timeout(error) and raised_in_client(error):
        return f"its connection failed ({type(error).__name__}: {str(error)[:200]})"
    return None


def _refused(error: BaseException) -> bool:
    """A connection that could not be made (HTTP's ``ConnectError``, a refused socket): the
    server was gone before the call that met it."""
    return isinstance(error, ConnectionRefusedError) or any(
        cls.__name__ == "ConnectError" for cls in type(error).__mro__
    )


def _timeout(error: BaseException) -> bool:
    """A wait that ran out (httpx's ``TimeoutException`` family): a busy server, not a gone one
    (and the model decides how busy)."""
    return isinstance(error, TimeoutError) or any(
        "Timeout" in cls.__name__ for cls in type(error).__mro__
    )


def raised_in_client(error: BaseException) -> bool:
    """Whether ``error`` was raised inside the MCP SDK's client (its transports, its session)."""
    traceback = error.__traceback__
    while traceback is not None:
        if str(traceback.tb_frame.f_globals.get("__name__", "")).startswith("mcp.client."):
            return True
        traceback = traceback.tb_next
    return False


def _transport_error(error: BaseException) -> bool:
    """An HTTP client's connection failure (httpx's ``TransportError`` family), by class name so
    that this module needs no HTTP client of its own."""
    return any(cls.__name__ in ("TransportError", "NetworkError") for cls in type(error).__mro__)


def _client_session(server: object) -> Any:
    """The ``mcp`` ``ClientSession`` of ``server`` in the current task, or ``None``."""
    task_session = getattr(server, "_task_session", None)
    if not callable(task_session):
        return None
    try:
        session = getattr(task_session(), "_session", None)
    except Exception:
        return None
    return session if callable(getattr(session, "send_ping", None)) else None
