"""Whether an MCP server is gone, by the harness's own look at the connection.

A failed tool call alone says nothing about the server: a tool's error text is whatever the
server chose to say, often an echo of what the model sent (``calculator("Connection closed")``,
a program that prints it, a file name in an ENOENT message). So after a call fails, the
connection that carried it is pinged with MCP's own ``ping`` request, which the model has no
part in, and only a transport that is closed (the stdio server's process exited and its pipes
closed; the HTTP server refused or dropped the connection) counts as the server being gone. A
ping that is answered, answered with an error, or slow (a server busy with the model's work) is
not evidence: the call's failure is the model's to read.

The probe reads the session of Inspect's MCP client that the sample's tools use. Where that
session cannot be found (another client version), it reports nothing: a failed call is then
always the model's, never a reason to leave a sample unscored.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio

PING_SECONDS = 10.0
"""How long the ping may take; past this the server is busy, not gone."""
CONNECTION_CLOSED = -32000
"""The MCP SDK's error code for a request on a closed connection (``mcp.types``)."""

Probe = Callable[[], Awaitable[str | None]]
"""Says why the server is gone, or ``None`` when the harness has no evidence that it is."""

_CLOSED_TRANSPORT = (
    anyio.ClosedResourceError,
    anyio.BrokenResourceError,
    anyio.EndOfStream,
    ConnectionError,
)


def connection_probe(server: object) -> Probe:
    """A probe of the connection ``server`` (an Inspect MCP server entered in this task) holds
    now; call it from the same task."""
    session = _client_session(server)

    async def gone() -> str | None:
        if session is None:
            return None
        return await ping_failure(session)

    return gone


async def ping_failure(session: Any) -> str | None:
    """Why a ping on ``session`` shows its transport closed, or ``None``."""
    try:
        with anyio.fail_after(PING_SECONDS):
            await session.send_ping()
    except TimeoutError:
        return None  # slow is not gone
    except _CLOSED_TRANSPORT as error:
        return f"its connection is closed ({type(error).__name__})"
    except Exception as error:
        code = getattr(getattr(error, "error", None), "code", None)
        if code == CONNECTION_CLOSED:
            return "its connection is closed"
        if _transport_error(error):
            return f"its connection failed ({type(error).__name__})"
        return None  # answered, if only with an error: still there
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
