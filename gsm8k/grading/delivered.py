"""The delivered answer: what an answer statement delivers, given what the model writes after it.

The definition (docs/grading.md, "The delivered answer"). The **answer statement** is the place
the rules found the answer: an answer line, ``####``, a box, an answer tag, a JSON field or an
answer phrase, with the value it states. Every later statement of an answer (the same marks, in
text order) and every retraction after it is one of:

1. a **restatement** of the same value: the answer stands (an unhedged one commits a hedged one);
2. a **retraction** (`I made a mistake`, `Oh no`, `Correction:`, `On second thought`, `that's
   wrong`): the statement is withdrawn; the next statement after it is the answer, and with none
   the answer is the closing sentence's number (`So she makes $20.`) of a finished text, else
   none — a retraction then a cut delivers nothing;
3. an **unhedged correction** to another value (`The correct answer is 20.`): the new value, which
   is then the statement the rest is judged against;
4. a **hedge or alternative** with another value (`maybe the answer is 20?`, `Alternatively, …
   \\boxed{20}`, `If …, the answer would be 20`): the statement stands, and none when the statement
   was itself hedged (one answer per scenario, two guesses).

A statement is hedged when its sentence says `maybe`, `perhaps`, `probably`, `possibly`, `might`,
`could`, `would`, `I think`, `not sure`, `alternatively`, `otherwise`, `either`, or asks (`?`); a
later statement also when it is conditional (`if`, `unless`, `assuming`, `suppose`). Quoted marks,
format examples and ruled-out values (`(not \\boxed{18})`, `A common mistake is … \\boxed{18}`) are
blanked before any rule reads the text (:func:`gsm8k.grading.marks.without_example_marks`); a value
struck out or taken back inside a statement (`~~18~~ 20`, `18, actually 20`) is ruled out there
too (:mod:`gsm8k.grading.reader`).

Only text after the answer statement is scanned (and, for a hedged statement, a bounded window
before it), one pass of one pattern: the cost stays linear in the completion's length.
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import chain

from gsm8k.grading.asides import NOT_OURS
from gsm8k.grading.corrected import CORRECTED_FRAME, corrected_in_sentence
from gsm8k.grading.corrections import CORRECTION_HINTS
from gsm8k.grading.doubt import (
    RETRACTION,
    SENTENCE_LOOK,
    UNDECIDED_NOTE,
    one_of_several,
    sentence_hedged,
    undecided_after,
)
from gsm8k.grading.endings import restart_unfinished, stops_mid_sentence
from gsm8k.grading.fallback import find_last_number
from gsm8k.grading.hedges import TWO_GUESSES, closing_guesses, two_guesses
from gsm8k.grading.numbers import same_number
from gsm8k.grading.reader import SENTENCE_END, Found, Reader
from gsm8k.grading.refusals import same_quantity
from gsm8k.grading.remarks import is_remark, states_own
from gsm8k.grading.result_statement import result_statement
from gsm8k.grading.ruled_out import ruled_out_at
from gsm8k.grading.rules import NoAnswer
from gsm8k.grading.statement_cases import offers_range_after, per_case, scenario_next
from gsm8k.grading.statements import (
    STATEMENT,
    VALUE_WINDOW,
    Statement,
    listed_after_other,
    revision_stands,
    sentence_before,
    statements,
)

RETRACTED = "the answer statement is retracted and nothing after it states an answer"
LISTED = "the answer statement follows one of another value with nothing between: a list"
HEDGED_BOTH = "the answer statement is hedged and an alternative value follows it: no one answer"

_KEYWORDS: tuple[str, ...] = (
    "answer",
    "####",
    "\\boxed",
    "antwort",
    "respuesta",
    "réponse",
    "ответ",
    "jibu",
)
_KEYWORDS += ("উত্তর", "సమాధానం", "జవాబు", "คำตอบ", "答", *CORRECTION_HINTS)
"""A part of every statement mark, in lower case: texts without one skip the pattern."""
# A closing sentence that delivers a result: `So she makes $20 every day.` (A decimal point is
# its own turn of the group, which is not possessive: CPython before 3.11.5 misreads that.)
_SENTENCE_BODY = r"[^\n.!?]*+(?:\.(?=\d)[^\n.!?]*+)*"
# The last sentence of a text, when it holds a number; and one that concludes (`So she makes $36
# every day.`).
_LAST_SENTENCE = re.compile(
    r"(?:^|[.!?:]\s+|\n)(?P<sentence>[^\n.!?\d]*+(?:\.(?=\d)[^\n.!?\d]*+)*\d"
    rf"{_SENTENCE_BODY})[.!?]?[ \t*_]*\s*\Z"
)
_CONCLUSION = re.compile(
    r"(?:so|therefore|thus|hence|in[ \t]+total|the[ \t]+(?:correct|right|final)[ \t]+"
    r"(?:total|result|amount))\b",
    re.IGNORECASE,
)
# Another value offered after a hedged statement, without an answer mark: `…, but it could be 20`.
_OTHER_VALUE = re.compile(
    r"\b(?:or|but|alternatively|alt\.?|otherwise|maybe|perhaps|possibly|could|might|though"
    r"|although|else|try)(?![A-Za-z])[^.!?\n\d]{0,80}\d",
    re.IGNORECASE,
)
_DIGIT = re.compile(r"\d")
_DIGIT_RUN = re.compile(r"\d+(?:[.,]\d+)*")
_SIGN_BEFORE = re.compile(r"\\?[$£€¥₹][ \t]?$")
_UNIT_WORD = re.compile(r"[\d,.]*+\}?\$?[ \t]*+(?:\\(?:text|mathrm)\{[ \t]*+)?[A-Za-z]{2,12}")
# The result of a computation in the working: `= 36`, `= $36`.
_COMPUTED = re.compile(r"=[ \t]*+(?P<value>[-−]?\\?[$£€¥₹]?[ \t]?\d[\d,.]*+)")
_OTHER_LOOK = 200
_OURS_LOOK = 80  # characters before an offered value searched for someone else's clause (bounded)
_OFFER_LOOK = 2_000
_CONCLUSION_LOOK = 400
"""Characters at the end of a text in which its closing sentence is looked for."""
_UNIT_GAP = 60  # most characters between two statements of one quantity in two units
_SCENARIO_LOOK = 600
"""Characters before a hedged statement in which the statement it is an alternative to is
looked for (`If she eats them, \\boxed{20}. If she sells them, \\boxed{26}.`)."""
_RULES = ("answer_line", "hash_line", "boxed", "answer_tag", "json", "answer_is", "a_line")


def deliver(
    reader: Reader, rule: str, found: Found, cut: bool
) -> tuple[str, Found] | NoAnswer | None:
    """What the answer statement ``found`` (by ``rule``, in ``reader.text``) delivers.

    Args:
        reader: The text the rules read, with the sample's question.
        rule: The rule that found the statement (the last-number guess is no statement).
        found: Its value and snippet.
        cut: Whether a stop reason says the generation was cut at the token limit.

    Returns:
        ``None`` when the statement stands; a later statement's rule and value when it corrects
        it; a :class:`NoAnswer` when nothing was delivered.
    """
    if rule == "last_number":  # no answer mark: the closing sentences state the answer
        return closing_guesses(reader)
    if rule not in _RULES:
        return None
    text = reader.text
    value, snippet = found
    start = text.rfind(snippet)
    if start < 0:
        return None
    current = Statement(rule, value, snippet, start, start + len(snippet), False)
    hedged = sentence_hedged(text, current.start, current.end, anchor=True)
    if hedged and _offers_other(reader, current) and not set_aside(text, current.start):
        return NoAnswer(HEDGED_BOTH)  # `The answer is probably 18, but it could be 20.`
    if hedged or set_aside(text, current.start):
        # `\boxed{18}. If we count the muffin, the answer would be \boxed{20}.`: the hedged
        # statement is an alternative to the one before it, which is judged instead.
        current = (
            _earlier(reader, current)
            or sentence_before(reader, current.start)
            or Statement(rule, value, snippet, current.start, current.end, True)
        )
    value_end = _DIGIT_RUN.search(text, current.start, current.end)
    if undecided_after(text, current.end if value_end is None else value_end.end()):
        return NoAnswer(UNDECIDED_NOTE)  # `ANSWER: 36` … `But honestly 9 is equally likely.`
    if listed_after_other(reader, current):
        return NoAnswer(LISTED)
    if per_case(text, current):
        return NoAnswer(HEDGED_BOTH)  # `The answer is 3 if it means total bolts, 2 if blue only.`
    inside = (
        None
        if value_end is None or value_end.end() >= current.end  # nothing after the value
        else RETRACTION.search(text, value_end.end(), current.end)
    )
    if inside is not None and (
        _DIGIT.search(text, inside.end(), current.end) is None
        or SENTENCE_END.search(text, inside.end(), current.end) is not None
        or CORRECTED_FRAME.search(text, inside.end(), current.end) is not None
    ):  # `Answer: 90. Hmm, scratch that, …`: taken back on its own line; `Answer: 40 — sorry,
        # that's the silver coins. Gold coins: 70.`: taken back, then a new sentence states 70
        return _after_retraction(reader, inside.end(), _unfinished(text, cut))
    tail = text[current.end :]
    folded = tail.lower()
    if _offers_other(reader, current) or offers_range_after(text, current):
        # `The answer is probably 18, but it could be 20.`, `18 (though 20 is also possible)`,
        # `Answer: ~160 minutes, could be anywhere from 140 to 180`: no one answer.
        return NoAnswer(HEDGED_BOTH)
    if not any(keyword in folded for keyword in _KEYWORDS) and RETRACTION.search(tail) is None:
        if current.hedged and (_offers_other(reader, current) or scenario_next(text, current)):
            # `If both ways, the answer would be $24. If one way, it would be $12.`: one value
            # per scenario, none committed to.
            return NoAnswer(HEDGED_BOTH)
        closing = None if _unfinished(text, cut) else _closing_correction(reader, current)
        if closing is not None:
            return closing
        return None if current.start == start else (current.rule, (current.value, current.text))
    alternative = False
    retracted_at: int | None = None
    position = current.end
    for statement in statements(reader, current.end):
        if set_aside(text, statement.start):
            continue  # `Students often write \\boxed{5.75} …`: someone else's value, a remark
        if RETRACTION.search(text, position, statement.start):
            retracted_at = statement.start
        position = statement.end
        if retracted_at is not None:
            if statement.hedged:
                return NoAnswer(RETRACTED)
            current, alternative, retracted_at = statement, False, None
        elif same_number(statement.value, current.value) or _other_unit(text, current, statement):
            if not statement.hedged:
                current = replace(current, hedged=False)  # a restatement commits to the value
        elif statement.hedged:
            alternative = True
        else:
            current, alternative = statement, False
    retraction = RETRACTION.search(text, position)
    if retraction is not None and not revision_stands(text, retraction.end(), current):
        retracted_at = retraction.end()
    if retracted_at is not None:
        return _after_retraction(reader, retracted_at, _unfinished(text, cut))
    if current.hedged and (alternative or _offers_other(reader, current)):
        return NoAnswer(HEDGED_BOTH)
    closing = None if _unfinished(text, cut) else _closing_correction(reader, current)
    if closing is not None:
        return closing
    if current.start == start:
        return None
    return current.rule, (current.value, current.text)


# A sentence that says what the model will do next, and computes nothing.
_PLAN = re.compile(
    r"[\s*_>-]*(?:let[ \t]+me|let['’]s|I['’]ll|I[ \t]+will|I[ \t]+need[ \t]+to|I[ \t]+should"
    r"|we[ \t]+need[ \t]+to)\b[^=\n]*\Z",
    re.IGNORECASE,
)


def set_aside(text: str, start: int) -> bool:
    """Whether the sentence of a statement at ``start``, before its value, calls the value
    another option's or someone else's (`The other option, electronics, would yield
    \\boxed{96}`), or opens as a remark (`Note that \\boxed{1800} is the monthly figure`)."""
    opened = max(
        (end.end() for end in SENTENCE_END.finditer(text, max(0, start - SENTENCE_LOOK), start)),
        default=max(0, start - SENTENCE_LOOK),
    )
    closed = SENTENCE_END.search(text, start, start + SENTENCE_LOOK)
    end = len(text) if closed is None else closed.end()
    if is_remark(text, opened, end) and not states_own(text[opened:end]):
        return True  # not `Double-checking, the total is really 18.`
    return NOT_OURS.search(text, opened, start) is not None


def _unfinished(text: str, cut: bool) -> bool:
    """Whether the text was cut: by its stop reason, or visibly, mid-sentence."""
    return cut or stops_mid_sentence(text)


def _offers_other(reader: Reader, statement: Statement) -> bool:
    """Whether another value is offered beside the statement's: after a hedge or alternative
    word in the rest of its sentence, or (for a hedged statement) in the text right after it;
    the same quantity in another unit (`$18, or 1800 cents`) is not another value."""
    text = reader.text
    first = _DIGIT.search(text, statement.start, statement.end)
    begin = statement.end if first is None else first.end()
    closed = SENTENCE_END.search(text, statement.end, statement.end + SENTENCE_LOOK)
    stop = closed.start() if closed is not None else min(len(text), statement.end + _OTHER_LOOK)
    if statement.hedged:
        stop = max(stop, min(len(text), statement.end + _OTHER_LOOK))
        if _stated_before(reader, statement):
            return True  # `The answer is $18 (alt. answer: $20).`: an alternative to the 18
    if _DIGIT.search(text, begin, stop) is None:
        return False  # no other number at all (the common case, found cheaply)
    if one_of_several(text[max(0, statement.start - SENTENCE_LOOK) : stop]):
        return True  # `One possible answer is $18, another is $20.`
    # A statement offers its alternatives near its value: a flood of `18 or 18 or …` inside one
    # statement is read for its first _OFFER_LOOK characters (each candidate costs a reading).
    inside = _OTHER_VALUE.finditer(text, begin, min(statement.end, begin + _OFFER_LOOK))
    if statement.end > begin + _OFFER_LOOK:  # a long statement: its last characters too
        inside = chain(
            inside,
            _OTHER_VALUE.finditer(
                text, max(begin + _OFFER_LOOK, statement.end - _OFFER_LOOK), statement.end
            ),
        )
    after = _OTHER_VALUE.finditer(text, max(begin, statement.end), stop)
    for offered in chain(inside, after):
        # Read with its currency sign, which says its unit (`90 cents, or $0.90`).
        sign = _SIGN_BEFORE.search(text, offered.start(), offered.end() - 1)
        begin_at = offered.end() - 1 if sign is None else sign.start()
        other = reader.value_of(text[begin_at : offered.end() + VALUE_WINDOW // 4])
        digits = _DIGIT_RUN.match(text, offered.end() - 1)
        if digits is not None and ruled_out_at(text, digits.start(), digits.end()):
            continue  # `The answer is 45, not 75 or 180.`: ruled out, not offered
        if NOT_OURS.search(text, max(begin, offered.start() - _OURS_LOOK), offered.end()):
            continue  # `20 cups, not 25 as one might get by forgetting the 15`: someone else's
        if other is not None and not same_number(other, statement.value):
            unit = _UNIT_WORD.match(text, offered.end())
            if not (same_quantity(other, statement.value) and unit is not None):
                return True
    return False


def _stated_before(reader: Reader, statement: Statement) -> bool:
    """Whether an answer mark earlier in a hedged statement's sentence states another value."""
    text = reader.text
    before = text[max(0, statement.start - SENTENCE_LOOK) : statement.start]
    opened = [mark.end() for mark in SENTENCE_END.finditer(before)]
    begin = statement.start - len(before) + (opened[-1] if opened else 0)
    for mark in STATEMENT.finditer(text, begin, statement.start):
        other = reader.value_of(text[mark.end() : statement.start])
        if other is not None and not same_number(other, statement.value):
            return True
    return False


def _closing_correction(reader: Reader, current: Statement) -> tuple[str, Found] | None:
    """A closing sentence after the statement that delivers another value the working after the
    statement computed (`ANSWER: 18` … `9 * 4 = 36.` … `So she makes $36 every day.`)."""
    text = reader.text
    closing = _last_sentence(text, current.end)
    if closing is None or not _CONCLUSION.match(closing.group("sentence").lstrip(" \t*_")):
        return None
    found = find_last_number(reader.with_text(closing.group("sentence")))
    if found is None or same_number(found[0], current.value):
        return None
    for computed in _COMPUTED.finditer(text, current.end, closing.start() + 1):
        value = reader.value_of(computed.group("value"))
        if value is not None and same_number(value, found[0]):
            return "last_number", found
    return None


def _last_sentence(text: str, start: int, hedged: bool = False) -> re.Match[str] | None:
    """The text's last sentence, from ``start`` on, when it holds a number and commits to it
    (or, with ``hedged``, states it at all)."""
    # From just before ``start``: the boundary that opens the first sentence is read with it.
    closing = _LAST_SENTENCE.search(text, max(start - 2, len(text) - _CONCLUSION_LOOK, 0))
    if closing is None or (
        not hedged and sentence_hedged(text, closing.start("sentence"), closing.end("sentence"))
    ):
        return None
    return closing


def _earlier(reader: Reader, anchor: Statement) -> Statement | None:
    """The nearest statement of another value close before a hedged one, if any."""
    window = max(0, anchor.start - _SCENARIO_LOOK)
    earlier = [
        s
        for s in statements(reader, window, anchor.start)
        if s.end <= anchor.start and not same_number(s.value, anchor.value)
    ]
    if not earlier:
        return None
    # Judged as the rules' statement is: `Jen will earn \\boxed{34} if she sells everything.`
    # commits to 34; a condition alone does not hedge it.
    last = earlier[-1]
    return replace(last, hedged=sentence_hedged(reader.text, last.start, last.end, scenario=True))


def _other_unit(text: str, current: Statement, later: Statement) -> bool:
    """Whether a later statement restates the value in another unit in the same sentence
    (`\\boxed{2} hours, or \\boxed{120} minutes`)."""
    if not same_quantity(current.value, later.value):
        return False
    gap = text[current.end : later.start]
    return len(gap) <= _UNIT_GAP and SENTENCE_END.search(gap) is None


def _after_retraction(reader: Reader, at: int, cut: bool) -> tuple[str, Found] | NoAnswer:
    """After a retraction no statement followed: the last sentence after the retraction's own
    (`She actually makes $20 a day.`) delivers its number in a finished text; a cut text, or one
    with no such sentence, delivers nothing."""
    text = reader.text
    retraction_end = SENTENCE_END.search(text, at)
    if cut or retraction_end is None or restart_unfinished(text, retraction_end.end()):
        return NoAnswer(RETRACTED)  # `Wait, I made an error. Recomputing with 252 eggs and $2`
    # A hedged value after a retraction (`Correction: maybe 44.`) is a guess: the model took its
    # answer back and committed to no other.
    closing = _last_sentence(text, retraction_end.end(), hedged=True)
    if closing is not None and _PLAN.match(closing.group("sentence")):
        return NoAnswer(RETRACTED)  # `Let me re-examine the 150% increase.`: a plan, no result
    if closing is not None and two_guesses(reader):
        return NoAnswer(TWO_GUESSES)
    # Unless working follows the retraction (`Let me recheck: … = 540.` `I think it is 540.`):
    # then the hedged value closes a reworked solution, as in a text with no mark.
    if (
        closing is not None
        and sentence_hedged(text, closing.start("sentence"), closing.end("sentence"), anchor=True)
        and _COMPUTED.search(text, at, closing.start()) is None
    ):
        return NoAnswer(RETRACTED)
    found = None if closing is None else find_last_number(reader.with_text(closing.group(0)))
    if found is None:
        # `Let me recheck: … = 540.` `So the total is 540. Note that 550 is not the answer.`:
        # the reworked solution's result statement, read past a remark that rules a value out.
        found = result_statement(reader.with_text(text[retraction_end.end() :]))
    if found is None and closing is None:
        # `my bad, I forgot the muffins; it's 18.`, `Erratum: the final answer should read 16.`:
        # the retraction's own sentence states the new value.
        found = corrected_in_sentence(reader, at, retraction_end.start())
    return NoAnswer(RETRACTED) if found is None else ("last_number", found)
