"""The task's generate step, with a guard on what the model sends back.

Inspect's own ``generate()`` reads the first choice of every reply, so a reply with an empty
``choices`` list (some providers send one on a filtered or failed completion) raises inside it
and errors the sample — with the default ``fail_on_error`` the whole run. And it runs every tool
call a reply holds: one reply with thousands of calls takes tens of seconds and hundreds of MB
before any budget can refuse them one by one. This solver calls the model through Inspect's
generate one reply at a time (``tool_calls="none"``: same config, cache and limits) and turns
both into that sample's scored failure: an empty reply is an empty completion (no answer), a
flood of calls ends the sample with none of them run. Arguments that cannot be sent as they are
(too deep, too large, not encodable: :mod:`gsm8k.execution.arguments`) make that call an error
the model reads, before Inspect or a tool touches them.
"""

from __future__ import annotations

from inspect_ai.model import ChatMessageAssistant, ModelOutput, execute_tools
from inspect_ai.solver import Generate, Solver, TaskState, solver

from gsm8k.execution.arguments import make_storable, screen_call
from gsm8k.grading.reasons import GUARD_KEY

MAX_TOOL_CALLS_PER_REPLY = 16
"""More calls than this in one reply are a flood: none of them run and the sample ends."""
"""The sample metadata key that records why the guard ended a sample."""


@solver
def guarded_generate(max_tool_calls: int = MAX_TOOL_CALLS_PER_REPLY) -> Solver:
    """Generate, run tool calls and generate again until the model answers, like Inspect's
    ``generate()``, but an empty reply or more than ``max_tool_calls`` calls in one reply end
    the sample as a failure instead of an error."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        while True:
            try:
                state = await generate(state, tool_calls="none")
            except IndexError:
                if not state.output.empty:
                    raise  # not the empty reply: an error of its own
                return _ended(state, state.output.model, "the model's reply had no choices")
            message = state.output.message
            if state.completed or not message.tool_calls:
                return state
            if len(message.tool_calls) > max_tool_calls:
                reason = (
                    f"the model's reply held {len(message.tool_calls)} tool calls (at most "
                    f"{max_tool_calls} in one reply): none were run"
                )
                state.messages.pop()  # the calls will never get results; keep only its text
                return _ended(state, state.output.model, reason, message.text)
            make_storable(message)
            for call in message.tool_calls:
                screen_call(call)  # arguments no tool can take: the call's error, not the run's
            result = await execute_tools(state.messages, state.tools)
            state.messages.extend(result.messages)
            if result.output is not None:
                state.output = result.output
            if state.completed:
                return state

    return solve


def _ended(state: TaskState, model: str, reason: str, text: str = "") -> TaskState:
    """End the sample with ``text`` (possibly empty) as its completion, recording ``reason``."""
    message = ChatMessageAssistant(content=text, model=model or None)
    state.messages.append(message)
    state.output = ModelOutput.from_message(message, stop_reason="unknown")
    state.output.error = reason
    state.metadata[GUARD_KEY] = reason
    return state
