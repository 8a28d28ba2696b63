"""Final statements whose answer is in English number words: an answer phrase (`The answer is
eighty.`) or a closing sentence with no answer mark (`She can travel eighteen miles in total.`).

Principle: a number written in words is a number. Where the final statement states its answer in
number words and no digit follows it, the words' value is the answer, and the working's last
number is not. The statement's quantities in words are written as digits and the statement is
read by the rules that read digits (`nine or ten` offers two values, as `9 or 10` does; `seven
dozen eggs` is 7 when dozens are asked); its snippet is the statement as written. Words that are
no quantity are never read (`one of them`, `each one`, `two decimal places`), and words are never
read inside working: only the final statement is.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gsm8k.grading.hedges import closing_guesses
from gsm8k.grading.marks import COLON_STATEMENT, final_line_words
from gsm8k.grading.phrases import ANSWER_PHRASES, find_answer_is
from gsm8k.grading.reader import SENTENCE_END, Found, Reader
from gsm8k.grading.rules import NoAnswer
from gsm8k.grading.units import asked_unit
from gsm8k.grading.words import word_runs
from gsm8k.grading.words_other import foreign_runs

_LOOK = 400
"""Characters at the text's end in which the final statement is looked for (keeps reading linear
on a long text)."""
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"[A-Za-z]+(?:['’][a-z]+)?")
_NEXT_WORD = re.compile(r"[ \t]*([A-Za-z]+)")
_PHRASE = re.compile(ANSWER_PHRASES, re.IGNORECASE)
# Words before a number word that make it a reference or a label, not a stated quantity:
# `each one`, `no one`, `the two of them`, `her two sons`, `Step two`, `the first three`.
_REFERENCE_BEFORE_WORDS = (
    "each every no any some which this that these those the another other both all her his "
    "their its my our your first last next same only step part chapter day week option case "
    "method approach round page grade level question problem number nearest"
)
_REFERENCE_BEFORE = frozenset(_REFERENCE_BEFORE_WORDS.split())
# Words after a number word that make it no quantity of the answer: `one of them`, `one by
# one`, `one at a time`, `three times as many`, `two decimal places`, `one way`, `one another`.
_NOT_QUANTITY_AFTER_WORDS = (
    "of by at another other times way ways thing things decimal decimals significant digit "
    "digits place places step steps must can could should would might may will"
)
_NOT_QUANTITY_AFTER = frozenset(_NOT_QUANTITY_AFTER_WORDS.split())
# Words after a lone `one` that make it a pronoun (`one to each`, `one in the box`).
_ONE_PRONOUN_AFTER_WORDS = (
    "to for with in on from into and but is was has had each more than that who which"
)
_ONE_PRONOUN_AFTER = frozenset(_ONE_PRONOUN_AFTER_WORDS.split())
_SURE_AFTER = re.compile(r"[ \t]*(?:percent|%)[ \t]+(?:sure|certain|confident)", re.IGNORECASE)
# A closing sentence that is an aside, a note or a question to the reader: no statement.
_ASIDE = re.compile(r"[\s*_>]*(?:\(|\[|note\b|remember\b|hint\b|tip\b|p\.?s\.?\b)", re.IGNORECASE)
_PHRASE_HINT: tuple[str, ...] = ("answer", "antwort", "respuesta", "réponse", "ответ", "jibu")
_PHRASE_HINT += ("resposta", "risposta", "答", "답")


def phrase_in_words(reader: Reader) -> tuple[int, Found | str] | None:
    """The last answer phrase when its value is in number words and no digit follows it: where
    it starts, and its value (the statement as written) or why it states none (`The answer is
    nine or ten.`)."""
    text = reader.text
    tail_start = max(0, len(text) - _LOOK)
    # A phrase with no digit after it opens after the text's last digit (found from the end).
    after_digits = max(tail_start, *(text.rfind(digit) + 1 for digit in "0123456789"))
    tail = text[after_digits:].lower()
    if not any(hint in tail for hint in _PHRASE_HINT):
        return None  # no phrase after the last digit (the common case, found cheaply)
    last = None
    for phrase in _PHRASE.finditer(text, tail_start):
        last = phrase
    if last is None or _DIGIT.search(text, last.end()):
        return None
    end = _sentence_end(text, last.end())
    # An English phrase's value is in English words (`The answer is due.` states no 2).
    english = "answer" in last.group(0).lower()
    digitized = _digitized(reader, last.end(), end, closing=False, other_languages=not english)
    if digitized is None:
        return None
    found = find_answer_is(reader.with_text(digitized))
    if isinstance(found, NoAnswer):
        return last.start(), str(found)
    if found is None or digitized.rfind(found[1]) < last.start():
        return None  # the phrase's value is prose (`the answer is one of …`)
    return last.start(), (found[0], text[last.start() : end].strip())


def closing_in_words(
    reader: Reader, finder: Callable[[Reader], Found | NoAnswer | None]
) -> Found | NoAnswer | None:
    """The closing sentence's answer when its number is in words and it holds no digit (`Terry
    spends seventy-five dollars.`): ``finder`` (the last-number rule) reads it with its words as
    digits; ``None`` when the sentence states no quantity in words, so the rule reads the text
    as written."""
    text = reader.text.rstrip()
    tail_start = max(0, len(text) - _LOOK)
    if _DIGIT.search(text, tail_start) is None and len(text) > _LOOK:
        return None  # the closing sentence is too far from any number to be read in a window
    start = tail_start
    for sentence_end in SENTENCE_END.finditer(text, tail_start, max(tail_start, len(text) - 1)):
        start = sentence_end.end()
    if start == tail_start and tail_start > 0:
        return None  # no sentence starts in the window: not a closing sentence
    if _DIGIT.search(text, start) or _ASIDE.match(text, start) or text.endswith(("?", "？")):
        return None
    digitized = _digitized(reader.with_text(text), start, len(text), closing=True)
    if digitized is None:
        return None
    as_digits = reader.with_text(digitized)
    found = finder(as_digits)
    if found is None or isinstance(found, NoAnswer):
        return found
    # What the closing sentences deliver is judged as for digits (`He has ten cookies left,
    # maybe eleven.` offers two guesses), here where the words are digits.
    guessed = closing_guesses(as_digits)
    if isinstance(guessed, NoAnswer):
        return guessed
    value, snippet = found if guessed is None else guessed[1]
    at = digitized.rfind(snippet)
    if at < start:
        return value, snippet  # a statement of the working, before the sentence in words
    written = as_digits.in_asked_unit_at(value, snippet)
    return written, text[start:].strip()


def _sentence_end(text: str, start: int) -> int:
    found = SENTENCE_END.search(text, start, start + _LOOK)
    return found.start() if found else min(len(text), start + _LOOK)


def _digitized(
    reader: Reader, start: int, end: int, closing: bool, other_languages: bool = False
) -> str | None:
    """The text with the quantities in words of ``text[start:end]`` written as digits, or
    ``None`` when it holds none. In a closing sentence, a number word ending it must follow a
    word (`Terry spends seventy-five.`), never open it alone."""
    text = reader.text
    dozens = asked_unit(reader.question_text) == "dozen"
    pieces, position = [], start
    runs = word_runs(text[start:end], dozens)
    if not runs and other_languages:
        # No English number words in an answer phrase's sentence: those of the other languages
        # read (`La respuesta es dieciocho dólares.`, `Die Antwort ist sieben.`).
        runs = [
            (begin, finish, str(value)) for begin, finish, value in foreign_runs(text[start:end])
        ]
    for begin, finish, digits in runs:
        begin, finish = begin + start, finish + start
        if not _quantity(text, start, begin, finish, end, closing):
            continue
        pieces += [text[position:begin], digits]
        position = finish
    if not pieces:
        return None
    return text[:start] + "".join(pieces) + text[position:]


def _quantity(text: str, start: int, begin: int, finish: int, end: int, closing: bool) -> bool:
    """Whether the number words at ``text[begin:finish]`` state a quantity: not a reference
    (`each one`, `the two of them`), a label (`Step two`), a count of places (`two decimal
    places`) or a manner (`one by one`, `one at a time`)."""
    if text[finish : finish + 1] == "-" and text[finish + 1 : finish + 2].isalpha():
        return False  # `five-dollar bills`, `two-hour trip`: a compound word, no quantity
    before = [word.group(0).lower() for word in _WORD.finditer(text, max(start, begin - 30), begin)]
    if before and before[-1] in _REFERENCE_BEFORE:
        return False
    after = _NEXT_WORD.match(text, finish, end)
    following = after.group(1).lower() if after is not None else ""
    if following in _NOT_QUANTITY_AFTER or _SURE_AFTER.match(text, finish):
        return False
    if text[begin:finish].lower() == "one" and (
        following in _ONE_PRONOUN_AFTER or before[-1:] == ["by"]
    ):
        return False  # `He gives one to each friend.`, `one by one`: a pronoun, not a count
    return not (closing and not following and not before)


def final_words(reader: Reader) -> Found | str | None:
    """The final answer stated in words on a closing answer line or heading, or by a closing
    answer phrase (`The answer is eighty.`), with no digit in or after it: its number words'
    value, or why there is none. Of a line and a phrase, the later statement is the final one."""
    on_line = final_line_words(reader)
    phrase = phrase_in_words(reader)
    if phrase is None or on_line is None:
        return on_line if phrase is None else phrase[1]
    last_line = None
    for statement in COLON_STATEMENT.finditer(reader.text):
        last_line = statement
    return phrase[1] if last_line is not None and phrase[0] > last_line.end() else on_line
