"""How a generation ended: cut mid-sentence, padded to the limit, or looping to it.

A text stops mid-sentence when its last character is a letter of a script that ends sentences
with a mark, or an operator, not a closing mark or a number (:func:`stops_mid_sentence`). A stated
answer followed by more than :data:`DRAFT_DISTANCE` characters of working that stops so is a
draft (:func:`left_as_draft`). Padding after a finished sentence is not a cut
(:func:`strip_padding`). A passage with letters repeated at least :data:`LOOP_REPEATS` times over
at least :data:`LOOP_MIN_CHARS` characters up to the end is a loop (:func:`find_loop`). Every
check reads a bounded window at the end, so it stays linear in the text's length.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

DRAFT_DISTANCE = 300
"""Characters of further writing after a stated answer, cut off mid-sentence, that make the
answer a draft the model went on to question rather than the answer it delivered."""
CUT_TEXT_LENGTH = 2_000
"""Length from which a text that stops mid-sentence counts as cut off at the token limit."""

LOOP_MIN_CHARS = 300
"""Shortest repeated stretch at the end that counts as a loop (a few repeated words do not)."""
LOOP_REPEATS = 3
"""Fewest repetitions of the passage that count as a loop."""
_LOOP_WINDOW = 12_000
"""Characters at the end searched for a loop: passages up to a third of this are found."""
_LOOP_PROBE = 24
"""Characters at the very end whose earlier occurrences propose the loop's period."""
_LOOP_CANDIDATES = 16
"""Earlier occurrences of the probe tried as periods before giving up (keeps the check bounded)."""

_LETTER = re.compile(r"[^\W\d_]")
_OPEN_ENDS = frozenset(",;:=+-/(\\$：，")
"""Last characters that something must follow."""
_FIRST_UNPUNCTUATED = "\u0e00"
"""Letters (and vowel signs) below Thai belong to scripts that end sentences with a mark: Latin,
Greek, Cyrillic, and the Indic scripts with their danda or full stop."""


def stops_mid_sentence(text: str, longer_than: int = 0) -> bool:
    """Whether a text longer than ``longer_than`` characters ends inside a sentence.

    It does when its last character is a letter of a script that ends its sentences with a mark
    (Latin, Greek, Cyrillic, Indic), or an operator or separator that something must follow.
    Scripts whose finished text may end without one (Thai, Chinese, Japanese) are never taken for
    cut off on their last letter alone; a full stop of any script (the danda `।` too), a closing
    bracket, markup or a digit ends a text that may be finished.
    """
    stripped = text.rstrip()
    if len(stripped) <= longer_than or not stripped:
        return False
    last = stripped[-1]
    in_word = last.isalpha() or unicodedata.category(last) in ("Mn", "Mc")
    return last in _OPEN_ENDS or (in_word and last < _FIRST_UNPUNCTUATED)


def ends_unfinished(text: str) -> bool:
    """Whether a text, of any length, ends where no sentence can end: on a sign that something
    must follow (`204 + 160 + 330 =`, `×`), or on an English word that opens what follows it
    (`…the unpaid weeks, which are`). Its last number is wherever generation stopped."""
    stripped = text.rstrip(" \t*_")
    if not stripped:
        return False
    if stripped[-1] in _SIGNS_BEFORE:
        return True
    if _UNEVALUATED.search(stripped, max(0, len(stripped) - _BOX_LOOK)):
        return True  # `Profit = 200000 - 1`: an expression after `=`, never worked out
    if _OPERATION_END.search(stripped, max(0, len(stripped) - _BOX_LOOK)):
        return True  # `… she still needs $100 − $95`: an operation written, its result never
    box = stripped.rfind("\\boxed", len(stripped) - _BOX_LOOK)
    if box >= 0 and stripped.count("{", box) > stripped.count("}", box):
        return True  # `$$\boxed{6`: a box opened and never closed
    last_word = _LAST_WORD.search(stripped[-_WORD_LOOK:])
    return last_word is not None and last_word.group(0).lower() in _OPENING_WORDS


_WORD_LOOK = 24
# The last line's `=` followed by an operation of digits and nothing after it.
_UNEVALUATED = re.compile(r"=[^=\n]*?\d[ \t]*[-+×*/÷−][ \t]*\d[\d,]*(?:\.\d+)?\Z")
# The text's last words: an operation between two numbers, with no `=` before it on its line.
_OPERATION_END = re.compile(
    r"(?<![\d.,])[^=\n\d]{0,60}?\\?[$£€¥₹]?[ \t]?\d[\d,]*+(?:\.\d+)?[ \t]*+"
    r"(?:[+×*/÷−]|(?<=[ \t])-(?=[ \t]))[ \t]*+\\?[$£€¥₹]?[ \t]?\d[\d,]*+(?:\.\d+)?\Z"
)
_BOX_LOOK = 200  # characters at the end in which an unclosed box is looked for
_SIGNS_BEFORE = frozenset("=+×÷*·−(,")  # not `$` (closing LaTeX math) or `:` (an empty slot)
_LAST_WORD = re.compile(r"(?<![\w'’-])[A-Za-z]+\Z")
_OPENING_WORDS = frozenset(
    "the a an of to for with by from into than which who whose that are is was were and or but if"  # noqa: SIM905
    " because since so then be been being its their his her my our your at on in as gives equals"
    " yields makes gets leaves becomes totals plus minus takes took costs needs equal".split()
)
"""English words after which a sentence always goes on."""


def restart_unfinished(text: str, start: int) -> bool:
    """Whether the working from ``start`` (after a retraction) stops before it finishes: the text
    ends on no sentence mark and not on a computed result (`Let me redo it: 19.50 * 1.25`,
    `Recomputing with 252 eggs and $2`, `The wire is 4 feet`)."""
    stripped = text.rstrip(" \t\n*_")
    if len(stripped) <= start or stripped[-1] in _FINISHED:
        return False
    return _COMPUTED_END.search(stripped, max(start, len(stripped) - _WORD_LOOK)) is None


_FINISHED = frozenset(".!?。！？)]}>`\"'|")
_COMPUTED_END = re.compile(r"=[ \t]*\\?[$£€¥₹]?[ \t]?-?\d[\d,]*(?:\.\d+)?[ \t]*[A-Za-z%]*\Z")


def strip_padding(text: str) -> str | None:
    """The text before a run of padding that filled the rest of the token budget, when the text
    before it is finished; ``None`` when it ends in no such run.

    Padding is whitespace and end-of-text or start-of-text tokens (`\\n\\n\\n…`,
    `<｜begin▁of▁sentence｜>` repeated) of at least :data:`PADDING_CHARS` characters: a model that
    finished its last sentence and then emitted them until the limit delivered that sentence. The
    run is stripped from the end, one token at a time, in linear time.
    """
    end = len(text)
    while True:
        while end > 0 and text[end - 1].isspace():
            end -= 1
        token = _PADDING_TOKEN.search(text, max(0, end - _PADDING_TOKEN_LOOK), end)
        if token is None:
            break
        end = token.start()
    if len(text) - end < PADDING_CHARS or end == 0 or stops_mid_sentence(text[:end]):
        return None
    return text[:end]


PADDING_CHARS = 20
"""Characters of trailing padding from which a generation counts as finished before it."""
_PADDING_TOKEN = re.compile(
    r"(?:<[|｜](?:begin|end)[▁_ ]of[▁_ ]sentence[|｜]>|<\|(?:endoftext|end_of_text|eot_id|im_end"
    r"|pad|end)\|>|</s>|<pad>|<eos>)\Z"
)
_PADDING_TOKEN_LOOK = 40


# A text that ends on a short number right after an operator or a copula, with no mark after it
# (`… 9 times 2 is 1`, `… would be 18 + 1`): cut inside that number or the working it ends.
_MID_NUMBER = re.compile(
    r"(?:[-+*/×÷=]|\b(?:is|be|equals|times|plus|minus|of|by|to|gives|makes)\b)[ \t]*+\\?\$?"
    r"[ \t]?\d{1,4}\Z",
    re.IGNORECASE,
)


def cut_mid_number(text: str, answer_text: str) -> bool:
    """Whether ``answer_text`` was followed by more than :data:`CUT_TEXT_LENGTH` characters of
    working that end on a number cut short (a thinking budget stopping a model mid-number, with
    no stop reason to say so): the answer was a draft."""
    stripped = text.rstrip()
    if _MID_NUMBER.search(stripped, max(0, len(stripped) - 40)) is None:
        return False
    stated = text.rfind(answer_text)
    return stated >= 0 and len(stripped) - (stated + len(answer_text)) > CUT_TEXT_LENGTH


def left_as_draft(text: str, answer_text: str) -> bool:
    """Whether ``answer_text``, stated in ``text``, was followed by working that was cut off."""
    stripped = text.rstrip()
    if not stops_mid_sentence(stripped):
        return False
    stated = text.rfind(answer_text)
    return stated >= 0 and len(stripped) - (stated + len(answer_text)) > DRAFT_DISTANCE


@dataclass(frozen=True)
class Loop:
    """Where a loop that runs to the end of a text starts, and the length of its passage."""

    start: int
    period: int


def ends_in_loop(text: str) -> bool:
    """Whether the text ends in a passage repeated until generation stopped (see
    :func:`find_loop`)."""
    return find_loop(text) is not None


def find_loop(text: str) -> Loop | None:
    """The loop a text ends in: the passage repeated until generation stopped, or ``None``.

    The last :data:`_LOOP_PROBE` characters are looked for earlier in the window; each earlier
    occurrence proposes a period, checked with one slice comparison. A loop cut in the middle of
    its passage still counts. Passages without letters (a long number, a row of dashes) are not
    loops: digits repeat in numbers that are answers. The loop's start is found by comparing
    whole periods backwards, then single characters, so the cost stays linear in its length.
    """
    end = len(text.rstrip())
    if end < LOOP_MIN_CHARS:
        return None
    start = max(0, end - _LOOP_WINDOW)
    probe = text[end - _LOOP_PROBE : end]
    search_end = end - 1
    for _ in range(_LOOP_CANDIDATES):
        found = text.rfind(probe, start, search_end)
        if found < 0:
            return None
        period = end - _LOOP_PROBE - found
        span = max(LOOP_REPEATS * period, LOOP_MIN_CHARS)
        if span > end - start:
            return None
        if text[end - span : end - period] == text[end - span + period : end]:
            if _LETTER.search(text, end - period, end) is None:
                return None
            return Loop(_loop_start(text, end - span, period), period)
        search_end = found + _LOOP_PROBE - 1
    return None


def _loop_start(text: str, start: int, period: int) -> int:
    """The earliest position from which ``text`` repeats with ``period``, given that it does
    from ``start`` on."""
    while start >= period and text[start - period : start] == text[start : start + period]:
        start -= period
    while start > 0 and text[start - 1] == text[start - 1 + period]:
        start -= 1
    return start
