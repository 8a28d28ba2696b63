"""One completion against one gold answer: the verdict, the rule that decided it and why.

This is the grading API other code uses (``from gsm8k.grading import grade``). A completion flows
one way: the answer region is found (``sections``), the number is read out of it (``extract``,
with ``reader``, ``phrases``, ``fallback`` and ``numbers``), and it is compared with the gold
(``numbers.same_number``; GSM-Plus's ``NONE``, fraction and rounded golds in ``golds``). Nothing
here needs Inspect.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from gsm8k.grading.extract import Extraction, Rule, extract_answer
from gsm8k.grading.golds import UNANSWERABLE, grade_special_target
from gsm8k.grading.numbers import parse_gold, same_number


@dataclass(frozen=True)
class Verdict:
    """What :func:`grade` decided about one completion.

    Attributes:
        correct: Whether the answer equals the gold.
        answer: The answer in canonical form (``"18"``, ``"-3"``, ``"0.5"``); ``"NONE"`` when the
            model's answer line declares the question cannot be answered (GSM-Plus's answer for
            an unanswerable item, :data:`gsm8k.grading.golds.UNANSWERABLE`: correct only there);
            ``None`` when no answer was found.
        rule: The extraction rule that found it (``answer_line``, ``boxed``, ... ``none``).
        format_followed: Whether it came from the requested ``ANSWER:`` line.
        truncated: Whether the completion was graded as cut off at the token limit.
        text: The snippet the answer was read from.
        note: Why there is no answer, or what else a reader should know (empty when nothing).
    """

    correct: bool
    answer: str | None
    rule: Rule
    format_followed: bool
    truncated: bool
    text: str
    note: str

    @property
    def value(self) -> Decimal | None:
        """The answer as a number (``None`` for no answer and for a declared ``"NONE"``)."""
        if self.answer is None or self.answer == UNANSWERABLE:
            return None
        return Decimal(self.answer)


def extract_and_compare(
    completion: str, target: str, truncated: bool = False, question: str | None = None
) -> tuple[Extraction, bool]:
    """The extraction and whether it matches ``target`` (what :func:`grade` summarizes).

    Raises:
        ValueError: when ``target`` is not a number (a gold answer must never be empty or text).
    """
    # One direction: the answer region and its number (extract), then the comparison.
    extraction = extract_answer(completion, truncated=truncated, question=question)
    special = grade_special_target(completion, target, extraction)  # NONE, 2/5, 4.33 (GSM-Plus)
    if special is not None:
        return special
    gold = parse_gold(target)
    correct = extraction.value is not None and same_number(extraction.value, gold)
    return extraction, correct


def grade(
    completion: str,
    target: str,
    question: str | None = None,
    truncated: bool = False,
) -> Verdict:
    """Grade one completion exactly, as the task's ``gsm8k_grader`` does.

    Args:
        completion: The model's text (reasoning blocks included or not).
        target: The gold answer: a number (``"18"``, ``"1,080"``), or GSM-Plus's ``"NONE"``,
            a fraction (``"2/5"``) or a rounded decimal.
        question: The question the completion answers, when known: a number that a concluding
            sentence or an answer line copies from it is not taken for the answer when the
            sentence computes another (docs/grading.md, "The sample's question").
        truncated: Whether generation stopped at the token limit (no last-number fallback).

    Raises:
        ValueError: when ``target`` is not a number.
    """
    extraction, correct = extract_and_compare(completion, target, truncated, question)
    return Verdict(
        correct=correct,
        answer=extraction.answer,
        rule=extraction.rule,
        format_followed=extraction.format_followed,
        truncated=truncated,
        text=extraction.text,
        note=extraction.note,
    )


@dataclass(frozen=True)
class Graded:
    """One graded row of ``gsm8k-grade`` (and of programs graded after the fact)."""

    id: str
    correct: bool
    answer: str | None
    target: str
    rule: str
    format_followed: bool
    truncated: bool

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def grade_completion(
    completion: str,
    target: str,
    id: str = "",
    truncated: bool = False,
    question: str | None = None,
) -> Graded:
    """Grade one completion against a gold answer, exactly as the task's ``gsm8k_grader`` does.

    Raises:
        ValueError: when ``target`` is not a number.
    """
    verdict = grade(completion, target, question=question, truncated=truncated)
    return Graded(
        id=id,
        correct=verdict.correct,
        answer=verdict.answer,
        target=target,
        rule=verdict.rule,
        format_followed=verdict.format_followed,
        truncated=truncated,
    )
