"""The explicit answer rules: an ``ANSWER:`` line, a JSON field, an ``<answer>`` tag, a ``####``
line, a ``\\boxed{}`` and a final ``A:`` line (rules 1–5 and 7 of :mod:`gsm8k.grading.extract`,
which tries them in order with the answer phrases and the last-number fallback).

Each finder takes a :class:`~gsm8k.grading.reader.Reader` and returns what it found, ``None`` when
its mark is absent, or a :class:`NoAnswer` when the mark is there and states no number.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable

from gsm8k.grading.marks import box_in_asked_unit, closing_hash, is_heading, unit_of
from gsm8k.grading.reader import RULED_OUT, Found, Reader
from gsm8k.grading.refusals import HEDGED, QUESTIONED, questioned
from gsm8k.grading.ruled_out import CALLED_WRONG
from gsm8k.grading.units import competing, compound_units, one_quantity
from gsm8k.grading.words import number_in_words, words_offered

NOT_A_NUMBER_BOXED = "the final \\boxed{} answer holds no number"

_NEXT_LINE_LIMIT = 80
"""A value alone on the line after ``ANSWER:`` is at most this long."""
_BOXED_LIMIT = 500
"""Longer ``\\boxed{…}`` contents are not an answer (and are not read)."""

# Markdown and list decoration models put around the keyword: **ANSWER:**, ### Answer:, > ANSWER:
DECORATION = r"[ \t*_#>`-]*"
# The answer label that opens an answer line: `ANSWER:`, `**Answer:**`, and `**Answer.** 380`
# (a heading closed by a period, with the value right after it).
ANSWER_LABEL = (
    rf"^{DECORATION}answer(?:{DECORATION}[:：]|\.(?=[ \t*_`]*+[-−]?(?:\\?[$€£][ \t]?)?\d))"
)
ANSWER_LINE = re.compile(
    rf"{ANSWER_LABEL}[ \t*_`]*(?P<value>[^\n]*)",
    re.IGNORECASE | re.MULTILINE,
)
# A line's value ends at a second mark: `#### 140. (Correction: …) #### 45` holds two statements.
# Not `(?:…)*+`: CPython before 3.11.5 (Debian 12 has 3.11.2) lets a possessive repeat of a group
# run past its lookahead (python/cpython#106052) and read the two statements as one.
_HASH_LINE = re.compile(r"####[ \t]*(?P<value>(?:[^#\n]++|#(?!###))*)")
EMPTY_SLOT = "the answer slot holds no number: no answer"
# Words that say there is no answer: such a `####` line is the answer slot wherever it stands.
_NO_ANSWER_WORDS = re.compile(
    r"\b(?:not[ \t]+enough|cannot|can['’]?t|insufficient|unknown|undetermined|indeterminate"
    r"|not[ \t]+(?:possible|determinable)|impossible|none|n/a|no[ \t]+answer)\b",
    re.IGNORECASE,
)
_LATEX_TEXT = re.compile(r"\\(?:text|mathrm|textbf|mbox)\{([^{}]*)\}")
_SLOT_CLOSED = re.compile(r"</(?:final[_-]?)?answer>", re.IGNORECASE)
_LAST_LINE_REST = re.compile(r"[ \t*_`.]*\s*\Z")
_NUMERIC_MARK = re.compile(
    r"\\boxed|####[ \t*_$\\]*[-−]?\d|<(?:final[_-]?)?answer>[ \t\n]{0,20}[-−$]?\d"
)
_ANSWER_TAG = re.compile(r"<(?:final[_-]?)?answer>[ \t\n]{0,20}(?P<value>[^<\n]*)", re.IGNORECASE)
_A_LINE = re.compile(r"[ \t]*A[ \t]*[:：][ \t]*(?P<value>[^\n]*)")
_A_NUMBER_LINE = re.compile(
    r"^[ \t]*A[ \t]*[:：][ \t]*(?P<value>[*_$]*[-−]?\d[^\n]*)", re.MULTILINE
)
# Only ever applied to lines of at most _NEXT_LINE_LIMIT characters.
_NUMBER_ONLY = re.compile(r"(?:\\boxed|[*_`$\\()\[\]{}.,%£€\s-])*\d[*_`$\\()\[\]{}.,%£€\s\d-]*")
_NEXT_LINE = re.compile(r"(?:[ \t]*\n)+[ \t]*(?P<line>[^\n]*)")
_FIRST_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[^\W\d_]")
_LIST_ITEM = re.compile(r"[ \t*_]*\d{1,2}[.)][ \t]+\S")
_FINAL_ANSWER = re.compile(r"final[ \t]+answer", re.IGNORECASE)
_WORKING_LINE = re.compile(r"\n[^\n\d]*\d")  # a later line with a number in it
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")


class NoAnswer(str):
    """A rule found the final answer and it is not a number: the search ends with no answer."""


def _last_with_value(pattern: re.Pattern[str], reader: Reader) -> Found | NoAnswer | None:
    return _first_value(reversed(list(pattern.finditer(reader.text))), reader)


def _first_value(marks: Iterable[re.Match[str]], reader: Reader) -> Found | NoAnswer | None:
    """The value of the first mark (last in the text first) that holds one; the last mark's
    refusal (a hedge, a ruled-out value) ends the search with no answer."""
    for index, match in enumerate(marks):
        refused = final_refusal(index, match.group("value") or "", reader)
        if refused is not None:
            return refused
        found = _answer_line_value(match, reader)
        if found is not None:
            return found
    return None


def final_refusal(index: int, value: str, reader: Reader) -> NoAnswer | None:
    """The last mark is the model's final statement: two values (`#### 18 or 20`) or an
    expression there is no answer, never a number the last-number guess finds in it."""
    refused = reader.refusal(value.strip()) if index == 0 else None
    return None if refused is None else NoAnswer(refused)


def _answer_line_value(match: re.Match[str], reader: Reader) -> Found | None:
    snippet = (match.group("value") or "").strip()
    if not snippet:
        # `ANSWER:` alone on its line, the number alone on the next one.
        following = _NEXT_LINE.match(reader.text, match.end())
        line = following.group("line").strip() if following else ""
        snippet = line if len(line) <= _NEXT_LINE_LIMIT and _is_number_only(line) else ""
    value = reader.value_of(snippet)
    return None if value is None else (value, match.group(0).strip())


def _is_number_only(line: str) -> bool:
    """Whether a short line holds a number and nothing but markup around it."""
    return _NUMBER_ONLY.fullmatch(line) is not None


def find_answer_line(reader: Reader) -> Found | NoAnswer | None:
    text = reader.text
    lines = list(ANSWER_LINE.finditer(text))
    if not lines:
        return None
    later = _LaterMarks(text)
    for index, match in enumerate(reversed(lines)):
        value = match.group("value")
        explains = _opens_explanation(value)
        if explains and later.heads_working(match):
            return None  # the final value comes later: the boxed or fallback rules read it
        if index == 0:
            # The last answer line is the model's final statement: an expression (`x - 14`) or
            # two values (`18 or 20`) are not one number, and a value it questions (`18? No.`)
            # is not stated.
            refused = reader.refusal(value.strip())
            if refused is not None:
                return NoAnswer(refused)
            if questioned(value):
                return NoAnswer(QUESTIONED)
            computed = (
                reader.computed_value(value.strip())
                if explains or reader.opens_with_question_quantity(value.strip())
                else None
            )
            if computed is not None:
                # `Answer: Tom's age 10 years from now is 54.`, `Answer: 8 pens will cost
                # $12.00.`: 10 and `8 pens` restate the question.
                return computed, match.group(0).strip()
        found = _answer_line_value(match, reader)
        if found is not None:
            return found
    return None


class _LaterMarks:
    """Where a text's final-answer marks are, found in one pass each, so that asking about every
    ``Answer:`` line stays linear however many there are."""

    def __init__(self, text: str) -> None:
        self.last_boxed = text.rfind("\\boxed")
        self.last_final = max((m.start() for m in _FINAL_ANSWER.finditer(text)), default=-1)
        self.working_lines = [m.start() for m in _WORKING_LINE.finditer(text)]

    def heads_working(self, line: re.Match[str]) -> bool:
        """Whether an explanation-opening ``Answer:`` line is a heading over working.

        `Answer: Janet's ducks lay 16 eggs … \\boxed{18}` states its answer last: the boxed
        value (or a final-answer line, or the last number of the working below) is the answer,
        not the first number of the opening sentence. A one-line answer in words
        (`ANSWER: She makes 18 dollars.`) is still read from its line, whatever chatter follows.
        """
        if self.last_boxed >= line.start("value") or self.last_final >= line.end():
            return True
        later_lines = len(self.working_lines) - bisect_right(self.working_lines, line.end() - 1)
        return later_lines >= _WORKING_LINES


_SENTENCE_LETTERS = 25
"""Letters in an answer line's text from which it is a sentence, not a value with its unit."""
_WORKING_LINES = 2
"""Later lines with numbers in them that make an explanation-opening ``Answer:`` line a heading."""


def _opens_explanation(value: str) -> bool:
    """Whether an answer line's text is a sentence of working rather than a stated value.

    It is when words come before its first number, or when it runs on as a sentence
    (`2つの列車が…を計算します。`, `В 1 долларовом магазине…`) rather than a value with its unit.
    """
    if _LIST_ITEM.match(value):
        return True  # `Answer: 1. Monday: 8 hours`: the first step of a list, not a value
    prose = _LATEX_COMMAND.sub(" ", value)
    first_digit = _FIRST_DIGIT.search(prose)
    before = prose[: first_digit.start()] if first_digit else prose
    # Letters are counted one by one: vowel signs of Indic scripts are marks, not letters.
    return len(_LETTER.findall(before)) >= 2 or len(_LETTER.findall(prose)) >= _SENTENCE_LETTERS


def find_answer_tag(reader: Reader) -> Found | NoAnswer | None:
    marks = list(_ANSWER_TAG.finditer(reader.text))
    if marks:
        last = marks[-1]
        words = last.group("value") or ""
        if not _FIRST_DIGIT.search(words) and _SLOT_CLOSED.match(reader.text, last.end()):
            # `<answer></answer>`, `<answer>cannot be determined</answer>`, `<answer>ten</answer>`
            return slot_in_words(words, last.group(0).strip())
    return _first_value(reversed(marks), reader)


def slot_in_words(words: str, snippet: str) -> Found | NoAnswer:
    """An answer slot that holds no digit: the value of its number words, else no answer."""
    if words_offered(words):
        return NoAnswer(HEDGED)  # `#### eighteen or twenty`: two values in words
    value = number_in_words(words.strip(" \t*_`.")) if _LETTER.search(words) else None
    return NoAnswer(EMPTY_SLOT) if value is None else (value, snippet)


def find_hash_line(reader: Reader) -> Found | NoAnswer | None:
    closing = closing_hash(reader)
    if closing is not None:
        return closing  # a closing `## 20` heading that is only a number
    every = list(_HASH_LINE.finditer(reader.text))
    if every:
        last = every[-1]
        words = last.group("value")
        if (
            not _FIRST_DIGIT.search(words)
            and (_LAST_LINE_REST.match(reader.text, last.end()) or _NO_ANSWER_WORDS.search(words))
            and _NUMERIC_MARK.search(reader.text, 0, last.start()) is None
        ):
            # `#### not enough information`, `#### twenty` closing the text: the answer slot in
            # words, not a markdown heading over working.
            return slot_in_words(words, last.group(0).strip())
        if reader.refusal(words.strip()) == RULED_OUT:
            return NoAnswer(RULED_OUT)  # `#### anything but 18`: its only value ruled out
    marks = reversed(every)
    # `#### Cost of Bread`, `#### Step 2: …` (markdown headings) are passed over.
    return _first_value((m for m in marks if not is_heading(m.group("value"))), reader)


def find_boxed(reader: Reader) -> Found | NoAnswer | None:
    every = boxed_spans(reader.text)
    # `The total is \\boxed{72}, not \\boxed{24}.`: a box ruled out is no statement.
    spans = [
        span
        for span in every
        if _NOT_BEFORE_BOX.search(reader.text, max(0, span[0] - _NOT_LOOK), span[0]) is None
    ]
    if not spans:
        return NoAnswer(RULED_OUT) if every else None
    asked = box_in_asked_unit(reader, spans, reader.question_text)
    if asked is None and _boxes_offered_as_choice(reader, spans):
        return NoAnswer(HEDGED)  # `\\boxed{18} or \\boxed{20}`: two answers, not one
    start, end = asked or spans[-1]
    content = reader.text[start:end]
    value = reader.value_of(content)
    if value is None:
        # `\\boxed{\\text{twenty}}` is twenty; `\\boxed{?}`, `\\boxed{x - 14}` are no number, and no
        # number of the working is delivered in their place.
        worded = number_in_words(_LATEX_TEXT.sub(r"\1", content).strip(" \t*_`."))
        if worded is not None and not _FIRST_DIGIT.search(content):
            return worded, f"\\boxed{{{content}}}"
        return NoAnswer(reader.refusal(content) or NOT_A_NUMBER_BOXED)
    if reader.box_offers_two_values(content, value):
        return NoAnswer(HEDGED)  # `\\boxed{18 \\mid 20}`: one box, two values offered
    if CALLED_WRONG.match(reader.text, end + 1):
        return NoAnswer(RULED_OUT)  # `\\boxed{18} is what a careless solver would write`
    return value, f"\\boxed{{{content}}}"


_NOT_BEFORE_BOX = re.compile(r"\bnot[ \t]*+\$?[ \t]*+\\boxed[ \t]*\{\Z", re.IGNORECASE)
_NOT_LOOK = 16

# Two boxes offered as a choice: `\\boxed{18} or \\boxed{20}`, `… \\text{ or } \\boxed{20}`.
_BOX_CHOICE = re.compile(
    r"(?:\\q?quad|[\s$\\()\[\].,;:!~*_])*"
    # the first box's unit (`\\boxed{2} hours, or \\boxed{140} minutes`)
    r"(?:(?:\\text\{[ \t]*)?(?!(?:or|and|to|vs|versus|oder|ou|o|actually|sorry|wait|correction"
    r"|rather|no)\b)[A-Za-z]{2,12}\}?"
    r"(?:\\q?quad|[\s$\\()\[\].,;:!~*_])*)?"
    # the first box's condition (`\\boxed{18} (if she sells all 9 eggs) / \\boxed{14}`)
    r"(?:\((?:if|when|assuming|for|with|counting|excluding)\b[^()\n]{0,60}\)"
    r"(?:\\q?quad|[\s$\\()\[\].,;:!~*_])*)?"
    r"(?:,|;|/|\||–|\\(?:lor|vee|sim)\b|或|or|and|to|vs\.?|versus|oder|ou|o"
    r"|\\(?:text(?:bf|rm|it)?|mathrm|mbox)\{[ \t,(]*(?:or(?:[ \t]+else)?|to|vs\.?|oder|ou)"
    r"[ \t)]*\})"
    r"(?:\\q?quad|[\s$\\()\[\],;:!~*_])*\\boxed[ \t]*\{",
    re.IGNORECASE,
)


def _boxes_offered_as_choice(reader: Reader, spans: list[tuple[int, int]]) -> bool:
    """Whether the last two boxes are joined by `or`, `and` or a comma and state two values."""
    if len(spans) < 2:
        return False
    (first_start, first_end), (second_start, second_end) = spans[-2], spans[-1]
    between = reader.text[first_end + 1 : second_start]
    if len(between) > _CHOICE_GAP or _BOX_CHOICE.fullmatch(between) is None:
        return False
    one = reader.value_of(reader.text[first_start:first_end])
    other = reader.value_of(reader.text[second_start:second_end])
    if one is None or other is None or one == other:
        return False
    # One quantity in two units needs a unit on each box (`\\boxed{2} hours or \\boxed{120}
    # minutes`); `\\boxed{5} or \\boxed{15}` are two answers.
    units = (
        unit_of(reader.text, first_start, first_end),
        unit_of(reader.text, second_start, second_end),
    )
    named = [unit for unit in units if unit is not None and unit not in _JOINING_WORDS]
    if len(named) == 2 and " and " in between and compound_units(named[0], named[1]):
        return False  # `\\boxed{5} hours and \\boxed{20} minutes`: one quantity's two parts
    if len(named) == 2 and not competing(named[0], named[1]):
        return False  # `\\boxed{5} hours and \\boxed{20} degrees`: two things, not two answers
    return not (len(named) == 2 and one_quantity(one, named[0], other, named[1]))


_CHOICE_GAP = 80
_JOINING_WORDS = frozenset(("or", "and", "to", "vs", "versus"))
"""Words after a box that join it to the next one: no unit."""


def find_a_line(reader: Reader) -> Found | NoAnswer | None:
    """A final ``A: 18`` line; or the last ``A:`` line that opens with a number, when chatter or
    an aside follows it (`A: 18` then `(Some might get 23 …)`)."""
    text = reader.text.rstrip()
    last_line_start = text.rfind("\n") + 1
    match = _A_LINE.fullmatch(text, last_line_start)
    if match is None:
        for line in _A_NUMBER_LINE.finditer(text):
            match = line
        if match is None:
            return None
    refused = reader.refusal(match.group("value").strip())
    if refused is not None:
        return NoAnswer(refused)  # `A: 18, perhaps 23`: two candidates, no answer
    value = reader.value_of(match.group("value"))
    return None if value is None else (value, match.group(0).strip())


def boxed_spans(text: str) -> list[tuple[int, int]]:
    """Content spans of every closed ``\\boxed{...}``, nested braces (``1{,}234``) kept intact.

    One pass with a stack, so ``\\boxed{`` repeated thousands of times without closing costs
    linear time; contents longer than :data:`_BOXED_LIMIT` are not answers and are skipped.
    """
    spans: list[tuple[int, int]] = []
    stack: list[tuple[bool, int]] = []
    # Braces opened more than _BOXED_LIMIT characters back can no longer close a span: they are
    # only counted, so a million unclosed ``{`` take a counter, not a million stack entries.
    buried = 0
    for brace in re.finditer(r"\\boxed[ \t]*\{|[{}]", text):
        if brace.group(0) != "}":
            stack.append((brace.group(0) != "{", brace.end()))
            if len(stack) > 2 * _BOXED_LIMIT:
                recent = bisect_right(stack, brace.end() - _BOXED_LIMIT - 1, key=lambda e: e[1])
                buried += recent
                del stack[:recent]
        elif stack:
            boxed, start = stack.pop()
            if boxed and brace.start() - start <= _BOXED_LIMIT:
                spans.append((start, brace.start()))
        elif buried:
            buried -= 1
    spans.sort()
    return spans
