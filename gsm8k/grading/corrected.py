"""The value a retraction's own sentence states after it (docs/grading.md, "The delivered
answer"): `— sorry, I misspoke, it's 540 meters`, `— oops, typo, I meant 520`, `Erratum: the final
answer should read 16.`, `On second thought, …, so the distance between stops is 25 miles.` The
value follows a frame that states it and closes the sentence; a hedged one states nothing."""

from __future__ import annotations

import re

from gsm8k.grading.doubt import sentence_hedged
from gsm8k.grading.reader import Found, Reader

# What states the corrected value after a retraction in its own sentence.
CORRECTED_FRAME = re.compile(
    r"\b(?:it['’]s|it[ \t]+is|I[ \t]+meant|I[ \t]+mean|should[ \t]+(?:be|read|have[ \t]+been)"
    r"|mak(?:e|es|ing)[ \t]+(?:it|that)|(?:so|is|are|was|comes[ \t]+to)\b"
    # `richtig ist 990 $`, `lo correcto es 990`, `c'est 990`
    r"|(?:richtig|korrekt)[ \t]+(?:ist|wäre)|correct[oa]?[ \t]+(?:es|est|é|è)\b|c['’]est\b"
    r")[ \t:]*+(?:(?:only"
    r"|just|actually|really|indeed|in[ \t]+fact)[ \t,]+)?"
    r"(?=[-−]?\\?[$£€¥₹]?[ \t]?\d)",
    re.IGNORECASE,
)
_CLOSES_SENTENCE = re.compile(
    r"[ \t]*+(?:[$€£¥₹][ \t]*+)?(?:[A-Za-z]{2,12}(?:[ \t]+(?:a|per|each)[ \t]+[A-Za-z]{2,12})?"
    r"(?:[ \t]+(?:for|in|of)[ \t]+(?:the|a|each)?[ \t]*[A-Za-z]{2,12})?)?[ \t]*[.!]?[ \t*_]*\Z"
)


def corrected_in_sentence(reader: Reader, start: int, end: int) -> Found | None:
    """The value the rest of a retraction's sentence states, after a frame that states it (`it's
    18`, `I meant 520`, `should read 16`, `so … is 25 miles`) and closing the sentence."""
    text = reader.text
    frames = list(CORRECTED_FRAME.finditer(text, start, end))
    if not frames or sentence_hedged(text, frames[-1].end(), end):
        return None
    value = reader.numbers.match(text, frames[-1].end(), end)
    if value is None or _CLOSES_SENTENCE.match(text[value.end() : end]) is None:
        return None
    read = reader.value_of(value.group(0))
    return None if read is None else (read, value.group(0))
