"""A red-team round against the tool loop and the MCP path: what a hostile model writes outside
a tool's arguments (its reply's text, a call's name and id) and what it can make a server do.
Each attack runs through a real eval with a scripted model; every sample must end scored, the
eval ``success``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalLog
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageTool,
    ContentReasoning,
    ContentText,
    ModelOutput,
)
from inspect_ai.tool import ToolCall, ToolInfo

from gsm8k.task import gsm8k
from tests.conftest import MINI_DATA
from tests.mcp_support import serving_http, shipped_server
from tests.scripted import mock_model, run_eval
from tests.test_mcp_containment import WRONG, assert_scored_wrong, only_sample

pytestmark = pytest.mark.slow

SURROGATE = "\ud800"
"""A lone surrogate: JSON can carry one (``"\\ud800"``), UTF-8 cannot."""


def replies(
    calls: list[ToolCall], text: str, reasoning: bool = False
) -> Callable[..., ModelOutput]:
    """One reply per call, each with ``text`` beside its call (as a reasoning part too, when
    ``reasoning``), then the wrong answer."""

    def respond(messages: list[ChatMessage], tools: list[ToolInfo]) -> ModelOutput:
        done = sum(isinstance(m, ChatMessageTool) for m in messages)
        if done >= len(calls):
            return ModelOutput.from_content(model="hostile", content=WRONG)
        content: str | list[ContentText | ContentReasoning] = text
        if reasoning:
            content = [ContentReasoning(reasoning=text, summary=text), ContentText(text=text)]
        message = ChatMessageAssistant(content=content, tool_calls=[calls[done]], model="hostile")
        return ModelOutput.from_message(message, stop_reason="tool_calls")

    return respond


def surrogate_calls(function: str, argument: str, value: str) -> list[ToolCall]:
    return [
        ToolCall(id=f"id-{SURROGATE}", function=function, arguments={argument: value}),
        ToolCall(id="name", function=f"{function}{SURROGATE}", arguments={argument: value}),
        ToolCall(id="plain", function=function, arguments={argument: value}),
    ]


def run(task_args: dict[str, Any], respond: Callable[..., ModelOutput]) -> EvalLog:
    task = gsm8k(dataset=str(MINI_DATA), fewshot=0, **task_args)
    log: EvalLog = run_eval(task, mock_model(respond, "hostile"), limit=1)
    assert log.status == "success", log.error
    return log


@pytest.mark.parametrize(
    ("task_args", "function", "argument", "value"),
    [
        pytest.param({"tools": "calculator"}, "calculator", "expression", "1 + 1", id="calculator"),
        pytest.param({"tools": "python"}, "python_runner", "code", "print(2)", id="python"),
    ],
)
def test_a_lone_surrogate_in_a_replys_text_or_a_calls_name_or_id_does_not_end_the_eval(
    task_args: dict[str, Any], function: str, argument: str, value: str
) -> None:
    """Each of these failed the log's writing (a ``PydanticSerializationError``) and ended the
    eval with status ``error``: the text of a reply that calls a tool is sent back to the model,
    and the call's name and id are written with its result."""
    calls = surrogate_calls(function, argument, value)
    sample = only_sample(run(task_args, replies(calls, f"Let me compute {SURROGATE}")))
    assert_scored_wrong(sample)
    results = [m for m in sample.messages if isinstance(m, ChatMessageTool)]
    assert len(results) == 3
    assert results[1].error is not None and "not found" in results[1].error.message


def test_a_lone_surrogate_beside_a_call_to_gsm8k_mcp_over_stdio_does_not_end_the_eval(
    tmp_path: Path,
) -> None:
    calls = surrogate_calls("calculator", "expression", "1 + 1")
    respond = replies(calls, f"Let me compute {SURROGATE}")
    sample = only_sample(run({"mcp": shipped_server(tmp_path)}, respond))
    assert_scored_wrong(sample)


def test_a_lone_surrogate_beside_a_call_to_gsm8k_mcp_over_http_does_not_end_the_eval() -> None:
    calls = surrogate_calls("calculator", "expression", "1 + 1")
    with serving_http() as (_process, url):
        sample = only_sample(run({"mcp": url}, replies(calls, f"Let me compute {SURROGATE}")))
    assert_scored_wrong(sample)


@pytest.mark.parametrize(
    "task_args",
    [
        pytest.param({"tools": "calculator"}, id="calculator"),
        pytest.param({"mcp": "none"}, id="none"),
    ],
)
def test_a_lone_surrogate_in_the_reasoning_beside_a_call_does_not_end_the_eval(
    task_args: dict[str, Any],
) -> None:
    """A reasoning part (a reasoning model's thinking) is sent back with the reply and hashed
    into the log like its text."""
    calls = [ToolCall(id="plain", function="calculator", arguments={"expression": "1 + 1"})]
    sample = only_sample(run(task_args, replies(calls, f"I think {SURROGATE}", reasoning=True)))
    assert_scored_wrong(sample)
