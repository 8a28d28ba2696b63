"""Whether an answer statement offers other values by case, scenario or range: `$24 if both
ways, $12 if one way`, a conditional answer followed by another scenario, `18 to 20` on its line
(docs/grading.md, "The delivered answer")."""

from __future__ import annotations

import re
from decimal import Decimal

from gsm8k.grading.candidates import offers_range
from gsm8k.grading.doubt import SENTENCE_LOOK
from gsm8k.grading.reader import SENTENCE_END
from gsm8k.grading.statements import Statement

# Two values in one sentence, each under its own condition: `3 if the question means total
# bolts, 2 if it means blue only`, `8 with 60% probability, 12 with 40%`.
_CONDITION_CLAUSE = (
    r"(?:if|when|unless|assuming|in[ \t]+case|with[ \t]+(?:an?[ \t]+)?\d{1,3}(?:\.\d+)?[ \t]*%)"
)
_CASE_LABEL = (
    r"\b(?:in|for|under|with)[ \t]+the[ \t]+(?:first|second|third|other|former|latter|original"
    r"|alternative|literal|strict|loose)\b"
)
# The first case names what it is a case of (`in the first reading`; `in the first game` is a
# part of the total): the second may leave it out (`and $64 in the second`).
_CASE_NOUN = (
    r"[ \t]+(?:\w+[ \t]+)?(?:reading|interpretation|case|scenario|option|assumption|view|sense"
    r"|approach|method|way)s?\b"
)
_NAMED_CASE = (
    r"\b(?:in|for|under|with)[ \t]+(?:case|scenario|reading|interpretation|option|plan)[ \t]+"
    r"(?:\d{1,2}|[A-Da-d]|one|two)\b"
)
CASES_IN_SENTENCE = re.compile(
    # `163, unless she used 1 on the way, in which case 162`
    r"\d[^\n.!?]{0,100}?\bin[ \t]+which[ \t]+case[ \t,]+(?:it['’]s[ \t]+|it[ \t]+(?:is"
    r"|would[ \t]+be)"
    r"[ \t]+|the[ \t]+answer[ \t]+(?:is|would[ \t]+be)[ \t]+)?\\?\$?\d|"
    r"\d[^\d\n.!?;]{0,12}?\b" + _CONDITION_CLAUSE + r"[^\n;]{0,80}?[,;][ \t]*+(?:and[ \t]++|or"
    r"[ \t]++|but[ \t]++)?(?:it['’]s[ \t]++"
    r"|otherwise[ \t,]*+(?:between[ \t]++)?)?\\?[$£€¥₹]?\d[\d,.]*+"
    r"[^\d\n.!?;]{0,12}?\b"
    + _CONDITION_CLAUSE
    # `$56 in the first reading and $64 in the second`: each value under its own case.
    + r"|\d[^\d\n.!?;]{0,12}?"
    + _CASE_LABEL
    + _CASE_NOUN
    + r"[^\d\n;]{0,40}?\b(?:and|or|but"
    r"|while|whereas)[ \t]+[^\d\n;]{0,20}?\\?[$£€¥₹]?\d[\d,.]*+[^\d\n.!?;]{0,12}?"
    + _CASE_LABEL
    # `$64 in case 1 and $56 in case 2`: each value under a case named by its number or letter.
    + r"|\d[^\d\n.!?;]{0,12}?"
    + _NAMED_CASE
    + r"[^\d\n;]{0,40}?\b(?:and|or|but|while|whereas)"
    r"[ \t]+[^\d\n;]{0,20}?\\?[$£€¥₹]?\d[\d,.]*+[^\d\n.!?;]{0,12}?" + _NAMED_CASE,
    re.IGNORECASE,
)

_LINE_LOOK = 200  # characters of a statement's line, after it, read for a range

_SCENARIO_NEXT = re.compile(
    r"\s*+[*_(>-]*(?:if|assuming|suppose|supposing|in[ \t]+case|otherwise|but[ \t]+if)\b"
    r"[^\n.!?]*?\d",
    re.IGNORECASE,
)


def scenario_next(text: str, statement: Statement) -> bool:
    """Whether the sentence after a hedged statement opens another scenario with a value of its
    own (`If she only drives one way, it would be $12.`)."""
    closed = SENTENCE_END.search(text, statement.end, statement.end + SENTENCE_LOOK)
    return closed is not None and _SCENARIO_NEXT.match(text, closed.end()) is not None


def per_case(text: str, statement: Statement) -> bool:
    """Whether the statement's sentence gives two values, each under its own condition, or the
    statement answers one condition and the sentence right before it another (`If it does, the
    answer is 4.5 hours. If it doesn't, the answer is 4 hours.`, `Final answer (if A): 108` /
    `Final answer (if B): 103.5`)."""
    closed = SENTENCE_END.search(text, statement.end, statement.end + SENTENCE_LOOK)
    stop = closed.start() if closed is not None else min(len(text), statement.end + SENTENCE_LOOK)
    if CASES_IN_SENTENCE.search(text, statement.start, stop) is not None:
        return True
    return _parallel_before(text, statement)


def _parallel_before(text: str, statement: Statement) -> bool:
    """Whether the statement's sentence holds a condition before its value and the sentence (or
    line) before it, under another condition, closes on another value."""
    look = max(0, statement.start - SENTENCE_LOOK)
    bounds = [look, *(end.end() for end in SENTENCE_END.finditer(text, look, statement.start))]
    own = [
        found
        for found in _VALUE.finditer(text, bounds[-1], statement.end)
        if Decimal(found.group(0).replace(",", "")) == statement.value
    ]
    if len(bounds) < 2 or not own or not _CONDITIONED.search(text, bounds[-1], own[0].start()):
        return False  # `So the result is 56 when there are 8 rooms.`: a premise after the value
    before = text[bounds[-2] : bounds[-1]]
    values = list(_VALUE.finditer(before))
    return (
        bool(values)
        and _CONDITIONED.search(before, 0, values[-1].start()) is not None
        and Decimal(values[-1].group(0).replace(",", "")) != statement.value
    )


# A condition in a statement's opening or label: `If it doesn't, …`, `Final answer (if B): …`.
_CONDITIONED = re.compile(r"(?<!\w)(?:if|unless|assuming|when)\b", re.IGNORECASE)
_VALUE = re.compile(r"\d[\d,]*(?:\.\d+)?")


def offers_range_after(text: str, statement: Statement) -> bool:
    """Whether the statement's line, from its value on, offers a range beside it."""
    line_end = text.find("\n", statement.end)
    end = min(len(text) if line_end < 0 else line_end, statement.end + _LINE_LOOK)
    line = text[statement.start : end]
    return _TWO_NUMBERS.search(line) is not None and offers_range(line)


_TWO_NUMBERS = re.compile(r"\d[^\d\n]+\d|∈")  # a range needs two values (or a set sign)
