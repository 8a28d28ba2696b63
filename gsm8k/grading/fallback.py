"""The last-number fallback: the last number that is not a label, a list marker or a question.

A program's printed result (a ToRA-style ```` ```output ```` block) wins when the closing prose
restates it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from gsm8k.grading.numbers import normalize, value_with_fraction
from gsm8k.grading.reader import SENTENCE_END, Found, Reader

_NOT_BEFORE_NUMBER = re.compile(r"\bnot[ \t]+$", re.IGNORECASE)
_PROGRAM_OUTPUT = re.compile(r"```output[ \t]*\n(?P<body>[^`]{0,200})```")
_LABEL_BEFORE = re.compile(r"(?:[#№/]|\bNo\.[ \t]?)$")
_LIST_MARKER = re.compile(r"[.)][ \t]")
_LINE_START_BEFORE = re.compile(r"\n[ \t]*$")


def find_last_number(reader: Reader) -> Found | None:
    printed = _program_result(reader)
    if printed is not None:
        value, closing_start = printed
        closing = _scan_numbers(reader, closing_start, value)
        if closing.last is None or closing.saw_wanted:
            # The closing prose restates the program's result (or states no number at all):
            # the printed number is the answer, not a number the prose repeats from the question.
            return value, f"printed {normalize(value)}"
    return _scan_numbers(reader, 0, None).last


@dataclass
class _Scan:
    last: Found | None = None
    saw_wanted: bool = False


def _scan_numbers(reader: Reader, start: int, wanted: Decimal | None) -> _Scan:
    """The last number from ``start`` on that is not a label, a list marker or in a question.

    A question that shows working (``= 7 bars?``) still counts: only a restated question, with no
    ``=`` in it, is skipped. One forward pass over numbers and sentence ends together; only the
    current sentence's last number is held, so memory stays constant however many numbers the
    text has.
    """
    text = reader.text
    result = _Scan()
    pending: Found | None = None
    pending_wanted = False
    sentence_start = start

    def close_sentence(end: int) -> None:
        nonlocal pending, pending_wanted, sentence_start
        question = text[end : end + 1] in ("?", "？")
        restated_question = question and "=" not in text[sentence_start:end]
        if pending is not None and not restated_question:
            result.last = pending
            result.saw_wanted = result.saw_wanted or pending_wanted
        pending, pending_wanted, sentence_start = None, False, end + 1

    ends = SENTENCE_END.finditer(text, start)
    end = next(ends, None)
    for match in reader.numbers.finditer(text, start):
        while end is not None and end.start() < match.start():
            close_sentence(end.start())
            end = next(ends, None)
        if _LABEL_BEFORE.search(text, max(0, match.start() - 4), match.start()):
            # `horse #12`, `No. 3`, or the denominator of a fraction read with its numerator.
            continue
        if _LIST_MARKER.match(text, match.end()) and _starts_line(text, match.start()):
            continue
        if _NOT_BEFORE_NUMBER.search(text, max(0, match.start() - 6), match.start()):
            continue  # `The answer is NOT 18.`: a value ruled out is not the answer
        value = value_with_fraction(match, text)
        if value is not None:
            pending = (value, match.group(0))
            pending_wanted = pending_wanted or (wanted is not None and value == wanted)
    close_sentence(len(text) if end is None else end.start())
    return result


def _starts_line(text: str, position: int) -> bool:
    """Whether only spaces stand between ``position`` and the start of its line (bounded look)."""
    before = text[max(0, position - 8) : position]
    if position <= 8 and not before.strip(" \t"):
        return True
    return _LINE_START_BEFORE.search(before) is not None


def _program_result(reader: Reader) -> tuple[Decimal, int] | None:
    """The number the last ```output block printed, and where the text after it starts."""
    text = reader.text
    start = text.rfind("```output")
    block = _PROGRAM_OUTPUT.match(text, start) if start >= 0 else None
    if block is None:
        return None
    body = block.group("body").strip()
    match = reader.numbers.fullmatch(body)
    value = None if match is None else value_with_fraction(match, body)
    return None if value is None else (value, block.end())
