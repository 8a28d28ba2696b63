"""Tool-assisted GSM8K: the calculator, the Python tool, and the text protocol for GGUF models."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageTool,
    ChatMessageUser,
    ModelOutput,
)
from inspect_ai.tool import ToolCall, ToolInfo, ToolParams

from gsm8k.execution.calculator import CalculatorError, calculate, format_number
from gsm8k.local.tool_protocol import parse_tool_calls, render_messages
from gsm8k.task import gsm8k
from tests.scripted import mock_model, run_eval


@pytest.mark.parametrize(
    ("expression", "result"),
    [
        pytest.param("(16 - 3 - 4) * 2", "18", id="gsm8k-arithmetic"),
        pytest.param("1/3*3", "1", id="exact-fractions"),
        pytest.param("1,200 * 3", "3600", id="thousands-separators"),
        pytest.param("2^10", "1024", id="caret-as-power"),
        pytest.param("7 × 6 ÷ 2", "21", id="unicode-operators"),
        pytest.param("-5 + 2", "-3", id="unary-minus"),
        pytest.param("10 // 3 + 10 % 3", "4", id="floor-division-and-modulo"),
        pytest.param("0.1 * 3", "0.30000000000000004", id="float-literals-stay-float"),
        pytest.param("1/8", "0.125", id="fraction-shown-as-decimal"),
    ],
)
def test_calculator_evaluates_arithmetic(expression: str, result: str) -> None:
    assert format_number(calculate(expression)) == result


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        pytest.param("__import__('os').system('true')", "unsupported element", id="function-call"),
        pytest.param("x + 1", "unsupported element", id="names"),
        pytest.param("2 ** 1000", "exponent larger than 100", id="huge-exponent"),
        pytest.param("9" * 70, "larger than 10^60", id="huge-number"),
        pytest.param("99 ** 50 * 99 ** 50", "larger than 10^60", id="huge-intermediate"),
        pytest.param("1 / 0", "division by zero", id="division-by-zero"),
        pytest.param("0 ** -1", "division by zero", id="zero-to-a-negative-power"),
        pytest.param("0.0 ** -2.5", "division by zero", id="float-zero-to-a-negative-power"),
        pytest.param("7 % 0.0", "division by zero", id="modulo-float-zero"),
        pytest.param("1e59 ** 6", "larger than 10^60", id="float-power-overflow"),
        pytest.param(
            "1e-59 ** -6", "larger than 10^60", id="float-power-overflow-negative-exponent"
        ),
        pytest.param("1e308 * 10", "larger than 10^60", id="float-infinity"),
        pytest.param(
            "((((1/3)**100)**100)**100)**100",
            "denominator of more than 60 digits",
            id="precision-bomb",
        ),
        pytest.param(
            "(1/7)**71", "denominator of more than 60 digits", id="denominator-just-past-the-limit"
        ),
        pytest.param(
            "99 ** -100", "denominator of more than 60 digits", id="negative-exponent-precision"
        ),
        pytest.param(
            "((10**59 + 1) / 10**59) ** 100",
            "denominator of more than 60 digits",
            id="near-one-base",
        ),
        pytest.param("(3/2) ** 100 * 10 ** 50", "larger than 10^60", id="exact-magnitude"),
        pytest.param("2" + "**2" * 150, "exponent larger than 100", id="power-tower"),
        pytest.param("(-8) ** 0.5", "not a real number", id="complex-result"),
        pytest.param("1 +", "not an arithmetic expression", id="syntax"),
        pytest.param("1" + "+1" * 300, "longer than 500", id="too-long"),
        pytest.param("[1, 2]", "not an arithmetic expression", id="lists"),
    ],
)
def test_calculator_refuses_anything_else(expression: str, message: str) -> None:
    with pytest.raises(CalculatorError, match=re.escape(message)):
        calculate(expression)


def test_calculator_keeps_exact_fractions_internally() -> None:
    assert calculate("2/3 + 1/3") == Fraction(1)


@pytest.mark.parametrize(
    ("expression", "result"),
    [
        pytest.param("(1/3) ** 100", "1.94032521748e-48", id="small-exact-power"),
        pytest.param("(1/7) ** 70", "6.96846621814e-60", id="denominator-just-within-the-limit"),
        pytest.param("(2/3) ** -2", "2.25", id="negative-exponent"),
        pytest.param("(-2) ** -3", "-0.125", id="negative-base-negative-exponent"),
        pytest.param("10 ** 59", "1" + "0" * 59, id="largest-power-of-ten"),
        pytest.param("8 ** (1/3)", "2", id="root-as-float"),
        pytest.param("0 ** 0", "1", id="zero-to-the-zero"),
        pytest.param("-" * 400 + "1", "1", id="long-unary-chain"),
        pytest.param("(" * 200 + "1" + ")" * 200, "1", id="deep-parentheses"),
    ],
)
def test_calculator_bounds_keep_ordinary_arithmetic(expression: str, result: str) -> None:
    assert format_number(calculate(expression)) == result


def test_calculator_never_builds_a_huge_number(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every value the calculator computes stays within its bounds, so each operation is cheap.

    Counted, not timed: the power that would build a number of millions of digits is refused
    from the operands' bit lengths before it runs.
    """
    import gsm8k.execution.calculator as calc

    largest_bits = 0
    original = calc._checked

    def spy(value: object) -> calc.Number:
        nonlocal largest_bits
        if isinstance(value, Fraction):
            largest_bits = max(
                largest_bits, value.numerator.bit_length(), value.denominator.bit_length()
            )
        return original(value)

    monkeypatch.setattr(calc, "_checked", spy)
    for expression in [
        "((((1/3)**100)**100)**100)**100",
        "((2/3)**100)**100",
        "(((10**59)/(10**59 - 1))**100)**100",
        "(1/(10**59 - 1))**-100",
    ]:
        with pytest.raises(CalculatorError):
            calculate(expression)
    # the bounds are 10^60 (200 bits) for denominators and 10^120 for numerators, plus at most
    # one exponent's worth of bits computed before the exact check refuses the value
    assert 0 < largest_bits <= 400 + 100


def tool_using_model(tool: str, arguments: dict[str, Any]) -> Any:
    """Calls ``tool`` once, then answers with whatever the tool returned."""

    def respond(messages: list[ChatMessage], tools: list[ToolInfo]) -> ModelOutput:
        assert [t.name for t in tools] == [tool]
        results = [m for m in messages if isinstance(m, ChatMessageTool)]
        if not results:
            return ModelOutput.for_tool_call("scripted", tool, arguments)
        value = results[-1].text.rsplit(":", 1)[-1].strip()
        return ModelOutput.from_content("scripted", f"The tool says {value}.\nANSWER: {value}")

    return mock_model(respond, "tools")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("tools", "arguments"),
    [
        pytest.param("calculator", {"expression": "(16 - 3 - 4) * 2"}, id="calculator"),
        pytest.param(
            "python", {"code": "def solution():\n    return (16 - 3 - 4) * 2\n"}, id="python"
        ),
    ],
)
def test_tool_result_reaches_the_model_and_is_graded(
    tools: str, arguments: dict[str, Any], mini_data: Path, tmp_path: Path
) -> None:
    tool_name = "calculator" if tools == "calculator" else "python_runner"
    log = run_eval(
        gsm8k(dataset=str(mini_data), fewshot=1, tools=tools),  # type: ignore[arg-type]
        tool_using_model(tool_name, arguments),
        log_dir=str(tmp_path),
        limit=1,
    )
    assert log.status == "success"
    [sample] = log.samples
    tool_messages = [m for m in sample.messages if isinstance(m, ChatMessageTool)]
    assert tool_messages and tool_messages[0].text.endswith("18")
    grader = sample.scores["gsm8k_grader"]
    assert grader.answer == "18" and grader.value["accuracy"] == 1.0
    assert log.eval.metadata["tools"] == tools


def test_python_tool_reports_errors_to_the_model(mini_data: Path, tmp_path: Path) -> None:
    log = run_eval(
        gsm8k(dataset=str(mini_data), fewshot=0, tools="python"),
        tool_using_model(
            "python_runner",
            {"code": "import socket\nsocket.create_connection(('192.0.2.1', 80))\nans = 1"},
        ),
        log_dir=str(tmp_path),
        limit=1,
    )
    [sample] = log.samples
    [result] = [m for m in sample.messages if isinstance(m, ChatMessageTool)]
    # The sandbox makes no sockets (their inode numbers are a machine-wide counter).
    assert "Error (error): PermissionError: [Errno 1] Operation not permitted" in result.text


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        pytest.param("0 ** -1", "division by zero", id="zero-to-a-negative-power"),
        pytest.param("1e59 ** 6", "larger than 10^60", id="float-overflow"),
        pytest.param("((((1/3)**100)**100)**100)**100", "denominator of more than 60 digits", id="precision-bomb"),
        pytest.param("__import__('os')", "unsupported element", id="not-arithmetic"),
    ],
)  # fmt: skip
def test_calculator_errors_reach_the_model_as_tool_errors(
    expression: str, message: str, mini_data: Path, tmp_path: Path
) -> None:
    log = run_eval(
        gsm8k(dataset=str(mini_data), fewshot=0, tools="calculator"),
        tool_using_model("calculator", {"expression": expression}),
        log_dir=str(tmp_path),
        limit=1,
    )
    assert log.status == "success"
    [sample] = log.samples
    assert sample.error is None
    [result] = [m for m in sample.messages if isinstance(m, ChatMessageTool)]
    assert result.error is not None and message in result.error.message
    assert expression[:20] in result.error.message
    assert "gsm8k_grader" in sample.scores


def test_pal_and_tools_together_are_rejected(mini_data: Path) -> None:
    with pytest.raises(ValueError, match="tools= applies to mode=cot"):
        gsm8k(dataset=str(mini_data), mode="pal", tools="calculator")


CALCULATOR_INFO = ToolInfo(
    name="calculator",
    description="Evaluate arithmetic.",
    parameters=ToolParams(properties={"expression": {"type": "string"}}, required=["expression"]),  # type: ignore[dict-item]
)


def test_gguf_protocol_renders_tools_calls_and_results_as_text() -> None:
    call = ToolCall(id="c1", function="calculator", arguments={"expression": "9*2"})
    messages: list[ChatMessage] = [
        ChatMessageUser(content="What is 9*2?"),
        ChatMessageAssistant(content="Let me compute.", tool_calls=[call]),
        ChatMessageTool(content="18", tool_call_id="c1", function="calculator"),
    ]
    rendered = render_messages(messages, [CALCULATOR_INFO])
    assert rendered[0]["role"] == "system" and '"name": "calculator"' in rendered[0]["content"]
    assert rendered[2] == {
        "role": "assistant",
        "content": 'Let me compute.<tool_call>{"name": "calculator", "arguments": {"expression": "9*2"}}</tool_call>',
    }
    assert rendered[3] == {"role": "user", "content": "Result of calculator: 18"}


@pytest.mark.parametrize(
    ("completion", "calls", "prose"),
    [
        pytest.param('I will add.<tool_call>{"name": "calculator", "arguments": {"expression": "2+2"}}</tool_call>', [("calculator", {"expression": "2+2"})], "I will add.", id="closed-call"),
        pytest.param('<tool_call>\n{"name": "calculator", "arguments": {"expression": "7*6"}}', [("calculator", {"expression": "7*6"})], "", id="unclosed-call-at-end"),
        pytest.param("ANSWER: 18", [], "ANSWER: 18", id="no-call"),
        pytest.param("<tool_call>{not json}</tool_call>", [], "<tool_call>{not json}</tool_call>", id="malformed-json-ignored"),
    ],
)  # fmt: skip
def test_gguf_protocol_parses_tool_calls(
    completion: str, calls: list[tuple[str, dict[str, str]]], prose: str
) -> None:
    text, parsed = parse_tool_calls(completion, [CALCULATOR_INFO])
    assert [(c.function, c.arguments) for c in parsed] == calls
    assert text == prose
