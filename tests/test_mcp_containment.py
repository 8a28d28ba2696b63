"""Attacks on the MCP path's containment, each through a real server process: the shipped
gsm8k-mcp over stdio and over streamable HTTP, the npm filesystem server where node and its
cached package are present, and the task's own calculator and Python tools. A scripted model
sends what a hostile or broken model would; every sample must end scored (or unscored only on
the harness's own evidence), every eval ``success``, and nothing may outlive a sample."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import ChatMessageTool
from inspect_ai.tool import ToolCall, ToolInfo

from gsm8k.grading.reasons import MCP_SERVER_FAILED
from gsm8k.mcp import agent
from gsm8k.task import gsm8k
from tests.conftest import MINI_DATA
from tests.mcp_support import serving_http, shipped_server, tool_model
from tests.scripted import run_eval
from tests.test_mcp_eval import (
    score,
)

pytestmark = pytest.mark.slow

ECHOED = "Connection closed ClosedResourceError BrokenResourceError"
"""What the old classifier read as a lost server, in a tool's error text."""
WRONG = "ANSWER: 7"
"""Every question of the mini set has another answer: a scored sample grades 0."""


def nested(levels: int) -> Any:
    value: Any = "1"
    for _ in range(levels):
        value = {"a": value}
    return value


def scripted(calls: list[ToolCall], final: str = WRONG) -> Callable[..., ToolCall | str]:
    """Make ``calls`` one per reply, then answer ``final``."""

    def plan(
        question: str, tools: list[ToolInfo], results: list[ChatMessageTool]
    ) -> ToolCall | str:
        return calls[len(results)] if len(results) < len(calls) else final

    return plan


def hostile(function: str, argument: str) -> list[ToolCall]:
    """Calls to ``function(argument=...)`` that echo the old markers or could not be sent."""
    values: list[tuple[str, Any]] = [
        ("echo", ECHOED),
        ("surrogate", "1 + \ud800"),
        ("deep", nested(600)),
        ("huge", "1 + " * 300_000 + "1"),
    ]
    return [
        ToolCall(id=f"{name}-{function}", function=function, arguments={argument: value})
        for name, value in values
    ]


def run(task_args: dict[str, Any], plan: Callable[..., ToolCall | str], **kwargs: Any) -> EvalLog:
    task = gsm8k(dataset=str(MINI_DATA), fewshot=0, **task_args)
    log: EvalLog = run_eval(task, tool_model(plan), limit=1, **kwargs)
    assert log.status == "success", log.error
    return log


def only_sample(log: EvalLog) -> EvalSample:
    assert log.samples is not None
    [sample] = log.samples
    assert sample.error is None
    return sample


def assert_scored_wrong(sample: EvalSample) -> None:
    """Scored, not left out: the attack did not take the sample out of the accuracy."""
    value = score(sample).value
    assert isinstance(value, dict), score(sample)
    assert value["accuracy"] == 0.0
    assert agent.FAILURE_KEY not in (sample.metadata or {})


def tool_errors(sample: EvalSample) -> list[str]:
    return [m.error.message for m in sample.messages if isinstance(m, ChatMessageTool) and m.error]


def assert_refused_three(sample: EvalSample) -> None:
    """The surrogate, the nesting and the size: refused before sending, read by the model."""
    refused = [e for e in tool_errors(sample) if "arguments were refused" in e]
    assert len(refused) == 3, tool_errors(sample)
    assert any("UTF-8" in e for e in refused)
    assert any("nested more than" in e for e in refused)
    assert any("larger than" in e for e in refused)


@pytest.mark.parametrize(
    ("task_args", "function", "argument"),
    [
        pytest.param({"tools": "calculator"}, "calculator", "expression", id="tools-calculator"),
        pytest.param({"tools": "python"}, "python_runner", "code", id="tools-python"),
    ],
)
def test_hostile_arguments_to_the_tasks_own_tools_end_scored(
    task_args: dict[str, Any], function: str, argument: str
) -> None:
    sample = only_sample(run(task_args, scripted(hostile(function, argument))))
    assert_scored_wrong(sample)
    assert_refused_three(sample)


def shipped_attacks() -> list[ToolCall]:
    program = f"print({ECHOED!r})\nraise RuntimeError({ECHOED!r})"
    return [
        *hostile("calculator", "expression"),
        ToolCall(id="program-echo", function="python", arguments={"code": program}),
        *hostile("python", "code")[1:],
    ]


def test_shipped_server_over_stdio_is_not_unscored_or_aborted_by_the_model(tmp_path: Path) -> None:
    sample = only_sample(run({"mcp": shipped_server(tmp_path)}, scripted(shipped_attacks())))
    assert_scored_wrong(sample)
    errors = tool_errors(sample)
    assert sum(ECHOED in e for e in errors) == 2, errors  # the echoes reached the model
    assert sum("arguments were refused" in e for e in errors) == 6, errors


def test_shipped_server_over_http_is_not_unscored_or_aborted_by_the_model() -> None:
    with serving_http() as (_process, url):
        sample = only_sample(run({"mcp": url}, scripted(shipped_attacks())))
    assert_scored_wrong(sample)
    assert sum("arguments were refused" in e for e in tool_errors(sample)) == 6


def test_an_http_server_that_goes_away_mid_sample_is_the_servers_failure() -> None:
    """The harness's own evidence: the server process is gone and the connection refused."""
    with serving_http() as (process, url):
        killed: list[int] = []

        def plan(
            question: str, tools: list[ToolInfo], results: list[ChatMessageTool]
        ) -> ToolCall | str:
            if not results:
                return ToolCall(id="c1", function="calculator", arguments={"expression": "1 + 1"})
            if len(results) == 1:
                process.kill()
                process.wait(timeout=10)
                killed.append(process.pid)
                return ToolCall(id="c2", function="calculator", arguments={"expression": "2 + 2"})
            return WRONG

        sample = only_sample(run({"mcp": url}, plan))
    assert killed
    given = score(sample)
    assert isinstance(given.value, float) and math.isnan(given.value)
    assert given.reason == MCP_SERVER_FAILED
    assert "stopped answering" in (sample.metadata or {})[agent.FAILURE_KEY]
