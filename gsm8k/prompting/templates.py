"""The question template for a mode and tool: the task's chain-of-thought prompt, or a program's;
GSM-Plus's instruction and a hint about the tool the model may call."""

from __future__ import annotations

from gsm8k.data.family.sources import VARIANTS
from gsm8k.execution.packages import describe as describe_packages
from gsm8k.grading.golds import UNANSWERABLE_INSTRUCTION

PAL_PROMPT_TEMPLATE = (
    "Solve the following math problem by writing a Python program. Define a function "
    "solution() that takes no arguments and returns the final answer as a number. Use only "
    "{imports}, and put the whole program in one ```python code block.\n\n"
    "Question: {question}"
)
TOOL_HINTS = {
    "calculator": "You may use the calculator tool for arithmetic.",
    "python": "You may use the python_runner tool to run short Python programs ({imports}).",
}


def prompt_template(
    text_template: str, mode: str, tools: str, source: str, packages: list[str] | None = None
) -> str:
    """The question template: text or program, plus GSM-Plus's instruction and a tool hint;
    programs are told they may import ``packages`` besides the standard library."""
    imports = describe_packages(packages or [])
    template = (
        PAL_PROMPT_TEMPLATE.format(imports=imports, question="{question}")
        if mode == "pal"
        else text_template
    )
    variant = VARIANTS.get(source)
    if variant is not None and variant.family == "plus":
        # Every GSM-Plus item gets the same instruction, so it says nothing about which items
        # cannot be answered.
        template = template.replace("\n\nQuestion:", f" {UNANSWERABLE_INSTRUCTION}\n\nQuestion:")
    if tools != "none":
        hint = TOOL_HINTS[tools].format(imports=imports)
        template = template.replace("\n\nQuestion:", f" {hint}\n\nQuestion:")
    return template
