"""The last-number rule's answer, when no answer mark states one: the closing sentence's number,
or none when the closing sentence says there is no answer (`The answer cannot be determined.`,
`I don't know the answer.`): an answer slot that holds no number delivers nothing, never the
working's last number (docs/grading.md, "The delivered answer")."""

from __future__ import annotations

import re

from gsm8k.grading.fallback import find_last_number
from gsm8k.grading.reader import SENTENCE_END, Found, Reader
from gsm8k.grading.rules import EMPTY_SLOT, NoAnswer

# A sentence that says the answer is not there, with the answer (or the asker's question) as
# what is missing: `the answer is unknown`, `the answer cannot be determined`, `I don't know
# the answer`, `I'm unable to answer`, `(no answer)`, `there is not enough information to
# determine the answer`. It opens the sentence, so that an aside about something else (`Any
# other answer is impossible.`, `No answer key is available.`, `not enough information to
# answer how much she makes per week`) is not read as one.
_NO_ANSWER = re.compile(
    r"[\s*_(>\[-]*(?:(?:so|therefore|thus|hence|unfortunately|sorry|final[ \t]+answer)[ \t,:]+)?"
    r"(?:(?:the[ \t]+)?(?:final[ \t]+)?answer[ \t]+(?:is|would[ \t]+be|remains)[ \t]+(?:(?:still"
    r"|therefore|thus|simply|definitely)[ \t]+)?(?:unknown|undetermined|indeterminate|undefined"
    r"|impossible[ \t]+to[ \t]+(?:determine|find)|not[ \t]+(?:determinable|known)\b)"
    r"|(?:the[ \t]+)?(?:final[ \t]+)?answer[ \t]+(?:cannot|can['’]?t|can[ \t]+not|could[ \t]+not)"
    r"[ \t]+be[ \t]+(?:determined|found|known|computed|calculated|given)"
    r"|(?:I|we)[ \t]+(?:cannot|can['’]?t|can[ \t]+not|could[ \t]+not|am[ \t]+unable[ \t]+to"
    r"|['’]m[ \t]+unable[ \t]+to|(?:do|did)[ \t]+not|don['’]?t)[ \t]+(?:determine|find|compute"
    r"|calculate|give|know|answer)(?:[ \t]+(?:the|an|a)[ \t]+(?:final[ \t]+)?answer)?"
    r"[ \t]*[.!]?[\s*_)\]]*\Z"
    r"|I['’]m[ \t]+unable[ \t]+to[ \t]+answer"
    r"|(?:the[ \t]+)?(?:final[ \t]+)?answer[ \t]*(?:is|:)[ \t:*_]*(?:not[ \t]+enough[ \t]+"
    r"information|insufficient[ \t]+information|(?:cannot|can['’]?t)[ \t]+be[ \t]+determined"
    r"|unknown|undetermined|indeterminate|not[ \t]+determinable|none|n/a|[?？…_.-]+)[ \t*_]*[.!]?"
    r"[\s*_)\]]*\Z"
    r"|no[ \t]+answer[\s*_.!)\]]*\Z"
    r"|there[ \t]+is[ \t]+(?:not[ \t]+enough|insufficient)[ \t]+information[ \t]+to[ \t]+"
    r"(?:determine|find|give|compute|calculate)[ \t]+(?:the|an)[ \t]+(?:final[ \t]+)?answer"
    r"[ \t]*[.!]?[\s*_)\]]*\Z)",
    re.IGNORECASE,
)
_LOOK = 300
"""Characters at the end of a text in which its closing sentences are read."""


def find_closing_number(reader: Reader) -> Found | NoAnswer | None:
    """The last number, unless a closing sentence says there is no answer."""
    return NoAnswer(EMPTY_SLOT) if closing_says_none(reader.text) else find_last_number(reader)


def closing_says_none(text: str) -> bool:
    """Whether a sentence after the text's last number says there is no answer (a number after
    it would be an answer)."""
    tail = text[max(0, len(text) - _LOOK) :]
    digit = max((tail.rfind(d) for d in "0123456789"), default=-1)
    rest = tail[digit + 1 :]
    if not any(char.isalpha() for char in rest):
        return False
    starts = [0] + [end.end() for end in SENTENCE_END.finditer(rest)]
    return any(_NO_ANSWER.match(rest, start) for start in starts)
