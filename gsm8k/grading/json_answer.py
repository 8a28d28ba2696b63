"""The ``json`` rule: a JSON-style answer field (``"answer": 18``, ``"final_answer": "18"``,
``"final": 18``), the last one.

A field is an answer slot: ``null`` or words with no number in it are no answer, never the
working's last number (``"final": null`` beside ``"candidates": [23, 25]`` too). One answer field
with other answers offered beside it (``"alternatives": [20]``, ``"candidates": [23, 25]``), a
list of several values, or several answer fields of one JSON value that state different values
(one object per scenario, ``[{"scenario": …, "answer": 540}, {"scenario": …, "answer": 460}]``)
are no one answer. Values are read from bounded windows, so the rule is linear in the text.
"""

from __future__ import annotations

import re

from gsm8k.grading.numbers import same_number
from gsm8k.grading.reader import Found, Reader
from gsm8k.grading.refusals import HEDGED
from gsm8k.grading.rules import EMPTY_SLOT, NoAnswer, final_refusal, slot_in_words

_JSON_ANSWER = re.compile(
    r"[\"'](?:final(?:[_ ]answers?)?|answers?)[\"'][ \t]*:[ \t]*"
    # An answer object: `"answer": {"value": 18, "unit": "USD"}` states its value.
    r"(?:\{[ \t]*[\"'](?:value|amount|number|result)[\"'][ \t]*:[ \t]*)?"
    r"(?:\"(?P<double>[^\"\n]*)\"|'(?P<single>[^'\n]*)'|(?P<bare>[-−]?\d[\d.,eE+ ]*)"
    r"|\[(?P<list>[^\[\]\n]{0,200})\]|(?P<null>null|None|NaN)(?![A-Za-z]))",
    re.IGNORECASE,
)
# Other answers offered beside the answer field: `"alternatives": [20]`, `"other_answer": 20`,
# `"candidates": [23, 25]`.
_JSON_ALTERNATIVES = re.compile(
    r"[\"'](?:alternatives?|alternative[_ ]answers?|other[_ ]answers?|possible[_ ]answers"
    r"|candidates?|candidate[_ ]answers?|options)[\"']"
    r"[ \t]*:[ \t]*(?:\[[^\]\n]{0,200}\d|[-−]?\d|[\"'][^\"'\n]{0,200}\d)",
    re.IGNORECASE,
)
_ALTERNATIVE_HINTS = ("ltern", "nswers", "ther", "andidat", "ption")
_JSON_OBJECT_LOOK = 400
"""Characters around the last answer field in which alternatives to it are looked for."""
# What ends one JSON value between two answer fields: a closed list or object, a code fence, a
# blank line.
_VALUE_ENDS = re.compile(r"\]|\}[ \t]*(?:\n|$)|```|\n[ \t]*\n")
_FIRST_DIGIT = re.compile(r"\d")


def find_json(reader: Reader) -> Found | NoAnswer | None:
    text = reader.text
    fields = list(_JSON_ANSWER.finditer(text))
    for index, match in enumerate(reversed(fields)):
        if index == 0:
            around = text[
                max(0, match.start() - _JSON_OBJECT_LOOK) : match.end() + _JSON_OBJECT_LOOK
            ]
            if any(hint in around for hint in _ALTERNATIVE_HINTS) and (
                _JSON_ALTERNATIVES.search(around)
            ):
                return NoAnswer(HEDGED)  # `{"answer": 18, "alternatives": [20]}`: not one answer
            if match.group("null") is not None:
                return NoAnswer(EMPTY_SLOT)  # `"answer": null`: never the working's number
            if len(fields) > 1 and _fields_differ(reader, fields[-2], match):
                return NoAnswer(HEDGED)  # one answer object per scenario, none chosen
            words = (
                match.group("double")
                if match.group("double") is not None
                else match.group("single")
            )
            if words is not None and not _FIRST_DIGIT.search(words):
                return slot_in_words(words, match.group(0).strip())
        listed = match.group("list")
        if listed is not None:
            # `{"answer": [18, 20]}`: a list is an answer only when it holds one value.
            read = (reader.value_of(item.strip(" \t\"'")) for item in listed.split(","))
            values = {value for value in read if value is not None}
            if index == 0 and len(values) > 1:
                return NoAnswer(HEDGED)
            if len(values) == 1:
                return values.pop(), match.group(0).strip()
            continue
        snippet = _field_value(match)
        refused = final_refusal(index, snippet, reader)
        if refused is not None:
            return refused
        value = reader.value_of(snippet.strip())
        if value is not None:
            return value, match.group(0).strip()
    return None


def _field_value(match: re.Match[str]) -> str:
    return match.group("double") or match.group("single") or match.group("bare") or ""


def _fields_differ(reader: Reader, before: re.Match[str], last: re.Match[str]) -> bool:
    """Whether two answer fields of one JSON value, close together, state different values."""
    if last.start() - before.end() > _JSON_OBJECT_LOOK:
        return False
    if _VALUE_ENDS.search(reader.text, before.end(), last.start()) is not None:
        return False  # a JSON value closed between them: a draft, then the final object
    first = reader.value_of(_field_value(before).strip())
    second = reader.value_of(_field_value(last).strip())
    return first is not None and second is not None and not same_number(first, second)
