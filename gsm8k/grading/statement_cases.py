"""Whether an answer statement offers other values by case, scenario or range: `$24 if both
ways, $12 if one way`, a conditional answer followed by another scenario, `18 to 20` on its line
(docs/grading.md, "The delivered answer")."""

from __future__ import annotations

import re

from gsm8k.grading.candidates import CASES_IN_SENTENCE, offers_range
from gsm8k.grading.doubt import SENTENCE_LOOK
from gsm8k.grading.reader import SENTENCE_END
from gsm8k.grading.statements import Statement

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
    """Whether the statement's sentence gives two values, each under its own condition."""
    closed = SENTENCE_END.search(text, statement.end, statement.end + SENTENCE_LOOK)
    stop = closed.start() if closed is not None else min(len(text), statement.end + SENTENCE_LOOK)
    return CASES_IN_SENTENCE.search(text, statement.start, stop) is not None


def offers_range_after(text: str, statement: Statement) -> bool:
    """Whether the statement's line, from its value on, offers a range beside it."""
    line_end = text.find("\n", statement.end)
    end = min(len(text) if line_end < 0 else line_end, statement.end + _LINE_LOOK)
    line = text[statement.start : end]
    return _TWO_NUMBERS.search(line) is not None and offers_range(line)


_TWO_NUMBERS = re.compile(r"\d[^\d\n]+\d|∈")  # a range needs two values (or a set sign)
