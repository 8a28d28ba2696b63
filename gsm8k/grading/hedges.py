"""Hedges: the words by which a model does not commit to a value, and the closing guesses of a
text with no answer mark.

A text with no answer mark delivers its closing sentence's number (the last-number rule). The
definition of the delivered answer (docs/grading.md) holds there too: a closing sentence that
offers its value as one of two (`I'd say 18, maybe 20.`, `Either 18 or 20?`), or a hedged
closing sentence after a hedged one with another value (`Probably 18. Possibly 20.`, `My best
guess: 18. Could be 20 though.`), delivers two guesses and no one answer. Working is not a guess:
a value joined to the other by an operator or `=`, a sentence that computes, the same quantity in
another unit (`18 dollars, or maybe 1800 cents`), and a hedged closing sentence after a committed
one (`She has 9 eggs left. So she probably makes $18.`) all keep the value.
"""

from __future__ import annotations

import re
from decimal import Decimal
from itertools import pairwise

from gsm8k.grading.numbers import same_number
from gsm8k.grading.reader import SENTENCE_END, Reader
from gsm8k.grading.refusals import same_quantity

# A statement the model does not commit to. `would` marks a conditional (`the answer would be
# 20`); a question mark asks.
HEDGE = re.compile(
    r"\b(?:maybe|perhaps|possibly|probably|might|could|would|I[ \t]+(?:think|believe|guess)"
    r"|I['’]d[ \t]+(?:say|guess)|(?:my|best)[ \t]+guess"
    r"|not[ \t]+(?:sure|certain)|unsure|alternatively|otherwise|either)\b|[?？]",
    re.IGNORECASE,
)
WEAK = frozenset(("would", "could", "might"))
"""Hedge words that make the statement the rules found hedged only with a condition."""
HEDGE_HINTS: tuple[str, ...] = ("?", "？", "may", "perhap", "possib", "probab", "might", "could")
HEDGE_HINTS += ("would", "think", "believe", "guess", "sure", "altern", "otherwise", "either")
HEDGE_HINTS += ("'d say", "’d say")
"""A part of every hedge word, in lower case: most sentences hold none."""

Value = tuple[Decimal, int, int]
"""A number of the text: its value, start and end."""

TWO_GUESSES = "the closing sentences offer two values, hedged: no one answer"

# Between two values of one sentence: a word that makes the second an alternative to the first,
# and no operator, `=` or digit (`18, maybe 20`, `18 or perhaps 20`, `either 18 or 20`).
_ALTERNATIVE_GAP = re.compile(
    r"[^\d=+*/×÷^<>\n-]{0,80}",
)
_ALTERNATIVE_WORD = re.compile(
    r"\b(?:or|maybe|perhaps|possibly|probably|alternatively|otherwise|could|might|though)\b",
    re.IGNORECASE,
)
_WORKING = re.compile(r"[=+*×÷]|\d[ \t]*[-/][ \t]*\d")
_CURRENCY_BEFORE = re.compile(r"[$£€¥₹][ \t]?\Z")
_WORD_AFTER = re.compile(r"[ \t]*+([A-Za-z]{2,12})\b")
_NOT_UNITS = frozenset(("or", "though", "maybe", "perhaps", "possibly", "probably", "and", "but"))
_WORDS = re.compile(r"[^\W\d_]{2,}")
_LOOK = 400
"""Characters at the end of a text in which its closing sentences are read."""


def two_guesses(reader: Reader) -> bool:
    """Whether the text's closing sentences, read with no answer mark, offer two values hedged."""
    text = reader.text
    start = max(0, len(text) - _LOOK)
    sentences = [s for s in _sentences(text, start) if any(c.isdigit() for c in text[s[0] : s[1]])]
    if not sentences:
        return False
    last_start, last_end = sentences[-1]
    values = _values(reader, last_start, last_end)
    if not values or not _hedged(text[last_start:last_end]):
        return False
    if _alternatives_in_one(reader, values):
        return True
    if len(values) != 1 or len(sentences) < 2 or _WORKING.search(text, last_start, last_end):
        return False
    before_start, before_end = sentences[-2]
    between = text[before_end:last_start]
    if any(c.isdigit() for c in between) or len(between.strip()) > 2:
        return False  # not the sentence right before: the guesses are not side by side
    before = text[before_start:before_end]
    earlier = _values(reader, before_start, before_end)
    return (
        len(earlier) == 1
        and not same_number(earlier[0][0], values[0][0])
        and _guess(before)
        and _WORKING.search(before) is None
        and not _one_quantity(text, earlier[0], values[0])
    )


def _sentences(text: str, start: int) -> list[tuple[int, int]]:
    """The sentences of ``text[start:]`` as spans (the first one possibly cut at ``start``)."""
    spans = []
    for end in SENTENCE_END.finditer(text, start):
        spans.append((start, end.end()))
        start = end.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


def _values(reader: Reader, start: int, end: int) -> list[Value]:
    """The numbers of ``reader.text[start:end]``: value and span, in text order."""
    found = []
    for match in reader.numbers.finditer(reader.text, start, end):
        value = reader.value_of(match.group(0))
        if value is not None:
            found.append((value, match.start(), match.end()))
    return found


def _alternatives_in_one(reader: Reader, values: list[Value]) -> bool:
    """Two values side by side in the closing sentence, the second an alternative to the first."""
    text = reader.text
    for first, second in pairwise(values):
        gap = text[first[2] : second[1]]
        if (
            not same_number(first[0], second[0])
            and _ALTERNATIVE_GAP.fullmatch(gap)
            and _ALTERNATIVE_WORD.search(gap)
            and not _one_quantity(text, first, second)
        ):
            return True
    return False


def _one_quantity(text: str, first: Value, second: Value) -> bool:
    """Whether two values are one quantity in two units, each with its own (`$18, or maybe 1800
    cents`, `2 hours or perhaps 120 minutes`)."""
    one, other = _unit(text, first), _unit(text, second)
    return same_quantity(first[0], second[0]) and bool(one) and bool(other) and one != other


def _unit(text: str, value: Value) -> str:
    """The unit written with a value: a currency sign before it, else the word after it that is
    no hedge or joining word; empty when none."""
    if _CURRENCY_BEFORE.search(text, max(0, value[1] - 2), value[1]):
        return "$"
    word = _WORD_AFTER.match(text, value[2])
    if word is None or word.group(1).lower() in _NOT_UNITS:
        return ""
    return word.group(1).lower()


def _hedged(sentence: str) -> bool:
    folded = sentence.lower()
    return any(hint in folded for hint in HEDGE_HINTS) and HEDGE.search(sentence) is not None


def _guess(sentence: str) -> bool:
    """A sentence that offers its value as a guess: a hedge word, or a question mark closing
    little more than the value (`18?`); a question the text asks (`In how many days will it be
    600 inches?`) is no guess."""
    if not _hedged(sentence):
        return False
    words = HEDGE.findall(sentence)
    return any(word not in ("?", "？") for word in words) or len(_WORDS.findall(sentence)) <= 2
