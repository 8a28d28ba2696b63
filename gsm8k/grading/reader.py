"""A completion's text, the number convention it uses and its question's numbers, shared by the
extraction rules.

A stated value is read as one number: a mixed number (`3 2/5`, `12\\frac{1}{3}`) whole, never as
its integer part; an expression (`x - 14`) or a hedge between two values (`18 or 20`) is not a
number at all (:meth:`Reader.refusal` says why).
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import cached_property

from gsm8k.grading.box_values import offers_two_values
from gsm8k.grading.corrections import TAKEN_BACK, TAKEN_BACK_HINTS
from gsm8k.grading.numbers import (
    NUMBER_PATTERN,
    number_from_match,
    parse_number,
    pattern_for,
    uses_dot_thousands,
    value_with_fraction,
)
from gsm8k.grading.question import quantity_after, question_numbers, question_quantities
from gsm8k.grading.refusals import CURRENCY_SIGN, HEDGED, bracketed_parts, refusal_at
from gsm8k.grading.ruled_out import without_ruled_out
from gsm8k.grading.stated import offers_no_one_value, stated_part
from gsm8k.grading.units import (
    asked_period,
    asking_text,
    compound_at,
    in_asked_scale,
    in_asked_unit,
    rate_period,
    stated_unit,
)
from gsm8k.grading.words import words_offered

_PERIOD_LOOK = 300  # characters before a rate searched for the same rate at the asked period
Found = tuple[Decimal, str]
"""A value a rule found, and the text it was read from."""

# Working: an operator (a lone `*`: `**18**` is bold), or a difference or quotient of digits.
WORKING_SIGN = re.compile(r"[=+×÷]|(?<!\*)\*(?!\*)|\d[ \t]*[-/][ \t]*\d")
# A sentence ends at its mark, not at the period of an abbreviation (`$18 (alt. $20).`,
# `Perhaps more (e.g. $26,000), but …`, `Mr. Lee`, `P.S. A bathrobe …`).
# The mark comes first, so a scan jumps from mark to mark; the lookbehinds then read the word
# that ends on it.
SENTENCE_END = re.compile(
    r"[.!?](?<!\balt.)(?<!\bapprox.)(?<!\bbzw.)(?<!\be\.g.)(?<!\bi\.e.)(?<!\bvs.)(?<!\bcf.)"
    r"(?<!\bMr.)(?<!\bMrs.)(?<!\bMs.)(?<!\bDr.)(?<!\bP\.S.)(?<!\bp\.s.)(?:\s|$)|[。！？\n]"
)
RULED_OUT = "the stated answer only rules a value out (not 18): it states none"
# Possessive runs: a snippet of spaces after `$` is refused at once, not retried at every split.
PLACEHOLDER = re.compile(
    r"[ \t*_`]*+(?:\$|\\\$)?[ \t]*+(?:ANSWER|NUMBER|X|<number>|\[number\])[ \t*_`.]*+",
    re.IGNORECASE,
)
_AMBIGUOUS_DOT = re.compile(r"\d\.\d{3}(?!\d)")
_LATEX_NUMERATOR = re.compile(r"\\[dt]?frac[ \t]*\{[ \t]*-?$")
_LATEX_DENOMINATOR = re.compile(r"\\[dt]?frac[ \t]*\{[^{}]{0,50}\}[ \t]*\{[ \t]*-?$")
_FRACTION_LOOK = 64
# The fraction of a mixed number, right after its whole part: `3 2/5`, `12\\frac{1}{3}`, `5 ½`,
# `18½`, `18-1/2`, `18 and 1/2`, `18 and a half`, `18\\,\\frac{1}{2}`, `18\\tfrac12`.
_MIXED_FRACTION = re.compile(
    r"(?:[ \t]{1,2}|-|[ \t]and[ \t]|[ \t]?(?=\\))(?:\\[,;: ]|~)?[ \t]?"
    r"(?:(?P<top>\d{1,4})[ \t]?/[ \t]?(?P<bottom>\d{1,4})(?![\d.,/])"
    r"|\\[dt]?frac[ \t]?(?:\{[ \t]?(?P<ltop>\d{1,4})[ \t]?\}"
    r"[ \t]?\{[ \t]?(?P<lbottom>\d{1,4})[ \t]?\}|(?P<stop>\d)(?P<sbottom>\d)(?!\d)))"
    r"|[ \t]?(?P<vulgar>[¼½¾⅐-⅞])"
    r"|[ \t]and[ \t](?:a|one)[ \t](?P<word>half|third|quarter)(?![A-Za-z])"
)
_WORD_FRACTIONS = {"half": (1, 2), "third": (1, 3), "quarter": (1, 4)}
# A stated value, `or`, and working that ends in `=`: the alternative before its result.
_OFFERED_BEFORE_WORKING = re.compile(r"[ \t]*+([^=\n]{0,60}?\d[^=\n]{0,20}?\bor\b[^=\n]{1,40})=")
_VULGAR_FRACTIONS = {"¼": (1, 4), "½": (1, 2), "¾": (3, 4), "⅐": (1, 7), "⅑": (1, 9)}
_VULGAR_FRACTIONS |= {"⅒": (1, 10), "⅓": (1, 3), "⅔": (2, 3), "⅕": (1, 5), "⅖": (2, 5)}
_VULGAR_FRACTIONS |= {"⅗": (3, 5), "⅘": (4, 5), "⅙": (1, 6), "⅚": (5, 6), "⅛": (1, 8)}
_VULGAR_FRACTIONS |= {"⅜": (3, 8), "⅝": (5, 8), "⅞": (7, 8)}
"""The vulgar-fraction characters and their values (`18½` is 18.5, never 18)."""


class Reader:
    """A completion and the number convention it uses, shared by the rules."""

    def __init__(self, text: str, question: str | None = None) -> None:
        self.text = text
        self.question_text = question

    @cached_property
    def question(self) -> frozenset[Decimal]:
        """Every number the sample's question states (empty when the question is not known)."""
        return question_numbers(self.question_text)

    @cached_property
    def quantities(self) -> frozenset[tuple[Decimal, str]]:
        """The question's numbers with the word after each (`9 notebooks`)."""
        return question_quantities(self.question_text)

    def with_text(self, text: str) -> Reader:
        """A reader of part of this text, with the same question."""
        return Reader(text, self.question_text)

    def computed_value(self, snippet: str) -> Decimal | None:
        """The value a sentence computes: its first number that the question does not state.

        "Tom's age 10 years from now is 54." restates 10 from the question and computes 54.
        ``None`` when the question is not known or every number of the sentence is its own.
        """
        stated = self._stated(snippet) if self.question else None
        if stated is None or self._refused(stated) is not None:
            return None
        for match in self.numbers.finditer(stated):
            before = stated[max(0, match.start() - _FRACTION_LOOK) : match.start()]
            if before.endswith("/") or _LATEX_DENOMINATOR.search(before):
                continue  # a denominator, read with its numerator
            numerator = _LATEX_NUMERATOR.search(before)
            value = (
                parse_number(stated[match.start() - len(numerator.group(0)) :])
                if numerator is not None  # `\frac{4}{3}` is 4/3, never 4 or 3
                else self.value_at(match, stated)
            )
            if value is not None and value.copy_abs() not in self.question:
                return -value if value > 0 and self._loss_for_profit(stated) else value
        return None

    def opens_with_question_quantity(self, snippet: str) -> bool:
        """Whether a stated answer opens with a quantity of the question, its noun included,
        and goes on to another number (`8 pens will cost $12.00` when the question asks about
        8 pens): the first number restates the question, it is not the answer."""
        if not self.question:
            return False
        first = self._first_number(snippet)
        if first is None or NUMBER_PATTERN.search(snippet, first.end()) is None:
            return False
        value = self.value_at(first, snippet)
        return value is not None and quantity_after(snippet, first.end(), value, self.quantities)

    @cached_property
    def dot_thousands(self) -> bool:
        # Only a number such as `1.596` depends on the convention, so most texts never ask.
        return uses_dot_thousands(self.text)

    @cached_property
    def numbers(self) -> re.Pattern[str]:
        ambiguous = _AMBIGUOUS_DOT.search(self.text) is not None
        return pattern_for(ambiguous and self.dot_thousands)

    def value_of(self, snippet: str) -> Decimal | None:
        """The number a snippet states: after the last `=` if it shows working (`9 * 2 = 18`)."""
        stated = self._stated(snippet)
        if stated is None or self._refused(stated) is not None:
            return None
        mixed = self._mixed(stated)
        if mixed is None:
            dot_thousands = _AMBIGUOUS_DOT.search(stated) is not None and self.dot_thousands
            mixed = parse_number(stated.replace("\\%", "%"), dot_thousands)
        if mixed is not None and self.question_text:
            mixed = in_asked_scale(self._in_asked_unit(stated, mixed), self.question_text)
        if mixed is not None and mixed > 0 and self._loss_for_profit(stated):
            return -mixed  # `a loss of $18` when the question asks for the profit is -18
        return mixed

    def _in_asked_unit(self, stated: str, value: Decimal) -> Decimal:
        """A value written in a unit of the asked unit's kind, in the asked unit (`1.5 hours` is
        90 when minutes are asked); a compound quantity was read in it already."""
        first = self._first_number(stated)
        if first is None or "frac" in stated[: first.start()]:
            return value
        priced = CURRENCY_SIGN.search(first.group(0)) is not None
        if compound_at(first, stated, self.question_text, priced) is not None:
            return value
        mixed = self.mixed_at(first, stated)
        end = first.end() if mixed is None else mixed[1]
        unit = stated_unit(stated, end, priced, self.question_text)
        return value if unit is None else in_asked_unit(value, unit, self.question_text)

    def _loss_for_profit(self, stated: str) -> bool:
        """Whether a stated value is called a loss while the question asks for a profit."""
        first = self._first_number(stated)
        if first is None or not _LOSS_BEFORE.search(stated[: first.start()]):
            return False
        return self._asks_profit()

    def signed(self, value: Decimal, snippet: str) -> Decimal:
        """The value the statement ``snippet`` (found in the text) delivers, with its sign: a
        loss where the question asks for a profit is negative, however the statement calls it
        (`Mark lost $18.`, `#### loss of $18`, `ANSWER: $18 (loss)`, `a negative profit of $18`).
        """
        at = self.text.rfind(snippet)
        if value > 0 and at >= 0 and _BELOW_ZERO.search(self.text, at, at + len(snippet) + 30):
            return -value  # `3 degrees below zero` is -3
        if value > 0 and at >= 0 and _MINUS_WORD_BEFORE.search(self.text, max(0, at - 8), at):
            return -value  # `零下3度`, `menos 3 grados`
        asks_loss = at >= 0 and value != 0 and self._asks_loss()
        if value < 0 and asks_loss:
            return -value  # `How much does he lose?`: a net `-$16` is a loss of 16
        if value <= 0 or at < 0 or not (asks_loss or self._asks_profit()):
            return value
        # The number that states the value (`Although he lost 2 eggs, he earned a profit of
        # $18.`: the 18, not the 2 of another loss).
        stated = [m for m in NUMBER_PATTERN.finditer(snippet) if number_from_match(m) == value]
        number = stated[-1] if stated else self._first_number(snippet)
        if number is None:
            return value
        head = self.text[max(0, at - _LOSS_LOOK) : at] + snippet[: number.start()]
        end = at + len(snippet)
        tail = snippet[number.end() :] + self.text[end : end + _LOSS_LOOK]
        called_loss = _LOSS_BEFORE.search(head[-_LOSS_LOOK:]) or _LOSS_AFTER.match(tail)
        if asks_loss:
            # A value called a profit or gain (`He makes a profit of $16.`) is no loss.
            return -value if not called_loss and _GAIN_BEFORE.search(head[-_LOSS_LOOK:]) else value
        return -value if called_loss else value

    def in_asked_unit_at(self, value: Decimal, snippet: str) -> Decimal:
        """A number found in the text (``snippet``) in the unit the question asks for, by the
        unit written after it (`She makes $18 every day, which is 1800 cents.` reads 18 when
        dollars are asked)."""
        at = self.text.rfind(snippet)
        if at < 0 or not self.question_text:
            return value
        # A statement's snippet may run on past its value (`270 minutes`): the unit is the word
        # after the value, wherever the snippet ends.
        number = self.numbers.match(snippet)
        end = at + (len(snippet) if number is None else number.end())
        written = None if number is None else value_with_fraction(number, snippet)
        if written is not None and written.copy_abs() != value.copy_abs():
            return value  # read in its unit already (`**90 minutes**` read as 1.5 hours)
        period, asked = rate_period(self.text, end), asked_period(self.question_text)
        if None not in (period, asked) and period != asked:
            # `She makes $18 a day, which is $126 a week.` when a day is asked: the sentence's
            # value at the asked period is the answer, the other period's a restatement.
            at_period = self._at_asked_period(at)
            if at_period is not None:
                value, snippet = at_period
                at = self.text.rfind(snippet, 0, at)
                end = at + len(snippet)
        # `costs $0.25`: the sign may stand just before a snippet that starts at the value.
        priced = CURRENCY_SIGN.search(self.text, max(0, at - 2), end) is not None
        unit = stated_unit(self.text, end, priced, self.question_text)
        value = value if unit is None else in_asked_unit(value, unit, self.question_text)
        return in_asked_scale(value, self.question_text)

    def _at_asked_period(self, at: int) -> Found | None:
        """The last value before ``at``, in its sentence, stated as a rate of the asked period."""
        opened = max(self.text.rfind(mark, 0, at) for mark in (". ", "! ", "? ", "\n"))
        start = max(opened + 1, at - _PERIOD_LOOK)
        asked = asked_period(self.question_text)
        found: Found | None = None
        for match in self.numbers.finditer(self.text, start, at):
            if rate_period(self.text, match.end()) == asked:
                value = self.value_at(match, self.text)
                sign = CURRENCY_SIGN.search(self.text, max(start, match.start() - 2), match.start())
                begin = match.start() if sign is None else sign.start()
                found = None if value is None else (value, self.text[begin : match.end()])
        return found

    def _asks_profit(self) -> bool:
        asked = asking_text(self.question_text)
        return bool(_PROFIT.search(asked)) and not _LOSS_WORD.search(asked)

    def _asks_loss(self) -> bool:
        asked = asking_text(self.question_text)
        return bool(_LOSS_ASKED.search(asked)) and not _PROFIT.search(asked)

    def refusal(self, snippet: str) -> str | None:
        """Why a stated answer holds a number that is not its value (an expression, a hedge)."""
        stated = self._stated(snippet)
        if stated is None:
            return None
        if NUMBER_PATTERN.search(stated) is None and NUMBER_PATTERN.search(snippet):
            return RULED_OUT  # `ANSWER: not 18`, `ANSWER: 18 (wrong)`: its values ruled out
        if NUMBER_PATTERN.search(stated) is None and words_offered(stated):
            return HEDGED  # `#### eighteen or twenty`: two values in words
        offered = _OFFERED_BEFORE_WORKING.match(snippet)
        if offered is not None and self._refused(offered.group(1)) == HEDGED:
            return HEDGED  # `624 or 624 + 12 = 636 if …`: two values, the second worked out
        return self._refused(stated)

    def value_at(self, match: re.Match[str], text: str) -> Decimal | None:
        """The value of a number match in ``text``, a mixed number read whole (`3 2/5` is 3.4)."""
        mixed = self.mixed_at(match, text)
        return mixed[0] if mixed is not None else value_with_fraction(match, text)

    def mixed_at(self, match: re.Match[str], text: str) -> tuple[Decimal, int] | None:
        """A mixed number whose whole part is ``match``: its value and where it ends; or one
        quantity in two units (`1 hour 30 minutes`), read in the unit the question asks for."""
        priced = CURRENCY_SIGN.search(match.group(0)) is not None
        compound = compound_at(match, text, self.question_text, priced)
        if compound is not None:
            return compound
        clock = _CLOCK.match(text, match.end())
        if clock is not None and not match.group("decimals") and not match.group("sign"):
            hour = number_from_match(match)
            if hour is not None and hour <= _HOURS:
                # `2:00 pm` is 2, never its minutes; `2:30` is 2.5 hours.
                return hour + Decimal(int(clock.group("minutes"))) / 60, clock.end()
        if match.group("decimals") or match.group("exponent"):
            return None
        fraction = _MIXED_FRACTION.match(text, match.end())
        if fraction is None or text[max(0, match.start() - 1) : match.start()] == "/":
            return None
        if fraction.group("vulgar"):
            top, bottom = _VULGAR_FRACTIONS[fraction.group("vulgar")]
        elif fraction.group("word"):
            top, bottom = _WORD_FRACTIONS[fraction.group("word").lower()]
        else:
            top = int(fraction.group("top") or fraction.group("ltop") or fraction.group("stop"))
            bottom = int(
                fraction.group("bottom") or fraction.group("lbottom") or fraction.group("sbottom")
            )
        whole = number_from_match(match)
        if whole is None or not 0 < top < bottom:
            return None  # `3 4/2` is not a mixed number: a list, or working
        part = Decimal(top) / Decimal(bottom)
        return (whole - part if whole < 0 else whole + part), fraction.end()

    def _stated(self, snippet: str) -> str | None:
        if PLACEHOLDER.fullmatch(snippet):
            return None
        stated = stated_part(snippet, self.question_text)
        # A value the model rules out is not stated (`not 18 but 20`, `18 is wrong; 20`).
        stated = without_ruled_out(stated)
        folded = stated.lower()
        if any(hint in folded for hint in TAKEN_BACK_HINTS):
            stated = TAKEN_BACK.sub(" ", stated)
        return stated

    def box_offers_two_values(self, content: str, value: Decimal) -> bool:
        """Whether a box whose value is ``value`` holds another value offered beside it."""
        stated = self._stated(content)
        first = self._first_number(stated) if stated is not None else None
        if stated is None or first is None:
            return False
        mixed = self.mixed_at(first, stated)
        end = first.end() if mixed is None else mixed[1]
        return offers_two_values(stated, value, end, self.value_at)

    def _first_number(self, stated: str) -> re.Match[str] | None:
        # The plain pattern: where a value starts does not depend on the text's dot convention,
        # and asking for the convention would scan the whole text for every stated value.
        return NUMBER_PATTERN.search(stated)

    def _mixed(self, stated: str) -> Decimal | None:
        first = self._first_number(stated)
        if first is None or "frac" in stated[: first.start()]:
            return None
        mixed = self.mixed_at(first, stated)
        return None if mixed is None else mixed[0]

    def _refused(self, stated: str) -> str | None:
        first = self._first_number(stated)
        if first is None:
            return None
        if bracketed_parts(stated, first):
            return None  # `56 marbles (42 for Liam and 14 for Noah)`: the value and its parts
        if offers_no_one_value(stated):
            return HEDGED
        return refusal_at(stated, first, self.mixed_at(first, stated) is not None)


# A clock time: `2:00 pm`, `14:30`, `9:05 a.m.` (minutes 00–59, two digits).
_CLOCK = re.compile(
    r":(?P<minutes>[0-5]\d)(?![\d:])(?:[ \t]?(?:[ap]\.?m\.?)(?![A-Za-z]))?", re.IGNORECASE
)
_HOURS = 24
_LOSS_BEFORE = re.compile(
    r"\b(?:loss|lost|lose|loses|losing|deficit|negative|decreased?|declined?|dropped|fell)\b"
    r"(?:[ \t]+by)?[^\d\n.!?]{0,12}$",
    re.IGNORECASE,
)
# A loss named after the value: `$18 loss`, `$18 (net loss)`, `$18 at a loss`, `$18 in losses`.
_LOSS_AFTER = re.compile(
    r"[ \t]*+(?:dollars[ \t]++)?\(?[ \t]*+(?:(?:a|at[ \t]+a|in|net|total)[ \t]++)?"
    r"(?:loss(?:es)?|deficit|decrease|decline|drop|reduction)\b",
    re.IGNORECASE,
)
_LOSS_LOOK = 24
_GAIN_BEFORE = re.compile(
    r"\b(?:profit|gains?|gained|earns?|earned|makes|made)\b[^\d\n.!?]{0,16}$",
    re.IGNORECASE,
)
_BELOW_ZERO = re.compile(
    r"\d[ \t]*+(?:°|degrees?|grados?|Grad|degrés?|градус\w*|度)?[ \t]*+(?:[A-Z][ \t]+|Celsius"
    r"[ \t]+)?(?:below[ \t]+(?:zero|freezing)|bajo[ \t]+cero|unter[ \t]+null|sous[ \t]+zéro"
    r"|ниже[ \t]+нуля)",
    re.IGNORECASE,
)
# A minus said in words before the value, in the languages models answer in: `零下3度`, `menos 3
# grados`, `minus 3 Grad`.
_MINUS_WORD_BEFORE = re.compile(r"(?:零下|\b(?:menos|minus|moins|минус))[ \t]*+\Z", re.I)
_PROFIT = re.compile(r"\b(?:profit|gain|net|earn|earns|make|makes)\b")
_LOSS_WORD = re.compile(r"\b(?:loss|lose|loses|lost|deficit)\b")
# A loss asked for as an amount: `how much money does he lose?`, `what is the total loss?`.
_LOSS_ASKED = re.compile(
    r"\bhow[ \t]+much\b[^?]{0,60}\blos(?:e|es|t|ing)\b|\b(?:the|his|her|their|total|net)[ \t]+"
    r"(?:loss|deficit)\b"
)
