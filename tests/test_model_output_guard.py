"""Replies that used to error a sample or stall the run: an empty ``choices`` list, one reply
with thousands of tool calls, and a program extractor that backtracked quadratically."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from inspect_ai.model import (
    ChatMessage,
    ChatMessageTool,
    ModelOutput,
)
from inspect_ai.tool import ToolCall, ToolInfo

from gsm8k.execution.guard import GUARD_KEY, MAX_TOOL_CALLS_PER_REPLY
from gsm8k.execution.programs import extract_program, fenced_blocks
from gsm8k.task import gsm8k
from tests.scripted import mock_model, run_eval

needs_linux = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="code modes need the OS sandbox"
)


def _empty(messages: list[ChatMessage], tools: list[ToolInfo]) -> ModelOutput:
    return ModelOutput(model="broken", choices=[])


def _flood(count: int, tool: str, argument: dict[str, Any]) -> Any:
    def respond(messages: list[ChatMessage], tools: list[ToolInfo]) -> ModelOutput:
        if any(isinstance(m, ChatMessageTool) for m in messages):
            return ModelOutput.from_content("flood", "ANSWER: 18")
        output = ModelOutput.from_content("flood", "Let me check. ANSWER: 18")
        output.choices[0].message.tool_calls = [
            ToolCall(id=f"call-{i}", function=tool, arguments=argument) for i in range(count)
        ]
        output.choices[0].stop_reason = "tool_calls"
        return output

    return respond


def _only_sample(log: Any) -> Any:
    assert log.status == "success", log.error
    [sample] = log.samples
    assert sample.error is None, sample.error
    return sample


@pytest.mark.slow
@pytest.mark.parametrize(
    "settings",
    [
        pytest.param({}, id="cot"),
        pytest.param({"tools": "calculator"}, id="calculator"),
        pytest.param({"mode": "pal"}, id="pal", marks=needs_linux),
        pytest.param({"tools": "python"}, id="python-tool", marks=needs_linux),
    ],
)
def test_an_empty_choices_list_is_a_scored_failure(
    mini_data: Path, tmp_path: Path, settings: dict[str, Any]
) -> None:
    task = gsm8k(dataset=str(mini_data), fewshot=0, **settings)
    sample = _only_sample(
        run_eval(task, mock_model(_empty, "broken"), log_dir=str(tmp_path), limit=1)
    )
    score = next(iter(sample.scores.values()))
    assert score.value["accuracy"] == 0.0
    assert sample.metadata[GUARD_KEY] == "the model's reply had no choices"
    assert sample.output.completion == ""


@pytest.mark.parametrize(
    ("settings", "tool", "argument"),
    [
        pytest.param({"tools": "calculator"}, "calculator", {"expression": "9*2"}, id="calculator"),
        pytest.param(
            {"tools": "python"}, "python_runner", {"code": "ans = 18"}, id="python-tool",
            marks=needs_linux,
        ),
    ],
)  # fmt: skip
def test_a_flood_of_tool_calls_ends_the_sample_without_running_them(
    mini_data: Path, tmp_path: Path, settings: dict[str, Any], tool: str, argument: dict[str, Any]
) -> None:
    # 1,000 calls: 62 times the per-reply limit, and a flood that ran would leave tool messages;
    # 10,000 checked nothing more and cost 1.3 s of CPU more per run (a 10x larger log).
    model = mock_model(_flood(1_000, tool, argument), "flood")
    task = gsm8k(dataset=str(mini_data), fewshot=0, **settings)
    sample = _only_sample(run_eval(task, model, log_dir=str(tmp_path), limit=1))
    assert not [m for m in sample.messages if isinstance(m, ChatMessageTool)]
    assert "1000 tool calls" in sample.metadata[GUARD_KEY]
    # The text that came with the calls is still graded as the completion.
    assert sample.output.completion == "Let me check. ANSWER: 18"


def test_a_few_tool_calls_in_one_reply_still_run(mini_data: Path, tmp_path: Path) -> None:
    model = mock_model(
        _flood(MAX_TOOL_CALLS_PER_REPLY, "calculator", {"expression": "9*2"}), "calculator"
    )
    task = gsm8k(dataset=str(mini_data), fewshot=0, tools="calculator")
    sample = _only_sample(run_eval(task, model, log_dir=str(tmp_path), limit=1))
    results = [m for m in sample.messages if isinstance(m, ChatMessageTool)]
    assert len(results) == MAX_TOOL_CALLS_PER_REPLY and results[0].text == "18"
    assert GUARD_KEY not in sample.metadata
    assert sample.scores["gsm8k_grader"].value["accuracy"] == 1.0


# The extractor's previous regular expression: the reference for what a fence is.
OLD_FENCED = re.compile(
    r"```[ \t]*(?:python|py|python3)?[ \t]*\n(.*?)(?:```|\Z)", re.DOTALL | re.IGNORECASE
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.sampled_from(["`", "```", "\n", " ", "\t", "py", "thon", "3", "x", "J", "json"])
    ).map("".join)
)
def test_fenced_blocks_agree_with_the_previous_expression(text: str) -> None:
    assert fenced_blocks(text) == OLD_FENCED.findall(text)


@pytest.mark.parametrize(
    ("completion", "program"),
    [
        pytest.param("```" + " " * 150_000, None, id="unclosed-fence-then-spaces"),
        pytest.param("```python\n" + " " * 150_000 + "ans = 18", "ans = 18", id="unclosed-block"),
        pytest.param("```json\n{}\n```\n" * 20_000, None, id="many-other-fences"),
        pytest.param("ans" + " " * 150_000 + "= 18", "ans" + " " * 150_000 + "= 18",
                     id="spaces-in-assignment"),
    ],
)  # fmt: skip
def test_hostile_completions_extract_as_before(completion: str, program: str | None) -> None:
    extracted = extract_program(completion)
    assert (extracted.strip() if extracted else extracted) == program
