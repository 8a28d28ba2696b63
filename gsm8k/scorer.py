"""The exact GSM8K grader as an Inspect scorer, with format, no-answer and truncation rates.

Every value that is aggregated lives in ``Score.value`` (a dict), so each has its own metric and
survives epoch reduction; what is only for reading (the rule that fired) lives in metadata.
"""

from __future__ import annotations

from inspect_ai.scorer import (
    Score,
    Scorer,
    Target,
    accuracy,
    mean,
    scorer,
    stderr,
)
from inspect_ai.solver import TaskState

from gsm8k.extract import Extraction, extract_answer
from gsm8k.family.answers import grade_special_target
from gsm8k.numbers import parse_gold, same_number

TRUNCATION_STOP_REASONS = frozenset({"max_tokens", "model_length"})
"""Stop reasons meaning the model was cut off before it finished."""

ACCURACY = "accuracy"
STRICT_ACCURACY = "strict_accuracy"
FORMAT_FOLLOWED = "format_followed"
NO_ANSWER = "no_answer"
TRUNCATED = "truncated"


def grade(completion: str, target: str, truncated: bool = False) -> tuple[Extraction, bool]:
    """Extract the answer from ``completion`` and compare it exactly with ``target``.

    Raises:
        ValueError: when ``target`` is not a number (a gold answer must never be empty or text).
    """
    special = grade_special_target(completion, target, truncated)  # NONE, 2/5, 4.33 (GSM-Plus)
    if special is not None:
        return special
    gold = parse_gold(target)
    extraction = extract_answer(completion, truncated=truncated)
    correct = extraction.value is not None and same_number(extraction.value, gold)
    return extraction, correct


def score_values(extraction: Extraction, correct: bool, truncated: bool) -> dict[str, float]:
    """The per-sample values behind the grader's metrics."""
    return {
        ACCURACY: float(correct),
        STRICT_ACCURACY: float(correct and extraction.format_followed),
        FORMAT_FOLLOWED: float(extraction.format_followed),
        NO_ANSWER: float(extraction.answer is None),
        TRUNCATED: float(truncated),
    }


@scorer(
    metrics={
        ACCURACY: [accuracy(), stderr()],
        STRICT_ACCURACY: [accuracy(), stderr()],
        FORMAT_FOLLOWED: [mean()],
        NO_ANSWER: [mean()],
        TRUNCATED: [mean()],
    }
)
def gsm8k_grader() -> Scorer:
    """Grade the final answer exactly: documented extraction rules, no rounding of integers.

    Per sample it reports the extracted answer, the rule that found it, whether the requested
    ``ANSWER:`` format was followed, and whether the output was cut off at the token limit.
    """

    async def score(state: TaskState, target: Target) -> Score:
        truncated = state.output.stop_reason in TRUNCATION_STOP_REASONS
        extraction, correct = grade(state.output.completion, target.text, truncated)
        return Score(
            value=score_values(extraction, correct, truncated),
            answer=extraction.answer,
            explanation=explain(extraction, target.text, correct, truncated),
            metadata={
                "rule": extraction.rule,
                "format_followed": extraction.format_followed,
                "truncated": truncated,
                "matched_text": extraction.text,
            },
        )

    return score


def explain(extraction: Extraction, target: str, correct: bool, truncated: bool) -> str:
    """One readable sentence for ``inspect view``."""
    cut = " Output was truncated at the token limit." if truncated else ""
    if extraction.answer is None:
        return f"No answer found (target {target}).{cut}"
    verdict = "correct" if correct else "incorrect"
    return (
        f"Answer {extraction.answer} via rule '{extraction.rule}' from {extraction.text!r}: "
        f"{verdict} (target {target}).{cut}"
    )
