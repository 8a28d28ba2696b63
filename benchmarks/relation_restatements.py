"""Relations that restate the delivered value in another form: the grader must read the same value.

The number in words, another unit beside the asked one, a scale word, a degree mark, a sign word,
and a closing sentence that carries a number of the question. A phrasing that does not fit a
completion (no unit asked, a value too small for a scale word) gives ``None`` and the next is
tried.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

from benchmarks.answer_statements import asked_unit, fmt
from benchmarks.relation_phrasings import (
    BOXED,
    WORDS_SLOT,
    Case,
    Expect,
    Phrasing,
    Relation,
    after,
    slot,
)

_ONES = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
)  # fmt: skip
_TENS = ["-", "-", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def words(value: Decimal) -> str | None:
    """English words for a whole number below 1,000 (``one hundred and five``), else ``None``."""
    if value != value.to_integral_value() or not 0 <= value < 1000:
        return None
    hundreds, rest = divmod(int(value), 100)
    parts = [f"{_ONES[hundreds]} hundred"] if hundreds else []
    if rest or not parts:
        tens, ones = divmod(rest, 10)
        parts.append(_ONES[rest] if rest < 20 else _TENS[tens] + (f"-{_ONES[ones]}" * bool(ones)))
    return " and ".join(parts)


def _phrasing(label: str, build: Callable[[Case], str | None]) -> Phrasing:
    return label, build


def _in_words(form: str, capital: bool = False) -> Callable[[Case], str | None]:
    def build(case: Case) -> str | None:
        text = words(case.statement.value)
        if text is None or case.statement.kind not in WORDS_SLOT:
            return None
        text = text.capitalize() if capital else text
        if form == "slot":
            return case.slot(text)
        return None if case.statement.kind == "json" else case.replace_line(form.format(text))

    return build


# Models spell small answers out (`#### twenty`, `<answer>twenty</answer>`).
WORDS = Relation(
    "number_words",
    Expect.SAME,
    (
        _phrasing("twenty-five", _in_words("slot")),
        _phrasing("Twenty-five", _in_words("slot", capital=True)),
        _phrasing("<answer>twenty-five</answer>", _in_words("<answer>{}</answer>")),
        _phrasing("#### twenty-five", _in_words("#### {}")),
    ),
)

# Per asked unit: another unit, and how many of it one asked unit makes.
_CONVERSIONS: dict[str, tuple[tuple[str, Decimal], ...]] = {
    "seconds": (("minutes", Decimal(1) / 60),),
    "minutes": (("hours", Decimal(1) / 60), ("seconds", Decimal(60))),
    "hours": (("minutes", Decimal(60)),),
    "days": (("hours", Decimal(24)), ("weeks", Decimal(1) / 7)),
    "weeks": (("days", Decimal(7)),),
    "months": (("years", Decimal(1) / 12),),
    "years": (("months", Decimal(12)),),
    "inches": (("feet", Decimal(1) / 12),),
    "feet": (("inches", Decimal(12)),),
    "ounces": (("pounds", Decimal(1) / 16),),
    "pounds": (("ounces", Decimal(16)),),
    "cents": (("dollars", Decimal(1) / 100),),
    "dollars": (("cents", Decimal(100)),),
}


def _clean(value: Decimal) -> Decimal | None:
    """The value when a model would write it (at most two decimals), else ``None``."""
    rounded = value.quantize(Decimal("0.01"))
    return rounded if abs(rounded - value) < Decimal("1e-9") and rounded > 0 else None


def _amount(case: Case, value: Decimal, unit: str) -> str:
    """``$0.90`` (``\\$0.90`` in a box, which sits in LaTeX math) or ``90 cents``; never
    rounded (``$1.225`` stays)."""
    if unit != "dollars":
        return f"{fmt(value)} {unit}"
    sign = "\\$" if case.statement.kind == "boxed" else "$"
    cents = value.quantize(Decimal("0.01"))
    whole = value == value.to_integral_value()
    return sign + (fmt(value) if whole or cents != value else f"{cents:f}")


def _two_units(form: str) -> Callable[[Case], str | None]:
    """``form`` with ``{asked}`` (the value in the asked unit) and ``{other}`` (converted)."""

    def build(case: Case) -> str | None:
        unit = asked_unit(case.question)
        if _clean(case.statement.value) is None:
            return None  # `0.5333333333333333 feet` has no exact value in inches to restate
        for other, factor in _CONVERSIONS.get(unit or "", ()):
            converted = _clean(case.statement.value * factor)
            if converted is not None:
                asked = _amount(case, case.statement.value, unit or "")
                restated = _amount(case, converted, other)
                return case.slot(form.format(asked=asked, other=restated))
        return None

    return build


def _compound(form: str) -> Callable[[Case], str | None]:
    """``1 hour 30 minutes`` / ``5 feet 6 inches`` for a whole number of minutes or inches, in
    words (``form`` "words") or in short forms (``1h 30m``, ``5'6"``)."""

    def build(case: Case) -> str | None:
        unit, value = asked_unit(case.question), case.statement.value
        sizes = {
            "minutes": (60, "hour", "hours", "h", "m"),
            "inches": (12, "foot", "feet", "'", '"'),
        }
        if unit not in sizes or value != value.to_integral_value():
            return None
        size, one, many, big, small = sizes[unit]
        whole, rest = divmod(int(value), size)
        if not whole or not rest:
            return None
        if form == "short" and case.statement.kind == "json":
            return None  # the inch mark `"` would close the JSON string
        if form == "short":
            return case.slot(
                f"{whole}{big} {rest}{small}" if big == "h" else f"{whole}{big}{rest}{small}"
            )
        return case.slot(f"{whole} {one if whole == 1 else many} {rest} {unit}")

    return build


UNITS = Relation(
    "other_units",
    Expect.SAME,
    (
        _phrasing("90 minutes (1.5 hours)", _two_units("{asked} ({other})")),
        _phrasing("1.5 hours (90 minutes)", _two_units("{other} ({asked})")),
        _phrasing("90 minutes, or 1.5 hours", _two_units("{asked}, or {other}")),
        _phrasing("1 hour 30 minutes", _compound("words")),
        _phrasing("1h 30m", _compound("short")),
    ),
)


def _scaled(divisor: int, form: str, priced: bool = False) -> Callable[[Case], str | None]:
    """``form`` with ``{s}`` (the value over ``divisor``), ``{d}`` (as written), ``{cur}``;
    ``priced`` forms need an amount in dollars (`$1.8 mil` is a million only with its `$`)."""

    def build(case: Case) -> str | None:
        value = case.statement.value
        scaled = value / divisor
        if value < divisor or scaled != scaled.quantize(Decimal("0.001")):
            return None
        money = "$" if asked_unit(case.question) == "dollars" else ""
        if priced and not money:
            return None
        return case.slot(form.format(s=fmt(scaled), d=case.number, cur=money))

    return build


SCALE = Relation(
    "scale_word",
    Expect.SAME,
    (
        _phrasing("$18 thousand", _scaled(1000, "{cur}{s} thousand")),
        _phrasing("18k", _scaled(1000, "{cur}{s}k")),
        _phrasing("$1.8 million", _scaled(1_000_000, "{cur}{s} million")),
        _phrasing("18,000 (18 thousand)", _scaled(1000, "{d} ({s} thousand)")),
        _phrasing("$1.8M", _scaled(1_000_000, "{cur}{s}M")),
        _phrasing("$18 bn", _scaled(1_000_000_000, "{cur}{s} bn", priced=True)),
        _phrasing("$1.8 mil", _scaled(1_000_000, "{cur}{s} mil", priced=True)),
        _phrasing("18 lakh", _scaled(100_000, "{cur}{s} lakh")),
        _phrasing("18万", _scaled(10_000, "{s}万")),
        _phrasing("18 mil dólares", _scaled(1000, "{s} mil dólares", priced=True)),
    ),
)

DEGREES = Relation(
    "degree_mark",
    Expect.SAME,
    (
        slot("{d}°"),
        slot("{d}^\\circ"),
        slot("{d} degrees"),
        slot("{d}^\\circ \\text{{F}}", BOXED),
        slot("{d} °F"),
    ),
)


_LOSS_ASKED = re.compile(r"\bhow[ \t]+much\b[^?]{0,60}\blos(?:e|es|t|ing)\b|\bloss\b", re.I)


def _signed(gain: str, loss: str) -> Callable[[Case], str | None]:
    """``gain`` for a positive value, ``loss`` for a negative one, with ``{v}`` its size."""

    def build(case: Case) -> str | None:
        value = case.statement.value
        form = gain if value > 0 else loss
        if value == 0 or ("$" in form and asked_unit(case.question) == "cents"):
            return None  # `$90` is 9000 when cents are asked: another value, not a restatement
        if _LOSS_ASKED.search(case.question or ""):
            # `How much does he lose?`: a profit or gain there is the opposite of the loss asked,
            # not the same value restated.
            return None
        return case.slot(form.format(v=fmt(abs(value))))

    return build


SIGN = Relation(
    "sign_word",
    Expect.SAME,
    (
        _phrasing("a profit of $18", _signed("a profit of ${v}", "-${v}")),
        _phrasing("$18 profit", _signed("${v} profit", "-${v} (a loss)")),
        _phrasing("a gain of 18", _signed("a gain of {v}", "a change of -{v}")),
        _phrasing("+18", _signed("+{v}", "−{v}")),
        _phrasing("18 (net gain)", _signed("{v} (net gain)", "-{v} (net loss)")),
    ),
)


def _closing(template: str) -> Phrasing:
    """The final statement's line (or JSON field) replaced by a closing sentence in prose."""

    def build(case: Case) -> str | None:
        text = case.fill(template)
        if text is None:
            return None
        return case.slot(text) if case.statement.kind == "json" else case.replace_line(text)

    return template, build


CLOSING = Relation(
    "closing_clause",
    Expect.SAME,
    (
        _closing("Therefore, the total comes to {d} for the {q} {n}."),
        _closing("So it takes {d} to cover all {q} {n}."),
        _closing("That gives {d}, since there are {q} {n}."),
        _closing("So the result is {d} when there are {q} {n}."),
        after("So that is {d} in all, for the {q} {n}."),
        after("This uses all {q} {n} given in the problem."),
    ),
)

RESTATEMENTS = (WORDS, UNITS, SCALE, DEGREES, SIGN, CLOSING)
