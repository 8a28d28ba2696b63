"""The last-number rule's answer, when no answer mark states one: the closing sentence's number,
or none when the closing sentence says there is no answer (`The answer cannot be determined.`,
`I don't know the answer.`): an answer slot that holds no number delivers nothing, never the
working's last number (docs/grading.md, "The delivered answer")."""

from __future__ import annotations

import re

from gsm8k.grading.fallback import find_last_number
from gsm8k.grading.reader import SENTENCE_END, Found, Reader
from gsm8k.grading.rules import EMPTY_SLOT, NoAnswer

# A sentence that says the answer is not there: `the answer is unknown`, `the answer cannot be
# determined`, `I don't know the answer`, `I'm unable to answer`, `(no answer)`. The answer is
# its subject or object: `I could be wrong about the answer` says nothing of the kind.
_NO_ANSWER = re.compile(
    r"\banswer[ \t]+(?:is|would[ \t]+be|remains)[ \t]+(?:(?:still|therefore|thus|simply"
    r"|definitely)[ \t]+)?(?:unknown|undetermined|indeterminate|undefined|impossible|none"
    r"|not[ \t]+(?:determinable|known|possible)\b)"
    r"|\banswer[ \t]+(?:cannot|can['’]?t|could[ \t]+not)[ \t]+be[ \t]+(?:determined|found|known"
    r"|computed|calculated|given)"
    r"|\b(?:cannot|can['’]?t|could[ \t]+not|unable[ \t]+to)[ \t]+(?:determine|find|compute"
    r"|calculate|give)[ \t]+(?:the|an|a)[ \t]+(?:final[ \t]+)?answer"
    r"|\b(?:don['’]?t|do[ \t]+not)[ \t]+know[ \t]+the[ \t]+answer|\bunable[ \t]+to[ \t]+answer"
    r"|\bno[ \t]+answer\b|\b(?:not[ \t]+enough|insufficient)[ \t]+information\b",
    re.IGNORECASE,
)
_ANSWER = re.compile(
    r"\b(?:not[ \t]+enough|cannot|can['’]?t|insufficient|unknown|undetermined|indeterminate"
    r"|not[ \t]+(?:possible|determinable)|impossible|no[ \t]+answer|don['’]?t[ \t]+know|unable)\b",
    re.IGNORECASE,
)
_ANSWER = re.compile(r"\banswer", re.IGNORECASE)
_LOOK = 300
"""Characters at the end of a text in which its closing sentence is read."""


def find_closing_number(reader: Reader) -> Found | NoAnswer | None:
    """The last number, unless the closing sentence says there is no answer."""
    return NoAnswer(EMPTY_SLOT) if closing_says_none(reader.text) else find_last_number(reader)


def closing_says_none(text: str) -> bool:
    """Whether the text's last sentence speaks of the answer, says there is none, and holds no
    digit (a number after it would be an answer)."""
    tail = text[max(0, len(text) - _LOOK) :].rstrip()
    ends = [end.end() for end in SENTENCE_END.finditer(tail) if end.end() < len(tail)]
    last = tail[ends[-1] :] if ends else tail
    if any(char.isdigit() for char in last):
        return False
    return _ANSWER.search(last) is not None and _NO_ANSWER.search(last) is not None
