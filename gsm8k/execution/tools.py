"""Tools the model may call while reasoning: a safe calculator and a limited Python runner."""

from __future__ import annotations

from inspect_ai.tool import Tool, ToolError, tool

from gsm8k.execution.calculator import CalculatorError, calculate, format_number
from gsm8k.execution.dispatch import check_isolation, run_model_code
from gsm8k.execution.isolation import Isolation
from gsm8k.execution.runner import DEFAULT_LIMITS, ExecutionResult, Limits

TOOL_OUTPUT_CHARS = 4000
"""How much of a program's output goes back to the model (the log's score keeps its own)."""


@tool
def calculator() -> Tool:
    async def execute(expression: str) -> str:
        """Evaluate an arithmetic expression exactly.

        Supports numbers, + - * / // % ** and parentheses, e.g. "(16 - 3 - 4) * 2".

        Args:
            expression: The arithmetic expression to evaluate.

        Returns:
            The result.
        """
        try:
            return format_number(calculate(expression))
        except CalculatorError as error:
            # Inspect returns a ToolError to the model as the call's error; the sample goes on.
            raise ToolError(f"{error} (expression: {expression[:100]!r})") from error

    return execute


@tool
def python_runner(
    limits: Limits = DEFAULT_LIMITS, in_sandbox: bool = False, isolation: Isolation = "bwrap"
) -> Tool:
    """Run the model's programs where ``pal_grader`` would (see its arguments).

    Raises:
        PrerequisiteError: when ``isolation="bwrap"`` and bubblewrap cannot run here.
    """
    check_isolation(in_sandbox, isolation)

    async def execute(code: str) -> str:
        """Run a short Python program (standard library only) and return its result.

        Define solution() returning a number, or assign the number to `ans`; anything printed is
        returned too. No network, no files outside a scratch directory, a few seconds of CPU.

        Args:
            code: The Python program to run.

        Returns:
            The program's printed output and result, or the error it raised.
        """
        return describe(await run_model_code(code, limits, in_sandbox, isolation))

    return execute


def describe(result: ExecutionResult) -> str:
    """What the model sees: the program's output (clipped), then its result or error."""
    output = result.stdout
    if len(output) > TOOL_OUTPUT_CHARS or result.dropped_bytes:
        output = f"{output[:TOOL_OUTPUT_CHARS]}\n[output clipped]"
    printed = f"Output:\n{output.rstrip()}\n" if output.strip() else ""
    if result.status == "ok":
        return f"{printed}Result: {result.value}"
    if result.status == "no_result" and printed:
        return printed.rstrip()  # a program that only prints is fine for a tool
    errors = result.stderr.strip()[-TOOL_OUTPUT_CHARS:]
    printed += f"Errors:\n{errors}\n" if errors else ""
    return f"{printed}Error ({result.status}): {result.error}"
