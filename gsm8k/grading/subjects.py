"""Whom a closing sentence is about: the person the question asks about, or another of its people.

A question asks about one person's quantity (`… how many copies did Harald sell?`). After the
sentence that states it, a sentence about another person of the question states that person's
quantity (`Marilyn, with ten times as many, sold 80,000.`): a remark, whatever its value, not a
new answer. Names are the capitalised words a question uses mid-sentence (a sentence's first word
may be any word); the asked ones are those of its asking sentences.
"""

from __future__ import annotations

import re
from functools import lru_cache

from gsm8k.grading.units import asking_text

_QUESTION_LOOK = 20_000
_NAME = re.compile(r"\b([A-Z][a-z]{1,20})\b")
_MID_SENTENCE = re.compile(r"[a-z0-9,;:%)][ \t]+$")
# Capitalised words that name no person even mid-sentence.
_NOT_NAMES = frozenset(
    re.findall(
        r"\w+",
        "I Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April "
        "May June July August September October November December Christmas Halloween Easter "
        "Thanksgiving Mr Mrs Ms Dr",
    )
)
_OPENERS = frozenset(
    re.findall(
        r"\w+",
        "if how what when where which who whom whose why the a an in on at for each every there "
        "this that these those she he they it we you her his their its after before during "
        "while since as of to from by with without one two three four five six seven eight nine "
        "ten some all most many any both half then now today yesterday tomorrow last next",
    )
)
# How a sentence about someone opens: `Marilyn, …`, `And Marilyn's record …`, `Meanwhile, Bob …`.
_OPENING = re.compile(
    r"[\s*_>-]*(?:(?i:and|meanwhile|also|while|as[ \t]+for|for[ \t]+comparison)[,]?[ \t]+)?"
    r"(?P<name>[A-Z][a-z]{1,20})\b"
)


@lru_cache(maxsize=64)  # a sample's sentences all ask about its one question
def _people(question: str | None) -> tuple[frozenset[str], frozenset[str]]:
    """The question's names, and those its asking sentences name."""
    if not question:
        return frozenset(), frozenset()
    text = question[:_QUESTION_LOOK]
    lowered = set(re.findall(r"\b[a-z]+\b", text))
    names = (
        frozenset(
            found.group(1)
            for found in _NAME.finditer(text)
            # A sentence's first word is a name when the question never writes it in lower case
            # and it is no function word (`If`, `How`, `Each`, `She`).
            if _MID_SENTENCE.search(text, 0, found.start())
            or (found.group(1).lower() not in lowered and found.group(1).lower() not in _OPENERS)
        )
        - _NOT_NAMES
    )
    asking = asking_text(question)
    asked = frozenset(name for name in names if re.search(rf"\b{name.lower()}\b", asking))
    return names, asked


def about_another(question: str | None, text: str, start: int, end: int) -> bool:
    """Whether the sentence of ``text`` from ``start`` to ``end`` opens on a person of the
    question other than the one it asks about, when the text before it names the asked one (a
    question that asks about James where the working says Jacques is no such case)."""
    names, asked = _people(question)
    if not asked:
        return False
    opening = _OPENING.match(text, start, end)
    if opening is None or opening.group("name") not in names - asked:
        return False
    return any(re.search(rf"\b{name}\b", text[:start]) for name in asked)
