"""Two values side by side in one closing sentence, the second offered as an alternative to the
first (`She makes $18 or $20.`, `about 18-20 dollars`, `3 lego sets, possibly 2`), and the unit
written with a value: the words and signs that join a value to its alternative
(docs/grading.md, "The delivered answer")."""

from __future__ import annotations

import re
from itertools import pairwise

from gsm8k.grading.candidates import Value
from gsm8k.grading.numbers import NUMBER_PATTERN, same_number
from gsm8k.grading.reader import Found
from gsm8k.grading.refusals import same_quantity
from gsm8k.grading.units import compound_at, one_quantity

# Words that join a value to an alternative, and hedge words; a gap of only these (and
# punctuation, markup, a currency sign) between two values offers the second as an alternative.
JOINERS = frozenset(
    (
        "or", "maybe", "perhaps", "possibly", "probably", "alternatively", "otherwise", "though",
        "either", "could", "might", "be", "it", "its", "it's", "is", "else", "say", "i'd",
        "guess", "my", "best", "not", "sure", "even", "vs", "versus", "alternately", "unless",
        "rather", "like", "more", "then", "again", "also", "was", "and", "somewhere", "anywhere",
        "to", "if", "not", "give", "take", "plus", "minus", "conceivably", "potentially",
        "plausibly", "arguably", "auch",
    )
)  # fmt: skip
_RATE_WORDS = frozenset(("a", "an", "per", "each", "every"))
GAP_WORD = re.compile(r"[^\W\d_]+(?:['’][a-z]+)?")
_GAP_OTHER = re.compile(r"[\d=+*/×÷^<>]")
_ELSEWHERE_JOINERS = (
    "vielleicht", "wahrscheinlich", "peut", "être", "probablement", "quizás", "quiza", "quizá",
    "tal", "vez", "probablemente", "forse", "probabilmente", "talvez", "возможно", "наверное",
    "soit", "oder", "ou", "o", "ó", "или", "也许", "也许是", "或许", "大概", "可能", "或者", "或",
)  # fmt: skip
_OPERAND = re.compile(
    r"(?:\b(?:times|plus|(?<!\bor[ \t])minus|by|of|(?<!\bif[ \t])not)|n['’]t|[×*+÷/=-])[ \t$]*\Z",
    re.I,
)
_OPERATOR_AFTER = re.compile(r"[ \t]*(?:[×*+÷/=]|\b(?:times|plus|minus|divided)\b)", re.I)
_CURRENCY_BEFORE = re.compile(r"[$£€¥₹][ \t]?\Z")
_CURRENCY = re.compile(r"[$£€¥₹]")
_WORD_AFTER = re.compile(r"[ \t]*+([A-Za-z]{2,12})\b")
_PER_AFTER = re.compile(r"[ \t]*+(?:a|per|each)[ \t]++([A-Za-z]{2,12})\b", re.IGNORECASE)
JOINERS = JOINERS | frozenset(_ELSEWHERE_JOINERS)
_NOT_UNITS = JOINERS | {"and", "but", "in", "a", "an", "the", "then", "so"}
# Words that offer an alternative value by themselves, hedged or not (`She makes $18 or $20.`,
# `$18, otherwise $20`, `$18 unless it's $20`).
_ALTERNATIVE_WORDS = frozenset(
    ("or", "either", "vs", "versus", "otherwise", "alternatively", "alternately", "unless")
) | frozenset(("oder", "ou", "o", "ó", "или", "或者", "或", "take", "minus", "not", "soit"))
# A range written with a sign or with `to` (`$18 – $20`, `18 to 20 dollars`, `$18 ~ $20`) offers
# two values when the second closes the sentence with a unit of its own: a bare pair is as often
# a score or a subtraction (`(98–95)`), and `from $18 to $20` is a change, not a range.
_RANGE_SIGN = re.compile(r"[—–~∼∨|±]")
# An unspaced hyphen between two values, or a slash before a price (`18-20`, `$18 / $20`).
_PAIR_SIGN = re.compile(r"-|[ \t]*+/[ \t]*+\\?(?=[$£€¥₹])")
_SLASH = re.compile(r"[ \t]*+/[ \t]*+")
_FROM_BEFORE = re.compile(r"(?<!somewhere[ \t])(?<!anywhere[ \t])\bfrom[ \t]+[$£€¥₹]?\Z", re.I)
_CLOSES_WITH_UNIT = re.compile(
    r"[ \t]*+[A-Za-z]{2,12}(?:[ \t]++(?:a|per|each)[ \t]++[A-Za-z]+)?[ \t]*+[.!)*_]*+[ \t]*+\Z"
)
_BETWEEN = re.compile(
    r"(?:\b(?:between|entre|zwischen|между)|(?:ставл|стави|авн[аоы]|авен|будет|стоит|стоят"
    r"|[:—–])\w*[ \t]+от)[ \t]+[$£€¥₹]?\Z",
    re.IGNORECASE,
)  # `составляет от 100 до 200`: a range


def alternatives_in_one(
    text: str, values: list[Value], offered: bool = False, delivered: Found | None = None
) -> bool:
    """Two values side by side in one sentence, the second offered as an alternative to the
    first: nothing between them but alternative and hedge words (and the first one's unit).
    With ``offered`` (a sentence no strong hedge word hedges) a word that offers an alternative
    must stand between them (`She makes $18 or $20.`, `between 18 and 20`), and one of the two is
    the value the sentence delivers (``delivered``, else its last): `In 1 or 2 days she makes
    $18.` states 18, and `She makes $18 or $20 from her 16 eggs.` offers two."""
    pairs = list(pairwise(values))
    if offered:
        wanted = values[-1][0] if delivered is None else delivered[0]
        pairs = [pair for pair in pairs if wanted in (pair[0][0], pair[1][0])]
    for first, second in pairs:
        pair = _PAIR_SIGN.fullmatch(text, first[2], second[1]) or (
            _CURRENCY.match(text, second[1]) and _SLASH.fullmatch(text, first[2], second[1])
        )
        priced = _CURRENCY.match(text, first[1]) and _CURRENCY.match(text, second[1])
        closes = _closes(text, second) or (priced and not _OPERATOR_AFTER.match(text, second[2]))
        if pair and closes and not _one_quantity(text, first, second):
            # `about 18-20 dollars.`, `$18 / $20.`, `$18-$20 from her 16 eggs`: a range or a
            # choice, not a subtraction or a fraction still to be worked out.
            return True
        if same_number(first[0], second[0]) or _operand(text, first) or _operand(text, second):
            continue
        gap = text[first[2] : second[1]].replace("and/or", "or")
        if _GAP_OTHER.search(gap):
            continue
        # What follows a comma offers the alternative; what precedes it describes the first
        # value (`3 lego sets, possibly 2`, `15 years ago, if not 14`).
        offer = gap.rsplit(",", 1)[1] if "," in gap else gap
        words = [w.lower() for w in GAP_WORD.findall(offer)]
        if "," in gap and (not words or not all(w in JOINERS for w in words)):
            words = [w.lower() for w in GAP_WORD.findall(gap)]
        if offered and _ranged(text, first, second, gap, words):
            words = ["or"]
        if len(words) == 1 and _BETWEEN.search(text, max(0, first[1] - 12), first[1]):
            words = ["or"]  # `between 18 and 20`, `entre 18 e 20`: a range of candidates
        if words and words[0] not in JOINERS and words[0] not in _RATE_WORDS:
            words = words[1:]  # the first value's unit (`18 dollars, or maybe 20`)
        if len(words) > 1 and words[0] in _RATE_WORDS:
            words = words[2:]  # and its period (`$18 a day, if not $20`)
        if offered and not _ALTERNATIVE_WORDS.intersection(words):
            continue
        if words and all(w in JOINERS for w in words) and not _one_quantity(text, first, second):
            return True
    return False


def _ranged(text: str, first: Value, second: Value, gap: str, words: list[str]) -> bool:
    """A range between two values that ends its sentence with a unit: `$18 – $20.`, `18 to 20
    dollars.` (the first value's unit may stand between them)."""
    signed = _RANGE_SIGN.search(gap) is not None and len(words) <= 1
    to = bool(words) and words[-1] == "to" and len(words) <= 2
    if not (signed or to) or _FROM_BEFORE.search(text, max(0, first[1] - 16), first[1]):
        return False
    if len(words) == 2 and words[0] != value_unit(text, second):
        return False  # `3 apples to 4 friends`: two quantities, not one range
    return _closes(text, second)


def _closes(text: str, second: Value) -> bool:
    """Whether a value closes its sentence, alone or with its unit (`20 dollars.`, `$20.`)."""
    end = text.find("\n", second[2])
    closing = text[second[2] : len(text) if end < 0 else end]
    priced = value_unit(text, second).startswith("$")
    return _CLOSES_WITH_UNIT.match(closing) is not None or (
        priced and closing.strip(" \t.!)*_") == ""
    )


def _operand(text: str, value: Value) -> bool:
    """A value that is an operand of working, or ruled out (`times $2`, `Not 20`)."""
    before = text[max(0, value[1] - 12) : value[1]]
    return _OPERAND.search(before) is not None or _OPERATOR_AFTER.match(text, value[2]) is not None


def _one_quantity(text: str, first: Value, second: Value) -> bool:
    """Whether two values are one quantity in two units, each with its own (`$18, or maybe 1800
    cents`, `2 hours or perhaps 120 minutes`)."""
    one, other = value_unit(text, first), value_unit(text, second)
    if " per " in one or " per " in other:
        # `$18, or $126 per week`: the value again as a rate of another period, not a second
        # answer; rates of one quantity are in the ratio of their periods.
        return same_quantity(first[0], second[0]) and one != other
    number = NUMBER_PATTERN.match(text, second[1])
    compound = None if number is None else compound_at(number, text, None, False)
    # `2.5 hours, or 2 hours 30 minutes`: the second value is the whole compound quantity.
    other_value = second[0] if compound is None else compound[0]
    if compound is not None and one == other and same_number(first[0], other_value):
        return True
    return one_quantity(first[0], one, other_value, other)


def value_unit(text: str, value: Value) -> str:
    """The unit written with a value: a currency sign before it, else the word after it that is
    no hedge or joining word; empty when none."""
    if _CURRENCY_BEFORE.search(text, max(0, value[1] - 2), value[1]) or _CURRENCY.search(
        text, value[1], value[2]
    ):
        rate = _PER_AFTER.match(text, value[2])
        return "$" if rate is None else f"$ per {rate.group(1).lower()}"  # `$126 per week`
    word = _WORD_AFTER.match(text, value[2])
    if word is None or word.group(1).lower() in _NOT_UNITS:
        return ""
    return word.group(1).lower()
