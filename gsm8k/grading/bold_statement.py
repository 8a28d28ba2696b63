"""The bold statement of a text with no answer mark: the last value the model set in bold after
its working's last result (`Mark has **35 flowers** in his garden.`), its own emphasis of what it
delivers (docs/grading.md, "The delivered answer")."""

from __future__ import annotations

import re
from decimal import Decimal

from gsm8k.grading.asides import CHECKS, NOT_OURS
from gsm8k.grading.breakdown import DIGIT
from gsm8k.grading.doubt import HEDGE
from gsm8k.grading.question import in_premise, in_reason
from gsm8k.grading.reader import SENTENCE_END, Reader
from gsm8k.grading.units import compound_at

# A bold span that holds one value: `**35 flowers**`, `**Total cost: $694**`, `**$57,500**`.
_BOLD = re.compile(r"\*\*(?P<inner>[^*\n]{1,60}?)\*\*")


def bold_statement(
    reader: Reader, tail_start: int, after: int
) -> tuple[Decimal, int, int, re.Match[str]] | None:
    """The last bold value after the working's last result (from ``after`` on), in a sentence
    that closes: its value, where the value starts, where its sentence starts, and the match
    that closes the sentence; ``None`` when there is none."""
    text = reader.text
    spans = [
        span
        for span in _BOLD.finditer(text, after)
        if DIGIT.search(span.group("inner")) and "=" not in span.group("inner")
    ]
    if not spans:
        return None
    span = spans[-1]
    inner = span.group("inner")
    values = list(reader.numbers.finditer(inner))
    compound = (
        compound_at(values[0], inner, reader.question_text, False) if len(values) == 2 else None
    )
    if len(values) != 1 and (compound is None or compound[1] < values[1].end()):
        return None  # `**3 × 60**`, `**18 or 20**`: no one value (`**4 hours and 30 minutes**` is)
    value = reader.value_of(span.group("inner")[values[0].start() :])
    opened = max(
        (m.end() for m in SENTENCE_END.finditer(text, tail_start, span.start())), default=tail_start
    )
    closed = SENTENCE_END.search(text, span.end())
    sentence = text[opened : span.start()]
    if len(spans) > 1 and spans[-2].end() > opened:
        return None  # `**18** or **20**`: two values set in bold in one sentence
    if (
        value is not None
        and value.copy_abs() in reader.question
        and (in_reason(text, span.start(), opened) or in_premise(text, span.start(), opened))
    ):
        return None  # `5 loads, since the box lasts **10 cycles**`: the question's data
    if (
        value is None
        or closed is None
        or NOT_OURS.search(sentence)
        or CHECKS.search(line_of(text, span.start()))
        or HEDGE.search(sentence)
        or _CASE_OPENING.match(sentence)
    ):
        return None  # `- If each friend wants …: **3 pizzas**.`: one case, not the answer
    if _TAKEN_BACK_AFTER.match(text, span.end()):
        return None  # `**$450**, actually $460`: the bold value taken back for another
    return value, span.start("inner") + values[0].start(), opened, closed


_TAKEN_BACK_AFTER = re.compile(
    r"[ \t]*+[,;—–-]?[ \t]*+(?:actually|I[ \t]+mean[t]?|sorry|no|wait|correction)\b[^\d\n]{0,20}\d",
    re.IGNORECASE,
)


_CASE_OPENING = re.compile(
    r"[\s*_>-]*(?:\d{1,2}[.)][ \t]*)?(?:if|when|assuming|suppose|in[ \t]+case|case|scenario)\b",
    re.IGNORECASE,
)


def line_of(text: str, position: int) -> str:
    """The line that holds ``position``."""
    closed = text.find("\n", position)
    return text[text.rfind("\n", 0, position) + 1 : len(text) if closed < 0 else closed]
