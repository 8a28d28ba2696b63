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
from gsm8k.grading.refusals import CURRENCY_SIGN, same_quantity

# Parts of one number, never a second value: a LaTeX fraction (`\\frac{840}{13}`), a repeating
# decimal's digits (`18.\\bar{3}`), an exponent or subscript (`10^{5}`, `m^2`, `x_1`),
# superscript digits (`m²`).
_PART_OF_ONE = re.compile(
    r"\\[dt]?frac[ \t]*\{[^{}]*\}[ \t]*\{[^{}]*\}|\\(?:bar|overline|dot)[ \t]*\{[^{}]*\}"
    r"|[\^_][ \t]*(?:\{[^{}]*\}|-?\d+(?:\.\d+)?)"
    r"|[⁰¹²³⁴-⁹]+"
)
# An operand: the number stands beside an operator or `=` (working, not an offered value).
_OPERATOR = r"(?:[-+*/×÷=·⋅∗−]|\\(?:times|cdot|div)(?![A-Za-z]))"
_OPERATOR_BEFORE = re.compile(_OPERATOR + r"[ \t]*(?:\\[$£€¥₹]|[$£€¥₹(])?[ \t]*\Z")
# An operand may carry its unit before the operator: `(9 \\text{ eggs} \\times \\$2)`.
_OPERATOR_AFTER = re.compile(
    r"[ \t)]*+(?:\\?%|(?:\\(?:text|mathrm|mbox)\{)?[ \t]*+[A-Za-z]{1,12}+[ \t]*+\}?)?[ \t)]*+"
    + _OPERATOR
)
# A unit or a percent sign right after a value: what tells one quantity written in two units.
_UNIT_AFTER = re.compile(
    r"[ \t]*+(?:\\(?:text|mathrm|mbox)\{[ \t]*+)?(?P<unit>\\?%|[A-Za-z¢]{1,12}(?![A-Za-z]))"
)


def offers_two_values(
    content: str,
    value: Decimal,
    read_end: int,
    read: Callable[[re.Match[str], str], Decimal | None],
) -> bool:
    """Whether ``content`` (the stated part of a box whose value ``value`` was read from its
    text up to ``read_end``) holds another value offered beside it; ``read`` gives the value of
    a number found in it (a mixed number read whole: `17.5 (17 \\tfrac{1}{2})` is one value)."""
    blanked = _PART_OF_ONE.sub(lambda m: " " * len(m.group(0)), content)
    for found in NUMBER_PATTERN.finditer(blanked, read_end):
        match = NUMBER_PATTERN.match(content, found.start()) or found
        other = read(match, content)
        if other is None or other.copy_abs() == value.copy_abs() or _operand(blanked, found):
            continue
        if same_quantity(value, other) and _with_units(content, read_end, found):
            continue  # `2 \\text{ hours} (120 \\text{ minutes})`
        return True
    return False


def _operand(text: str, match: re.Match[str]) -> bool:
    before = text[max(0, match.start() - 12) : match.start()]
    return bool(_OPERATOR_BEFORE.search(before) or _OPERATOR_AFTER.match(text, match.end()))


def _with_units(content: str, read_end: int, found: re.Match[str]) -> bool:
    """Whether the two values are one quantity written in two units: each with its own unit,
    and the units differ (`18 \\text{ dollars} (1800 \\text{ cents})`, `\\$18 (1800 cents)`);
    a word that only joins them (`18 \\text{ through } 36`) leaves the second without one."""
    first = _unit_at(content, read_end)
    if first is None and CURRENCY_SIGN.search(content[:read_end]):
        first = "$"
    second = _unit_at(content, found.end())
    if second is None and CURRENCY_SIGN.search(content, max(0, found.start() - 2), found.end()):
        second = "$"  # `90 \\text{ cents} (\\$0.90)`
    return first is not None and second is not None and first != second


def _unit_at(content: str, end: int) -> str | None:
    unit = _UNIT_AFTER.match(content, end)
    return None if unit is None else unit.group("unit").lower()
