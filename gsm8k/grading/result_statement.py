"""The result statement of a text with no answer mark: the working's last result, stated, then
only asides (docs/grading.md, "The delivered answer").

With no answer mark, the answer statement is the sentence that holds the working's last result
(`So in total he scored 4 + 5 = 9 points.`). What follows it is read as what follows any answer
statement: a later sentence replaces it only when it states another value as the answer. A
sentence whose numbers are all asides leaves it standing:

- a hedge, a condition or a question (`Though perhaps …, which would be 5.`, `At 5 mph she'd
  miss …`, `Alternatively, …, it'd be 12.`): an alternative after a committed statement;
- a value ruled out or called someone else's (`99 is his current age, not the answer`, `Some
  people answer $24.38 …, which is wrong.`);
- the result again, a number of the question or of the working (`That's 60 yogurts, or 15
  packs of 4 at $5.`, `Reminder: the bag is 300g …`);
- the result as a percentage or at another period than the question asks (`that's about 54% on
  his outlay`, `Per day, that's $2.50.`).

Anything else (a new number stated plainly, a conclusion word opening the sentence, a
retraction) is left to the last-number reading, so a plain restatement of another value still
replaces the first one. Only the text after the last result is read: the cost stays linear.
"""

from __future__ import annotations

import re
from decimal import Decimal

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
from gsm8k.grading.subjects import about_another
from gsm8k.grading.units import (
    asked_period,
    asking_text,
    competing,
    one_quantity,
    rate_follows,
    rate_period,
    unit_named,
)

# The result of a computation: `= 9`, `= $75.00`, `>>9` (GSM8K's calculator annotations), `→ 25`,
# `≈ $60,000`.
_RESULT = re.compile(
    r"(?:=|>>|→|≈)[ \t]*+(?:\*\*|__)?(?:\\?[$£€¥₹][ \t]?)?(?P<value>-?\d[\d,]*(?:\.\d+)?)"
)
_CONDITION = re.compile(r"\b(?:if|unless|assuming|suppose|supposing)\b|['’]d\b", re.IGNORECASE)
# A sentence that opens on a conclusion states the answer again, whatever it holds.
_CONCLUDES = re.compile(
    r"[\s*_#>-]*(?:so|therefore|thus|hence|in[ \t]+total|overall|altogether|in[ \t]+conclusion"
    r"|that[ \t]+means|this[ \t]+means|the[ \t]+(?:final[ \t]+)?(?:answer|result|total)"
    r"|final|answer|actually|correction|edit|update|revised|erratum|wait|no\b|sorry|oops"
    r"|I[ \t]+mean)\b",
    re.IGNORECASE,
)
# Someone else's value, or one called wrong: `Some people answer $24.38 …, which is wrong.`
NOT_OURS = re.compile(
    r"(?<!how[ \t])\b(?:some|many|most|other)[ \t]+(?:people|students|solvers|readers)\b"
    r"|\bcommon[ \t]+(?:mistake|error|trap)\b|\bnot[ \t]+the[ \t]+answer\b"
    r"|\b(?:is|was|be)[ \t]+(?:wrong|incorrect|a[ \t]+mistake)\b"
    r"|\b(?:some(?:one)?|many|others?|people|one)[ \t]+(?:might|may"
    r"|would|could|will)[ \t]+(?:say|answer|get|think|write|pick|choose)\b|\btempting[ \t]+to\b"
    r"|\bdon['’]?t[ \t]+confuse\b|\b(?:we|you)[ \t]+don['’]?t[ \t]+want\b|\bnaive(?:ly)?\b"
    r"|\banswer[ \t]+is[ \t]+not\b|\bnot[ \t]+to[ \t]+be[ \t]+confused\b|\ban[ \t]+answer[ \t]+of\b"
    r"|\b(?:you|one)[ \t]+(?:might|may|could|will)[ \t]+(?:see|get|find|read)\b|\belsewhere\b"
    r"|\b(?:you|one|some|many)[ \t]+(?:might|may|could|would)[ \t]+be[ \t]+tempted\b"
    r"|\bdon['’]?t[ \t]+(?:answer|say|pick|choose|write|put)\b|\b(?:trap|pitfall)[ \t]+(?:here"
    r"|is|would)\b|\bmistake[ \t]+(?:is|would[ \t]+be)[ \t]+to\b"
    r"|\b(?:might|could|may)[ \t]+(?:also[ \t]+)?argue\b|\btempt(?:ing|ed)\b"
    r"|\byou[ \t]+(?:were|are|might[ \t]+be)[ \t]+expecting\b",
    re.IGNORECASE,
)
# A check, a recap or a table of the working after the result: `Check: 15 + 25 + 20 = 60 ✓`,
# `Step recap: 33 → 66 → 99 → +5.`, `| cheesecakes | 6 | 55 | 330 |`.
_CHECKS = re.compile(
    r"(?:^|\n)[ \t*_#>-]*+(?:check(?:ing)?|verify|verification|double[- ]check|sanity[ \t]+check"
    r"|proof|recap|summary|step[ \t]+recap|breakdown)\b|[✓✔]|^[ \t]*\||→.*→",
    re.IGNORECASE | re.MULTILINE,
)
_PERCENT_AFTER = re.compile(r"[ \t]*(?:%|percent\b|per[ \t]+cent\b)", re.IGNORECASE)
_PERIOD_WORD = re.compile(
    r"[\s*_(>-]*(?:in[ \t]+terms[ \t]+of[ \t]+|that['’]s[ \t]+)?\b(?:(?:per|each|every|an?)"
    r"|(?:over|in|for|across|during)[ \t]+(?:an?|one|the|a[ \t]+full)?[ \t]*(?P<count>(?:\d+"
    r"|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a[ \t]+few|several|a[ \t]+couple"
    r"[ \t]+of)[ \t-]*(?:[a-z]+[ \t-]+)?)?)[ \t]*"
    r"(?P<period>second|minute|hour|day|week|month|year)s?\b"
    r"|\b(?P<adverb>hourly|daily|weekly|monthly|yearly|annually)\b",
    re.IGNORECASE,
)
_ADVERB = {
    "hourly": "hour",
    "daily": "day",
    "weekly": "week",
    "monthly": "month",
    "yearly": "year",
    "annually": "year",
}


def result_statement(reader: Reader) -> Found | None:
    """The working's last result, when the sentence that computes it is followed only by
    asides that hold numbers; ``None`` when the last-number reading decides."""
    text = reader.text
    tail_start = max(0, len(text) - RESULT_LOOK)
    results = [
        found
        for found in _RESULT.finditer(text, tail_start)
        if not NOT_OURS.search(_sentence_of(text, found.start(), tail_start))
        and not _CHECKS.search(_line_of(text, found.start()))
        and not ruled_out_at(text, found.start("value"), found.end("value"))
    ]  # `A naive 19.50 * 1.25 = 24.375 is incorrect.` computes no result of the model's
    if not results:
        return None
    last = results[-1]
    if "```" in text[last.end() :]:
        return None  # a program's assignment is no result statement; its output is read elsewhere
    result = reader.value_of(last.group("value"))
    closed = SENTENCE_END.search(text, last.end())
    if result is None or closed is None:
        return None
    statement_end = closed.end()
    rest = text[statement_end:]
    if not any(char.isdigit() for char in rest):
        return None  # nothing after it holds a number: the last-number reading finds it
    if RETRACTION.search(text, statement_end) is not None:
        return None
    percent_asked = "percent" in asking_text(reader.question_text) or "%" in asking_text(
        reader.question_text
    )
    asked = asked_period(reader.question_text)
    earlier = _earlier_values(reader, text[:statement_end])
    position = statement_end
    alternatives = 0
    stated, statement = False, ""
    for end in [*SENTENCE_END.finditer(text, statement_end), None]:
        sentence_end = len(text) if end is None else end.end()
        sentence = text[position:sentence_end]
        if any(char.isdigit() for char in sentence) and not stated:
            # The statement: the first sentence after the working that holds a number states
            # the result again (`He made $70,000 profit.`); else the last-number reading decides.
            if not _states(reader, sentence, result) or not _delivers(
                reader, position, sentence_end, result, percent_asked, asked
            ):
                return None  # another value beside it (`$75 to $80`) is no remark
            stated, statement = True, sentence
        elif any(char.isdigit() for char in sentence):
            kind = _aside(
                reader, position, sentence, result, earlier, percent_asked, asked, statement
            )
            if kind is None:
                return None
            alternatives += kind
        position = sentence_end
        if end is None:
            break
    if alternatives > 1:
        return None  # `If she sells at $2: $18. If at $3: $27.`: one value per scenario
    return result, text[last.start("value") : closed.start()]


def _line_of(text: str, position: int) -> str:
    """The line that holds ``position``."""
    closed = text.find("\n", position)
    return text[text.rfind("\n", 0, position) + 1 : len(text) if closed < 0 else closed]


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
    if _CONDITION.search(head, 0, len(head) if stated is None else stated):
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


# What after a number makes it no quantity of the answer: a clock time (`9 PM`), or a count of
# periods (`7 days a week`, `5 hours every single day`).
_CLOCK_AFTER = re.compile(r"[ \t]*(?:[ap]\.?m\b\.?|o['’]clock\b)", re.IGNORECASE)
_PERIODS_AFTER = re.compile(
    r"[ \t]*(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)[ \t]+(?:a|an|per|each"
    r"|every)\b",
    re.IGNORECASE,
)


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
        if _CLOCK_AFTER.match(sentence, match.end()) or _PERIODS_AFTER.match(sentence, match.end()):
            continue  # `… so he'd arrive home at around 9 PM`, `…, 7 days a week`
        period = rate_period(sentence, match.end())
        if period is not None and period == asked:
            return False  # `$48 a day, which is $336 a week` when a week is asked
        if (period is not None and period != asked) or (
            not percent_asked and _PERCENT_AFTER.match(sentence, match.end())
        ):
            continue
        if period is None and asked is None and rate_follows(sentence, match.end()):
            continue  # `$16 …, which works out to about 27 cents a night`
        if ruled_out_at(reader.text, start + match.start(), start + match.end()):
            continue
        if _in_other_unit(sentence, result, value, match.end()):
            continue  # `5 hours, i.e. 300 minutes`: the result in another unit
        if value.copy_abs() in reader.question and restates_question(
            reader.text, start + match.start(), start + match.end(), value, reader.quantities, start
        ):
            continue  # `$16 on ice cream over 60 days`: a number of the question restated
        return False
    return True


_UNIT_AFTER = re.compile(r"[ \t]*+([A-Za-z]{2,12})")


def _in_other_unit(sentence: str, result: Decimal, value: Decimal, end: int) -> bool:
    """Whether ``value`` (ending at ``end``) restates the result in another unit of its kind
    (`5 hours, i.e. 300 minutes`, `$57.00 — that's 5,700 cents`), each with its unit written."""
    found = _UNIT_AFTER.match(sentence, end)
    other = unit_named(found.group(1)) if found is not None else None
    for number in re.finditer(r"(\$)?[ \t]?(\d[\d,]*(?:\.\d+)?)", sentence):
        if not same_number(Decimal(number.group(2).replace(",", "")), result):
            continue
        named = _UNIT_AFTER.match(sentence, number.end())
        unit = "dollar" if number.group(1) else unit_named(named.group(1)) if named else None
        if unit and other and competing(unit, other) and one_quantity(result, unit, value, other):
            return True
    return False


def _aside(
    reader: Reader,
    start: int,
    sentence: str,
    result: Decimal,
    earlier: set[Decimal],
    percent_asked: bool,
    asked: str | None,
    statement: str,
) -> int | None:
    """Whether every number of a sentence after the result statement is an aside: ``None`` when
    one is not, else 1 for a hedged alternative with a value of its own and 0 for a remark."""
    if NOT_OURS.search(sentence) or _CHECKS.search(sentence):
        return 0  # `Some might say 60 cups …`, `Check: 15 + 25 + 20 = 60 ✓`, a recap, a table
    if REFERS_BACK.match(sentence) and parts_of(reader, sentence, result, after_result=False):
        return 0  # `That's 33 classes × 15 students × $15.`: the result's parts
    if _question_data(reader, sentence):
        return 0  # `The wire was 4 feet long and each piece was 6 inches.`: the question again
    if not _CONCLUDES.match(sentence) and about_another(
        reader.question_text, reader.text, start, start + len(sentence)
    ):
        return 0  # `Marilyn, with ten times as many, sold 80,000.` when Harald's sales are asked
    hedged = bool(HEDGE.search(sentence) or _CONDITION.search(sentence))
    if _CONCLUDES.match(sentence) or (WORKING.search(sentence) and not hedged):
        return None  # a conclusion, or more working: not a remark on the result
    period = _PERIOD_WORD.match(sentence)  # `Per day, that's $2.50.`
    # `Over three weeks that adds up to 1,620 meters.` scopes a value to many periods: never
    # the one period a rate is asked for.
    other_period = period is not None and (
        period.group("count") is not None
        or asked
        != unit_named(
            _ADVERB.get((period.group("adverb") or "").lower()) or period.group("period").lower()
        )
    )
    # A value of the working again is a remark only beside the result or pointing back to it
    # (`since $125 > $96, he chooses … $125` picks one; it remarks on none).
    remark = REFERS_BACK.match(sentence) is not None
    own = False
    for match in reader.numbers.finditer(sentence):
        value = value_with_fraction(match, sentence)
        if value is None or same_number(value, result):
            remark = True
            continue
        if _CLOCK_AFTER.match(sentence, match.end()) or _PERIODS_AFTER.match(sentence, match.end()):
            continue  # `Spread over 7 days, that is only about 77 meters a day.`
        at = start + match.start()
        if value.copy_abs() in reader.question and restates_question(
            reader.text, at, start + match.end(), value, reader.quantities, start
        ):
            continue  # `Reminder: the bag is 300g`; not `he can see 1 more movie`
        if ruled_out_at(reader.text, start + match.start(), start + match.end()):
            continue
        if not percent_asked and _PERCENT_AFTER.match(sentence, match.end()):
            continue
        if _in_other_unit(
            f"{statement} {sentence}", result, value, len(statement) + 1 + match.end()
        ):
            continue  # `2 hours. That's 120 minutes.`: the result in another unit
        own_period = rate_period(sentence, match.end())
        if own_period is not None and own_period != asked:
            continue  # `$48 a day` when a week is asked
        if own_period is None and other_period:
            continue  # `Per day, that's $2.50.`
        if value.copy_abs() in earlier and not hedged:
            own = True
            continue
        if not hedged or abs(value - result) < 1:
            return None  # `Maybe 266.` after 266.67: the result rounded, restated
        own = True
    if own and not hedged and not remark:
        return None
    return 1 if hedged and own else 0


def _question_data(reader: Reader, sentence: str) -> bool:
    """Whether every number of a sentence is a number of the question, with no working: the
    question's data restated after the answer."""
    if not reader.question or WORKING.search(sentence) or _CONCLUDES.match(sentence):
        return False
    matches = list(reader.numbers.finditer(sentence))
    values = [value_with_fraction(match, sentence) for match in matches]
    if len(values) < 2 or _STATES_VALUE.search(sentence, 0, matches[-1].start()):
        return False  # `…, which is 30 bees.` states a value that may be the question's
    return all(value is not None and value.copy_abs() in reader.question for value in values)


_STATES_VALUE = re.compile(
    r"\b(?:which|that|it)[ \t]+(?:is|are|was|makes|gives|comes)\b|\b(?:so|therefore|thus|hence"
    r"|total|altogether|in[ \t]+all|same)\b|=",
    re.IGNORECASE,
)


def _earlier_values(reader: Reader, text: str) -> set[Decimal]:
    """The values the text states up to the result statement (bounded: its last numbers)."""
    values: set[Decimal] = set()
    for match in reader.numbers.finditer(text, max(0, len(text) - 4 * RESULT_LOOK)):
        value = value_with_fraction(match, text)
        if value is not None:
            values.add(value.copy_abs())
    return values
