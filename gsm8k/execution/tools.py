"""Tools the model may call while reasoning: a safe calculator and a limited Python runner."""

from __future__ import annotations

from inspect_ai.solver import Solver, use_tools
from inspect_ai.tool import Tool, ToolError, tool
from inspect_ai.util import store

from gsm8k.execution.budget import DEFAULT_BUDGET, TOOL_OUTPUT_CHARS, ProgramBudget, describe
from gsm8k.execution.calculator import CalculatorError, calculate, format_number
from gsm8k.execution.dispatch import check_isolation, run_model_code
from gsm8k.execution.isolation import Isolation
from gsm8k.execution.policy import CodePolicy
from gsm8k.execution.runner import DEFAULT_LIMITS, Limits

__all__ = ["DEFAULT_BUDGET", "TOOL_OUTPUT_CHARS", "ProgramBudget", "describe"]
"""The budget and the model's view of a run live in :mod:`gsm8k.execution.budget` (free of
Inspect); named here too, where callers have always imported them."""
RUNS_KEY = "gsm8k_python_runner_runs"
SECONDS_KEY = "gsm8k_python_runner_seconds"
"""Keys of the sample's store (Inspect keeps one per sample) that count what was spent."""


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
    limits: Limits = DEFAULT_LIMITS,
    in_sandbox: bool = False,
    isolation: Isolation = "bwrap",
    budget: ProgramBudget = DEFAULT_BUDGET,
) -> Tool:
    """Run the model's programs where ``pal_grader`` would (see its arguments).

    Each sample may run at most ``budget.runs`` programs using ``budget.seconds`` in all; past
    that every call answers with a tool error and runs nothing.

    Raises:
        PrerequisiteError: when ``isolation="bwrap"`` and bubblewrap cannot run here.
    """
    check_isolation(in_sandbox, isolation)

    async def execute(code: str) -> str:
        """Run a short Python program and return its result.

        Define solution() returning a number, or assign the number to `ans`; anything printed is
        returned too. No network, no files outside a scratch directory, a few seconds of CPU.

        Args:
            code: The Python program to run.

        Returns:
            The program's printed output and result, or the error it raised.
        """
        reserve(budget, limits.timeout_seconds)
        result = await run_model_code(code, limits, in_sandbox, isolation)
        # The reservation assumed the whole time limit; keep what the program really used.
        spent = store().get(SECONDS_KEY, 0.0) - limits.timeout_seconds + result.seconds
        store().set(SECONDS_KEY, spent)
        return describe(result)

    return execute


def reserve(budget: ProgramBudget, timeout_seconds: float) -> None:
    """Count one more run against the sample's budget before it starts (so that calls running
    at once cannot overdraw it), reserving its whole time limit.

    Raises:
        ToolError: when the budget cannot cover another run.
    """
    runs: int = store().get(RUNS_KEY, 0)
    seconds: float = store().get(SECONDS_KEY, 0.0)
    if runs >= budget.runs or seconds + timeout_seconds > budget.seconds:
        raise ToolError(
            f"python_runner budget for this question is spent ({runs} programs, {seconds:.0f} s "
            f"used; at most {budget.runs} programs and {budget.seconds:g} s): no more programs "
            "will run, answer with what you have."
        )
    store().set(RUNS_KEY, runs + 1)
    store().set(SECONDS_KEY, seconds + timeout_seconds)


def offered_tools(tools: str, policy: CodePolicy) -> list[Solver]:
    """The tool the model may call while it reasons, if any (``cot`` mode only)."""
    if tools == "calculator":
        return [use_tools([calculator()])]
    if tools == "python":
        return [use_tools([python_runner(Limits(), policy.in_sandbox, policy.isolation)])]
    return []
