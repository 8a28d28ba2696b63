"""Correction markers that open a sentence stating a new value, without an answer mark.

The delivered answer (docs/grading.md) reads an **unhedged correction** to another value as the
new answer. Besides answer marks (`The correct answer is 20.`), a correction marker that opens a
sentence whose value closes it states one: `No wait, it's 20.`, `Edit: 20.`, `Actually it's 20.`,
`Erratum: $20.`, `In fact, it's 20.`. The value must end the sentence (a short unit word may
follow): `Actually, 9 eggs are left over` goes on to reason and states no answer.
"""

from __future__ import annotations

# A sentence opening (the line's start or after a sentence's end), the marker, an optional
# `it's`, and a value that closes the sentence. Every repeat is possessive or over characters the
# next part cannot start with (a group's repeat is not possessive: CPython before 3.11.5 matches
# that wrongly; each of its turns starts with a separator): linear in the text's length.
CORRECTION_OPENING = (
    r"(?:^|(?<=[.!?][ \t])|(?<=[。！？]))[ \t*_>]*+"
    r"(?:(?:no[ \t,]++wait|wait[ \t,]++no|actually(?:[ \t,]++no)?|edit|erratum|correction|korrektur"
    r"|corrección|correção|correzione|исправление|in[ \t]++fact)"
    r"\b[ \t,:!—–-]*+(?:it(?:['’]s|[ \t]++is)[ \t]++)?"
    # `答案是18。不对，应该是20。`: "no, it should be 20"
    r"|(?:不对[，,、 ]*+)?应该是[ \t]*+"
    # `Double-checking, the total is really 20.`: the value the sentence says it really is.
    r"|[^.!?\n\d]{0,60}?\b(?:is|are|was|comes[ \t]++to)[ \t]++(?:really|actually)[ \t]++"
    # `…; the real total is 472.`: the value a correction says the answer really is.
    r"|[^.!?\n\d]{0,80}?\b(?:the|my)[ \t]++(?:real|actual|correct|true|right"
    r"|corrected)[ \t]++(?:total"
    r"|answer|amount|number|value|result|figure|count|sum)[ \t]++(?:is|would[ \t]++be"
    r"|comes[ \t]++to)"
    r"[ \t]++)"
    r"(?=[-−]?\\?[$£€¥₹]?[ \t]?\d++(?:[.,]\d++)*(?:[ \t]++[A-Za-z]{2,12})?[ \t]*+"
    r"(?:[.!。]?[ \t]*+$|[.!][ \t]|。))"
)
CORRECTION_HINTS: tuple[str, ...] = ("wait", "actually", "edit", "erratum", "fact", "really")
CORRECTION_HINTS += ("correction", "real ", "actual ", "correct ", "true ", "right ", "korrektur")
CORRECTION_HINTS += ("corrección", "correção", "correzione", "исправление", "不对", "应该是")
"""A part of every correction marker, in lower case: texts without one skip the pattern."""
