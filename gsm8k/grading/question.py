"""The quantities a sample's question states, so that a completion restating one is not read as
its answer.

Chat models close with a sentence that names the answer and restates the question's quantities
around it: "Therefore, Maya spends $45 on the 9 notebooks." Its last number, 9, is copied from
the question; the computed value, 45, is the answer. These helpers say which numbers the question
holds (digits of any script, and the English number words a question spells out) and whether a
number in a completion stands where a restated quantity stands (`on the 9 notebooks`,
`for 9 notebooks`, `in 3 days`). An answer may equal a number of the question: a number is only
passed over when the same sentence states another number that is not the question's.
"""

from __future__ import annotations

import re
from decimal import Decimal

from gsm8k.grading.numbers import NUMBER_PATTERN, number_from_match
from gsm8k.grading.words import SMALL_NUMBER_WORDS

_QUESTION_LIMIT = 20_000
"""Characters of a question read for its numbers (GSM8K questions are under 1,000)."""
_WORD = re.compile(r"[A-Za-z]+")
# Words after which a number names a quantity of the question being restated: `on the 9
# notebooks`, `for her 3 friends`, `in 4 days`, `of all 12 cupcakes`.
_RESTATING_BEFORE = re.compile(
    r"(?:\b(?:the|on|for|of|in|from|with|per|to|over|after|by|into|among|between|across|all|these"
    r"|those|her|his|their|its|our|each)[ \t]+\$?)$",
    re.IGNORECASE,
)
_NOUN_AFTER = re.compile(r"[ \t]*[A-Za-z]")
_RESTATING_LOOK = 16
"""Characters before a number in which its restating word is looked for (a bounded look)."""


def question_numbers(question: str | None) -> frozenset[Decimal]:
    """Every number the question states, in digits or as an English number word up to twenty
    and the tens (``nine notebooks`` is 9)."""
    if not question:
        return frozenset()
    text = question[:_QUESTION_LIMIT]
    values: set[Decimal] = set()
    for match in NUMBER_PATTERN.finditer(text):
        value = number_from_match(match)
        if value is not None:
            values.add(abs(value))
    for word in _WORD.finditer(text):
        spelled = SMALL_NUMBER_WORDS.get(word.group(0).lower())
        if spelled is not None:
            values.add(Decimal(spelled))
    return frozenset(values)


def restates_question(text: str, start: int, end: int) -> bool:
    """Whether the number at ``text[start:end]`` stands as a restated quantity of the question:
    after a determiner or preposition and before the noun it counts (`on the 9 notebooks`)."""
    before = text[max(0, start - _RESTATING_LOOK) : start]
    return _RESTATING_BEFORE.search(before) is not None and _NOUN_AFTER.match(text, end) is not None
