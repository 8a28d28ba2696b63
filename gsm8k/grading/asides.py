"""Asides after a result statement: sentences whose every number is no new answer (docs/
grading.md, "The delivered answer").

After the sentence that states the working's result, a sentence is an aside when each of its
numbers is the result again, a number of the question or of the working restated, a clock time or
a count of periods, a value ruled out or called someone else's, a percentage or a rate that is not
asked, the result in another unit, or a difference (`$29 more than …`); or when the whole
sentence is a check, the question's data again, or about another person of the question. A hedged
value of its own makes it an alternative. A conclusion word, or working of its own, makes it no
aside.
"""

from __future__ import annotations

import re
from decimal import Decimal

from gsm8k.grading.breakdown import REFERS_BACK, WORKING, parts_of
from gsm8k.grading.doubt import HEDGE
from gsm8k.grading.numbers import same_number, value_with_fraction
from gsm8k.grading.question import (
    POSITION_BEFORE,
    asks_remainder,
    in_bracket,
    in_complement,
    quantity_after,
    restates_question,
)
from gsm8k.grading.reader import Reader
from gsm8k.grading.ruled_out import ruled_out_at
from gsm8k.grading.subjects import about_another
from gsm8k.grading.units import (
    asking_text,
    competing,
    one_quantity,
    rate_follows,
    rate_period,
    unit_named,
)

CONDITION = re.compile(r"\b(?:if|unless|assuming|suppose|supposing)\b|['’]d\b", re.IGNORECASE)
# A sentence that opens on a conclusion states the answer again, whatever it holds.
CONCLUDES = re.compile(
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
    r"|would|could|will)[ \t]+(?:say|answer|get|think|write|pick|choose|read|interpret|assume"
    r"|argue|compute|calculate)\b|\btempting[ \t]+to\b"
    r"|\b(?:students|people|many|some)[ \t]+(?:often|usually|commonly|typically|sometimes)[ \t]+"
    r"(?:write|answer|get|say|put|pick|choose)\b"
    r"|\bdon['’]?t[ \t]+confuse\b|\b(?:we|you)[ \t]+don['’]?t[ \t]+want\b|\bnaive(?:ly)?\b"
    r"|\banswer[ \t]+is[ \t]+not\b|\bnot[ \t]+to[ \t]+be[ \t]+confused\b|\ban[ \t]+answer[ \t]+of\b"
    r"|\b(?:you|one)[ \t]+(?:might|may|could|will)[ \t]+(?:see|get|find|read)\b|\belsewhere\b"
    r"|\b(?:you|one|some|many)[ \t]+(?:might|may|could|would)[ \t]+be[ \t]+tempted\b"
    r"|\bdon['’]?t[ \t]+(?:answer|say|pick|choose|write|put)\b|\b(?:trap|pitfall)[ \t]+(?:here"
    r"|is|would)\b|\bmistake[ \t]+(?:is|would[ \t]+be)[ \t]+to\b"
    r"|\b(?:might|could|may)[ \t]+(?:also[ \t]+)?argue\b|\btempt(?:ing|ed)\b"
    r"|\byou[ \t]+(?:were|are|might[ \t]+be)[ \t]+expecting\b"
    r"|\b(?:the[ \t]+)?other[ \t]+(?:option|choice|plan|offer|investment)\b"
    # Another solver's value: `GPT-3.5 famously answered $12 here …`, `a classmate got 64`.
    r"|\b(?:GPT[-\w.]*|ChatGPT|Claude|Gemini|Llama[-\w.]*|Bard|Copilot|another[ \t]+model"
    r"|other[ \t]+models|(?:a|one|my)[ \t]+(?:student|classmate|friend|colleague))[ \t]+"
    r"(?:\w+[ \t]+)?(?:answered|said|got|wrote|gave|reported|claimed|computed|calculated)\b"
    r"|\b(?:my|a|one|his|her|their)[ \t]+[a-z-]{3,15}[ \t]+(?:calculated|answered|claimed"
    r"|computed|guessed)\b",
    re.IGNORECASE,
)
# A check, a recap or a table of the working after the result: `Check: 15 + 25 + 20 = 60 ✓`,
# `Step recap: 33 → 66 → 99 → +5.`, `| cheesecakes | 6 | 55 | 330 |`.
CHECKS = re.compile(
    r"(?:^|\n)[ \t*_#>-]*+(?:check(?:ing)?|verify|verification|double[- ]check|sanity[ \t]+check"
    r"|proof|recap|summary|step[ \t]+recap|breakdown)\b|[✓✔]|^[ \t]*\||→.*→",
    re.IGNORECASE | re.MULTILINE,
)
PERCENT_AFTER = re.compile(r"[ \t]*(?:%|percent\b|per[ \t]+cent\b)", re.IGNORECASE)
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

_BRACKETED = re.compile(r"\([^()\n]{0,120}\)")
# After a value, a comparison that makes it a difference: `$29 more than`, `3 fewer than`.
_COMPARED_AFTER = re.compile(
    r"[ \t]*+(?:[A-Za-z]+[ \t]+){0,2}?(?:more|less|fewer|higher|lower|greater|cheaper|longer"
    r"|shorter|older|younger|bigger|smaller)[ \t]+than\b",
    re.IGNORECASE,
)

# What after a number makes it no quantity of the answer: a clock time (`9 PM`), or a count of
# periods (`7 days a week`, `5 hours every single day`).
CLOCK_AFTER = re.compile(r"[ \t]*(?:[ap]\.?m\b\.?|o['’]clock\b)", re.IGNORECASE)
PERIODS_AFTER = re.compile(
    r"[ \t]*(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)[ \t]+(?:a|an|per|each"
    r"|every)\b",
    re.IGNORECASE,
)

_UNIT_AFTER = re.compile(r"[ \t]*+([A-Za-z]{2,12})")
_RATIO = re.compile(r"\d[\d,.]*+[ \t]*+times[ \t]+(?:as|more|less|fewer|bigger|larger)\b", re.I)
_TIMES_AFTER = re.compile(r"[ \t]*+times[ \t]+(?:as|more|less|fewer|the|bigger|larger)\b", re.I)


def in_other_unit(sentence: str, result: Decimal, value: Decimal, end: int) -> bool:
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


def aside(
    reader: Reader,
    start: int,
    sentence: str,
    result: Decimal,
    earlier: set[Decimal],
    percent_asked: bool,
    asked: str | None,
    statement: str,
    emphasized: bool = False,
) -> int | None:
    """Whether every number of a sentence after the result statement is an aside: ``None`` when
    one is not, else 1 for a hedged alternative with a value of its own and 0 for a remark.
    After an ``emphasized`` (bold) statement, a value of the working named again is a remark
    whatever word picks it (`Each class gets **36 pencils**.` then `Total pencils: 288.`)."""
    if NOT_OURS.search(sentence) or CHECKS.search(sentence):
        return 0  # `Some might say 60 cups …`, `Check: 15 + 25 + 20 = 60 ✓`, a recap, a table
    if REFERS_BACK.match(sentence) and parts_of(reader, sentence, result, after_result=False):
        return 0  # `That's 33 classes × 15 students × $15.`: the result's parts
    if _question_data(reader, sentence):
        return 0  # `The wire was 4 feet long and each piece was 6 inches.`: the question again
    if not CONCLUDES.match(sentence) and about_another(
        reader.question_text, reader.text, start, start + len(sentence)
    ):
        return 0  # `Marilyn, with ten times as many, sold 80,000.` when Harald's sales are asked
    hedged = bool(HEDGE.search(sentence) or CONDITION.search(sentence))
    # Working in brackets shows where a remark's value comes from (`about 54% ($70,000 /
    # $130,000)`): its values are read one by one below, as any bracketed value.
    unbracketed = _BRACKETED.sub("", sentence)
    if "times" not in asking_text(reader.question_text):
        unbracketed = _RATIO.sub("", unbracketed)  # `13 times as many as …`: a ratio, no working
    if CONCLUDES.match(sentence) or (WORKING.search(unbracketed) and not hedged):
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
    named_again = 0  # values of the working the sentence names: two or more are a recap
    asking = asking_text(reader.question_text)
    asks_times, asks_rest = "times" in asking, asks_remainder(asking)
    for match in reader.numbers.finditer(sentence):
        value = value_with_fraction(match, sentence)
        if value is None or same_number(value, result):
            remark = True
            continue
        if CLOCK_AFTER.match(sentence, match.end()) or PERIODS_AFTER.match(sentence, match.end()):
            continue  # `Spread over 7 days, that is only about 77 meters a day.`
        if POSITION_BEFORE.search(sentence, max(0, match.start() - 14), match.start()):
            continue  # `After that she'll be at page 78 of 120.`: a place, not a quantity
        if not asks_rest and in_complement(sentence, match.start()):
            continue  # `The remaining 750 students walk.`: the rest of the whole, not the answer
        at = start + match.start()
        if value.copy_abs() in reader.question and restates_question(
            reader.text, at, start + match.end(), value, reader.quantities, start
        ):
            continue  # `Reminder: the bag is 300g`; not `he can see 1 more movie`
        if ruled_out_at(reader.text, start + match.start(), start + match.end()):
            continue
        if not percent_asked and PERCENT_AFTER.match(sentence, match.end()):
            continue
        if in_other_unit(
            f"{statement} {sentence}", result, value, len(statement) + 1 + match.end()
        ):
            continue  # `2 hours. That's 120 minutes.`: the result in another unit
        own_period = rate_period(sentence, match.end())
        if own_period is not None and own_period != asked:
            continue  # `$48 a day` when a week is asked
        if own_period is None and other_period:
            continue  # `Per day, that's $2.50.`
        if _COMPARED_AFTER.match(sentence, match.end()):
            continue  # `$125, which is $29 more than the electronics option`: a difference
        if value.copy_abs() in earlier and in_bracket(reader.text, at, start):
            continue  # `almost half (180)`: a value of the working, pointed at
        if own_period is None and asked is None and rate_follows(sentence, match.end()):
            continue  # `an average of about $63 per dozen`: a rate, when none is asked
        if not asks_times and _TIMES_AFTER.match(sentence, match.end()):
            continue  # `That's 13 times as many as Seattle has.`: a ratio, not a quantity
        if value.copy_abs() in earlier and not hedged:
            own, named_again = True, named_again + 1
            continue
        if not hedged or abs(value - result) < 1:
            return None  # `Maybe 266.` after 266.67: the result rounded, restated
        own = True
    if (
        own
        and not hedged
        and not remark
        and not emphasized
        and named_again < 2  # `His total investment was $130,000 and the house …$200,000.`
        and (_CHOOSES.search(sentence) or _STATES_VALUE.search(sentence))
    ):
        return None  # `…, so he chooses the electronics at $96.`: a value of the working picked
    return 1 if hedged and own else 0


# A sentence that picks one value of the working as the answer; without such a word, a value of
# the working named again is a remark (`Tuesday was the best day with 96 shirts.`).
_CHOOSES = re.compile(
    r"\b(?:choos(?:e|es|ing)|chose|pick(?:s|ed)?|select(?:s|ed)?|opt(?:s|ed)?[ \t]+for"
    r"|go(?:es)?[ \t]+with|went[ \t]+with|decide[sd]?|answer|final|total|the[ \t]+same[ \t]+as"
    r"|the[ \t]+(?:number|amount)[ \t]+of)\b",
    re.IGNORECASE,
)


def _question_data(reader: Reader, sentence: str) -> bool:
    """Whether every number of a sentence is a number of the question, with no working: the
    question's data restated after the answer."""
    if not reader.question or WORKING.search(sentence) or CONCLUDES.match(sentence):
        return False
    matches = list(reader.numbers.finditer(sentence))
    values = [value_with_fraction(match, sentence) for match in matches]
    if len(values) < 2 or _STATES_VALUE.search(sentence, 0, matches[-1].start()):
        return False  # `…, which is 30 bees.` states a value that may be the question's
    return all(value is not None and value.copy_abs() in reader.question for value in values)


def restates_data(reader: Reader, sentence: str) -> bool:
    """Whether a sentence only restates quantities of the question, each with the word the
    question counts it by (`Seattle has 20 sheep.` when the question says `Seattle has 20
    sheep`), with no working and no conclusion word."""
    if not reader.question or WORKING.search(sentence) or CONCLUDES.match(sentence):
        return False
    matches = list(reader.numbers.finditer(sentence))
    question = " ".join((reader.question_text or "").lower().split())
    for match in matches:
        value = value_with_fraction(match, sentence)
        if value is None or value.copy_abs() not in reader.question:
            return False
        if not quantity_after(sentence, match.end(), value, reader.quantities):
            return False
        # The word before it too, as the question has it (`has 20 sheep`; `Each child can have
        # one bowl` states an answer where the question says `eats one bowl`).
        before = _WORD_BEFORE.search(sentence, 0, match.start())
        after = _WORD_AFTER.match(sentence, match.end())
        if before is None or after is None:
            return False
        words = f"{before.group(1)} {match.group(0)} {after.group(1)}".lower()
        if words not in question:
            return False
    return bool(matches) and _STATES_VALUE.search(sentence) is None


_WORD_BEFORE = re.compile(r"([^\W\d_]+)[ \t]+\Z")
_WORD_AFTER = re.compile(r"[ \t]+([^\W\d_]+)")


_STATES_VALUE = re.compile(
    r"\b(?:which|that|it)[ \t]+(?:is|are|was|makes|gives|comes)\b|\b(?:so|therefore|thus|hence"
    r"|total|altogether|in[ \t]+all|same)\b|=",
    re.IGNORECASE,
)
