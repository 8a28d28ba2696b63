"""Gold answers that are not plain numbers: unanswerable items, fractions, rounded decimals.

GSM-Plus "critical thinking" items remove a fact the question needs; their gold is ``None``, kept
as the target :data:`UNANSWERABLE`. The GSM-Plus prompt tells the model, on every item, to write
``ANSWER: NONE`` when the question cannot be answered. Grading:

* target ``NONE``: correct only when the final ``ANSWER:`` line says so (``NONE``, "cannot be
  determined", "not enough information", ...), or, with no ``ANSWER:`` line, when the completion
  says so and states no number by any explicit answer rule. A number is wrong.
* numeric target: a final ``ANSWER: NONE`` is wrong (it is the model's stated answer), whatever
  numbers came before it.
* a fraction target (``2/5``) is its exact value: ``0.4`` and ``2/5`` are right.
* a decimal target with two or more decimals (``4.33``, from 13/3) is taken as rounded: an answer
  is right when it rounds to the target at the target's precision (``4.333``, ``13/3``, ``4.33``
  are right; ``4.3`` and ``4.34`` are not). Targets with one decimal are exact in GSM-Plus and
  compare within the grader's usual 1e-6.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

from gsm8k.grading.extract import Extraction, Rule, extract_answer, split_reasoning
from gsm8k.grading.numbers import parse_number

UNANSWERABLE = "NONE"
"""The target of an item whose question cannot be answered (GSM-Plus critical thinking)."""

UNANSWERABLE_INSTRUCTION = (
    'If the question does not give enough information to determine the answer, write "ANSWER: '
    'NONE" as the last line instead of a number.'
)
"""Shown on every GSM-Plus item, answerable or not, so the instruction itself gives nothing away."""

_DECORATION = r"[ \t*_#>`-]*"
_ANSWER_LINE = re.compile(
    rf"^{_DECORATION}answer{_DECORATION}[:：][ \t*_`]*(?P<value>.*)$", re.IGNORECASE | re.MULTILINE
)
_CANNOT_PHRASE = (
    r"unanswerable|insufficient\s+(?:information|data)|not\s+(?:enough|sufficient)\s+information"
    r"|(?:cannot|can't|can\s+not|could\s+not|couldn't)\s+(?:be\s+)?"
    r"(?:determined?|answered?|calculated?|computed?)"
    r"|not\s+(?:determinable|answerable|possible\s+to\s+(?:determine|answer|calculate))"
    r"|(?:does\s+not|doesn't|do\s+not)\s+(?:give|provide|contain|include|state|say|mention)\b"
    r"[^.\n]{0,60}\b(?:information|enough|how\s+(?:many|much))"
)
_DECLARED_VALUE = re.compile(
    rf"\b(?:none|n/a|na|unknown|undetermined|indeterminate|{_CANNOT_PHRASE})\b", re.IGNORECASE
)
_DECLARED_IN_PROSE = re.compile(rf"\b(?:{_CANNOT_PHRASE})", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")
_FRACTION_TARGET = re.compile(r"\s*(-?\d+)\s*/\s*(\d+)\s*")
_DECIMAL_TARGET = re.compile(r"\s*-?\d+\.(?P<decimals>\d+)\s*")
ROUNDED_TARGET_MIN_DECIMALS = 2
"""Decimal targets with at least this many decimals are taken as rounded values."""


class Declaration(Extraction):
    """An extraction that found the model's statement that the question cannot be answered."""

    @property
    def answer(self) -> str | None:
        return UNANSWERABLE


def declares_unanswerable(completion: str) -> str | None:
    """The text in which the completion finally says its question cannot be answered, or ``None``.

    Only the final statement counts, and only outside reasoning blocks (working, not an answer):

    * the last ``ANSWER:`` line decides when there is one, unless an explicit answer (``\\boxed``,
      "the answer is", ``####``, a JSON field) states a number after it;
    * otherwise the prose may say so, when no number follows the sentence that says it (a passing
      "cannot be determined" before the model works out a number is not a declaration).
    """
    visible, _, unclosed = split_reasoning(completion)
    if unclosed:
        return None
    lines = list(_ANSWER_LINE.finditer(visible))
    if lines:
        last = lines[-1]
        value = last.group("value").strip()
        declared = _DECLARED_VALUE.search(value) is not None and not re.search(r"\d", value)
        if not declared or _states_number(visible[last.end() :]):
            return None
        return last.group(0).strip()
    found = None
    for match in _DECLARED_IN_PROSE.finditer(visible):
        found = match
    if found is None:
        return None
    sentence_end = _SENTENCE_END.search(visible, found.end())
    after = "" if sentence_end is None else visible[sentence_end.end() :]
    return None if re.search(r"\d", after) else found.group(0)


def grade_special_target(
    completion: str, target: str, truncated: bool = False, question: str | None = None
) -> tuple[Extraction, bool] | None:
    """Grade against an unanswerable, fraction or rounded-decimal target, or an answer of NONE.

    Returns ``None`` for an ordinary numeric target answered with a number, which the caller
    grades as usual.
    """
    declared = declares_unanswerable(completion)
    if target.strip().upper() == UNANSWERABLE:
        extraction = extract_answer(completion, truncated=truncated, question=question)
        stated_number = extraction.value is not None and extraction.rule != "last_number"
        if declared is not None and not (stated_number and not _has_answer_line(completion)):
            on_line = _has_answer_line(completion)
            rule: Rule = "answer_line" if on_line else "answer_is"
            return Declaration(None, rule, on_line, declared), True
        return extraction, False
    if declared is not None and _has_answer_line(completion):
        return Declaration(None, "answer_line", True, declared), False
    gold = _special_gold(target)
    if gold is None:
        return None
    value, decimals = gold
    extraction = extract_answer(completion, truncated=truncated, question=question)
    if extraction.value is None:
        return extraction, False
    if decimals is None:
        return extraction, abs(extraction.value - value) <= Decimal("1e-6")
    step = Decimal(1).scaleb(-decimals)
    if abs(extraction.value - value) >= step:
        return extraction, False  # also keeps quantize away from huge values it cannot hold
    return extraction, extraction.value.quantize(step, rounding=ROUND_HALF_UP) == value


def _states_number(text: str) -> bool:
    """Whether ``text`` states a number by an explicit rule (not the last-number fallback)."""
    extraction = extract_answer(text)
    return extraction.value is not None and extraction.rule != "last_number"


def _has_answer_line(completion: str) -> bool:
    return _ANSWER_LINE.search(split_reasoning(completion)[0]) is not None


def _special_gold(target: str) -> tuple[Decimal, int | None] | None:
    """A fraction target (exact value, no rounding) or a rounded decimal (value, decimals)."""
    if _FRACTION_TARGET.fullmatch(target):
        value = parse_number(target)
        return None if value is None else (value, None)
    decimal = _DECIMAL_TARGET.fullmatch(target)
    if decimal and len(decimal.group("decimals")) >= ROUNDED_TARGET_MIN_DECIMALS:
        return Decimal(target.strip()), len(decimal.group("decimals"))
    return None
