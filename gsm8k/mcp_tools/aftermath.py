"""After a server died under the model's calls: what the model reads, and its turns go on.

A server that dies during or because of the model's calls is the model's outcome
(:mod:`gsm8k.mcp_tools.liveness`): the call it died in, and every later call, is an error the
model reads, and the model goes on to its answer. Usually the failed call itself says so; where
the client's transport failed and ended the turns with it (an HTTP connection lost under a
call), :func:`without_server` gives each call left without a result its error and runs the
turns again with tools that refuse.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessageAssistant, ChatMessageTool
from inspect_ai.solver import Generate, Solver, TaskState
from inspect_ai.tool import Tool, ToolCallError, ToolDef, ToolError, ToolResult

from gsm8k.mcp_tools.liveness import DIED_KEY


def exited(why: str) -> str:
    return (
        f"the MCP server exited during or just after this sample's calls ({why}); no more "
        "calls can be made to it in this sample"
    )


async def without_server(state: TaskState, generate: Generate, loop: Solver) -> TaskState:
    """Go on to the model's answer after its calls took the server down with the client's
    transport (which ended the turns): each call left without a result, and every later call,
    is an error the model reads."""
    said = f"{state.metadata[DIED_KEY]}; no more calls can be made to it in this sample"
    answered = {m.tool_call_id for m in state.messages if isinstance(m, ChatMessageTool)}
    last = state.messages[-1] if state.messages else None
    for pending in last.tool_calls or [] if isinstance(last, ChatMessageAssistant) else []:
        if pending.id not in answered:
            error = ToolCallError("unknown", f"{pending.function} failed: {said}")
            state.messages.append(
                ChatMessageTool(
                    content="", tool_call_id=pending.id, function=pending.function, error=error
                )
            )
    state.tools = [_refusing(ToolDef(tool), said) for tool in state.tools]
    return await loop(state, generate)


def _refusing(definition: ToolDef, said: str) -> Tool:
    async def execute(**kwargs: Any) -> ToolResult:
        raise ToolError(f"{definition.name} was not run: {said}")

    return ToolDef(
        execute,
        name=definition.name,
        description=definition.description,
        parameters=definition.parameters,
    ).as_tool()
