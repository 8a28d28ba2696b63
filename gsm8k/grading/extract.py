"""Find the final answer in a model's completion, and say how it was found.

First, what is not an answer is set aside (:mod:`gsm8k.grading.sections`, README "Scoring"):
reasoning blocks and thinking sections are working; when chat-template markers divide the text,
only the answer section is read; a reasoning block never closed or a generation cut off while
thinking never delivered an answer, whatever it says. A loop to the limit, or a cut, after an
answer is judged by the delivery policy (:mod:`gsm8k.grading.delivery`). An
invented follow-up (a new "Question:" in any of the MGSM languages, a chat role marker) after
the first stated answer is cut off. Invisible characters inside numbers are dropped
(:func:`gsm8k.grading.numbers.join_split_numbers`).

Then rules are tried in a fixed order and the first that yields a number wins:

1. ``answer_line`` – the requested ``ANSWER: <number>`` line (any case, markdown emphasis allowed);
   the LAST such line counts, so a model that corrects itself is read at its correction. An
   ``Answer:`` line that opens an explanation (words before its first number) with a
   ``\\boxed{}`` after it is a heading: the boxed value at the end of the explanation is the
   answer, not the first number of the explanation.
2. ``json`` – a JSON-style ``"answer": <value>`` field (the last one).
3. ``answer_tag`` – ``<answer>…</answer>``.
4. ``hash_line`` – ``#### <number>``, GSM8K's own solution format.
5. ``boxed`` – ``\\boxed{<number>}``.
6. ``answer_is`` – an answer phrase in any MGSM language ("the answer is", "Die Antwort lautet",
   "La réponse est", "Ответ:", "答案是", …) directly followed by a number on the same line.
7. ``a_line`` – a final line ``A: <number>``.
8. ``last_number`` – the last number in the completion that is not a label (``#12``, a list
   marker) or part of a question; a program's printed result wins when the closing prose
   restates it. Not used for truncated completions, whose last number is wherever generation
   happened to stop.

An ``ANSWER:`` line holding the literal placeholder (``ANSWER: $ANSWER``) ends the search with no
answer: the model left its answer slot empty, and nothing else it wrote is a stated answer.
Only rule 1 counts as following the requested format.

Every pattern here runs in time linear in the completion's length: no quantifier can rescan
text that another start position already scanned, and values are read from bounded windows.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal, get_args

from gsm8k.grading.delivery import undelivered
from gsm8k.grading.fallback import find_last_number
from gsm8k.grading.numbers import join_split_numbers, normalize
from gsm8k.grading.phrases import ANSWER_PHRASES, find_answer_is
from gsm8k.grading.reader import PLACEHOLDER, Found, Reader
from gsm8k.grading.sections import (
    CUT_AFTER_DRAFT,
    CUT_TEXT_LENGTH,
    ENDS_IN_LOOP,
    FOLLOW_UP,
    answer_sections,
    left_as_draft,
    stops_mid_sentence,
)
from gsm8k.grading.sections import UNCLOSED_REASONING as UNCLOSED_REASONING
from gsm8k.grading.sections import split_reasoning as split_reasoning

Rule = Literal[
    "answer_line",
    "json",
    "answer_tag",
    "hash_line",
    "boxed",
    "answer_is",
    "a_line",
    "last_number",
    "none",
]

RULES: tuple[Rule, ...] = get_args(Rule)
"""Every rule, in the order they are tried; ``none`` means no answer was found."""

ONLY_REASONING = "nothing outside the reasoning block: the model gave no final answer"
NOT_A_NUMBER_BOXED = "the final \\boxed{} answer holds no number"
PLACEHOLDER_ANSWER = "the ANSWER line holds the template's placeholder, not a number"
TRUNCATED_IN_JSON_REASONING = (
    "output truncated inside the JSON reasoning field: the model did not reach its answer"
)
TRUNCATED_NO_FALLBACK = "output cut off: the last-number fallback is not used"

_NEXT_LINE_LIMIT = 80
"""A value alone on the line after ``ANSWER:`` is at most this long."""
_BOXED_LIMIT = 500
"""Longer ``\\boxed{…}`` contents are not an answer (and are not read)."""

# Markdown and list decoration models put around the keyword: **ANSWER:**, ### Answer:, > ANSWER:
_DECORATION = r"[ \t*_#>`-]*"
_ANSWER_LINE = re.compile(
    rf"^{_DECORATION}answer{_DECORATION}[:：][ \t*_`]*(?P<value>[^\n]*)",
    re.IGNORECASE | re.MULTILINE,
)
_HASH_LINE = re.compile(r"####[ \t]*(?P<value>[^\n]*)")
_JSON_ANSWER = re.compile(
    r"[\"'](?:final[_ ])?answer[\"'][ \t]*:[ \t]*"
    r"(?:\"(?P<double>[^\"\n]*)\"|'(?P<single>[^'\n]*)'|(?P<bare>[-−]?\d[\d.,eE+ ]*))",
    re.IGNORECASE,
)
_JSON_REASONING_OPEN = re.compile(
    r"[\"'](?:reasoning|thoughts?|thinking|explanation|steps|solution)[\"'][ \t]*:[ \t]*\"",
    re.IGNORECASE,
)
# The rest of a JSON string up to its closing quote, escapes included (one pass, no backtracking
# into the alternation: each character is either plain or the second of an escape).
_JSON_STRING_REST = re.compile(r'(?:[^"\\]|\\.)*"', re.DOTALL)
_ANSWER_TAG = re.compile(r"<answer>[ \t\n]{0,20}(?P<value>[^<\n]*)", re.IGNORECASE)
_A_LINE = re.compile(r"[ \t]*A[ \t]*[:：][ \t]*(?P<value>[^\n]*)")
# Only ever applied to lines of at most _NEXT_LINE_LIMIT characters.
_NUMBER_ONLY = re.compile(r"(?:\\boxed|[*_`$\\()\[\]{}.,%£€\s-])*\d[*_`$\\()\[\]{}.,%£€\s\d-]*")
_NEXT_LINE = re.compile(r"(?:[ \t]*\n)+[ \t]*(?P<line>[^\n]*)")


_EXPLICIT_ANSWER = re.compile(
    rf"^{_DECORATION}answer{_DECORATION}[:：]|####|\\boxed|[\"'](?:final[_ ])?answer[\"'][ \t]*:"
    # An answer phrase counts only with a number close after it: a bare answer word (`উত্তর`,
    # which needs no colon) in the working is not a stated answer.
    rf"|<answer>|(?:{ANSWER_PHRASES})[^\n\d]{{0,20}}\d",
    re.IGNORECASE | re.MULTILINE,
)
_FIRST_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[^\W\d_]")
_LIST_ITEM = re.compile(r"[ \t*_]*\d{1,2}[.)][ \t]+\S")
_FINAL_ANSWER = re.compile(r"final[ \t]+answer", re.IGNORECASE)
_WORKING_LINE = re.compile(r"\n[^\n\d]*\d")  # a later line with a number in it
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")


@dataclass(frozen=True)
class Extraction:
    """What :func:`extract_answer` found.

    Attributes:
        value: The answer as a number, or ``None`` when no answer was found.
        rule: The rule that produced it (``none`` when nothing did).
        format_followed: Whether it came from the requested ``ANSWER:`` line.
        text: The snippet the number was read from, for explanations.
        note: Why there is no answer, or what else a reader should know (empty when nothing).
    """

    value: Decimal | None
    rule: Rule
    format_followed: bool
    text: str
    note: str = ""

    @property
    def answer(self) -> str | None:
        """The answer in canonical form (``"18"``, ``"-3"``, ``"0.5"``), or ``None``."""
        return None if self.value is None else normalize(self.value)


class _NoAnswer(str):
    """A rule found the final answer and it is not a number: the search ends with no answer."""


def extract_answer(completion: str, truncated: bool = False) -> Extraction:
    """Extract the final numeric answer from a completion.

    Args:
        completion: The model's text.
        truncated: Whether generation stopped at the token limit; then the last-number fallback
            is not used, since an unfinished solution has no final number.

    Returns:
        The answer, the rule that found it, and whether the requested format was followed.
    """
    sections = answer_sections(join_split_numbers(completion), truncated)
    if sections.note:
        return Extraction(None, "none", False, "", sections.note)
    visible = sections.text
    text = _cut_continuation(visible)
    if truncated and _inside_json_reasoning(text):
        return Extraction(None, "none", False, "", TRUNCATED_IN_JSON_REASONING)
    reader = Reader(text)
    for rule, finder in _FINDERS:
        if rule == "last_number" and (truncated or stops_mid_sentence(completion, CUT_TEXT_LENGTH)):
            # Cut off, by the stop reason or visibly in a long text: its last number is
            # wherever generation happened to stop.
            note = ENDS_IN_LOOP if sections.loop else TRUNCATED_NO_FALLBACK
            return Extraction(None, "none", False, "", note)
        if rule == "json" and _gave_placeholder(text):
            # `ANSWER: $ANSWER` is an answer slot left empty, not an invitation to guess.
            return Extraction(None, "none", False, "", PLACEHOLDER_ANSWER)
        found = finder(reader)
        if isinstance(found, _NoAnswer):
            return Extraction(None, "none", False, "", str(found))
        if found is not None:
            value, snippet = found
            if (
                not sections.loop
                and stops_mid_sentence(completion)
                and left_as_draft(text, snippet)
            ):
                return Extraction(None, "none", False, "", CUT_AFTER_DRAFT)
            note = undelivered(found, rule, text, sections, truncated)
            if note:
                return Extraction(None, "none", False, "", note)
            return Extraction(value, rule, rule == "answer_line", snippet)
    if sections.loop:
        return Extraction(None, "none", False, "", ENDS_IN_LOOP)
    note = ONLY_REASONING if sections.reasoning and not visible.strip() else ""
    return Extraction(None, "none", False, "", note)


def _cut_continuation(completion: str) -> str:
    """Drop an invented follow-up question that starts after the first explicit answer."""
    if FOLLOW_UP.search(completion) is None:
        return completion  # the common case, found with one cheap scan
    first_answer = _EXPLICIT_ANSWER.search(completion)
    if first_answer is None:
        return completion
    continuation = FOLLOW_UP.search(completion, first_answer.end())
    return completion if continuation is None else completion[: continuation.start()]


def _inside_json_reasoning(text: str) -> bool:
    """Whether the text ends inside the string of a JSON ``"reasoning"`` field (never closed)."""
    last_open = -1
    for opened in _JSON_REASONING_OPEN.finditer(text):
        last_open = opened.end()
    return last_open >= 0 and _JSON_STRING_REST.match(text, last_open) is None


def _gave_placeholder(text: str) -> bool:
    return any(PLACEHOLDER.fullmatch(m.group("value")) for m in _ANSWER_LINE.finditer(text))


def _last_with_value(pattern: re.Pattern[str], reader: Reader) -> Found | None:
    for match in reversed(list(pattern.finditer(reader.text))):
        found = _answer_line_value(match, reader)
        if found is not None:
            return found
    return None


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


def _find_answer_line(reader: Reader) -> Found | None:
    text = reader.text
    lines = list(_ANSWER_LINE.finditer(text))
    if not lines:
        return None
    later = _LaterMarks(text)
    for match in reversed(lines):
        if _opens_explanation(match.group("value")) and later.heads_working(match):
            return None  # the final value comes later: the boxed or fallback rules read it
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


def _find_json(reader: Reader) -> Found | None:
    text = reader.text
    for match in reversed(list(_JSON_ANSWER.finditer(text))):
        snippet = match.group("double") or match.group("single") or match.group("bare") or ""
        value = reader.value_of(snippet.strip())
        if value is not None:
            return value, match.group(0).strip()
    return None


def _find_answer_tag(reader: Reader) -> Found | None:
    return _last_with_value(_ANSWER_TAG, reader)


def _find_hash_line(reader: Reader) -> Found | None:
    return _last_with_value(_HASH_LINE, reader)


def _find_boxed(reader: Reader) -> Found | _NoAnswer | None:
    spans = _boxed_spans(reader.text)
    if not spans:
        return None
    start, end = spans[-1]
    content = reader.text[start:end]
    value = reader.value_of(content)
    if value is None:
        # `\\boxed{vingt pour cent}`, `\\boxed{?}`: the final boxed answer is not a number, and
        # a number from the working before it is not what the model delivered.
        return _NoAnswer(NOT_A_NUMBER_BOXED)
    return value, f"\\boxed{{{content}}}"


def _find_a_line(reader: Reader) -> Found | None:
    text = reader.text.rstrip()
    last_line_start = text.rfind("\n") + 1
    match = _A_LINE.fullmatch(text, last_line_start)
    if match is None:
        return None
    value = reader.value_of(match.group("value"))
    return None if value is None else (value, match.group(0).strip())


def _boxed_spans(text: str) -> list[tuple[int, int]]:
    """Content spans of every closed ``\\boxed{...}``, nested braces (``1{,}234``) kept intact.

    One pass with a stack, so ``\\boxed{`` repeated thousands of times without closing costs
    linear time; contents longer than :data:`_BOXED_LIMIT` are not answers and are skipped.
    """
    spans: list[tuple[int, int]] = []
    stack: list[tuple[bool, int]] = []
    for brace in re.finditer(r"\\boxed[ \t]*\{|[{}]", text):
        if brace.group(0) != "}":
            stack.append((brace.group(0) != "{", brace.end()))
        elif stack:
            boxed, start = stack.pop()
            if boxed and brace.start() - start <= _BOXED_LIMIT:
                spans.append((start, brace.start()))
    spans.sort()
    return spans


_FINDERS: tuple[tuple[Rule, Callable[[Reader], Found | _NoAnswer | None]], ...] = (
    ("answer_line", _find_answer_line),
    ("json", _find_json),
    ("answer_tag", _find_answer_tag),
    ("hash_line", _find_hash_line),
    ("boxed", _find_boxed),
    ("answer_is", find_answer_is),
    ("a_line", _find_a_line),
    ("last_number", find_last_number),
)
