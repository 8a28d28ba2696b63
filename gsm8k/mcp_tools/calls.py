"""One tool call of the model's under the harness's watch: a time limit, a clipped text result,
and the rule that decides whose outcome a failed call is (:mod:`gsm8k.mcp_tools.liveness`)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import anyio
from inspect_ai.solver import TaskState
from inspect_ai.tool import Tool, ToolDef, ToolError, ToolResult
from inspect_ai.tool._tool import ToolParsingError
from inspect_ai.util._anyio import inner_exception

from gsm8k.mcp_tools.aftermath import exited
from gsm8k.mcp_tools.liveness import Death, Watch

CALL_SECONDS = 30.0
"""How long one tool call may take before the model is told it timed out."""
RESULT_BYTES = 16 * 1024
"""A tool result the model reads is clipped here (Inspect's own truncation, with a marker)."""


class ServerFailure(Exception):
    """The MCP server failed this sample (not the model)."""


async def watched(watch: Watch, turns: Awaitable[TaskState]) -> TaskState:
    """``turns`` with ``watch`` looking at the transport beside them. What ``turns`` raises is
    raised as it is (the watch raises nothing), not in a task group's exception group: Inspect
    reads a limit the model reached from the exception's own type."""
    finished: list[TaskState] = []
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(watch.run)
            try:
                finished.append(await turns)
            finally:
                group.cancel_scope.cancel()
    except BaseExceptionGroup as errors:
        if len(errors.exceptions) == 1:
            raise errors.exceptions[0] from errors.exceptions[0].__cause__
        raise
    return finished[0]


def guarded_tool(tool: Tool, watch: Watch) -> Tool:
    """``tool`` with a time limit per call and its result as clipped text.

    A failed call ends the sample as the server's failure only when ``watch`` (the harness's own
    look at the transport) saw the server gone with no call of the model's in flight; a server
    that died during or because of the model's calls is the model's to read, as is any other
    error. What the error says is never read for this: the model chooses what a tool echoes.
    """
    definition = ToolDef(tool)
    call = definition.tool

    async def execute(**kwargs: Any) -> ToolResult:
        _raise_for(watch.begin(definition.name), definition.name, "was not run")
        outcome = "cut"
        try:
            with anyio.move_on_after(CALL_SECONDS) as scope:
                try:
                    result = await call(**kwargs)
                except Exception as error:
                    inner = inner_exception(error)
                    _raise_for(await watch.after_failure(inner), definition.name, "failed")
                    outcome = "failed"
                    if isinstance(inner, ToolError | ToolParsingError):
                        raise inner from error
                    raise ToolError(f"{definition.name} failed: {describe(inner)}") from error
            outcome = "gave-up" if scope.cancelled_caught else "answered"
        finally:
            watch.end(outcome)
        if scope.cancelled_caught:
            raise ToolError(f"{definition.name} did not answer within {CALL_SECONDS:g} s")
        return as_text(result)

    return ToolDef(
        execute,
        name=definition.name,
        description=definition.description,
        parameters=definition.parameters,
        max_output=RESULT_BYTES,
    ).as_tool()


def _raise_for(death: Death | None, name: str, what: str) -> None:
    """End the call for a server seen gone: the sample as the server's failure, or the call as
    an error the model reads when the death was the model's outcome."""
    if death is None:
        return
    if not death.models:
        raise ServerFailure(f"it stopped answering: {death.why}")
    raise ToolError(f"{name} {what}: {exited(death.why)}")


def as_text(result: ToolResult) -> str:
    """A tool result as the text the model reads (Inspect truncates text, not content lists)."""
    items = result if isinstance(result, list) else [result]
    parts = []
    for item in items:
        text = getattr(item, "text", None)
        if isinstance(item, str):
            parts.append(item)
        elif isinstance(text, str):
            parts.append(text)
        else:
            parts.append(f"({getattr(item, 'type', type(item).__name__)} content omitted)")
    # A lone surrogate (JSON can carry one) could not be sent on to the model or logged.
    return "\n".join(parts).encode("utf-8", "replace").decode("utf-8")


def describe(error: BaseException) -> str:
    inner = inner_exception(error) if isinstance(error, Exception) else error
    text = str(inner).strip().splitlines()
    detail = text[0][:300] if text else ""
    return f"{type(inner).__name__}: {detail}" if detail else type(inner).__name__
