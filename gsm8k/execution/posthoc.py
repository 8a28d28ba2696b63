"""Grade programs after the fact, as code-generation work does (TinyGSM's and PUMA's evaluators):
run each row's program in the same sandbox ``mode=pal`` uses and grade its result exactly.

A row gives its program as ``"program"`` (the code itself) or inside its ``"completion"`` (found
the way ``mode=pal`` finds it: the last fenced block that defines a result, else unfenced code).
The result is read in the conventions programs are written in: ``solution()``, TinyGSM's
``simple_math_problem()``, a variable ``ans``/``answer``/``result`` (Program-of-Thoughts),
``solver()``, else the program's last printed line when that line is a number.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import localcontext

from gsm8k.execution.isolation import Isolation
from gsm8k.execution.programs import extract_program
from gsm8k.execution.runner import DEFAULT_LIMITS, Limits, run_program
from gsm8k.execution.scorer import EXACT, tidy
from gsm8k.grading.numbers import normalize, parse_gold, same_number
from gsm8k.grading.verdict import Graded

PROGRAM_RULE = "program"
"""The ``rule`` of a row graded by running its program."""


@dataclass(frozen=True)
class ProgramGraded(Graded):
    """The verdict on one program: :class:`Graded`'s fields, and how the run ended."""

    status: str = "ok"
    """The runner's status: ok, error, timeout, no_result, no_program, ..."""
    error: str | None = None


def grade_program(
    target: str,
    program: str | None = None,
    completion: str | None = None,
    id: str = "",
    isolation: Isolation = "bwrap",
    limits: Limits = DEFAULT_LIMITS,
) -> ProgramGraded:
    """Run ``program`` (or the program in ``completion``) and grade its result against ``target``.

    Raises:
        ValueError: when ``target`` is not a number.
    """
    gold = parse_gold(target)
    code = program if program is not None else extract_program(completion or "")
    if code is None or not code.strip():
        return ProgramGraded(
            id, False, None, target, PROGRAM_RULE, False, False, "no_program", "no program found"
        )
    result = run_program(code, limits, isolation)
    value = result.number
    with localcontext(EXACT):
        correct = value is not None and same_number(value, gold)
        answer = normalize(tidy(value)) if value is not None else None
    return ProgramGraded(
        id=id,
        correct=correct,
        answer=answer,
        target=target,
        rule=PROGRAM_RULE,
        format_followed=result.status == "ok",
        truncated=False,
        status=result.status,
        error=result.error,
    )
