"""The program-aided grader: run the completion's program, compare its result exactly."""

from __future__ import annotations

import asyncio
from decimal import Context, Decimal, localcontext

from inspect_ai.scorer import Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState

from gsm8k.execution.dispatch import check_isolation, run_model_code
from gsm8k.execution.isolation import Isolation
from gsm8k.execution.programs import extract_program
from gsm8k.execution.result_line import MAX_RESULT_DIGITS
from gsm8k.execution.runner import DEFAULT_LIMITS, ExecutionResult, Limits
from gsm8k.grading import reasons
from gsm8k.grading.limits import limit_reached
from gsm8k.grading.numbers import DECIMAL_TOLERANCE, normalize, parse_gold, same_number
from gsm8k.grading.reasons import GUARD_KEY, TRUNCATION_STOP_REASONS, engine_error, is_blank
from gsm8k.grading.scorer import stop_reason
from gsm8k.metrics.intervals import question_stderr, wilson_ci
from gsm8k.metrics.rates import rates

ACCURACY = "accuracy"
EXECUTION_ERROR = "execution_error"
TIMEOUT = "timeout"
NO_PROGRAM = "no_program"
LOGGED_OUTPUT_CHARS = 2000
"""What a sample's log keeps of a program's output (the start of stdout, the end of stderr)."""
EXACT = Context(prec=2 * MAX_RESULT_DIGITS + 20)
"""Enough precision for any result the runner accepts: no rounding, no overflow signal."""


@scorer(
    metrics=[
        {ACCURACY: [accuracy(), stderr(), question_stderr(), wilson_ci()]},
        rates([EXECUTION_ERROR, TIMEOUT, NO_PROGRAM]),
    ]
)
def pal_grader(
    limits: Limits = DEFAULT_LIMITS, in_sandbox: bool = False, isolation: Isolation = "bwrap"
) -> Scorer:
    """Run the program a completion contains and grade its numeric result exactly.

    Args:
        limits: CPU seconds, memory and wall-clock limits for one program.
        in_sandbox: Run in the task's Inspect sandbox (e.g. docker) instead of locally.
        isolation: Locally, ``bwrap`` (an OS sandbox per program) or ``process`` (a plain
            child process, for models whose code the user trusts).

    Raises:
        PrerequisiteError: when ``isolation="bwrap"`` and bubblewrap cannot run here.
    """
    check_isolation(in_sandbox, isolation)

    async def score(state: TaskState, target: Target) -> Score:
        # A sample the generate guard ended is a scored failure by design (see guard.py).
        guarded = GUARD_KEY in state.metadata or limit_reached() is not None
        failed_engine = None if guarded else engine_error(state.output)
        if failed_engine is not None:
            return Score.unscored(
                reason=reasons.ENGINE_ERROR,
                explanation="Not scored: the engine returned an error, not a completion: "
                f"{failed_engine[:LOGGED_OUTPUT_CHARS]}",
                metadata={"error": failed_engine[:LOGGED_OUTPUT_CHARS]},
            )
        # Off the event loop: a long completion must not hold up the other samples.
        code = await asyncio.to_thread(extract_program, state.output.completion)
        if code is None:
            result = ExecutionResult("no_program", None, "no program in the completion", "", 0.0)
        else:
            result = await run_model_code(code, limits, in_sandbox, isolation)
        metadata = {
            "status": result.status,
            "error": result.error,
            "code": code,
            "stdout": result.stdout[:LOGGED_OUTPUT_CHARS],
            "stderr": result.stderr[-LOGGED_OUTPUT_CHARS:],
            "output_dropped_bytes": result.dropped_bytes,
            "seconds": round(result.seconds, 3),
        }
        if result.status == "sandbox_unavailable":
            return Score.unscored(
                reason=reasons.SANDBOX_UNAVAILABLE,
                explanation=f"Not scored: the sandbox could not run the program: {result.error}",
                metadata=metadata,
            )
        value = result.number
        try:
            with localcontext(EXACT):
                correct = value is not None and same_number(value, parse_gold(target.text))
                answer = normalize(tidy(value)) if value is not None else None
        except Exception as error:  # an unusable target or result: this sample only
            # Counted wrong, like the text grader's failures: the result came from the model.
            failure = f"{type(error).__name__}: {str(error)[:LOGGED_OUTPUT_CHARS]}"
            return Score(
                value={ACCURACY: 0.0, EXECUTION_ERROR: 0.0, TIMEOUT: 0.0, NO_PROGRAM: 0.0},
                reason=reasons.SCORING_FAILED,
                explanation=f"Not graded, counted wrong: grading failed with {failure}.",
                metadata=metadata | {"error": failure},
            )
        truncated = stop_reason(state.output) in TRUNCATION_STOP_REASONS
        return Score(
            value={
                ACCURACY: float(correct),
                EXECUTION_ERROR: float(result.status not in ("ok", "timeout", "no_program")),
                TIMEOUT: float(result.status == "timeout"),
                NO_PROGRAM: float(result.status == "no_program"),
            },
            answer=answer,
            explanation=explain(result, answer, correct, target.text),
            reason=program_reason(result, state.output.completion, truncated),
            metadata=metadata,
        )

    return score


def tidy(value: Decimal) -> Decimal:
    """A program's float result as people would state it: 18.000000000000004 reads 18, so that
    answers compare across epochs (majority voting) and read cleanly in the log."""
    nearest = value.to_integral_value()
    if abs(value - nearest) <= DECIMAL_TOLERANCE:
        return nearest
    return value.quantize(Decimal("1e-9")).normalize()


def program_reason(result: ExecutionResult, completion: str, truncated: bool) -> str | None:
    """Why a program's score is abnormal (:mod:`gsm8k.grading.reasons`); ``None`` when it ran."""
    if result.status == "ok":
        return None
    if truncated:
        return reasons.TRUNCATED
    if result.status == "no_program":
        return reasons.NO_RESPONSE if is_blank(completion) else reasons.INVALID_RESPONSE_FORMAT
    return reasons.PROGRAM_FAILED


def explain(result: ExecutionResult, answer: str | None, correct: bool, target: str) -> str:
    if result.status != "ok":
        return f"Program {result.status}: {result.error}"
    verdict = "correct" if correct else "incorrect"
    return f"Program ran: result {answer}, {verdict} (target {target})."
