"""One box, one value: whether a final box offers a second value beside the one read from it.

A box is a closed answer slot, so whatever else it holds is either part of the one value (a
fraction, an exponent, a mixed number or compound quantity, the value restated in another unit)
or working (an operand beside an operator or `=`), or it is another value offered with it:
`\\boxed{18 \\mid 20}`, `\\boxed{18 \\text{ through } 20}`, `\\boxed{18 \\approx 20}`,
`\\boxed{18 \\leq x \\leq 20}`. The last delivers no answer, whatever word or symbol joins
the two, so no list of joiners has to be complete.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

from gsm8k.grading.numbers import NUMBER_PATTERN
from gsm8k.grading.refusals import CURRENCY_SIGN
from gsm8k.grading.units import competing, one_quantity

# Parts of one number, never a second value: a LaTeX fraction (`\\frac{840}{13}`), a repeating
# decimal's digits (`18.\\bar{3}`), an exponent or subscript (`10^{5}`, `m^2`, `x_1`),
# superscript digits (`m²`).
_PART_OF_ONE = re.compile(
    r"\\[dt]?frac[ \t]*\{[^{}]*\}[ \t]*\{[^{}]*\}|\\(?:bar|overline|dot)[ \t]*\{[^{}]*\}"
    r"|[\^_][ \t]*(?:\{[^{}]*\}|-?\d+(?:\.\d+)?)"
    r"|[⁰¹²³⁴-⁹]+|\{:\}\d{2}|(?<=\d):\d{2}"
)
# An operand: the number stands beside an operator or `=` (working, not an offered value).
_OPERATOR = r"(?:[-+*/×÷=·⋅∗−]|\\(?:times|cdot|div)(?![A-Za-z]))"
# Before it, an operator or a word that makes it a rate or a part (`9 eggs at \\$2`, `for 9`).
_OPERATOR_BEFORE = re.compile(
    r"(?:" + _OPERATOR + r"|\b(?:at|for|of|per|times|by|in)\b)[ \t]*(?:\\[$£€¥₹]|[$£€¥₹(])?[ \t]*\Z"
)
# A label or a rank names something else, never a value of the answer's quantity: `Grade 3`,
# `on day 1`, `(choice 2)`, `(step 2)`, `(to the nearest 1)`, `No. 4`, `#2`, `2nd`.
_LABEL_BEFORE = re.compile(
    r"(?:\b(?:day|week|month|year|grade|part|step|choice|option|question|problem|page|chapter"
    r"|level|round|case|scenario|stage|phase|item|nearest|number|no\.?)|#)[ \t]*+\Z",
    re.IGNORECASE,
)
_RANK_AFTER = re.compile(r"(?:st|nd|rd|th)(?![A-Za-z])")
# An operand may carry its unit before the operator: `(9 \\text{ eggs} \\times \\$2)`.
_OPERATOR_AFTER = re.compile(
    r"[ \t)]*+(?:\\?%|(?:\\(?:text|mathrm|mbox)\{)?[ \t]*+[A-Za-z]{1,12}+[ \t]*+\}?)?[ \t)]*+"
    + _OPERATOR
)
# A unit right after a value: a word (`per` with the next one), a percent sign, a foot or inch
# mark.
_UNIT_AFTER = re.compile(
    r"[ \t]*+(?:\\(?:text|mathrm|mbox)\{[ \t]*+)?[(]?[ \t]*+"
    r"(?P<unit>\\?%|['′\"″]|per[ \t]++[A-Za-z]{1,12}|[^\W\d_]{1,12}(?![^\W\d_]))"
)
# Words that join two values rather than name a unit (`18 \\text{ or } 20`).
_JOINING_WORDS = frozenset(
    (
        "or", "and", "to", "through", "thru", "bis", "a", "à", "o", "ou", "oder", "vs",
        "versus", "up", "from", "until", "till", "then", "else", "maybe", "perhaps",
        "possibly", "probably", "hasta", "jusqu", "или", "до", "到", "或", "mid", "approx",
    )
)  # fmt: skip
# A range dash or a slash right after the value (and its unit): `18-20`, `18 \\text{--} 20`,
# `18 \\text{ dollars} / 20`.
_RANGE = re.compile(
    r"[ \t]*+(?:\\(?:text|mathrm|mbox)\{[ \t]*+)?(?:[A-Za-z]{1,12}[ \t]*+)?\}?[ \t]*+"
    r"(?:-{1,3}|[–—‒―/]|\\text\{[ \t]*-{1,3}[ \t]*\})[ \t]*+(?:\\?[$£€¥₹])?[ \t]*+\Z"
)


def offers_two_values(
    content: str,
    value: Decimal,
    read_end: int,
    read: Callable[[re.Match[str], str], Decimal | None],
) -> bool:
    """Whether ``content`` (the stated part of a box whose value ``value`` was read from its
    text up to ``read_end``) holds another value offered beside it; ``read`` gives the value of
    a number found in it (a mixed number read whole: `17.5 (17 \\tfrac{1}{2})` is one value).

    A candidate is a value of the answer's quantity: bare, or in the answer's own unit
    (`\\boxed{18 \\text{ through } 20}`, `\\boxed{\\$18 \\text{ or } \\$20}`), or set
    after it by a range dash or a slash (`\\boxed{18-20}`). A number with another unit counts
    something else, a note (`\\boxed{18 \\text{ (for 9 eggs)}}`, `per 24 hours`) or the
    value restated (`(1800 \\text{ cents})`, `1 \\text{ hour } 30 \\text{ minutes}`)."""
    blanked = _PART_OF_ONE.sub(lambda m: " " * len(m.group(0)), content)
    first_unit = _unit_of(content, 0, read_end)
    for found in NUMBER_PATTERN.finditer(blanked, read_end):
        match = NUMBER_PATTERN.match(content, found.start()) or found
        other = read(match, content)
        if other is None or other.copy_abs() == value.copy_abs():
            continue
        if _RANGE.match(blanked[read_end : found.start()]):
            return True  # `18-20`, `18 \\text{ dollars} / 20`: a range or a choice
        if _operand(blanked, found) or _label(blanked, found):
            continue
        other_unit = _unit_of(content, found.start(), found.end())
        if other_unit is None or other_unit == first_unit:
            return True
        if first_unit is not None and _competes(content, read, first_unit, other, other_unit):
            return True  # `18 \\text{ dollars or } 36 \\text{ euros}`
    return False


def _competes(
    content: str,
    read: Callable[[re.Match[str], str], Decimal | None],
    first_unit: str,
    other: Decimal,
    other_unit: str,
) -> bool:
    """Whether a value in another unit is a second answer: its unit and the first's measure
    one thing, and the two values are not one quantity restated."""
    first = NUMBER_PATTERN.search(content)
    one = read(first, content) if first is not None else None
    return (
        one is not None
        and competing(first_unit, other_unit)
        and not one_quantity(one, first_unit, other, other_unit)
    )


def _operand(text: str, match: re.Match[str]) -> bool:
    before = text[max(0, match.start() - 16) : match.start()]
    return bool(_OPERATOR_BEFORE.search(before) or _OPERATOR_AFTER.match(text, match.end()))


def _label(text: str, match: re.Match[str]) -> bool:
    before = text[max(0, match.start() - 12) : match.start()]
    return bool(_LABEL_BEFORE.search(before) or _RANK_AFTER.match(text, match.end()))


def _unit_of(content: str, start: int, end: int) -> str | None:
    """The unit written with the number at ``content[start:end]``: `per` and its word (`per
    day`), else a currency sign before or in it, else the word or mark after it that joins
    nothing; ``None`` when it has none."""
    unit = _UNIT_AFTER.match(content, end)
    word = None if unit is None else unit.group("unit").lower()
    currency = CURRENCY_SIGN.search(content, max(0, start - 2), end) is not None
    if word is not None and word.startswith("per"):
        return ("$ " if currency else "") + " ".join(word.split())
    if currency:
        return "$"
    return None if word is None or word in _JOINING_WORDS else word
