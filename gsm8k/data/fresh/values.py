"""The values of GSM-Symbolic's template language, and the bounds every value keeps.

Numbers are ``int`` or :class:`fractions.Fraction` (a literal ``0.25`` is exactly 1/4), so a
condition such as ``is_int(n * 0.1)`` is never decided by binary rounding. A value a template
samples from a list of pairs, ``("six-sided", 6)``, is a :class:`Labelled`: its text goes into
the question, its number into arithmetic. Every value is bounded (:data:`MAX_DIGITS`,
:data:`MAX_ITEMS`, :data:`MAX_DEPTH`, :data:`MAX_EXPONENT`) and every instance has a work budget
(:data:`MAX_WORK`), so a hostile template can neither exhaust memory nor run for long.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeAlias

MAX_DIGITS = 40
"""Largest numerator or denominator, in decimal digits, any intermediate value may have."""
MAX_ITEMS = 100_000
"""Largest list (a ``range``, a repeated list) an expression may build."""
MAX_TEXT = 10_000
"""Longest string an expression may build."""
MAX_EXPONENT = 64
"""Largest exponent ``**`` accepts (templates use cubes)."""
MAX_EXPRESSION = 4_000
"""Longest expression source accepted, in characters."""
MAX_NODES = 2_000
"""Most syntax nodes one expression may have."""
MAX_WORK = 50_000_000
"""Work one instance may take, in evaluated syntax nodes plus list items built (an item drawn
at random counts ten). GSM-Symbolic's hungriest template (0011) spends about 350,000 on an
instance and would spend about 5 million over all 200,000 draws; a template that asks for more
is refused (after about 5 s here) instead of running for hours."""
RANDOM_ITEM_WORK = 10
MAX_DEPTH = 16
"""Deepest nesting of lists a value may have (the templates nest two deep: a list of pairs).
Deeper is refused for the template: Python's own comparisons and copies of such a value
recurse once per level."""
MAX_RENDERED = 100_000
"""Longest question or worked solution an instance may be written as, in characters (GSM8K's
longest question is under 1,000): a template whose slot is given a list of long texts is refused
before the text is built, not after it has taken gigabytes."""

_LIMIT = 10**MAX_DIGITS


@dataclass(frozen=True)
class Labelled:
    """A sampled pair: ``text`` is written in the question, ``value`` is used in arithmetic."""

    text: str
    value: int | Fraction


Number: TypeAlias = int | Fraction
Value: TypeAlias = Any
"""int, Fraction, bool, str, Labelled, or a list of values."""


class ExpressionError(ValueError):
    """An expression is not part of the language (syntax, a name or function it does not know).

    Permanent for a template: it fails the same way on every draw.
    """


class WorkExceeded(ValueError):
    """An instance took more than :data:`MAX_WORK`, built a value nested deeper than
    :data:`MAX_DEPTH`, or would be written longer than :data:`MAX_RENDERED`: the template is
    refused, not the draw."""


@dataclass
class Budget:
    """The work left to one instance (shared by all its draws)."""

    limit: int = field(default_factory=lambda: MAX_WORK)
    spent: int = 0

    def spend(self, amount: int) -> None:
        self.spent += amount
        if self.spent > self.limit:
            raise WorkExceeded(f"more than {self.limit:,} steps of work for one instance")


class DrawError(ValueError):
    """Evaluating an expression failed for these particular values (a division by zero, an
    index out of range, a value past the bounds): the draw is rejected, the template is not."""


def as_number(value: Value) -> Number:
    """The number a value stands for in arithmetic."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else value
    if isinstance(value, Labelled):
        return value.value
    raise DrawError(f"{describe(value)} is used as a number")


def exact(value: Number) -> Number:
    """A number in its canonical form: a whole Fraction becomes an int; bounds are checked."""
    if isinstance(value, Fraction):
        if abs(value.numerator) >= _LIMIT or value.denominator >= _LIMIT:
            raise DrawError(f"a value exceeds {MAX_DIGITS} digits")
        return value.numerator if value.denominator == 1 else value
    if abs(value) >= _LIMIT:
        raise DrawError(f"a value exceeds {MAX_DIGITS} digits")
    return value


def literal_number(value: int | float) -> Number:
    """A numeric literal as written: ``0.25`` is exactly 1/4, not the nearest binary float."""
    if isinstance(value, (bool, int)):
        return exact(int(value))
    return exact(Fraction(repr(value)))


def describe(value: Value) -> str:
    if isinstance(value, str):
        return f"the text {value[:40]!r}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return repr(value)


def sequence(value: Value, what: str) -> list[Value]:
    if isinstance(value, list):
        return value
    raise DrawError(f"{what} needs a list, got {describe(value)}")


def whole(value: Value, what: str) -> int:
    number = as_number(value)
    if not isinstance(number, int):
        raise DrawError(f"{what} needs a whole number, got {number}")
    return number


def weight(items: list[Value]) -> int:
    """Items in a list, those of lists inside it included (a list of lists is as large as all
    of its lists together, even when they are the same list repeated); counted without
    recursion, and no further than just past :data:`MAX_ITEMS`.

    Raises:
        WorkExceeded: the list nests deeper than :data:`MAX_DEPTH`.
    """
    total = 0
    pending: list[tuple[list[Value], int]] = [(items, 1)]
    while pending and total <= MAX_ITEMS:
        current, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise WorkExceeded(f"a list nested more than {MAX_DEPTH} deep")
        total += len(current)
        pending.extend((item, depth + 1) for item in current if isinstance(item, list))
    return total


def bounded_list(items: list[Value]) -> list[Value]:
    if len(items) > MAX_ITEMS or weight(items) > MAX_ITEMS:
        raise DrawError(f"a list would exceed {MAX_ITEMS} items")
    return items


def text_size(value: Value, limit: int = MAX_RENDERED) -> int:
    """About how many characters ``value`` takes written out (each number counted at its
    longest), counted no further than just past ``limit``."""
    total = 0
    pending = [value]
    while pending and total <= limit:
        item = pending.pop()
        if isinstance(item, list):
            total += 2 * len(item)  # the ", " between items
            pending.extend(item)
        elif isinstance(item, str):
            total += len(item)
        elif isinstance(item, Labelled):
            total += len(item.text)
        else:
            total += 2 * MAX_DIGITS + 2
    return total


def truth(value: Value) -> bool:
    if isinstance(value, Labelled):
        return value.value != 0
    return bool(value)
