"""The functions a template may call (``sample``, ``range``, ``is_int``, ...), on exact values.

What each means where the templates leave it open is in docs/fresh-questions.md: ``divides(a,
b)`` is "b divides a", ``numbers_within`` includes both ends, ``round`` rounds halves away from
zero, ``sample_sequential`` wraps around. The random ones are methods of :class:`Draws`, bound to
one seeded generator and the instance's work budget.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from gsm8k.data.fresh.values import (
    MAX_DIGITS,
    MAX_ITEMS,
    Budget,
    DrawError,
    Number,
    Value,
    as_number,
    exact,
    sequence,
    whole,
)


def _steps(start: Number, stop: Number, step: Number) -> list[Value]:
    if step == 0:
        raise DrawError("a range step of 0")
    size = max(0, math.ceil(Fraction(stop - start) / step))
    if size > MAX_ITEMS:
        raise DrawError(f"a range would exceed {MAX_ITEMS} items")
    return [exact(start + k * step) for k in range(size)]


def _range(*args: Value) -> list[Value]:
    if not 1 <= len(args) <= 3:
        raise DrawError("range takes 1 to 3 arguments")
    numbers = [whole(a, "range") for a in args]
    start, stop, step = (0, numbers[0], 1) if len(numbers) == 1 else (*numbers[:2], 1)
    if len(numbers) == 3:
        step = numbers[2]
    return _steps(start, stop, step)


def _arange(*args: Value) -> list[Value]:
    """``np.arange`` on exact numbers: start, start + step, ... while below ``stop``."""
    if not 1 <= len(args) <= 3:
        raise DrawError("arange takes 1 to 3 arguments")
    numbers = [as_number(a) for a in args]
    start, stop, step = (0, numbers[0], 1) if len(numbers) == 1 else (*numbers[:2], 1)
    if len(numbers) == 3:
        step = numbers[2]
    return _steps(start, stop, step)


def _numbers_within(low: Value, high: Value) -> list[Value]:
    """The whole numbers from ``low`` to ``high``, both included."""
    return _steps(whole(low, "numbers_within"), whole(high, "numbers_within") + 1, 1)


def _is_int(value: Value) -> bool:
    return isinstance(as_number(value), int)


def _int(value: Value) -> int:
    """Python's ``int``: toward zero."""
    number = as_number(value)
    return int(number)


def _divides(value: Value, divisor: Value) -> bool:
    """Whether ``value`` is a whole multiple of ``divisor`` (the templates' ``divides(a, b)``)."""
    number, by = as_number(value), as_number(divisor)
    return by != 0 and exact(number % by) == 0


def _fraction(numerator: Value, denominator: Value = 1) -> Number:
    if isinstance(numerator, str):
        # digits only: Fraction("1e999999999") would build a number of a billion digits
        if not re.fullmatch(r"\s*-?\d{1,40}(\.\d{1,40})?(\s*/\s*\d{1,40})?\s*", numerator):
            raise DrawError(f"Fraction({numerator[:40]!r}) is not a number")
        try:
            parsed = Fraction(numerator.strip().replace(" ", ""))
        except (ValueError, ZeroDivisionError) as error:
            raise DrawError(f"Fraction({numerator[:40]!r}) is not a number") from error
        return exact(parsed / as_number(denominator))
    by = as_number(denominator)
    if by == 0:
        raise DrawError("Fraction with denominator 0")
    return exact(Fraction(as_number(numerator)) / by)


def round_half_away(value: Number, digits: int = 0) -> Number:
    """Round to ``digits`` decimals, halves away from zero (school rounding: 2.5 → 3)."""
    scale = Fraction(10) ** digits
    scaled = abs(Fraction(value)) * scale
    whole = int(scaled + Fraction(1, 2))
    result = Fraction(whole if value >= 0 else -whole) / scale
    return exact(result)


def _round(value: Value, digits: Value = 0) -> Number:
    places = whole(digits, "round")
    if not -MAX_DIGITS <= places <= MAX_DIGITS:
        raise DrawError("round to too many places")
    return round_half_away(as_number(value), places)


def format_frac(value: Value) -> str:
    """A number as a mixed fraction, as worked solutions write it: ``3 1/2``, ``1/2``, ``4``."""
    number = Fraction(as_number(value))
    whole, rest = divmod(abs(number.numerator), number.denominator)
    sign = "-" if number < 0 else ""
    if rest == 0:
        return f"{sign}{whole}"
    part = f"{rest}/{number.denominator}"
    return f"{sign}{whole} {part}" if whole else f"{sign}{part}"


def _list(value: Value) -> list[Value]:
    if isinstance(value, str):
        raise DrawError("list() of a text")
    return list(sequence(value, "list"))


@dataclass(frozen=True)
class Draws:
    """The random functions, bound to one seeded generator, and the instance's work budget."""

    rng: random.Random
    budget: Budget

    def sample(self, items: Value, count: Value = None) -> Value:
        pool = sequence(items, "sample")
        if not pool:
            raise DrawError("sample from an empty list")
        if count is None:
            return self.rng.choice(pool)
        k = whole(count, "sample")
        if not 0 <= k <= len(pool):
            raise DrawError(f"sample of {k} from a list of {len(pool)}")
        return self.rng.sample(pool, k)

    def sample_sequential(self, items: Value, count: Value) -> list[Value]:
        """``count`` consecutive items from a random start, wrapping around (a week is a cycle)."""
        pool = sequence(items, "sample_sequential")
        k = whole(count, "sample_sequential")
        if not pool or not 0 <= k <= len(pool):
            raise DrawError(f"sample_sequential of {k} from a list of {len(pool)}")
        start = self.rng.randrange(len(pool))
        return [pool[(start + i) % len(pool)] for i in range(k)]

    def shuffle_list(self, items: Value) -> list[Value]:
        shuffled = list(sequence(items, "shuffle_list"))
        self.rng.shuffle(shuffled)
        return shuffled

    def randint(self, low: Value, high: Value) -> int:
        """A whole number from ``low`` to ``high``, both included (``random.randint``)."""
        a, b = whole(low, "randint"), whole(high, "randint")
        if a > b:
            raise DrawError(f"randint({a}, {b}) is empty")
        return self.rng.randint(a, b)

    def np_randint(self, low: Value, high: Value, size: Value = None) -> Value:
        """``np.random.randint``: from ``low`` up to but excluding ``high``; ``size`` of them."""
        a, b = whole(low, "randint"), whole(high, "randint")
        if a >= b:
            raise DrawError(f"np.random.randint({a}, {b}) is empty")
        if size is None:
            return self.rng.randrange(a, b)
        n = whole(size, "randint")
        if not 0 <= n <= MAX_ITEMS:
            raise DrawError(f"np.random.randint size {n}")
        return [self.rng.randrange(a, b) for _ in range(n)]


PURE_FUNCTIONS: dict[str, Callable[..., Value]] = {
    "range": _range,
    "arange": _arange,
    "frange": _arange,
    "numbers_within": _numbers_within,
    "is_int": _is_int,
    "int": _int,
    "divides": _divides,
    "Fraction": _fraction,
    "round": _round,
    "format_frac": format_frac,
    "fix_floats": lambda value: value,  # exact numbers carry no binary noise to fix
    "list": _list,
    "abs": lambda value: exact(abs(as_number(value))),  # type: ignore[arg-type]
}
RANDOM_FUNCTIONS = ("sample", "sample_sequential", "shuffle_list", "randint")
FUNCTIONS = frozenset([*PURE_FUNCTIONS, *RANDOM_FUNCTIONS])
"""Every function a template may call (``np.arange`` and ``np.random.randint`` also)."""
ATTRIBUTE_FUNCTIONS = {"np.arange": "arange", "np.random.randint": "np_randint"}
