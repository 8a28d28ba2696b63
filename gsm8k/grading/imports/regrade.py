"""Re-grade another harness's rows and set its headline beside this grader's.

Each row keeps the original verdict next to the new one. The headline is given before (the
original grader's verdicts) and after (this grader's), each with a 95% interval, and the paired
difference with its interval, the discordant counts and the exact McNemar test: the statistics
``gsm8k-compare`` uses (:mod:`gsm8k.compare.stats`). With one completion per question the
intervals are Wilson's; with several (epochs, repeats) a question is the unit: its mean over
completions, a t interval over questions, and no McNemar test (it needs one verdict a side).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import mean
from typing import Any

from gsm8k.compare.stats import (
    discordant_counts,
    mcnemar_exact,
    mean_interval,
    paired_interval,
    wilson_interval,
)
from gsm8k.grading.imports.rows import ImportedRow, ImportProblem
from gsm8k.grading.verdict import Graded, grade

GRADER = "gsm8k_grader"


@dataclass(frozen=True)
class Regraded:
    """One row: the original verdict and this grader's."""

    row: ImportedRow
    graded: Graded

    def to_json(self) -> dict[str, Any]:
        return {
            "place": self.row.place,
            **self.graded.to_json(),
            "epoch": self.row.epoch,
            "original_correct": self.row.original_correct,
            "original_answer": self.row.original_answer,
            "changed": self.row.original_correct != self.graded.correct,
        }


def regrade_row(row: ImportedRow) -> Regraded | ImportProblem:
    """This grader's verdict on one row; a target it cannot read becomes a problem."""
    try:
        verdict = grade(row.completion, row.target, row.question, row.truncated)
    except ValueError as error:  # the gold is not a number
        return ImportProblem(row.place, row.id, str(error)[:1000])
    except Exception as error:  # one row must never stop the others from being graded
        return ImportProblem(
            row.place, row.id, f"cannot grade: {type(error).__name__}: {error}"[:1000]
        )
    graded = Graded(
        id=row.id,
        correct=verdict.correct,
        answer=verdict.answer,
        target=row.target,
        rule=verdict.rule,
        format_followed=verdict.format_followed,
        truncated=row.truncated,
    )
    return Regraded(row, graded)


@dataclass(frozen=True)
class Headline:
    """Accuracy before and after re-grading, and their paired difference (after − before)."""

    questions: int
    completions: int
    before: float
    before_low: float
    before_high: float
    after: float
    after_low: float
    after_high: float
    difference: float
    difference_low: float
    difference_high: float
    only_before: int
    only_after: int
    mcnemar_p: float | None


def headline(rows: Sequence[Regraded]) -> Headline:
    """The before/after headline over ``rows`` (at least one).

    Raises:
        ValueError: when ``rows`` is empty.
    """
    if not rows:
        raise ValueError("no graded rows")
    before = [r.row.original_correct for r in rows]
    after = [r.graded.correct for r in rows]
    only_before, only_after = discordant_counts(before, after)
    by_question: dict[str, list[Regraded]] = {}
    for regraded in rows:
        by_question.setdefault(regraded.row.id, []).append(regraded)
    once = all(len(group) == 1 for group in by_question.values())
    if once:
        before_interval = wilson_interval(sum(before), len(before))
        after_interval = wilson_interval(sum(after), len(after))
        first, second = [float(x) for x in after], [float(x) for x in before]
    else:
        second = [mean(r.row.original_correct for r in g) for g in by_question.values()]
        first = [mean(r.graded.correct for r in g) for g in by_question.values()]
        before_interval, after_interval = mean_interval(second), mean_interval(first)
    difference, low, high = paired_interval(first, second)
    return Headline(
        questions=len(by_question),
        completions=len(rows),
        before=mean(second),
        before_low=before_interval[0],
        before_high=before_interval[1],
        after=mean(first),
        after_low=after_interval[0],
        after_high=after_interval[1],
        difference=difference,
        difference_low=low,
        difference_high=high,
        only_before=only_before,
        only_after=only_after,
        mcnemar_p=mcnemar_exact(only_before, only_after) if once else None,
    )


def describe(result: Headline, original: str) -> list[str]:
    """The headline as lines for a terminal."""

    def points(value: float) -> str:
        return f"{value * 100:+.1f}"

    count = (
        f"{result.completions} completions"
        if result.completions == result.questions
        else f"{result.completions} completions of {result.questions} questions"
    )
    test = f"; exact McNemar p = {result.mcnemar_p:.3g}" if result.mcnemar_p is not None else ""
    return [
        f"before ({original}): {result.before:.1%} "
        f"(95% CI {result.before_low:.1%}–{result.before_high:.1%}) on {count}",
        f"after ({GRADER}): {result.after:.1%} "
        f"(95% CI {result.after_low:.1%}–{result.after_high:.1%})",
        f"difference after − before: {points(result.difference)} points "
        f"(95% CI {points(result.difference_low)} to {points(result.difference_high)}); "
        f"correct only before: {result.only_before}, only after: {result.only_after}{test}",
    ]
