"""The quantities a sample's question states, so that a completion restating one is not read as
its answer.

Chat models close with a sentence that names the answer and restates the question's quantities
around it: "Therefore, Maya spends $45 on the 9 notebooks." Its last number, 9, is copied from
the question; the computed value, 45, is the answer. These helpers say which numbers the question
holds (digits of any script, and the English number words a question spells out) and whether a
number in a completion stands where a restated quantity stands: after a determiner or preposition
(`on the 9 notebooks`, `for 9 notebooks`, `in 3 days`), or with the very word that follows it in
the question (`3 times a week` when the question says `3 times a week`). An answer may equal a
number of the question: a number is only passed over when the same sentence states another number
that is not the question's.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from gsm8k.grading.numbers import NUMBER_PATTERN, number_from_match
from gsm8k.grading.words import SMALL_NUMBER_WORDS

_QUESTION_LIMIT = 20_000
"""Characters of a question read for its numbers (GSM8K questions are under 1,000)."""
_WORD = re.compile(r"[A-Za-z]+")
# Words after which a number names a quantity of the question being restated: `on the 9
# notebooks`, `for her 3 friends`, `in 4 days`, `of all 12 cupcakes`.
_RESTATING_BEFORE = re.compile(
    r"(?:\b(?:the|on|for|of|in|from|with|per|to|over|after|by|into|among|between|across|all|these"
    r"|those|her|his|their|its|our|each)[ \t]+\$?)$",
    re.IGNORECASE,
)
_NOUN_AFTER = re.compile(r"[ \t]*[A-Za-z]")
_LIST_BEFORE = re.compile(r",[ \t]+\$?$")
_VERB_BEFORE = re.compile(r"\b([A-Za-z]+)[ \t]+\$?$")
_RESULT_VERBS = frozenset(
    re.findall(
        r"\w+",
        "has have had is are was were be been gets get got left remain remains makes make made "
        "earns earned needs need needed owns keeps kept totals total equals takes took costs cost "
        "pays paid spends spent buys bought sells sold saves saved",
    )
)
"""Verbs whose object is the answer itself (`she has 9 notebooks`), not a restated quantity."""
_WORD_AFTER = re.compile(r"[ \t]?-?[ \t]?(?P<word>[A-Za-z]{2,20})")
_RESTATING_LOOK = 16
"""Characters before a number in which its restating word is looked for (a bounded look)."""


_CACHED_QUESTIONS = 4096
"""Questions whose numbers are kept (a run grades each question's completions in turn)."""


@lru_cache(maxsize=_CACHED_QUESTIONS)
def question_numbers(question: str | None) -> frozenset[Decimal]:
    """Every number the question states, in digits or as an English number word up to twenty
    and the tens (``nine notebooks`` is 9)."""
    if not question:
        return frozenset()
    text = question[:_QUESTION_LIMIT]
    values: set[Decimal] = set()
    for match in NUMBER_PATTERN.finditer(text):
        value = number_from_match(match)
        if value is not None:
            values.add(abs(value))
    for word in _WORD.finditer(text):
        spelled = SMALL_NUMBER_WORDS.get(word.group(0).lower())
        if spelled is not None:
            values.add(Decimal(spelled))
    return frozenset(values)


@lru_cache(maxsize=_CACHED_QUESTIONS)
def question_quantities(question: str | None) -> frozenset[tuple[Decimal, str]]:
    """Each number of the question with the word after it (`9 notebooks` is (9, "notebook"))."""
    if not question:
        return frozenset()
    text = question[:_QUESTION_LIMIT]
    pairs: set[tuple[Decimal, str]] = set()
    for match in NUMBER_PATTERN.finditer(text):
        value = number_from_match(match)
        word = _WORD_AFTER.match(text, match.end())
        if value is not None and word is not None:
            pairs.add((abs(value), _stem(word.group("word"))))
    for found in _WORD.finditer(text):
        spelled = SMALL_NUMBER_WORDS.get(found.group(0).lower())
        after = _WORD_AFTER.match(text, found.end()) if spelled is not None else None
        if spelled is not None and after is not None:
            pairs.add((Decimal(spelled), _stem(after.group("word"))))
    return frozenset(pairs)


def restates_question(
    text: str,
    start: int,
    end: int,
    value: Decimal,
    quantities: frozenset[tuple[Decimal, str]] = frozenset(),
) -> bool:
    """Whether the number at ``text[start:end]`` stands as a restated quantity of the question:
    after a determiner or preposition and before the noun it counts (`on the 9 notebooks`), or
    followed by the word that follows it in the question (`3 times a week`)."""
    before = text[max(0, start - _RESTATING_LOOK) : start]
    if _RESTATING_BEFORE.search(before) is not None and _NOUN_AFTER.match(text, end) is not None:
        return True
    if _LIST_BEFORE.search(before) is not None:
        return True  # `…540 meters a week, 3 times a week`
    word = _WORD_AFTER.match(text, end)
    if word is None or (abs(value), _stem(word.group("word"))) not in quantities:
        return False
    # `… spends $45 buying 9 notebooks` restates; `… she has 9 notebooks` states a result.
    verb = _VERB_BEFORE.search(before)
    return verb is None or verb.group(1).lower() not in _RESULT_VERBS


def _stem(word: str) -> str:
    """A word without case or plural ending, so that `notebook` and `Notebooks` compare equal."""
    lowered = word.lower()
    return lowered[:-1] if lowered.endswith("s") and len(lowered) > 3 else lowered
