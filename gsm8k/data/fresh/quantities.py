"""Numbers as questions write them: reading a slot's default (``forty-two``, ``1/2``, ``three
quarters``, ``twice``) and writing a drawn value in the default's style.

A slot's default shows how the original question wrote that quantity; a fresh value is written
the same way: ``{n2,three}`` becomes ``seven``, ``{p2,1.50}`` becomes ``11.25`` or ``2.40``,
``{w3,1/2}`` becomes ``1/4``, and a capitalised default keeps its capital.
"""

from __future__ import annotations

import re
from fractions import Fraction

from gsm8k.data.fresh.values import Labelled, Number, Value, as_number

UNITS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
ORDINALS = {
    "half": 2,
    "halves": 2,
    "third": 3,
    "quarter": 4,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "twelfth": 12,
    "sixteenth": 16,
    "twentieth": 20,
}
MULTIPLIERS = {"once": 1, "twice": 2, "thrice": 3, "double": 2, "triple": 3, "quadruple": 4}

_DECIMAL = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")
_FRACTION = re.compile(r"[+-]?\d+\s*/\s*\d+")


def number_word(value: int) -> str | None:
    """``42`` → ``forty-two``; ``None`` outside 0..999."""
    if not 0 <= value <= 999:
        return None
    if value < 20:
        return UNITS[value]
    if value < 100:
        tens, rest = divmod(value, 10)
        return TENS[tens] + (f"-{UNITS[rest]}" if rest else "")
    hundreds, rest = divmod(value, 100)
    tail = number_word(rest) if rest else None
    return f"{UNITS[hundreds]} hundred" + (f" and {tail}" if tail else "")


_WORD_VALUES = {number_word(n): n for n in range(1000)}


def word_number(text: str) -> int | None:
    """``forty-two`` → 42, ``a`` / ``an`` / ``one`` → 1; ``None`` when not a number word."""
    key = " ".join(text.lower().replace("-", " - ").split()).replace(" - ", "-")
    if key in ("a", "an"):
        return 1
    return _WORD_VALUES.get(key)


def parse_quantity(text: str) -> Number | None:
    """A quantity as a question writes it, or ``None``.

    Digits (``2250``, ``1.50``, ``1,000``), fractions (``1/16``), number words (``forty-two``),
    fraction words (``half``, ``a third``, ``two-thirds``, ``three quarters``) and multipliers
    (``twice``, ``triple``, ``three times``).
    """
    clean = text.strip().lower()
    if not clean:
        return None
    plain = clean.replace(",", "") if re.fullmatch(r"\d{1,3}(,\d{3})+", clean) else clean
    if _DECIMAL.fullmatch(plain):
        return _canonical(Fraction(plain))
    if _FRACTION.fullmatch(plain):
        top, bottom = (int(part) for part in plain.split("/"))
        return _canonical(Fraction(top, bottom)) if bottom else None
    if clean in MULTIPLIERS:
        return MULTIPLIERS[clean]
    words = clean.replace("-", " ").split()
    if len(words) == 2 and words[1] == "times":
        return word_number(words[0]) or (int(words[0]) if words[0].isdigit() else None)
    whole = word_number(clean)
    if whole is not None:
        return whole
    if (words and words[-1] in ORDINALS) or (words and words[-1].rstrip("s") in ORDINALS):
        denominator = ORDINALS.get(words[-1]) or ORDINALS[words[-1].rstrip("s")]
        numerator = word_number(" ".join(words[:-1])) if len(words) > 1 else 1
        if numerator is not None:
            return _canonical(Fraction(numerator, denominator))
    return None


def _canonical(value: Fraction) -> Number:
    return value.numerator if value.denominator == 1 else value


def decimal_places(value: Fraction) -> int | None:
    """How many decimals write ``value`` exactly; ``None`` for 1/3 and the like."""
    denominator, twos, fives = value.denominator, 0, 0
    while denominator % 2 == 0:
        denominator, twos = denominator // 2, twos + 1
    while denominator % 5 == 0:
        denominator, fives = denominator // 5, fives + 1
    return max(twos, fives) if denominator == 1 else None


def plain_number(value: Number) -> str:
    """A number in digits: ``12``, ``2.75``, ``1/3`` (no finite decimal)."""
    if isinstance(value, int):
        return str(value)
    places = decimal_places(value)
    if places is None:
        return f"{value.numerator}/{value.denominator}"
    return _fixed(value, places)


def _fixed(value: Fraction, places: int) -> str:
    scaled = abs(value) * 10**places
    digits = str(int(scaled)).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}" if places else f"{sign}{digits}"


def write_number(value: Number, default: str, words: bool = True) -> str:
    """Write ``value`` the way the slot's default writes its number (``words=False``: never as
    a word, as after a currency sign)."""
    style = default.strip()
    if (
        words
        and isinstance(value, int)
        and word_number(style) is not None
        and style.lower() not in ("a", "an")
    ):
        word = number_word(value)
        if word is not None:
            return match_case(word, style)
    if isinstance(value, Fraction) and _FRACTION.fullmatch(style):
        return f"{value.numerator}/{value.denominator}"
    if "." in style and _DECIMAL.fullmatch(style):
        wanted = len(style.split(".", 1)[1])
        places = decimal_places(Fraction(value))
        if places is not None and places <= wanted:
            return _fixed(Fraction(value), wanted)
    return plain_number(value)


def match_case(text: str, default: str) -> str:
    """Capitalise ``text`` where the default starts with a capital (a sentence's first word)."""
    lead = default.strip()[:1]
    if lead.isupper() and text[:1].islower():
        return text[:1].upper() + text[1:]
    return text


def write_value(value: Value, default: str) -> str:
    """A bound value as the question shows it in a slot whose default is ``default``."""
    if isinstance(value, Labelled):
        return match_case(value.text, default)
    if isinstance(value, str):
        return match_case(value, default)
    if isinstance(value, list):
        return ", ".join(write_value(item, default) for item in value)
    return write_number(as_number(value), default)


def solution_text(value: Value) -> str:
    """A value inside a worked solution: numbers in digits, a pair by its number."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, list):
        return ", ".join(solution_text(item) for item in value)
    return plain_number(as_number(value))
