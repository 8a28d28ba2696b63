"""The result statement of a text with no answer mark: the working's last result, stated, then
only asides (docs/grading.md, "The delivered answer").

With no answer mark, the answer statement is the sentence that holds the working's last result
(`So in total he scored 4 + 5 = 9 points.`), or a later sentence that sets one value in bold
(`Mark has **35 flowers** in his garden.`): the model's own emphasis. What follows it is read
as what follows any answer statement: a later sentence replaces it only when it states another
value as the answer. A sentence whose numbers are all asides leaves it standing:

- a hedge, a condition or a question (`Though perhaps …, which would be 5.`, `At 5 mph she'd
  miss …`, `Alternatively, …, it'd be 12.`): an alternative after a committed statement;
- a value ruled out or called someone else's (`99 is his current age, not the answer`, `Some
  people answer $24.38 …, which is wrong.`);
- the result again, a number of the question or of the working (`That's 60 yogurts, or 15
  packs of 4 at $5.`, `Reminder: the bag is 300g …`);
- the result as a percentage or at another period than the question asks (`that's about 54% on
  his outlay`, `Per day, that's $2.50.`);
- a list of the result's parts (`- Yellow: 10`, `- Purple: 18`, `- Green: 7`); the rest is in
  ``asides``.

Anything else (a new number stated plainly, a conclusion word opening the sentence, a
retraction) is left to the last-number reading, so a plain restatement of another value still
replaces the first one. Only the text after the last result is read: the cost stays linear.
"""

from __future__ import annotations

import re
from decimal import Decimal

from gsm8k.grading.asides import (
    CHECKS,
    CLOCK_AFTER,
    CONDITION,
    NOT_OURS,
    PERCENT_AFTER,
    PERIODS_AFTER,
    aside,
    in_other_unit,
    restates_data,
)
from gsm8k.grading.bold_statement import bold_statement, line_of
from gsm8k.grading.breakdown import (
    DIGIT,
    REFERS_BACK,
    RESULT_LOOK,
    WORKING,
    first_result,
    parts_of,
)
from gsm8k.grading.candidates import offers_range
from gsm8k.grading.doubt import HEDGE, RETRACTION
from gsm8k.grading.fallback import find_last_number
from gsm8k.grading.numbers import same_number, value_with_fraction
from gsm8k.grading.question import restates_question
from gsm8k.grading.reader import SENTENCE_END, Found, Reader
from gsm8k.grading.ruled_out import ruled_out_at
from gsm8k.grading.units import asked_period, asking_text, rate_follows, rate_period

# The result of a computation: `= 9`, `= $75.00`, `>>9` (GSM8K's calculator annotations), `→ 25`,
# `≈ $60,000`.
_RESULT = re.compile(
    r"(?:=|>>|→|≈)[ \t]*+(?:\*\*|__)?(?:\\?[$£€¥₹][ \t]?)?(?P<value>-?\d[\d,]*(?:\.\d+)?[¼½¾⅐-⅞]?)"
)


def result_statement(reader: Reader) -> Found | None:
    """The working's last result, when the sentence that computes it is followed only by
    asides that hold numbers; ``None`` when the last-number reading decides."""
    text = reader.text
    tail_start = max(0, len(text) - RESULT_LOOK)
    results = [
        found
        for found in _RESULT.finditer(text, tail_start)
        if not NOT_OURS.search(sentence := _sentence_of(text, found.start(), tail_start))
        and not (_SECOND_READING.match(sentence) and CONDITION.search(sentence))
        and not CHECKS.search(line_of(text, found.start()))
        and not ruled_out_at(text, found.start("value"), found.end("value"))
    ]  # `A naive 19.50 * 1.25 = 24.375 is incorrect.` computes no result of the model's
    bold = bold_statement(reader, tail_start, results[-1].end() if results else tail_start)
    if not results and bold is None:
        return None
    percent_asked = "percent" in asking_text(reader.question_text) or "%" in asking_text(
        reader.question_text
    )
    asked = asked_period(reader.question_text)
    if bold is not None:
        # `… hands out 28 × 5 = 140, leaving **28 crayons**.`: the model's emphasis says which
        # value of its sentence it delivers.
        result, value_start, sentence_start, closed = bold
        if offers_range(text[sentence_start : closed.end()]):
            return None  # `**18** to 20 eggs`: no one value
        stated, statement = True, text[sentence_start : closed.end()]
    else:
        last = results[-1]
        value_start = last.start("value")
        if "```" in text[last.end() :]:
            return (
                None  # a program's assignment is no result statement; its output is read elsewhere
            )
        read = reader.value_of(last.group("value"))
        found_end = SENTENCE_END.search(text, last.end())
        if read is None or found_end is None:
            return None
        result, closed = read, found_end
        stated, statement = False, ""
    statement_end = closed.end()
    rest = text[statement_end:]
    if RETRACTION.search(text, statement_end) is not None:
        return None
    if not any(char.isdigit() for char in rest):
        # Nothing after it holds a number: the last-number reading finds a result; a bold value
        # is the one its sentence delivers.
        return (result, text[value_start : closed.start()]) if bold is not None else None
    earlier = _earlier_values(reader, text[:statement_end])
    if stated and _LIST_ONLY.fullmatch(rest) and parts_of(reader, rest, result, after_result=False):
        return result, text[value_start : closed.start()]  # `- Yellow: 10` … the value's parts
    position = statement_end
    alternatives = 0
    own_anchor, remarks, snippet_end = False, 0, closed.start()
    for end in [*SENTENCE_END.finditer(text, statement_end), None]:
        sentence_end = len(text) if end is None else end.end()
        sentence = text[position:sentence_end]
        if any(char.isdigit() for char in sentence) and not stated:
            # The statement: the first sentence after the working that holds a number states
            # the result again (`He made $70,000 profit.`); else the last-number reading decides.
            if _states(reader, sentence, result) and _delivers(
                reader, position, sentence_end, result, percent_asked, asked
            ):
                stated, statement = True, sentence
                # The value as this sentence states it, with the unit it writes after it (`So it
                # takes Emily 270 minutes.`), not the working's.
                at = first_result(reader, sentence, result)
                if at is not None:
                    value_start = position + at
                    snippet_end = len(text) if end is None else end.start()
                position = sentence_end
                if end is None:
                    break
                continue
            # `She has 72 − 25 − 5 = 42 cookies left. If she packs them in boxes of 6, that's 7
            # boxes.`: the sentence that computes the result states it, when a conditional
            # aside follows.
            own = text[_sentence_start(text, value_start, tail_start) : statement_end]
            conditional = CONDITION.search(sentence)
            kind = (
                aside(reader, position, sentence, result, earlier, percent_asked, asked, own)
                if conditional and _CONCLUDES_RESULT.search(own)
                else None
            )
            if kind is None and restates_data(reader, sentence):
                kind = 0  # `Total = 260` then `Seattle has 20 sheep.`: the question's data again
            if kind is None:
                own_value = _own_statement(reader, position, sentence_end)
                if own_value is None:
                    return None  # another value beside it (`$75 to $80`) is no remark
                # `First-year total: $480.` after `$35 × 12 = $420`: a closing sentence that
                # states a value of its own is the statement, and the asides after it are read
                # against that value.
                result, value_start = own_value
                own_anchor, snippet_end = True, end.start() if end is not None else len(text)
                # Against a value of its own, a value of the working named again is no remark.
                earlier = set()
                stated, statement = True, sentence
                position = sentence_end
                if end is None:
                    break
                continue
            stated, statement, alternatives = True, own, alternatives + kind
        elif _EXPLAINS.match(sentence):
            break  # `**Sam has 42 pencils left.** Explanation: …`: how it was found, after it
        elif any(char.isdigit() for char in sentence):
            kind = aside(
                reader,
                position,
                sentence,
                result,
                earlier,
                percent_asked,
                asked,
                statement,
                emphasized=bold is not None and not own_anchor,
            )
            if kind is None:
                return None
            alternatives += kind
            remarks += 1
            if kind == 0:  # a check's values are working a later note may restate (`(age: 6)`)
                earlier |= _earlier_values(reader, sentence)
        position = sentence_end
        if end is None:
            break
    if alternatives > 1 or (own_anchor and (alternatives or not remarks)):
        # `If she sells at $2: $18. If at $3: $27.`: one value per scenario. A closing sentence
        # with no working behind it is no committed statement a guess could follow, and with
        # no remark after it the last-number reading finds it.
        return None
    return result, text[value_start:snippet_end]


# Lines that only list (`- Yellow: 10`, `1. Purple: 18`), up to the end of the text.
_LIST_ONLY = re.compile(r"(?:\s*(?:[-*•]|\d{1,2}[.)])[ \t][^\n]*+)+\s*")  # a line at a time


# A sentence that opens a second reading by its name: `*Scenario B:* if …`, `Case 2: …`,
# `Alternatively, …`; its result is an alternative, never the working's last result.
_SECOND_READING = re.compile(
    r"[\s*_>-]*(?:alternatively\b|(?:scenario|case|option|reading|interpretation)[ \t]+"
    r"(?:(?-i:[B-Z])|[2-9]|two|2nd)\b)",
    re.IGNORECASE,
)
# A heading that opens the working behind a statement already made.
_EXPLAINS = re.compile(
    r"\s*+[*_#>]*(?:explanation|here['’]s[ \t]+how|how[ \t]+I[ \t]+got[ \t]+(?:it|this|there)"
    r"|reasoning|working|derivation|work|why)[ \t*_]*(?::|\n)",
    re.IGNORECASE,
)
# A computing sentence that concludes: `She has 72 − 25 − 5 = 42 cookies left.`, `So the total
# is 3 + 4 = 7.`, not bare working (`3 + 4 = 7`).
_CONCLUDES_RESULT = re.compile(
    r"\b(?:has|have|had|is|are|was|were|makes?|made|earns?|earned|needs?|needed|gets?|got|pays?"
    r"|paid|spends?|spent|saves?|saved|costs?|left|remain(?:s|ing)?|total|altogether|in[ \t]+all"
    r"|so|therefore|thus)\b",
    re.IGNORECASE,
)


def _sentence_start(text: str, position: int, start: int) -> int:
    """Where the sentence that holds ``position`` starts (from ``start`` on at the earliest)."""
    return max((m.end() for m in SENTENCE_END.finditer(text, start, position)), default=start)


def _sentence_of(text: str, position: int, start: int) -> str:
    """The sentence that holds ``position`` (from ``start`` on at the earliest)."""
    opened = max((m.end() for m in SENTENCE_END.finditer(text, start, position)), default=start)
    closed = SENTENCE_END.search(text, position)
    return text[opened : len(text) if closed is None else closed.end()]


def _states(reader: Reader, sentence: str, result: Decimal) -> bool:
    """Whether a sentence states the result, unhedged and with no working."""
    others = NOT_OURS.search(sentence)  # `$18; the $32 you might see elsewhere …`: not a hedge
    head = sentence if others is None else sentence[: others.start()]
    if "=" in sentence or HEDGE.search(head) or offers_range(sentence):
        return False
    stated = first_result(reader, head, result)
    if CONDITION.search(head, 0, len(head) if stated is None else stated):
        return False  # `If rounding down: 1596`: one case, not the answer; a condition after the
        # result is about something else (`5 hours to get back, so he'd arrive at 9 PM`)
    if WORKING.search(sentence):
        return False
    for match in reader.numbers.finditer(sentence):
        value = value_with_fraction(match, sentence)
        if value is not None and same_number(value, result):
            # `I initially got 540, but that was wrong.` names the result only to rule it out.
            return not ruled_out_at(sentence, match.start(), match.end())
    return False


def _own_statement(reader: Reader, start: int, end: int) -> tuple[Decimal, int] | None:
    """The value a closing sentence states as its own, and where it stands: a plain sentence,
    unhedged, with no condition, working, range, check, question or someone else's value, whose
    last-number reading falls inside it; ``None`` otherwise."""
    text = reader.text
    sentence = text[start:end]
    if (
        not reader.question  # without the question, its data cannot be told from a result
        or _ITEM.match(sentence)
        or REFERS_BACK.match(sentence)  # `That's just over half a kilometer (0.54 km)`: a remark
        or "?" in sentence
        or WORKING.search(sentence)
        or HEDGE.search(sentence)
        or CONDITION.search(sentence)
        or NOT_OURS.search(sentence)
        or CHECKS.search(sentence)
        or RETRACTION.search(sentence)
        or offers_range(sentence)
    ):
        return None
    found = find_last_number(reader.with_text(text[:end]))
    if found is None or found[0].copy_abs() in _earlier_values(reader, text[:start]):
        return None  # `… at least 80 slices.` after `= 80 slices`: the working again, no value
        # of its own
    at = sentence.rfind(found[1])
    if at < 0 or ruled_out_at(text, start + at, start + at + len(found[1])):
        return None
    return found[0], start + at


# A numbered or bulleted line is a step of the working, not a closing sentence.
_ITEM = re.compile(r"\s*+(?:[-*•]|\d{1,2}[.)])(?:[ 	]|$)")


def _delivers(
    reader: Reader, start: int, end: int, result: Decimal, percent_asked: bool, asked: str | None
) -> bool:
    """Whether the statement's sentence delivers the result: its last-number reading is the
    result, or its other values are the result as a percentage or at another period (`$57,500,
    which is roughly $4,792 per month`)."""
    found = find_last_number(reader.with_text(reader.text[:end]))
    if found is not None and same_number(found[0], result):
        return True
    sentence = reader.text[start:end]
    at = DIGIT.search(sentence)
    if at is not None and NOT_OURS.search(sentence, at.end()):
        return True  # `$694; the figure $704 you might see elsewhere double-counts`
    if parts_of(reader, sentence, result):
        return True  # `$243 on all the items: $49.50 on shorts, $67.50 on pants and $126 on shoes`
    for match in reader.numbers.finditer(sentence):
        value = value_with_fraction(match, sentence)
        if value is None or same_number(value, result):
            continue
        if CLOCK_AFTER.match(sentence, match.end()) or PERIODS_AFTER.match(sentence, match.end()):
            continue  # `… so he'd arrive home at around 9 PM`, `…, 7 days a week`
        period = rate_period(sentence, match.end())
        if period is not None and period == asked:
            return False  # `$48 a day, which is $336 a week` when a week is asked
        if (period is not None and period != asked) or (
            not percent_asked and PERCENT_AFTER.match(sentence, match.end())
        ):
            continue
        if period is None and asked is None and rate_follows(sentence, match.end()):
            continue  # `$16 …, which works out to about 27 cents a night`
        if ruled_out_at(reader.text, start + match.start(), start + match.end()):
            continue
        if in_other_unit(sentence, result, value, match.end()):
            continue  # `5 hours, i.e. 300 minutes`: the result in another unit
        if value.copy_abs() in reader.question and restates_question(
            reader.text, start + match.start(), start + match.end(), value, reader.quantities, start
        ):
            continue  # `$16 on ice cream over 60 days`: a number of the question restated
        return False
    return True


def _earlier_values(reader: Reader, text: str) -> set[Decimal]:
    """The values the text states up to the result statement (bounded: its last numbers)."""
    values: set[Decimal] = set()
    for match in reader.numbers.finditer(text, max(0, len(text) - 4 * RESULT_LOOK)):
        value = value_with_fraction(match, text)
        if value is not None:
            values.add(value.copy_abs())
    return values
