"""Units: one quantity is one value, read in the unit the question asks for (docs/grading.md).

The principle: a stated answer is a quantity. Written in a unit of the same kind as the one the
question asks for (`How many minutes …?`, `Give your answer in minutes.`), it is converted into
that unit by the units' fixed sizes: `1.5 hours` is 90 when minutes are asked, `2600 cents ($26)`
is 26 when dollars are, `1h 30m` is 90. Written in two units (`1 hour 30 minutes`, `5'6"`,
`2 gallons 2 quarts`), it is one quantity, read in the asked unit, or in its larger unit when the
question asks for none of its kind. Units with no fixed size between them (`dollars` and `euros`,
`months` and `days`) are never converted, and a rate (`30 minutes per day`) is not a quantity of
its unit alone, so it is read as written.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from gsm8k.grading.numbers import number_from_match, parse_number

Unit = tuple[str, Decimal]
"""A unit's kind (what it measures, in one system) and its size in that kind's smallest unit."""

# name: (how it is written, kind, size). The short forms that are also words or letters of
# other units (`in`, `m`, `h`, `s`, `g`) are read only as the smaller unit of a compound, where
# the larger unit says which they are (`1h 30m`, `5 ft 6 in`, `1 min 30 s`).
_UNITS: dict[str, tuple[str, str, int]] = {
    "second": (r"seconds?|secs?", "time", 1),
    "minute": (r"minutes?|mins?", "time", 60),
    "hour": (r"hours?|hrs?|h", "time", 3600),
    "day": (r"days?", "time", 86_400),
    "week": (r"weeks?", "time", 604_800),
    "month": (r"months?", "calendar", 1),
    "year": (r"years?", "calendar", 12),
    "inch": (r"inch(?:es)?", "length", 1),
    "foot": (r"feet|foot|ft", "length", 12),
    "yard": (r"yards?|yds?", "length", 36),
    "mile": (r"miles?", "length", 63_360),
    "millimeter": (r"millimet(?:er|re)s?|mm", "metric length", 1),
    "centimeter": (r"centimet(?:er|re)s?|cm", "metric length", 10),
    "meter": (r"met(?:er|re)s?", "metric length", 1000),
    "kilometer": (r"kilomet(?:er|re)s?|km", "metric length", 1_000_000),
    "ounce": (r"ounces?|oz", "weight", 1),
    "pound": (r"pounds?|lbs?", "weight", 16),
    "milligram": (r"milligrams?|mg", "metric weight", 1),
    "gram": (r"grams?", "metric weight", 1000),
    "kilogram": (r"kilograms?|kg", "metric weight", 1_000_000),
    "milliliter": (r"millilit(?:er|re)s?|ml", "metric volume", 1),
    "liter": (r"lit(?:er|re)s?", "metric volume", 1000),
    "cup": (r"cups?", "volume", 1),
    "pint": (r"pints?", "volume", 2),
    "quart": (r"quarts?", "volume", 4),
    "gallon": (r"gallons?", "volume", 16),
    "cent": (r"cents?|¢", "money", 1),
    "dollar": (r"dollars?", "money", 100),
    "euro": (r"euros?|€", "euros", 100),
    "dozen": (r"dozens?", "count", 12),
}
# The short forms, by the kind of the larger unit before them in a compound.
_SHORT: dict[str, dict[str, str]] = {
    "time": {"h": "hour", "m": "minute", "s": "second", "min": "minute", "sec": "second"},
    "length": {"in": "inch", "ft": "foot", "'": "foot", "′": "foot", '"': "inch", "″": "inch"},
    "metric length": {"m": "meter", "cm": "centimeter", "mm": "millimeter"},
    "metric weight": {"g": "gram", "kg": "kilogram", "mg": "milligram"},
    "metric volume": {"ml": "milliliter"},
}
_NAMED = {name: re.compile(pattern, re.IGNORECASE) for name, (pattern, _, _) in _UNITS.items()}
_SAME = Decimal("1e-20")
_CURRENCIES = frozenset(("money", "euros"))
_SHORT_FORMS = r"h|m|s|in|g|'|′|\"|″|''"
_WRITTEN = "|".join(pattern for pattern, _, _ in _UNITS.values())
_TEXT_OPEN = r"(?:\\(?:text|mathrm)\{[ \t]{0,2}+)?"
_TEXT_CLOSE = r"(?:[ \t]{0,2}+\})?"
_COMPOUND = re.compile(
    rf"[ \t]?(?:{_TEXT_OPEN}(?P<big>{_WRITTEN}|{_SHORT_FORMS})(?![A-Za-z])\.?{_TEXT_CLOSE}"
    rf"[ \t]{{0,2}}+,?[ \t]{{0,2}}+(?:and[ \t]{{1,2}}+)?|[ \t]and[ \t]{{1,2}}+)"
    rf"(?P<part>\d{{1,3}}(?:\.\d{{1,6}})?)"
    rf"[ \t]?{_TEXT_OPEN}(?P<small>{_WRITTEN}|{_SHORT_FORMS})(?![A-Za-z])",
    re.IGNORECASE,
)
# The unit written after a value: a word of its own, or wrapped in LaTeX text (`18 \\text{
# minutes}`); the short forms are not read here.
_UNIT_AFTER = re.compile(
    rf"\}}?\$?[ \t]?+{_TEXT_OPEN}(?P<unit>{_WRITTEN})(?![A-Za-z])", re.IGNORECASE
)
# A rate: the unit is one part of the quantity (`30 minutes per day`, `$5/hour`, `2 miles an hour`).
_RATE = re.compile(r"[ \t]*+(?:/|per\b|an?(?=[ \t]+[A-Za-z])|each\b|every\b)[ \t]*+", re.I)
_PERIOD = re.compile(r"[A-Za-z]{2,12}")
# The period a question asks a rate for: `every day`, `per week`, `a month`, `daily`.
_ASKED_PERIOD = re.compile(r"\b(?:per|each|every|an?)[ \t]+([a-z]{3,7})\b|\b([a-z]{3,5})ly\b")
_QUESTION_WORD = re.compile(r"\b(?:how|what)\b")
_ADVERBS = {"dai": "day", "hour": "hour", "week": "week", "month": "month", "year": "year"}

# `How many minutes`, `How many more minutes`, `How many additional minutes` (one word between).
_ASKED_HOW_MANY = re.compile(
    rf"\bhow[ \t]+many[ \t]+(?:[a-z]{{3,12}}[ \t]+)?(?P<unit>{_WRITTEN})\b", re.IGNORECASE
)
_ASKED_IN = re.compile(rf"\bin[ \t]+(?:terms[ \t]+of[ \t]+)?(?P<unit>{_WRITTEN})\b", re.IGNORECASE)
_ASKED_MONEY = re.compile(r"\bhow[ \t]+much\b", re.IGNORECASE)
# A request written as an instruction, a sentence of its own: `Give your answer in minutes.`,
# `Calculate the total time in minutes.`
_INSTRUCTION = re.compile(
    r"^(?:please[ \t]+)?(?:give|express|write|state|report|round|provide|answer|calculate"
    r"|compute|find|determine|work[ \t]+out)\b",
    re.IGNORECASE,
)
_ASKED_SCALE = re.compile(
    r"\b(?:how[ \t]+many|in)[ \t]+(thousands|millions|billions)\b", re.IGNORECASE
)
_SCALES = {"thousands": 1000, "millions": 10**6, "billions": 10**9}
_CENTS = re.compile(r"\bcents?\b|¢", re.IGNORECASE)
_QUESTION_LOOK = 20_000


@lru_cache(maxsize=256)  # a text writes a few unit words, each read many times
def unit_named(written: str, larger: str | None = None) -> str | None:
    """The unit a written unit names (`hrs` is `hour`); a short form (`m`, `in`, `"`) only
    after a ``larger`` unit of its kind (`1h 30m`, `5 ft 6 in`)."""
    lowered = written.lower()
    if larger is not None and lowered in _SHORT.get(_UNITS[larger][1], {}):
        return _SHORT[_UNITS[larger][1]][lowered]
    if lowered in ("'", "′"):
        return "foot"
    for name, pattern in _NAMED.items():
        if pattern.fullmatch(written):
            return name
    return "hour" if lowered == "h" else None


def one_quantity(one: Decimal, one_unit: str, other: Decimal, other_unit: str) -> bool:
    """Whether two different values are one quantity written in two units (`$18 (or 1800
    cents)`, `2 hours or 120 minutes`): each unit known, of one kind, and the values equal once
    converted. Units with no fixed size between them (`18 dollars or 36 euros`) and words that
    are no unit (`2 boxes or 24 cookies`) are two quantities, offered as two answers."""
    first, second = _unit_or_sign(one_unit), _unit_or_sign(other_unit)
    if "dozen" in (first, second) and None in (first, second):
        # `24 eggs, or 2 dozen`: things counted one by one, and in dozens.
        items, dozens = (one, other) if second == "dozen" else (other, one)
        named = other_unit if second is None else one_unit
        return named.isalpha() and items == dozens * 12
    if first is None or second is None or first == second:
        return False
    if _UNITS[first][1] != _UNITS[second][1]:
        return False
    # A restatement rounded to the digits it shows is the same quantity (`160 minutes (about
    # 2.67 hours)`, `2.67 hours (160 minutes)`).
    exact, exponent = converted(one, first, second), other.as_tuple().exponent
    places = min(0, exponent) if isinstance(exponent, int) else 0
    if abs(exact - other) <= abs(other) * _SAME:
        return True  # equal but for the last digit of a repeating decimal (`2\\frac{1}{3}`)
    return exact.quantize(Decimal(1).scaleb(places)) == other


def competing(one_unit: str, other_unit: str) -> bool:
    """Whether values in these two written units are answers to one question, not one value
    and a note about something else: both known units of one kind, or both currencies
    (`\\boxed{18 \\text{ dollars or } 36 \\text{ euros}}`)."""
    first, second = _unit_or_sign(one_unit), _unit_or_sign(other_unit)
    if first is None or second is None:
        return False
    kinds = {_UNITS[first][1], _UNITS[second][1]}
    return len(kinds) == 1 or kinds <= _CURRENCIES


def compound_units(larger: str, smaller: str) -> bool:
    """Whether two written units can be the parts of one quantity (`hours` and `minutes`)."""
    first, second = _unit_or_sign(larger), _unit_or_sign(smaller)
    if first is None or second is None:
        return False
    return _UNITS[first][1] == _UNITS[second][1] and _UNITS[first][2] > _UNITS[second][2]


def same_unit(one_unit: str, other_unit: str) -> bool:
    """Whether two written units name one unit (`$` and `dollars`, `hrs` and `hours`)."""
    first, second = _unit_or_sign(one_unit), _unit_or_sign(other_unit)
    return first is not None and first == second


def rate_follows(text: str, end: int) -> bool:
    """Whether a rate's `per …` follows a value and its unit (`$126 per week`)."""
    after = _UNIT_AFTER.match(text, end)
    return _RATE.match(text, end if after is None else after.end()) is not None


def rate_period(text: str, end: int) -> str | None:
    """The period of the rate after a value and its unit (`$126 a week` is `week`), or ``None``."""
    after = _UNIT_AFTER.match(text, end)
    rate = _RATE.match(text, end if after is None else after.end())
    period = _PERIOD.match(text, rate.end()) if rate is not None else None
    named = unit_named(period.group(0)) if period is not None else None
    return named if named is not None and _UNITS[named][1] in ("time", "calendar") else None


@lru_cache(maxsize=64)
def asked_period(question: str | None) -> str | None:
    """The period the question asks a rate for (`How much … every day?` is `day`), or ``None``:
    read after its question word, since the premises before it name other periods (`If he is
    paid $50 every day, how much does he earn in a year?`)."""
    asking = asking_text(question)
    opened = [found.start() for found in _QUESTION_WORD.finditer(asking)]
    for found in _ASKED_PERIOD.finditer(asking, opened[-1] if opened else 0):
        word = found.group(1) or _ADVERBS.get(found.group(2) or "")
        named = unit_named(word) if word else None
        if named is not None and _UNITS[named][1] in ("time", "calendar"):
            return named
    return None


def _unit_or_sign(written: str) -> str | None:
    sign = written.strip().lstrip("\\")
    if sign in ("$", "€", "¢"):
        return {"$": "dollar", "€": "euro", "¢": "cent"}[sign]
    return unit_named(written) if written not in _SHORT_FORMS.split("|") else None


@lru_cache(maxsize=64)  # a sample's stated values all ask about its one question
def asking_text(question: str | None) -> str:
    """The question's sentences that ask (end with a question mark) or say the answer's form
    (`Give your answer in minutes.`), lower-cased."""
    if not question:
        return ""
    sentences = re.split(r"(?<=[.!?])\s+", question[:_QUESTION_LOOK])
    return " ".join(
        sentence for sentence in sentences if "?" in sentence or _INSTRUCTION.match(sentence)
    ).lower()


@lru_cache(maxsize=64)
def asked_unit(question: str | None) -> str | None:
    """The unit the question asks its answer in: `How many minutes …?`, `… in hours?`, `Give
    your answer in feet.`; dollars for `How much …?` about prices in dollars and no cents."""
    asking = asking_text(question)
    found = _ASKED_HOW_MANY.search(asking) or _ASKED_IN.search(asking)
    if found is not None:
        return unit_named(found.group("unit"))
    priced = question is not None and "$" in question and _CENTS.search(question) is None
    return "dollar" if priced and _ASKED_MONEY.search(asking) else None


def in_asked_unit(value: Decimal, unit: str, question: str | None) -> Decimal:
    """``value`` in ``unit`` expressed in the unit the question asks for, when it is of the same
    kind; `2 dozen` is 24 unless dozens are asked."""
    if unit == "dozen":
        return value if asked_unit(question) == "dozen" else value * 12
    return converted(value, unit, asked_unit(question))


def in_asked_scale(value: Decimal, question: str | None) -> Decimal:
    """A value in the scale the question asks for (`How many millions of dollars …?`, `… in
    thousands?`): `$18 million` and `$18,000,000` are 18 there; a smaller value is taken to be
    written in that scale already."""
    found = _ASKED_SCALE.search(asking_text(question))
    if found is None:
        return value
    scale = Decimal(_SCALES[found.group(1).lower()])
    return value / scale if value.copy_abs() >= scale else value


def converted(value: Decimal, unit: str, asked: str | None) -> Decimal:
    """``value`` in ``unit`` expressed in the ``asked`` unit, when both are of one kind."""
    if asked is None or asked == unit or _UNITS[unit][1] != _UNITS[asked][1]:
        return value
    return value * _UNITS[unit][2] / _UNITS[asked][2]


def compound_at(
    match: re.Match[str], text: str, question: str | None, priced: bool
) -> tuple[Decimal, int] | None:
    """One quantity in two units whose larger-unit value is ``match`` (`1 hour 30 minutes`,
    `1h 30m`, `5'6"`, `$18 and 50 cents`): its value in the asked unit, or in the larger unit
    when the question asks for none of its kind, and where it ends. ``priced`` says a currency
    sign comes with ``match``."""
    found = _COMPOUND.match(text, match.end())
    if found is None or match.group("exponent"):
        return None
    if found.group("big") is None and not priced:
        small = unit_named(found.group("small"))
        if small != "cent":
            return None  # `18 and 30 minutes`: no unit for the 18, not one quantity
    big = "dollar" if found.group("big") is None else unit_named(found.group("big"))
    small = unit_named(found.group("small"), big) if big is not None else None
    whole, part = number_from_match(match), parse_number(found.group("part"))
    if big is None or small is None or whole is None or part is None or whole < 0:
        return None
    if _UNITS[big][1] != _UNITS[small][1] or _UNITS[big][2] <= _UNITS[small][2]:
        return None  # `5 feet 6 pounds`, `30 minutes 2 hours`: not one quantity
    asked = asked_unit(question)
    in_small = whole * _UNITS[big][2] / _UNITS[small][2] + part
    if asked is not None and _UNITS[asked][1] == _UNITS[big][1]:
        return converted(in_small, small, asked), found.end()
    return converted(in_small, small, big), found.end()


def stated_unit(text: str, end: int, priced: bool, question: str | None = None) -> str | None:
    """The unit of the value that ends at ``end``: the word after it, or dollars when ``priced``
    (a `$` comes with it); ``None`` for none, or for a rate (`30 minutes per day`, `$5/hour`)
    unless the question asks for that rate (`How many hours per week …?`)."""
    after = _UNIT_AFTER.match(text, end)
    unit = unit_named(after.group("unit")) if after is not None else "dollar" if priced else None
    rate = _RATE.match(text, end if after is None else after.end())
    if rate is None:
        return unit
    period = _PERIOD.match(text, rate.end())
    asking = asking_text(question)
    asked_rate = period is not None and re.search(
        rf"\b(?:per|each|every|an?)[ \t]+{re.escape(period.group(0).lower())}", asking
    )
    return unit if asked_rate else None
