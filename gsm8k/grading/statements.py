"""Answer statements: every place a text states an answer, with its value (docs/grading.md, "The
delivered answer"). An answer line, `####`, a box, an answer tag, a JSON field, an answer phrase
or a correction that opens a sentence (`No wait, it's 20.`) is a statement; an answer phrase that
states someone else's answer (`the reference answer is 18`) is not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from gsm8k.grading.corrections import CORRECTION_OPENING
from gsm8k.grading.doubt import sentence_hedged
from gsm8k.grading.marks import is_heading
from gsm8k.grading.numbers import normalize, same_number
from gsm8k.grading.phrases import ANSWER_PHRASES, OWNER_LOOK, SOMEONE_ELSES, phrase_value
from gsm8k.grading.reader import SENTENCE_END, WORKING_SIGN, Reader
from gsm8k.grading.rules import ANSWER_LABEL, boxed_spans
from gsm8k.grading.words import number_in_words

# Every mark that states an answer, in text order. An answer phrase counts only with a number
# close after it, as the rules read it.
STATEMENT = re.compile(
    rf"(?P<answer_line>{ANSWER_LABEL})"
    r"|(?P<a_line>^[ \t]*(?-i:A)[ \t]*[:：](?=[ \t*_$]*[-−]?\d))"
    r"|(?P<hash_line>####)"
    r"|(?P<boxed>\\boxed[ \t]*\{)"
    r"|(?P<answer_tag><(?:final[_-]?)?answer>)"
    r"|(?P<json>[\"'](?:final[_ ])?answer[\"'][ \t]*:)"
    rf"|(?P<answer_is>{ANSWER_PHRASES})"
    rf"|(?P<corrected>{CORRECTION_OPENING})",
    re.IGNORECASE | re.MULTILINE,
)
VALUE_WINDOW = 200  # characters after a mark in which its value is read
_DIGIT = re.compile(r"\d")


@dataclass(frozen=True)
class Statement:
    """One statement of an answer: its rule, value, text, where it ends, whether it is hedged."""

    rule: str
    value: Decimal
    text: str
    start: int
    end: int
    hedged: bool


def statements(reader: Reader, start: int, end: int | None = None) -> list[Statement]:
    """The statements of an answer in ``reader.text[start:end]``, in text order."""
    text = reader.text
    stop = len(text) if end is None else end
    spans = {span_start: span_end for span_start, span_end in boxed_spans(text[start:stop])}
    found = []
    for mark in STATEMENT.finditer(text, start, stop):
        rule = mark.lastgroup or ""
        if rule == "boxed":
            end = spans.get(mark.end() - start)
            if end is None:
                continue
            content = text[mark.end() : start + end]
            value, stated, stated_end = reader.value_of(content), content, start + end + 1
        elif rule == "answer_is":
            phrased = phrase_value(reader, mark.end())
            owner = text[max(0, mark.start() - OWNER_LOOK) : mark.start()]
            if phrased is None or SOMEONE_ELSES.search(owner):
                continue  # prose, a question, or someone else's answer (`the reference answer is`)
            value, stated = phrased
            stated_end = mark.end() + len(stated)
        else:
            line = text[mark.end() : mark.end() + VALUE_WINDOW].split("\n")[0]
            sentence_end = SENTENCE_END.search(line)
            stated = line if sentence_end is None else line[: sentence_end.start()]
            if rule == "answer_tag":
                stated = stated.split("<", 1)[0]
            if rule == "hash_line" and is_heading(stated):
                continue  # `#### Note 2`: a markdown heading, not an answer slot
            value, stated_end = reader.value_of(stated), mark.end() + len(stated)
            if value is None and rule != "a_line" and _DIGIT.search(stated) is None:
                value = number_in_words(stated.strip(" \t*_`.\"'"))  # `<answer>twenty</answer>`
        if value is None:
            continue
        if rule == "corrected":
            rule = "answer_is"  # `No wait, it's 20.`: an answer stated in a sentence
            if "=" in stated:  # `… so the total is 48 + 24 = 72.`: the working's result
                value = reader.value_of(stated.rsplit("=", 1)[1]) or value
        snippet = text[mark.start() : stated_end]
        hedged = sentence_hedged(text, mark.start(), stated_end)
        found.append(Statement(rule, value, snippet, mark.start(), stated_end, hedged))
    return found


_BEFORE_LOOK = 400  # characters before a statement in which the sentence before it is read


def sentence_before(reader: Reader, start: int) -> Statement | None:
    """The sentence right before the one that holds ``start``, when it states one value plainly
    (`Eliza earns $440.` before `If overtime were 1.2x, the answer would be 460.`): the statement
    a hedged alternative follows."""
    text = reader.text
    offset = max(0, start - _BEFORE_LOOK)
    # Blank lines end no sentence of their own: the last sentence with words is read.
    ends = list(SENTENCE_END.finditer(text, offset, start))
    bounds = [offset] + [end.end() for end in ends]
    spans = [
        (begin, end.start())
        for begin, end in zip(bounds, ends, strict=False)
        if text[begin : end.start()].strip()
    ]
    if not spans:
        return None
    begin, end = spans[-1]
    sentence = text[begin:end]
    read = (reader.value_of(number.group(0)) for number in reader.numbers.finditer(sentence))
    values = {value for value in read if value is not None}
    if len(values) != 1 or WORKING_SIGN.search(sentence) or sentence_hedged(text, begin, end):
        return None
    return Statement("last_number", values.pop(), sentence.strip(), begin, end, False)


_LATEX_SPACE = re.compile(r"\\(?:q?quad|[,;:! ]|enspace|hspace\{[^{}]*\})")
# Searched in "\n" + the case-folded text: every branch opens on a literal, which the engine skips
# to (a `^` branch, or IGNORECASE, has it try every position).
_MARK_NEAR = re.compile(r"answer|####|\\boxed|\n[ \t]*a[ \t]*:")
_JSON_LISTED = re.compile(r"\}[ \t]*+(?:```)?\s*+,?\s*+(?:```(?:json)?)?\s*+[\[{]?\s*+\{\s*+\Z")
_LIST_LOOK = 200  # characters before a statement searched for one it is listed after
# The label a mark opens with on its own line: `Draft answer:`, `Answer (rough):`, `Final answer:`.
_DRAFT = re.compile(r"\b(?:draft|rough|initial|preliminary|first|approximate|estimated?)\b", re.I)
_FINAL = re.compile(r"\b(?:final|exact|corrected|revised|actual)\b", re.IGNORECASE)
_LABEL_LOOK = 30


def _label(text: str, statement: Statement) -> str:
    """The words on a statement's line before its value: its mark and what labels it."""
    line = text.rfind("\n", 0, statement.start) + 1
    value = _DIGIT.search(text, statement.start, statement.end)
    end = statement.end if value is None else value.start()
    return text[max(line, statement.start - _LABEL_LOOK) : end]


def listed_after_other(reader: Reader, statement: Statement) -> bool:
    """Whether the statement comes right after one of another value, nothing but space and
    punctuation between (`ANSWER: 9\nANSWER: 36`, `\boxed{180} \boxed{3}`): a list."""
    if statement.rule == "json" and _JSON_LISTED.search(
        reader.text, max(0, statement.start - _LIST_LOOK), statement.start
    ):
        # `{"answer": 33, "confidence": 0.5}` / `{"answer": 23, …}`: two answer objects.
        earlier = statements(reader, max(0, statement.start - _LIST_LOOK), statement.start)
        if earlier and earlier[-1].rule == "json":
            return not same_number(earlier[-1].value, statement.value)
    before = reader.text[max(0, statement.start - _LIST_LOOK) : statement.start]
    if "\\" in before:
        before = _LATEX_SPACE.sub("", before)
    before = before.rstrip(" \t\n*_`")
    if (
        not before
        or not (before[-1].isdigit() or before[-1] in "}$")
        or not _MARK_NEAR.search("\n" + before.casefold())
    ):
        return False  # prose before it (the common case): no statement ends right there
    earlier = statements(reader, max(0, statement.start - _LIST_LOOK), statement.start)
    if not earlier:
        return False
    previous = earlier[-1]
    if _DRAFT.search(_label(reader.text, previous)) or _FINAL.search(
        _label(reader.text, statement)
    ):
        return False  # `Draft answer: 50` / `Final answer: 55`: a draft, then its correction
    gap = reader.text[previous.end : statement.start]
    if previous.end > statement.start:
        return False  # one statement read twice (`Answer: … she spent \\boxed{32}`)
    if normalize(previous.value) in statement.text:
        return False  # `"answer": "290 (typo, should be 292)"`: it corrects the value before
    gap = _LATEX_SPACE.sub("", gap)  # `\\boxed{18} \\quad \\boxed{8}`
    # A code fence between quotes what it holds.
    return not same_number(previous.value, statement.value) and not any(
        char.isalnum() or char == "`" for char in gap
    )


# A retraction that points back past a revised statement: `**Revised answer:** … = 2,230 cars. I
# made an addition error above.` takes back the answer before the revision, not the revision.
_POINTS_BACK = re.compile(
    r"\b(?:above|earlier|previously|before|at[ \t]+first|the[ \t]+first[ \t]+time)\b", re.I
)
_POINT_LOOK = 200
_REVISED = re.compile(r"\b(?:revised|corrected|updated|fixed|new)\b", re.IGNORECASE)


def revision_stands(text: str, retraction_end: int, statement: Statement) -> bool:
    """Whether a retraction after ``statement`` points back to an earlier answer that a revised
    or corrected statement (by its label) already replaced."""
    if _REVISED.search(_label(text, statement)) is None:
        return False
    closed = SENTENCE_END.search(text, retraction_end, retraction_end + _POINT_LOOK)
    end = retraction_end + _POINT_LOOK if closed is None else closed.end()
    return _POINTS_BACK.search(text, retraction_end, end) is not None
