"""``gsm8k-mcp``: this project's calculator and Python runner as an MCP server.

Two tools, built on the official MCP Python SDK: ``calculator`` (one arithmetic expression in,
its exact value out) and ``python`` (a program in, what it prints and its result out, with numpy,
scipy and sympy where installed). Every program runs where ``mode=pal`` and ``tools=python`` run
them: a bubblewrap sandbox per program with the same limits and result channel
(:mod:`gsm8k.execution.runner`); without bubblewrap the server refuses to start unless
``--trust-model-code`` is given.

    gsm8k-mcp                                  # stdio, for -T mcp=gsm8k-mcp or any MCP client
    gsm8k-mcp --http --port 8765               # streamable HTTP on http://127.0.0.1:8765/mcp
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Mapping, Sequence

from gsm8k.execution.budget import describe
from gsm8k.execution.calculator import CalculatorError, calculate, format_number
from gsm8k.execution.dispatch import run_model_code
from gsm8k.execution.image import remove_own_images
from gsm8k.execution.isolation import Isolation, refusal, unavailable_reason
from gsm8k.execution.packages import describe as describe_packages
from gsm8k.execution.packages import program_packages
from gsm8k.execution.runner import DEFAULT_LIMITS, Limits
from gsm8k.mcp_tools.fairness import CONNECTION_KEY, BudgetSpent, FairRunner

SERVER_NAME = "gsm8k-math"
DEFAULT_PORT = 8765
HOST = "127.0.0.1"
"""Streamable HTTP listens on loopback only: the server runs programs for whoever reaches it."""
HTTP_PATH = "/mcp"
SESSION_HEADER = "mcp-session-id"


def build_server(
    isolation: Isolation, limits: Limits = DEFAULT_LIMITS, runner: FairRunner | None = None
) -> object:
    """The MCP server with its two tools; programs run under ``isolation`` with ``limits``,
    taking turns by session with a per-session budget (``runner``)."""
    runner = runner or FairRunner()
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    server: MCPServer = MCPServer(
        SERVER_NAME,
        instructions="Exact arithmetic and sandboxed Python for grade-school math problems.",
        log_level="WARNING",
    )
    imports = describe_packages(program_packages(in_container=False) or [])

    @server.tool()
    def calculator(expression: str) -> str:
        """Evaluate an arithmetic expression exactly: numbers, + - * / // % ** and parentheses,
        e.g. "(16 - 3 - 4) * 2". Returns the value."""
        try:
            return format_number(calculate(expression))
        except CalculatorError as error:
            raise ToolError(f"{error} (expression: {expression[:100]!r})") from error

    async def python(code: str, ctx: Context) -> str:
        """Run a short Python program in a sandbox (no network, no files, a few seconds of CPU)
        and return what it prints; define solution() returning a number, or assign it to `ans`,
        to get a result too."""
        try:
            async with runner.program(session_key(ctx.headers), limits.timeout_seconds):
                result = await run_model_code(code, limits, False, isolation)
        except BudgetSpent as error:
            raise ToolError(str(error)) from error
        if result.status not in ("ok", "no_result"):
            raise ToolError(describe(result))
        return describe(result)

    # The SDK finds the parameter it fills with the request's context (which session is
    # calling) by its annotation; under postponed annotations that is the string "Context",
    # which it would resolve in this module, where the optional SDK is not imported.
    python.__annotations__["ctx"] = Context
    python.__doc__ = f"{python.__doc__} It may import {imports}."
    server.tool()(python)
    return server


def session_key(headers: Mapping[str, str] | None) -> str:
    """Which client session a call belongs to: over HTTP the session id the server assigned
    (the SDK routes each request by it and refuses unknown ones; its per-request session
    objects are new on every call), in the evaluator's process the connection's own key
    (:data:`~gsm8k.mcp_tools.fairness.CONNECTION_KEY`), over stdio the one session of the
    process."""
    if headers is None:
        return CONNECTION_KEY.get() or "stdio"
    return str(headers.get(SESSION_HEADER, ""))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="gsm8k-mcp",
        description="An MCP server with a calculator and a sandboxed Python runner (stdio by "
        "default).",
    )
    parser.add_argument(
        "--http",
        action="store_true",
        help=f"serve streamable HTTP on http://{HOST}:PORT{HTTP_PATH} instead of stdio",
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="HTTP port (default 8765)")
    parser.add_argument(
        "--trust-model-code",
        action="store_true",
        help="without bubblewrap, run programs as plain local processes that can read what "
        "your user can (only for models whose code you trust)",
    )
    args = parser.parse_args(argv)
    reason = unavailable_reason()
    if reason is not None and not args.trust_model_code:
        print(f"gsm8k-mcp: {refusal(reason)}", file=sys.stderr)
        return 2
    isolation: Isolation = "bwrap" if reason is None else "process"
    server = build_server(isolation)
    # An MCP client stops a stdio server with SIGTERM (after closing its input), often in the
    # middle of a program: remove the runtime image before going, or it stays mounted.
    signal.signal(signal.SIGTERM, _terminated)
    if args.http:
        server.run(  # type: ignore[attr-defined]
            "streamable-http", host=HOST, port=args.port, streamable_http_path=HTTP_PATH
        )
    else:
        server.run("stdio")  # type: ignore[attr-defined]
    return 0


def _terminated(signum: int, frame: object) -> None:
    remove_own_images()
    os._exit(128 + signum)


if __name__ == "__main__":
    raise SystemExit(main())
