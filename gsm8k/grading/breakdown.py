"""A breakdown of a stated value: the parts after it that add up or multiply to it (`$1,430 in
total, i.e. $1,300 for the ring plus $130 for insurance`, `That's 33 classes × 15 students ×
$15.`), read as a remark on the value, never as a new one (docs/grading.md, "The delivered
answer"); and the patterns the result statement shares with it."""

from __future__ import annotations

import re
from decimal import Decimal

from gsm8k.grading.numbers import same_number, value_with_fraction
from gsm8k.grading.reader import SENTENCE_END, Found, Reader

RESULT_LOOK = 1_500
"""Characters after the last result read for asides: a longer tail is more than a remark."""
# Working, in signs or in words: `28 / 7`, `we divide 28 by 7`, `raising 1.20 to the power of 18`.
WORKING = re.compile(
    r"\d[ \t]*+[-+*/×÷−–<>≤≥][ \t]*+\\?\$?\d|```|\bprint\(|\b(?:divid|multipl|subtract"
    r"|add(?:ing|ed)?\b|plus\b|minus\b|times\b|rais(?:e|ing)\b|sum[ \t]+of|product[ \t]+of"
    r"|quotient|twice\b|double\b|triple\b|half[ \t]+of)",
    re.IGNORECASE,
)
# A remark on the result names it, or points back to it: `That's 60 yogurts, or 15 packs.`
REFERS_BACK = re.compile(
    r"[\s*_>-]*(?:that['’]s|that[ \t]+is|this[ \t]+is|i\.e\.|which|note|recall|remember"
    r"|reminder|for[ \t]+reference|as[ \t]+a[ \t]+check|\(|of[ \t]+(?:that|this|which|those|it)\b"
    r"|(?:those|these)[ \t]+\d)",
    re.IGNORECASE,
)


def breakdown_statement(reader: Reader) -> Found | None:
    """With no result to anchor on, the value a closing breakdown is the breakdown of: the first
    value of the last sentence when the rest are its parts (`She paid $1,430 in total, i.e.
    $1,300 for the ring plus $130 for insurance.`), or the one value of the sentence before when
    the last sentence holds only its parts (`She makes $7,425 per week. That's 33 classes × 15
    students × $15.`). A conclusion after the first value (`5 eggs, 2 broken, so 3 remain`) is no
    breakdown."""
    text = reader.text
    starts = [max(0, len(text) - RESULT_LOOK)]
    starts += [end.end() for end in SENTENCE_END.finditer(text, starts[0])]
    spans = [(a, b) for a, b in zip(starts, [*starts[1:], len(text)], strict=True) if a < b]
    spans = [(a, b) for a, b in spans if DIGIT.search(text, a, b)]
    if not spans:
        return None
    start, end = spans[-1]
    last = text[start:end]
    values = _sentence_values(reader, last)
    if "=" in last or "→" in last:
        return None  # working, not a breakdown of a stated value
    if (
        len(values) >= 3
        and _CONCLUDES_AFTER.search(last, values[0][1]) is None
        and _SIGNED_WORKING.search(last) is None  # `plus` may join the parts
        and parts_of(reader, last, values[0][0])
    ):
        return values[0][0], last[values[0][1] : values[0][2]]
    if len(spans) >= 2 and REFERS_BACK.match(last) and not _CONCLUDES_AFTER.search(last):
        before = text[spans[-2][0] : spans[-2][1]]
        stated = _sentence_values(reader, before)
        if (
            len(stated) == 1
            and WORKING.search(before) is None
            and "=" not in before
            and parts_of(reader, last, stated[0][0], after_result=False)
        ):
            return stated[0][0], before[stated[0][1] : stated[0][2]]
    return None


_SIGNED_WORKING = re.compile(r"\d[ \t]*+[-+*/×÷−–<>][ \t]*+\\?\$?\d|```")
_CONCLUDES_AFTER = re.compile(
    r"\b(?:so|therefore|thus|hence|leaving|leaves|left|remain\w*|gives?|makes?|equals?|then)\b",
    re.IGNORECASE,
)


def _sentence_values(reader: Reader, sentence: str) -> list[tuple[Decimal, int, int]]:
    return [
        (value, match.start(), match.end())
        for match in reader.numbers.finditer(sentence)
        if (value := value_with_fraction(match, sentence)) is not None
    ]


def parts_of(reader: Reader, sentence: str, result: Decimal, after_result: bool = True) -> bool:
    """Whether the sentence's values (after the result, with ``after_result``) are the result's
    parts: two or more that add up to it or multiply to it (`$1,430 in total, i.e. $1,300 for the
    ring plus $130 for insurance`, `540 meters, across his 9 sprints of 60 m each`, `That's 33
    classes × 15 students × $15.`)."""
    at = first_result(reader, sentence, result) if after_result else 0
    if at is None:
        return False
    if after_result:
        marker = _BREAKDOWN.search(sentence, at)
        if marker is None:
            return False  # `30% of 10 employees is 3`: working in words, not a breakdown
        at = marker.start()
    parts = [
        value
        for match in reader.numbers.finditer(sentence, at)
        if (value := value_with_fraction(match, sentence)) is not None
        # `143 students in total: 126 who ride the 3 buses and 17 who walk`: the 3 is the
        # question's, restated, not a part.
        and not (
            value.copy_abs() in reader.question
            and _DETERMINER_BEFORE.search(sentence, max(0, match.start() - 16), match.start())
        )
    ][:_MOST_PARTS]
    if len(parts) < 2:
        return False
    product = Decimal(1)
    for part in parts:
        product *= part
    return same_number(sum(parts, Decimal(0)), result) or same_number(product, result)


_MOST_PARTS = 8
_DETERMINER_BEFORE = re.compile(r"\b(?:the|her|his|their|its|all|these|those)[ \t]+$", re.I)
# What opens a breakdown of the value before it: `, i.e.`, a colon, a bracket, a dash, `across`.
_BREAKDOWN = re.compile(
    r"i\.e\.|:|\(|—|–|\b(?:across|including|consisting[ \t]+of|made[ \t]+up[ \t]+of)\b",
    re.IGNORECASE,
)


def first_result(reader: Reader, sentence: str, result: Decimal) -> int | None:
    """Where the sentence first states ``result``, or ``None``."""
    for match in reader.numbers.finditer(sentence):
        value = value_with_fraction(match, sentence)
        if value is not None and same_number(value, result):
            return match.start()
    return None


DIGIT = re.compile(r"\d")
