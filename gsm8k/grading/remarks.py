"""Remarks after a closing statement: sentences that, by their own frame, say something other
than the answer (docs/grading.md, "The delivered answer").

With no answer mark, the answer statement is a closing sentence. What may follow it and is no
statement of an answer, whatever numbers it holds, is recognised by how it opens or what it says
of its value, never by the value itself:

- a check, a verification, a comparison, a fun fact, a side note, a reference figure (`Check:
  Toulouse's 160 is twice Charleston's 80.`, `By comparison, Aaron has 25 and Raymond has 40.`);
- a value called someone else's, tempting or a trap (`A common mistake is to answer 4 …`, `The
  trap here is answering 100 minutes …`, `Don't answer 60, …`, `One might argue it's 140 …`);
- a value ruled out (`It is not $80 (16 × $5) because …`);
- a sentence about another person of the question than the one it asks about (`Marilyn, with
  ten times as many, sold 80,000.` when Harald's sales are asked);
- words to the reader (`Good luck with the download — … about 1 in 3 people!`, `Anything else
  you'd like help with, like problem 2 or 3?`).

Such sentences are set aside before the closing sentences are read, when a sentence with a number
comes before them. A summary or a recap is not among them: it may restate the answer itself.
"""

from __future__ import annotations

import re

from gsm8k.grading.asides import NOT_OURS
from gsm8k.grading.doubt import RETRACTION
from gsm8k.grading.reader import SENTENCE_END
from gsm8k.grading.subjects import about_another

_LOOK = 800
"""Characters at the end of a text in which remarks are looked for."""
_MOST_REMARKS = 4
"""Most closing sentences set aside as remarks (the rest is the solution)."""
# How a remark opens: the frame says the sentence is about something other than the answer.
_FRAME = re.compile(
    r"[\s*_#>(-]*(?:(?:a[ \t]+)?(?:quick[ \t]+)?(?:check|verification|verify(?:ing)?|sanity"
    r"[ \t]+check|double[- ]check(?:ing)?|proof)\b|fun[ \t]+fact|by[ \t]+comparison|for[ \t]+"
    r"(?:comparison|reference|context)|in[ \t]+comparison|compared[ \t]+(?:to|with)|side[ \t]+note"
    r"|by[ \t]+the[ \t]+way|p\.?s\.?\b|bonus\b|in[ \t]+general\b|generally\b|as[ \t]+a[ \t]+rule\b"
    r"|for[ \t]+(?:example|instance)\b|good[ \t]+luck|anything[ \t]+else|hope[ \t]+"
    r"(?:this|that|it)[ \t]+helps|(?:it|that|this)(?:['’]s|[ \t]+is|[ \t]+was)[ \t]+not[ \t]+"
    r"\\?[$£€¥₹]?\d|not[ \t]+\\?[$£€¥₹]?\d|notice\b|note[ \t]+that\b|note[ \t]*:|tip[ \t]*:)",
    re.IGNORECASE,
)
_DIGIT = re.compile(r"\d")


def without_remarks(text: str, question: str | None = None) -> str:
    """The text up to the closing statement, without the remarks that follow it; the text itself
    when it ends on no remark, or when no sentence with a number comes before its remarks."""
    tail_start = max(0, len(text) - _LOOK)
    starts = [tail_start] + [end.end() for end in SENTENCE_END.finditer(text, tail_start)]
    ends = [*starts[1:], len(text)]
    spans = [(start, end) for start, end in zip(starts, ends, strict=True) if start < end]
    cut = len(text)
    remarks = 0
    for start, end in reversed(spans):
        sentence = text[start:end]
        if not _DIGIT.search(sentence):
            if RETRACTION.search(sentence) is not None:
                break  # `Check: … Wait, I made a mistake.`: the model takes something back
            continue  # a sentence with no number is read past (`Hope this helps!`)
        if remarks == _MOST_REMARKS or not is_remark(text, start, end, question):
            break
        cut, remarks = start, remarks + 1
    if not remarks or _DIGIT.search(text, tail_start, cut) is None:
        return text
    return text[:cut].rstrip()


def without_cut_remark(text: str) -> str | None:
    """The text before its last sentence, when that sentence is a remark cut off mid-way after a
    finished statement (`So Weng earned $10.` then `Side note: … , which`); else ``None``."""
    tail_start = max(0, len(text) - _LOOK)
    start = max((end.end() for end in SENTENCE_END.finditer(text, tail_start)), default=-1)
    if start <= 0 or not (is_remark(text, start, len(text)) or _CHECK_OPENING.match(text, start)):
        return None  # a remark, or a check of the answer (`To double check: 25 + 12 + 8 =`)
    kept = text[:start].rstrip()
    return kept if kept.endswith((".", "!", "**")) and _DIGIT.search(kept) else None


_CHECK_OPENING = re.compile(
    r"\s*+[*_#>-]*(?:to[ \t]+|let['’]s[ \t]+|let[ \t]+me[ \t]+)?(?:double[- ]?check|check(?:ing)?"
    r"|verify|verification|confirm)\b",
    re.IGNORECASE,
)


def is_remark(text: str, start: int, end: int, question: str | None = None) -> bool:
    """Whether a sentence is a remark by its frame (opening, or someone else's value, when it
    states no value of its own and is not the model's own: `My first answer of 16 was wrong;
    the correct one is 18.` is a correction, `If you were expecting 20, you're mistaken; it's
    25.` states 25)."""
    sentence = text[start:end]
    if about_another(question, text, start, end) and _STATES_OWN.search(sentence) is None:
        return True  # `Marilyn, with ten times as many, sold 80,000.` when Harald's are asked
    frame = _FRAME.match(sentence)
    if frame is not None and not frame.group(0).lower().lstrip(" \t\n*_#>(-").startswith("not"):
        return True
    if frame is not None:
        return _STATES_OWN.search(sentence) is None  # `Note: the answer is 18.` states it
    return (
        NOT_OURS.search(sentence) is not None
        and _STATES_OWN.search(sentence) is None
        # `I initially got 18, but that was wrong.`; not `One could argue for $75, I suppose.`
        and _FIRST_PERSON.search(sentence, 0, _first_digit(sentence)) is None
    )


def states_own(sentence: str) -> bool:
    """Whether a sentence states a value as the model's own (`the total is really 18`)."""
    return _STATES_OWN.search(sentence) is not None


def _first_digit(sentence: str) -> int:
    found = _DIGIT.search(sentence)
    return len(sentence) if found is None else found.start()


# Words with which a sentence states a value as the model's own.
_STATES_OWN = re.compile(
    r"\b(?:correct|right|real|really|actual|true|actually|therefore|thus|hence|so|should[ \t]+be"
    r"|answer[ \t]+is|the[ \t]+answer)\b|\bit(?:['’]s|[ \t]+is)[ \t]+\\?[$£€¥₹]?\d"
    # A value ruled out, then the one that replaces it: `Not 20 — 18.`, `not 165  150`.
    r"|\bnot[ \t]+\\?[$£€¥₹]?[ \t]?\d[\d,.]*+[ \t]*+[,;:—–-]?[ \t]*+\\?[$£€¥₹]?[ \t]?\d",
    re.IGNORECASE,
)
# The model speaking of its own value: a remark is about someone else's.
_FIRST_PERSON = re.compile(r"\b(?:I|my|me|mine|we|our)\b", re.IGNORECASE)
