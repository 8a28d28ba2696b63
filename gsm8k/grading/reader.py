"""A completion's text and the number convention it uses, shared by the extraction rules."""

from __future__ import annotations

import re
from decimal import Decimal
from functools import cached_property

from gsm8k.grading.numbers import parse_number, pattern_for, uses_dot_thousands

Found = tuple[Decimal, str]
"""A value a rule found, and the text it was read from."""

SENTENCE_END = re.compile(r"[.!?](?:\s|$)|[。！？\n]")
_NEGATED_NUMBER = re.compile(r"\bnot[ \t]++[-−]?\\?[$£€¥₹]?[ \t]?\d[\d,.]*+", re.IGNORECASE)
# Possessive runs: a snippet of spaces after `$` is refused at once, not retried at every split.
PLACEHOLDER = re.compile(
    r"[ \t*_`]*+(?:\$|\\\$)?[ \t]*+(?:ANSWER|NUMBER|X|<number>|\[number\])[ \t*_`.]*+",
    re.IGNORECASE,
)
_AMBIGUOUS_DOT = re.compile(r"\d\.\d{3}(?!\d)")


class Reader:
    """A completion and the number convention it uses, shared by the rules."""

    def __init__(self, text: str) -> None:
        self.text = text

    @cached_property
    def dot_thousands(self) -> bool:
        # Only a number such as `1.596` depends on the convention, so most texts never ask.
        return uses_dot_thousands(self.text)

    @cached_property
    def numbers(self) -> re.Pattern[str]:
        ambiguous = _AMBIGUOUS_DOT.search(self.text) is not None
        return pattern_for(ambiguous and self.dot_thousands)

    def value_of(self, snippet: str) -> Decimal | None:
        """The number a snippet states: after the last `=` if it shows working (`9 * 2 = 18`)."""
        if PLACEHOLDER.fullmatch(snippet):
            return None
        equals = _last_working_equals(snippet)
        stated = snippet if equals is None else snippet[equals + 1 :]
        # A negated value is the one the model rules out (`not 18 but 20`, `NOT 18`).
        stated = _NEGATED_NUMBER.sub(" ", stated)
        dot_thousands = _AMBIGUOUS_DOT.search(stated) is not None and self.dot_thousands
        return parse_number(stated.replace("\\%", "%"), dot_thousands)


def _last_working_equals(snippet: str) -> int | None:
    """The position of the last `=` that shows working (`9 * 2 = 18`), or ``None``.

    An `=` inside an open bracket is an aside after the stated value (`18 (= 9 × 2)`,
    `18 (with x = 2)`), not working that leads to it.
    """
    depth, found = 0, None
    for position, char in enumerate(snippet):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        elif char == "=" and depth == 0:
            found = position
    return found
