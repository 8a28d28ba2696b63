"""Program-aided GSM8K: programs for few-shot exemplars, and the program in a model's completion."""

from __future__ import annotations

import re

from gsm8k.execution.calculator import CalculatorError, calculate, normalize_expression
from gsm8k.grading.numbers import parse_gold, same_number
from gsm8k.grading.numbers import parse_number as parse_value

FENCE = "```"
PYTHON_FENCE_LABELS = frozenset({"", "python", "py", "python3"})
"""Fence info strings that open a Python block (any case, spaces and tabs around them)."""
_ANNOTATION = re.compile(r"<<([^<>=]+)=([^<>]*)>>")
_CODE_START = re.compile(r"^(?:def |import |from |[A-Za-z_]\w*\s*=)")
_CODE_LINE = re.compile(r"^(?:\s|def |import |from |return\b|print\(|[A-Za-z_]\w*\s*[-+*/]?=|#|$)")


def extract_program(completion: str) -> str | None:
    """The program in a completion: the last fenced block that defines ``solution`` or assigns an
    answer, else the last fenced block, else unfenced code starting at ``def``/``import``/an
    assignment; ``None`` when there is no code."""
    blocks = [b.strip("\n") for b in fenced_blocks(completion) if b.strip()]
    for block in reversed(blocks):
        if "def solution" in block or re.search(r"^(?:ans|answer|result)\s*=", block, re.MULTILINE):
            return block
    if blocks:
        return blocks[-1]
    lines = completion.splitlines()
    start = next((i for i, line in enumerate(lines) if _CODE_START.match(line)), None)
    if start is None:
        return None
    code = []
    for line in lines[start:]:
        if not _CODE_LINE.match(line):
            break
        code.append(line)
    return "\n".join(code).strip("\n") or None


def fenced_blocks(text: str) -> list[str]:
    """The bodies of the Python code fences in ``text``, in order; an unclosed fence runs to the
    end. Linear in the length of ``text`` (a regular expression for this backtracked
    quadratically on an unclosed fence followed by a long run of spaces)."""
    blocks: list[str] = []
    start = text.find(FENCE)
    while start != -1:
        line_end = text.find("\n", start + len(FENCE))
        if line_end == -1:
            break  # no line after the fence: no block
        label = text[start + len(FENCE) : line_end].strip(" \t")
        if label.lower() not in PYTHON_FENCE_LABELS:
            start = text.find(FENCE, start + 1)  # not an opening fence here: look further on
            continue
        close = text.find(FENCE, line_end + 1)
        blocks.append(text[line_end + 1 : len(text) if close == -1 else close])
        if close == -1:
            break
        start = text.find(FENCE, close + len(FENCE))
    return blocks


def program_from_solution(solution: str, answer: str) -> str | None:
    """A ``solution()`` program built from a GSM8K worked solution's calculator annotations.

    Each step's sentence becomes a comment and each ``<<expr=value>>`` annotation a variable;
    the function returns the last one. Returns ``None`` when the annotations do not reproduce the
    gold answer (some solutions finish without an annotated step), so such records are not used
    as program exemplars.
    """
    body: list[str] = []
    last_value = None
    step = 0
    for line in solution.splitlines():
        annotations = _ANNOTATION.findall(line)
        if not line.strip():
            continue
        body.append(f"    # {_ANNOTATION.sub('', line).strip()}")
        for expression, _ in annotations:
            try:
                last_value = calculate(expression)
            except CalculatorError:
                return None
            step += 1
            body.append(f"    step_{step} = {_spaced(expression)}")
    if step == 0 or last_value is None:
        return None
    parsed = parse_value(
        str(float(last_value)) if not isinstance(last_value, int) else str(last_value)
    )
    if parsed is None or not same_number(parsed, parse_gold(answer)):
        return None
    return "def solution():\n" + "\n".join(body) + f"\n    return step_{step}\n"


def _spaced(expression: str) -> str:
    text = normalize_expression(expression)
    return re.sub(r"\s*([-+*/])\s*", r" \1 ", text).replace("*  *", "**").strip()
