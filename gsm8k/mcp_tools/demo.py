"""``--model plumbing-demo/tool-caller``: a scripted model for seeing ``-T mcp=`` work without keys.

A plumbing demo, not a model: it does no reasoning and its accuracy means nothing. It reads the
worked solution of the sample being run (GSM8K's ``<<48/2=24>>`` calculator annotations, kept in
the sample's metadata) and, when a ``calculator`` or ``python`` tool is offered, sends each of
those expressions to the tool in turn, then answers with the last result the tool gave back. So
the with/without report has real tool traffic to count: the calls, the server's answers, the
tokens they add, the start-up of each sample's server. Offered no tool (``mcp=none``), it
computes the same expressions itself with this task's calculator. Its answers are right when the
tool's are, on either side: the pair shows the plumbing, never a server's worth.

Token counts are approximate (a token per four characters, set on every reply), so nothing is
downloaded to count them and the demo runs offline.

    inspect eval gsm8k/task.py --model plumbing-demo/tool-caller --limit 10 -T mcp=gsm8k-mcp
"""

from __future__ import annotations

import re
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageTool,
    ChatMessageUser,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from gsm8k.execution.calculator import CalculatorError, calculate, format_number

PROVIDER_NAME = "plumbing-demo"
MODEL_NAME = "tool-caller"
CHARACTERS_PER_TOKEN = 4
ANNOTATION = re.compile(r"<<([^=<>]+)=[^<>]*>>")
NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
TOOL_ARGUMENT = {"calculator": "expression", "python": "code"}
"""The tools it can drive, by the name's ending, and the argument each takes."""


def worked_expressions(solution: str) -> list[str]:
    """The calculator annotations of a GSM8K solution, in order (``<<16-3-4=9>>`` → ``16-3-4``)."""
    return [found.group(1).strip() for found in ANNOTATION.finditer(solution)]


def current_solution() -> str:
    """The worked solution in the running sample's metadata ("" outside a sample)."""
    from inspect_ai.log._samples import sample_active

    active = sample_active()
    metadata: dict[str, Any] = (active.sample.metadata or {}) if active else {}
    solution = metadata.get("solution")
    return solution if isinstance(solution, str) else ""


def choose_tool(tools: list[ToolInfo]) -> tuple[str, str] | None:
    """The offered tool it will call and that tool's argument name (calculator first)."""
    for ending, argument in TOOL_ARGUMENT.items():
        for tool in tools:
            if tool.name == ending or tool.name.endswith(f"_{ending}"):
                return tool.name, argument
    return None


def next_move(
    question: str, solution: str, tools: list[ToolInfo], results: list[ChatMessageTool]
) -> tuple[str, dict[str, str]] | str:
    """A tool call (name, arguments) or the final reply."""
    steps = worked_expressions(solution)
    tool = choose_tool(tools)
    if tool is not None and len(results) < len(steps):
        name, argument = tool
        expression = steps[len(results)]
        value = expression if argument == "expression" else f"print({expression})"
        return name, {argument: value}
    if tool is not None and results:
        answered = [r.text.strip() for r in results if r.error is None and r.text.strip()]
        last = NUMBER.findall(answered[-1]) if answered else []
        answer = last[-1] if last else "0"
        return f"The {tool[0]} tool worked it out; its last result is {answer}.\nANSWER: {answer}"
    answer = computed(steps) or _last_number(question)
    return f"Working the arithmetic by hand gives {answer}.\nANSWER: {answer}"


def computed(steps: list[str]) -> str:
    """The last of ``steps`` this task's calculator can evaluate, as text ("" for none)."""
    value = ""
    for step in steps:
        try:
            value = format_number(calculate(step))
        except CalculatorError:
            continue
    return value


def _last_number(text: str) -> str:
    found = NUMBER.findall(text)
    return found[-1].replace(",", "") if found else "0"


class ToolCallerAPI(ModelAPI):
    """The scripted tool-calling demo (see the module docstring)."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        asked = max(i for i, m in enumerate(input) if isinstance(m, ChatMessageUser))
        question = input[asked].text.rsplit("Question:", 1)[-1]
        results = [m for m in input[asked:] if isinstance(m, ChatMessageTool)]
        move = next_move(question, current_solution(), tools, results)
        if isinstance(move, str):
            output = ModelOutput.from_content(model=self.model_name, content=move)
            written = len(move)
        else:
            name, arguments = move
            output = ModelOutput.for_tool_call(
                model=self.model_name, tool_name=name, tool_arguments=arguments
            )
            written = len(name) + sum(len(v) for v in arguments.values())
        read = sum(len(m.text) for m in input) + sum(len(t.description) for t in tools)
        prompt_tokens = read // CHARACTERS_PER_TOKEN + 1
        output_tokens = written // CHARACTERS_PER_TOKEN + 1
        output.usage = ModelUsage(
            input_tokens=prompt_tokens,
            output_tokens=output_tokens,
            total_tokens=prompt_tokens + output_tokens,
        )
        return output

    def max_connections(self) -> int:
        return 10


@modelapi(name=PROVIDER_NAME)
def plumbing_demo() -> type[ModelAPI]:
    return ToolCallerAPI
