"""Parsing and comparing the numbers that GSM8K answers are made of.

Gold answers are integers (a few with thousands commas, two negative), so integers compare
exactly. Non-integers (a model's ``18.50``, a program's ``17.999999999999996``) compare within
:data:`DECIMAL_TOLERANCE` absolute difference, which never reaches the next integer.

Models write numbers in the conventions of many locales (README, "Number formats"):

- thousands separators: ``1,234``, ``1 234`` (any space separator, Unicode category Zs),
  ``1{,}234``, ``1\\,234``, ``93,\\!000``, ``93\\!000`` and ``93\\ 000`` (LaTeX), ``1,00,000``
  (Indian grouping), ``1.234.567`` (two or more dot groups), ``1.234,5`` (dots before a decimal
  comma), ``18.000`` (a dot before ``000``) and the Arabic ``١٬٢٣٤``; the Arabic decimal
  separator ``٫`` is a decimal point;
- minus signs: any of :data:`MINUS_SIGNS` right before a number (``-``, ``−``, full-width
  ``－``, small ``﹣``, the hyphen, figure and en dashes); between two numbers it is subtraction;
- a single dot before exactly three digits (``1.596``) is a decimal point unless the caller
  says the text groups thousands with dots (``dot_thousands=True``, decided from the whole
  completion by :func:`uses_dot_thousands`: its decimal commas, or its language);
- a comma followed by exactly three digits is always a thousands separator (``1,596`` is 1596);
  a comma followed by one or two digits is a decimal comma (``16,50`` is 16.5), in LaTeX too
  (``36{,}36`` is 36.36);
- digits of any script (``১২``, ``๑๒``, full-width ``１８``) are read as digits;
- scientific notation (``5e-05``, ``3E+16``, ``1.2 \\times 10^{5}``) and powers (``10^{6}``,
  ``2^3``) are read whole and exactly when the exponent has at most four digits (powers: the
  result at most :data:`MAX_POWER_DIGITS` digits); otherwise the number is refused, never read
  as its mantissa or base. A power tower (``10^10^10``) is refused, and a number that is itself
  an exponent is not read;
- characters that are invisible or only formatting (zero-width spaces, bidi marks, combining
  marks, control characters such as NUL) are not digits: inside a number they are dropped by
  :func:`join_split_numbers`, so ``1\\u200b8`` is 18, never 1.

Every value is read exactly: nothing here converts through ``int`` or ``float``, so a number
of any length is neither rounded nor refused.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from decimal import Decimal, localcontext

from gsm8k.grading.dot_language import dot_language

DECIMAL_TOLERANCE = Decimal("1e-6")
"""Largest absolute difference at which two non-integer values are the same answer."""

# Characters that may not come right before a number: digits and separators (the number would
# start in the middle of another one) and letters of scripts that separate words with spaces
# (``x2``, ``H2O``, ``COVID19``). Letters of scripts written without spaces (Chinese, Japanese,
# Thai) may: in ``答案是5`` the 5 is a number.
NOT_BEFORE = r"\dA-Za-z_.,\u066b\u066c\u00C0-\u024F\u0370-\u03FF\u0400-\u052F"


def _characters(categories: tuple[str, ...], keep: Callable[[str], bool]) -> str:
    """The characters of the Basic Multilingual Plane in ``categories`` that ``keep`` accepts."""
    chosen = (chr(code) for code in range(0x10000))
    return "".join(c for c in chosen if unicodedata.category(c) in categories and keep(c))


SPACE_SEPARATORS = _characters(("Zs",), lambda c: True)
"""Every space separator (Unicode category Zs: the space, no-break, figure, thin, narrow no-break,
ideographic spaces …): any of them may group thousands (``18\u2007000``)."""
MINUS_SIGNS = _characters(
    ("Pd", "Sm"),
    lambda c: (
        unicodedata.normalize("NFKC", c) in ("-", "\u2010")
        or unicodedata.name(c, "") in ("FIGURE DASH", "EN DASH", "MINUS SIGN")
    ),
)
"""Characters that are a minus sign right before a number: dash punctuation whose compatibility
form is a hyphen(-minus) (``-``, the full-width ``－`` and small ``﹣``, ``‐``), the figure and en
dashes, and the mathematical minus sign ``−``. Between two numbers they are subtraction."""
_SIGN = "[" + re.escape(MINUS_SIGNS) + "]"
_SPACE_SEPARATOR = "[" + re.escape(SPACE_SEPARATORS) + "]"
# LaTeX groupings: 1{,}234, 1\,234 (thin space), 93,\!000 (comma, negative space), 93\ 000; the
# Arabic thousands separator ٬ (U+066C); the Swiss apostrophe 1'800 (or 1’800) and Python's 1_800.
_LATEX_GROUP = r"(?:[,\u066c'’_]|\{,\}|\\,|,?\\!|\\[ ;:])"
_THOUSANDS = (
    rf"\d{{1,3}}(?:{_LATEX_GROUP}\d{{3}})+(?!\d)"  # 1,234  1{,}234  1\,234  93,\!000
    r"|\d{1,2}(?:,\d{2})+,\d{3}(?!\d)"  # 1,00,000 (Indian grouping)
    rf"|\d{{1,3}}(?:{_SPACE_SEPARATOR}\d{{3}})+(?!\d)"  # 18 000
    r"|\d{1,3}(?:\.\d{3}){2,}(?![\d.])"  # 1.234.567
    r"|\d{1,3}(?:\.\d{3})+(?=,\d)"  # 1.234,5
    r"|\d{1,3}(?:\.000)+(?![\d.])"  # 18.000
)
# 1.596 where the text groups with dots (never 0.125: no group opens on a lone 0)
_DOT_THOUSANDS = r"|[1-9]\d{0,2}(?:\.\d{3})+(?![\d.])"


def _number_pattern(dot_thousands: bool) -> re.Pattern[str]:
    thousands = _THOUSANDS + (_DOT_THOUSANDS if dot_thousands else "")
    return re.compile(
        rf"(?<![{NOT_BEFORE}])(?P<sign>{_SIGN})?(?:\\?[$£€¥₹]\s?)?"
        rf"(?P<digits>{thousands}|\d++)"
        # A decimal point, the Arabic decimal separator ٫ (U+066B), or a decimal comma.
        r"(?P<decimals>[.\u066b]\d++|(?:,|\{,\})\d{1,2}(?![\d,]))?"
        # Every digit of an exponent is taken, so that a long one is refused, not dropped.
        r"(?P<exponent>[eE][-+]?\d++)?"
    )


NUMBER_PATTERN = _number_pattern(dot_thousands=False)
"""A number as models write it (see the module docstring); dots before three digits are decimal."""
DOT_THOUSANDS_NUMBER_PATTERN = _number_pattern(dot_thousands=True)
"""The same, for a text that groups thousands with dots (``1.596`` is 1596)."""

_FRACTION_TAIL = re.compile(r"[ \t]?/[ \t]?(\d{1,50})(?![\d.,])")
_LATEX_FRACTION = re.compile(
    r"\\[dt]?frac[ \t]*+\{[ \t]*+(-?[\d.,]{1,50}+)[ \t]*+\}"
    r"[ \t]*+\{[ \t]*+(-?[\d.,]{1,50}+)[ \t]*+\}"
)
# Evidence that a text writes numbers the continental European way: a decimal comma that is not
# part of a list (``2,50 €``), or dot groups that cannot be a decimal (``1.234.567``, ``1.234,5``).
_COMMA_DECIMAL_EVIDENCE = re.compile(
    r"(?<![\d,.])\d{1,3},\d{1,2}(?![\d,])|\d\.\d{3}\.\d{3}(?!\d)|\d\.\d{3},\d"
)
# Evidence for the English convention: a decimal point with one or two decimals (``2.50``).
_DOT_DECIMAL_EVIDENCE = re.compile(r"(?<![\d.,])\d{1,3}\.\d{1,2}(?![\d.,])")


def pattern_for(dot_thousands: bool) -> re.Pattern[str]:
    """The number pattern for a text's convention (see :func:`uses_dot_thousands`)."""
    return DOT_THOUSANDS_NUMBER_PATTERN if dot_thousands else NUMBER_PATTERN


def uses_dot_thousands(text: str) -> bool:
    """Whether ``text`` groups thousands with dots, so that ``1.596`` means 1596.

    True when the text shows the continental convention (a decimal comma such as ``2,50``, a
    dot grouping such as ``1.234.567``, or words of a language that writes numbers so: German,
    Spanish, Portuguese, Italian) and never the English one (a decimal point with one or two
    decimals, such as ``2.50``). Without evidence either way the English reading stands.
    """
    if _DOT_DECIMAL_EVIDENCE.search(text) is not None:
        return False
    return _COMMA_DECIMAL_EVIDENCE.search(text) is not None or dot_language(text)


def parse_number(text: str, dot_thousands: bool = False) -> Decimal | None:
    """Read the first number in ``text`` the way models and annotators write it.

    Accepts ``18``, ``-3``, ``1,234``, ``18 000``, ``$18.00``, ``16,50``, ``18%``, ``1{,}234``,
    ``5e-05``, ``\\frac{1}{2}`` and ``3/4``.
    Returns ``None`` when ``text`` holds no number (or divides by zero).
    """
    fraction = _LATEX_FRACTION.search(text)
    match = pattern_for(dot_thousands).search(text)
    if fraction is not None and (match is None or fraction.start() <= match.start()):
        return _divide(fraction.group(1), fraction.group(2))
    if match is None:
        return None
    return value_with_fraction(match, text)


def value_with_fraction(match: re.Match[str], text: str) -> Decimal | None:
    """The value of a number match, divided by a denominator written right after it (``3/4``).

    A number written with an exponent or a power is read whole (``1.2 \\times 10^{5}``, ``2^3``)
    or refused (``None``): an exponent too long to read, a power tower, a number that is itself
    an exponent. It is never read as its mantissa or base.
    """
    if _EXPONENT_BEFORE.search(text, max(0, match.start() - 4), match.start()):
        return None  # the 10 of `x^10`: an exponent, not a quantity
    value = number_from_match(match)
    if value is None:
        return None
    power = _POWER.match(text, match.end()) or _TIMES_TEN_POWER.match(text, match.end())
    if power is not None:
        return _with_power(value, power, text)
    if _TOWER.match(text, match.end()):
        return None  # a power or exponent that cannot be read whole: never its base or mantissa
    repeating = _REPEATING.match(text, match.end())
    if repeating is not None and match.group("exponent") is None:
        return _with_repetend(value, match, repeating)
    scale = _scale_after(match, text)
    if scale is not None:
        return value * scale  # `$18k`, `18 thousand`, `$1.8 million`: the value, not its digits
    tail = _FRACTION_TAIL.match(text, match.end())
    if tail is None or match.group("decimals") is not None or match.group("exponent") is not None:
        return value
    denominator = Decimal(tail.group(1))
    if denominator == 0:
        return None
    try:
        return value / denominator
    except ArithmeticError:
        # A numerator beyond the decimal context's exponent range (a million digits).
        return None


_SCALE_WORDS = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}
_SCALE_WORDS |= {"trillion": 10**12, "lakh": 10**5, "lakhs": 10**5, "crore": 10**7}
_SCALE_WORDS |= {"crores": 10**7, "millones": 10**6, "millón": 10**6, "millon": 10**6}
_SCALE_WORDS |= {"tausend": 1000, "millionen": 10**6, "milliarde": 10**9, "milliarden": 10**9}
_SCALE_WORDS |= {"mille": 1000, "万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8, "千": 1000}
_SCALE_LETTERS = {"k": 1000, "m": 10**6, "mn": 10**6, "b": 10**9, "bn": 10**9, "mln": 10**6}
_SCALE_LETTERS |= {"mio": 10**6, "mil": 10**6}
# A scale after a number: a word (`18 thousand`, `\\text{ million}`, `₹18 lakh`, `18 Tausend`,
# `18万`), or a letter attached to it (`18k`, `18M`; `B`, `bn`, `mn` only after a currency sign:
# `$1.8B`), or an abbreviation after a space, also only with a currency sign (`$18 bn`, `$1.8
# mil`). `mil` before a Spanish or Portuguese word is that language's thousand (`18 mil dólares`).
_SCALE = re.compile(
    r"(?:[ \t]?|[ \t]*\\(?:text|mathrm)\{[ \t]*)"
    r"(?P<word>(?i:hundred|thousand|million|billion|trillion|lakhs?|crores?|millones|mill[oó]n"
    r"|tausend|millionen|milliarden?|mille))(?![-A-Za-z])"
    r"|(?P<letter>[kK]|M|B|bn|mn)(?![A-Za-z0-9])"
    r"|[ \t](?P<spaced>(?i:bn|mn|mln|mio|mil))\.?(?![A-Za-z0-9])"
    r"|(?P<cjk>[万萬亿億]|千(?![克米瓦卡]))"  # 千克 is a kilogram, 千米 a kilometre
)
_THOUSAND_MIL = re.compile(
    r"[ \t]++(?:de\b|d[oó]lares|pesos|euros|reais|reales|soles)", re.IGNORECASE
)


def _scale_after(match: re.Match[str], text: str) -> Decimal | None:
    """The factor a scale word or suffix right after a number multiplies it by, or ``None``."""
    scale = _SCALE.match(text, match.end())
    if scale is None or match.group("exponent") is not None:
        return None
    word = scale.group("word") or scale.group("cjk")
    if word:
        return Decimal(_SCALE_WORDS[word.lower()])
    priced = _CURRENCY.search(match.group(0)) is not None
    spaced = scale.group("spaced")
    if spaced is not None:
        if spaced.lower() == "mil" and _THOUSAND_MIL.match(text, scale.end()):
            return Decimal(1000)
        return Decimal(_SCALE_LETTERS[spaced.lower()]) if priced else None
    letter = scale.group("letter")
    if letter not in ("k", "K", "M") and not priced:
        return None
    return Decimal(_SCALE_LETTERS[letter.lower()])


_CURRENCY = re.compile(r"[$£€¥₹]")
# A repeating decimal: `18.\\overline{3}`, `18.\\bar{3}`, `18.(3)`, `0.1\\overline{6}`.
_REPEATING = re.compile(
    r"\.?\\(?:overline|bar|dot)[ \t]*\{[ \t]*(?P<latex>\d{1,20})[ \t]*\}"
    r"|\.\((?P<plain>\d{1,20})\)"
)


def _with_repetend(value: Decimal, match: re.Match[str], repeating: re.Match[str]) -> Decimal:
    """``value`` with its repeating digits (`18.\\overline{3}` is 18.333…, never 18)."""
    digits = repeating.group("latex") or repeating.group("plain")
    decimals = match.group("decimals")
    places = len(decimals) - 1 if decimals and decimals[0] in ".\u066b" else 0
    part = Decimal(int(digits)) / (Decimal(10) ** len(digits) - 1) / Decimal(10) ** places
    negative = value < 0 or (value == 0 and bool(match.group("sign")))
    return value - part if negative else value + part


def number_from_match(match: re.Match[str]) -> Decimal | None:
    """Turn a :data:`NUMBER_PATTERN` match into its value, exactly.

    Returns ``None`` for an exponent of more than :data:`MAX_EXPONENT_DIGITS` digits: such a
    number is refused whole rather than read as its mantissa.
    """
    exponent = match.group("exponent") or ""
    if len(exponent.lstrip("eE+-")) > MAX_EXPONENT_DIGITS:
        return None
    digits = "".join(character for character in match.group("digits") if character.isdigit())
    decimals = match.group("decimals") or ""
    decimals = decimals.replace("{,}", ".").replace(",", ".").replace("\u066b", ".")
    value = Decimal(digits + decimals + exponent)
    # copy_negate, unlike unary minus, does not round to the context's 28 digits.
    return value.copy_negate() if match.group("sign") else value


MAX_EXPONENT_DIGITS = 4
"""Longest exponent read (``5e-05``, ``1e9999``); a longer one makes the number unreadable."""
MAX_POWER_DIGITS = 40
"""Most digits a power written as ``a^b`` may have; a larger one is refused. GSM8K answers have at
most seven digits, and a low bound keeps a flood of ``9^9999`` from costing seconds of CPU."""

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
# ``^5``, ``^{5}``, ``^(5)``, ``**5`` and superscript digits ``²``.
# Every run is possessive (`*+`, `++`): a run of spaces after `^` with no exponent after it fails
# at once instead of being retried at every split (`18^` and 20,000 spaces took 25 CPU-s).
_EXPONENT = (
    r"(?:[ \t]*+(?:\^|\*\*)[ \t]*+(?:(\{)|(\())?[ \t]*+(?P<power>[-+−]?\d++)[ \t]*+(?(1)\})(?(2)\))"
    r"|(?P<super>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]++))"
)
_POWER = re.compile(_EXPONENT)
_TIMES_TEN_POWER = re.compile(r"[ \t]*+(?:\\times|\\cdot|×|·|\*|x)[ \t]*+10" + _EXPONENT)
# What may not follow a number or its power: another power (a tower, ``10^{10^{10}}``, whose
# inner part the patterns above cannot read) or a second exponent (``1e1e1``).
# ``**`` is a power only between numbers: ``**18**`` and ``**Answer:** 18`` are bold text.
_TOWER = re.compile(r"[ \t]*+(?:\^|\*\*(?=[ \t]*+[({]?[ \t]*+[-+−]?\d)|[⁰¹²³⁴⁵⁶⁷⁸⁹⁻])|[eE][-+]?\d")
_EXPONENT_BEFORE = re.compile(r"(?:\^|(?<=[\d)}])[ \t]*\*\*)[ \t{(]?$")


def _with_power(value: Decimal, power: re.Match[str], text: str) -> Decimal | None:
    """``value`` to a power (``2^3``) or times one (``1.2 × 10^5``); ``None`` if unreadable."""
    if _TOWER.match(text, power.end()):
        return None  # 10^10^10: a tower is not its base, and is too large to be an answer
    exponent_text = power.group("power") or power.group("super").translate(_SUPERSCRIPTS)
    exponent_text = exponent_text.replace("−", "-")
    if len(exponent_text.lstrip("+-")) > MAX_EXPONENT_DIGITS:
        return None
    exponent = int(exponent_text)
    try:
        if power.re is _TIMES_TEN_POWER:
            if abs(exponent) > MAX_POWER_DIGITS:
                return None
            return value.scaleb(exponent)
        if exponent < 0 or value == 0:
            if (value == 0 and exponent < 0) or -exponent > MAX_POWER_DIGITS:
                return None
            return Decimal(1) / value**-exponent
        if (abs(value).adjusted() + 1) * exponent > MAX_POWER_DIGITS:
            return None
        with localcontext() as context:
            context.prec = MAX_POWER_DIGITS + 10
            return value**exponent
    except ArithmeticError:
        return None


def normalize(value: Decimal) -> str:
    """Canonical text of a value: ``18`` for 18.00, ``0.5`` for .50, ``-3`` for -3.

    Exact for numbers of any length (no conversion through ``int``, whose string conversion
    refuses more than 4,300 digits).

    Raises:
        ValueError: for infinities and NaN, which no answer can be.
    """
    if not value.is_finite():
        raise ValueError(f"{value} is not a finite number")
    if value == value.to_integral_value():
        text = format(value.to_integral_value(), "f")
        return "0" if text == "-0" else text
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def parse_gold(text: str) -> Decimal:
    """Parse a gold final answer strictly: the whole string must be one number.

    A comma must group thousands (``1,450,000``): a gold such as ``1,8`` could be 18 or 1.8 and
    is refused rather than guessed.

    Raises:
        ValueError: when the text is not exactly a number, or its commas do not group thousands.
    """
    stripped = text.strip()
    if "," in stripped and not _GOLD_GROUPED.fullmatch(stripped):
        raise ValueError(
            f"gold answer {text[:100]!r} is ambiguous: a comma in a gold answer must group "
            "thousands (1,800); write a decimal with a point (1.8)"
        )
    cleaned = stripped.replace(",", "")
    if not _GOLD.fullmatch(cleaned):
        raise ValueError(f"gold answer {text[:100]!r} is not a number")
    return Decimal(cleaned)


_GOLD = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")
_GOLD_GROUPED = re.compile(r"-?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?")


def same_number(answer: Decimal, target: Decimal) -> bool:
    """Whether two values are the same GSM8K answer: integers exactly, decimals within tolerance."""
    if not (answer.is_finite() and target.is_finite()):
        return False
    if _is_integer(answer) and _is_integer(target):
        return answer == target
    if max(answer.adjusted(), target.adjusted()) >= _EXACT_FROM_MAGNITUDE:
        # A tolerance of 1e-6 is meaningless at this size, and subtracting numbers of millions
        # of digits would overflow the decimal context: compare exactly.
        return answer == target
    return abs(answer - target) <= DECIMAL_TOLERANCE


_EXACT_FROM_MAGNITUDE = 15
"""Non-integers from 10**15 up compare exactly (the subtraction keeps 28 significant digits)."""


def _is_integer(value: Decimal) -> bool:
    return value == value.to_integral_value()


def _divide(numerator: str, denominator: str) -> Decimal | None:
    try:
        top = Decimal(_digits_only(numerator))
        bottom = Decimal(_digits_only(denominator))
        return None if bottom == 0 else top / bottom
    except ArithmeticError:  # not a number (``1.2.3``), or beyond the context's range
        return None


def _digits_only(text: str) -> str:
    return re.sub(r"\{,\}|\\[,! ]|,", "", text)
