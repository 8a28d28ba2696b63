"""Where a completion states its final answer, read without the grader.

The metamorphic relations in ``grading_relations.py`` rewrite a completion's final answer
statement, so they need to find it independently of the grader they check: the last answer mark
of a kind real models write (``A: 96``, ``#### 96``, ``ANSWER: 96``, ``\\boxed{96}``, a JSON
``"answer"`` field, "the answer is 96") whose slot holds exactly one plain number. The question's
numbers with the word after them, and the unit its asking sentence names, are what some relations
write around the value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

# The slot of each mark; the mark that starts last in the completion is the statement.
_MARKS: dict[str, re.Pattern[str]] = {
    "a_line": re.compile(r"^A:[ \t]*(?P<slot>[^\n]*?)[ \t]*$", re.MULTILINE),
    "answer_line": re.compile(
        r"^\**ANSWER:\**[ \t]*(?P<slot>[^\n]*?)[ \t]*$", re.MULTILINE | re.IGNORECASE
    ),
    "hash_line": re.compile(r"^####[ \t]*(?P<slot>[^\n]*?)[ \t]*$", re.MULTILINE),
    "boxed": re.compile(r"\\boxed\{(?P<slot>[^{}\n]*)\}"),
    "json": re.compile(r"\"answer\"[ \t]*:[ \t]*(?:\"(?P<slot>[^\"\n]*)\"|(?P<bare>-?[\d.]+))"),
    "phrase": re.compile(r"\b[Tt]he (?:final )?answer is:?[ \t]+(?P<slot>[^\n]*?)\.?[ \t]*$", re.M),
}
# What a slot may hold besides its one number: a currency sign, LaTeX escapes, a unit word.
_NUMBER = re.compile(r"(?<![\w.])-?(?:\\\$|\$)?(?P<digits>\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?!\d)")
# Possessive and with no alternative overlapping another: a long slot of words that ends in a
# comma fails at once instead of trying every split of its letters.
_SLOT_EXTRA = re.compile(r"^(?:[$%. ]|\\[$%]|\\text\{[^{}]*+\}|[A-Za-z]++|\*\*)*+$")


@dataclass(frozen=True)
class Statement:
    """The final answer statement: its mark, the slot inside it and the number in the slot.

    ``start``/``end`` span the whole mark (``A: 96``, ``\\boxed{96}``, ``"answer": "96"``),
    ``slot_start``/``slot_end`` what the mark holds (inside the box or the quotes), and
    ``number_start``/``number_end`` the number text in it; ``quoted`` is false for a JSON number.
    """

    kind: str
    start: int
    end: int
    slot_start: int
    slot_end: int
    quoted: bool
    number_start: int
    number_end: int
    value: Decimal

    def mark(self, completion: str) -> str:
        return completion[self.start : self.end]

    def number(self, completion: str) -> str:
        return completion[self.number_start : self.number_end]


def find_statement(completion: str) -> Statement | None:
    """The last answer mark whose slot holds one plain number, or ``None``."""
    found: list[tuple[int, str, re.Match[str]]] = []
    for kind, pattern in _MARKS.items():
        last = None
        for match in pattern.finditer(completion):
            last = match
        if last is not None:
            found.append((last.start(), kind, last))
    if not found:
        return None
    _, kind, match = max(found, key=lambda item: item[0])
    group = "bare" if kind == "json" and match.group("bare") is not None else "slot"
    slot, offset = match.group(group), match.start(group)
    numbers = list(_NUMBER.finditer(slot))
    if len(numbers) != 1:
        return None
    number = numbers[0]
    rest = slot[: number.start()] + slot[number.end() :]
    if not _SLOT_EXTRA.match(rest):
        return None
    value = plain_value(number.group(0))
    if value is None:
        return None
    return Statement(
        kind,
        match.start(),
        match.end(),
        offset,
        match.end(group),
        group == "slot",
        offset + number.start(),
        offset + number.end(),
        value,
    )


def plain_value(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace("\\$", "").replace("$", "").replace(",", ""))
    except InvalidOperation:
        return None


def fmt(value: Decimal) -> str:
    """``18`` for 18.00, ``1.5`` for 1.50: how a model writes the value, never ``1.8E+6``."""
    text = f"{value:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


# Words after a question number that are not the thing it counts.
_NOT_NOUNS = frozenset(
    re.findall(
        r"\w+",
        "a an and at each every for from in is more of on or per than the times to was were "
        "with percent less fewer twice same that which who when where then",
    )
)
# A number (not the tail of a space-grouped one: `400 000`) and the word after it.
_QUANTITY = re.compile(r"(?<![\w.,])(?<!\d )(\d+(?:,\d{3})*(?:\.\d+)?)[ \t]+([a-z]{3,})\b")


def question_quantities(question: str | None) -> list[tuple[Decimal, str]]:
    """``(16, "eggs")``-style pairs: a question number and the noun right after it."""
    pairs = []
    for match in _QUANTITY.finditer(question or ""):
        if match.group(2) not in _NOT_NOUNS:
            pairs.append((Decimal(match.group(1).replace(",", "")), match.group(2)))
    return pairs


def question_numbers(question: str | None) -> set[Decimal]:
    return {
        value
        for match in _NUMBER.finditer(question or "")
        if (value := plain_value(match.group(0))) is not None
    }


_UNITS = [
    "dollars",
    "seconds",
    "minutes",
    "hours",
    "days",
    "weeks",
    "months",
    "years",
    "inches",
    "feet",
    "ounces",
    "pounds",
    "cents",
]
_ASKED_UNIT = re.compile(r"\bhow many (" + "|".join(_UNITS) + r")\b", re.IGNORECASE)
_ASKED_IN = re.compile(r"\bin (" + "|".join(_UNITS) + r")\b", re.IGNORECASE)
_ASKED_MONEY = re.compile(r"\bhow much money\b", re.IGNORECASE)
_HOW_MUCH = re.compile(r"\bhow much\b", re.IGNORECASE)


def asked_unit(question: str | None) -> str | None:
    """The unit the question's asking sentence names (``minutes``, ``dollars``), if one."""
    asking = (question or "").rstrip().rsplit(". ", 1)[-1]
    if match := _ASKED_UNIT.search(asking) or _ASKED_IN.search(asking):
        return match.group(1).lower()
    # Prices in dollars and nothing in cents or euros: an amount in dollars is asked.
    dollars = "$" in (question or "") and not re.search(r"€|\bcents?\b", question or "", re.I)
    if (_ASKED_MONEY.search(asking) or _HOW_MUCH.search(asking)) and dollars:
        return "dollars"
    return None
