"""The last-number fallback: the last number that is not a label, a list marker or a question.

A program's printed result (a ToRA-style ```` ```output ```` block) wins when the closing prose
restates it, or states only numbers of the question. When the sample's question is known, a
concluding sentence's last number that restates a quantity of the question ("Maya spends $45 on
the 9 notebooks.") gives way to the number the sentence computed (45): the last number of the
sentence that the question does not state (:mod:`gsm8k.grading.question`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from gsm8k.grading.numbers import normalize, same_number, value_with_fraction
from gsm8k.grading.question import (
    COMPARED_HINT,
    POSITION_BEFORE,
    asks_remainder,
    derived_restatement,
    in_bracket,
    in_comparison,
    in_complement,
    in_description,
    in_reason,
    restates_question,
)
from gsm8k.grading.reader import SENTENCE_END, Found, Reader
from gsm8k.grading.ruled_out import WRONG_HINT, ruled_out_at
from gsm8k.grading.units import asked_unit, asking_text

_PROGRAM_OUTPUT = re.compile(r"```output[ \t]*\n(?P<body>[^`]{0,200})```")
_LABEL_BEFORE = re.compile(r"(?:[#№/]|\bNo\.[ \t]?)$")
# A difference named after a value (`$10 less than the full $30`): a comparison, not a result.
_COMPARISON = re.compile(
    r"[ \t]*+(?:[A-Za-z]{1,12}[ \t]++)?(?:less|more|fewer|greater|cheaper|longer|shorter|older"
    r"|younger|higher|lower)[ \t]++than\b",
    re.IGNORECASE,
)
# A result named after the working's last one (`630 divided by 9, which equals 70`): the
# sentence computes further, and its last value is its own.
_RESULT_WORD = re.compile(
    r"\b(?:equals?|which[ \t]+is|comes[ \t]+to|gives|makes)[ \t]*+\\?\$?[ \t]?\d[\d,.]*+"
    r"[^\d\n]{0,30}$",
    re.IGNORECASE,
)
_DIFFERENCE_ASKED = re.compile(
    r"\b(?:more|less|fewer|greater|cheaper|longer|shorter|older|younger|higher|lower)\b"
)
# A check of the answer against the question after it: `Check: 12 * 25 = 300.`, `… = 300 ✓`.
_CHECK = re.compile(
    r"(?:^|\n)[ \t*_#>-]*+(?:check(?:ing)?|verify|verification|double[- ]check|sanity[ \t]+check"
    r"|proof)\b|[✓✔]",
    re.IGNORECASE,
)
_NOTE = re.compile(r"\s*+\([^()]*+\)?[\s.]*+\Z")
_RESULT_BEFORE = re.compile(r"(?:=|>>)[ \t]?(?:\*\*|__)?\\?\$?[ \t]?$")
# A list marker has its item on its line: a bare ` 18. ` line is a number, not a marker.
_LIST_MARKER = re.compile(r"[.)][ \t]++[^\s]")
_LINE_START_BEFORE = re.compile(r"\n[ \t]*$")
# A sentence end, except the period of a title or common abbreviation (`Mrs. Smith pays $20`).
_SENTENCE_END = re.compile(
    r"(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bDr)(?<!\bSt)(?<!\bJr)(?<!\bSr)(?<!\bvs)(?<!\betc)"
    r"(?<!\be\.g)(?<!\bi\.e)(?<!\bapprox)(?<!\bNo)"
    rf"(?:{SENTENCE_END.pattern})"
)


def find_last_number(reader: Reader) -> Found | None:
    if _only_echoes_question(reader):
        return None  # the question copied back, nothing computed: its last number is no answer
    printed = _program_result(reader)
    if printed is not None:
        value, closing_start = printed
        closing = _scan_numbers(reader, closing_start, value)
        if closing.last is None or closing.saw_wanted or closing.only_question:
            # The closing prose restates the program's result, states no number at all, or only
            # numbers of the question ("Three trucks … to transport 80 flagstones"): the printed
            # number is the answer, not a number the prose repeats from the question.
            return value, f"printed {normalize(value)}"
    return _scan_tail(reader)


_MOST_REMEMBERED = 4_096
"""Most computed values a scan remembers (memory stays bounded on a flood of working)."""
_TAIL = 16_000
"""Characters at the end of a long text in which its last number is looked for first."""


def _scan_tail(reader: Reader) -> Found | None:
    """The last number, read from the last lines of a long text when they hold one: a flood of
    numbers before them (100,000 in 200 KB) need not each be read for a value."""
    text = reader.text
    if len(text) > 2 * _TAIL:
        cut = len(text) - _TAIL
        # At a line or sentence start when there is one near, else between two words.
        start = max(text.rfind("\n", cut - _TAIL, cut), text.rfind(". ", cut - _TAIL, cut)) + 1
        start = start or text.rfind(" ", 0, cut) + 1
        if start > 0:
            last = _scan_numbers(reader, start, None).last
            if last is not None:
                return last
    return _scan_numbers(reader, 0, None).last


def _only_echoes_question(reader: Reader) -> bool:
    """Whether the text holds the sample's question word for word and no digit besides."""
    if not reader.question_text:
        return False
    question = " ".join(reader.question_text.split())
    text = " ".join(reader.text.split())
    rest = text.replace(question, " ") if question else text
    return rest != text and not any(char.isdigit() for char in rest)


@dataclass
class _Scan:
    last: Found | None = None
    saw_wanted: bool = False
    only_question: bool = False
    """Whether the last sentence with numbers states only numbers of the question."""
    computed: bool = False
    """Whether ``last`` is a number its sentence computed (not one of the question's)."""


@dataclass
class _Sentence:
    """The numbers of the sentence being read: its last, and its last the question lacks."""

    last: Found | None = None
    last_restates: bool = False
    fresh: Found | None = None
    kept: Found | None = None
    """The last number that does not restate the question (`run **10 cycles** … for $1.`)."""
    bold: Found | None = None
    wanted: bool = False
    result: Found | None = None
    """A number equal to the result of the working's last computation (`= 12`) before it."""
    computed: list[Decimal] = field(default_factory=list)
    """The values the sentence computes (after `=`)."""


def _scan_numbers(reader: Reader, start: int, wanted: Decimal | None) -> _Scan:
    """The last number from ``start`` on that is not a label, a list marker or in a question.

    A question that shows working (``= 7 bars?``) still counts: only a restated question, with no
    ``=`` in it, is skipped. One forward pass over numbers and sentence ends together; only the
    current sentence's last number is held, so memory stays constant however many numbers the
    text has.
    """
    text = reader.text
    result = _Scan()
    sentence = _Sentence()
    sentence_start = start
    skip_until = -1
    last_result: Decimal | None = None
    # Values the working computed in earlier sentences: a closing sentence that names the last
    # result and goes on to one of these restates a part of the working (`$460 …, 5 of which`).
    computed_before: set[Decimal] = set()
    # `How many more hours …?`: a difference is the answer, not a comparison beside it.
    asks_difference = _DIFFERENCE_ASKED.search(asking_text(reader.question_text)) is not None
    asks_percent = any(word in asking_text(reader.question_text) for word in ("%", "percent"))
    asks_time = asked_unit(reader.question_text) in _TIME_UNITS
    asks_rest = asks_remainder(asking_text(reader.question_text))

    def _in_question(found: Found) -> bool:
        return found[0].copy_abs() in reader.question

    def close_sentence(end: int) -> None:
        nonlocal sentence, sentence_start
        computed_now = sentence.computed
        question = text[end : end + 1] in ("?", "？")
        restated_question = question and "=" not in text[sentence_start:end]
        if sentence.last is not None and not restated_question:
            # "Maya spends $45 on the 9 notebooks.": the 9 restates the question, 45 is computed.
            # When the answer is itself a number of the question, the sentence's emphasized
            # (bold) number, else its last number that is not restated, is the one it computed.
            chosen = sentence.last
            if sentence.last_restates:
                chosen = sentence.fresh or sentence.bold or sentence.kept or sentence.last
            restated = sentence.result
            if (
                restated is not None
                and chosen[0] != restated[0]
                and (_in_question(chosen) or chosen[0] in computed_before)
                and not _RESULT_WORD.search(text, max(0, sentence_start, end - 200), end)
            ):
                # "She pays $20, which is $10 less than the full $30.", "He saves for 12 days to
                # buy the bike that costs $300.": the sentence names the working's last result
                # and goes on to restate the question; the result is what it delivers.
                chosen = sentence.fresh = restated
            only_restates = sentence.last_restates and chosen is sentence.last
            checks = _CHECK.search(text, sentence_start, end) is not None
            # A note in brackets after the answer (`(The guesses were 80, 60 and 100.)`).
            noted = result.last is not None and _NOTE.match(text, sentence_start, end) is not None
            if ((only_restates or checks) and result.computed) or noted:
                # "She makes $18 a day. She sells at $2 each.": a closing sentence that only
                # restates the question does not take back the result computed before it.
                sentence, sentence_start = _Sentence(), end + 1
                if len(computed_before) < _MOST_REMEMBERED:
                    computed_before.update(computed_now)
                return
            result.last = chosen
            result.computed = not only_restates and (
                chosen is sentence.fresh or chosen is sentence.bold
            )
            result.saw_wanted = result.saw_wanted or sentence.wanted
            result.only_question = bool(reader.question) and sentence.fresh is None
        sentence, sentence_start = _Sentence(), end + 1
        if len(computed_before) < _MOST_REMEMBERED:
            computed_before.update(computed_now)

    ends = _SENTENCE_END.finditer(text, start)
    end = next(ends, None)
    hinted_from, hints = -1, (False, False)
    for match in reader.numbers.finditer(text, start):
        while end is not None and end.start() < match.start():
            close_sentence(end.start())
            end = next(ends, None)
        if hinted_from != sentence_start:
            # Whether the sentence holds a comparison word, or a word that calls a value wrong:
            # looked for once a sentence, not at every number of a flood.
            hinted_from, stop = sentence_start, len(text) if end is None else end.end()
            hints = (
                COMPARED_HINT.search(text, sentence_start, stop) is not None,
                WRONG_HINT.search(text, sentence_start, stop) is not None,
            )
        if match.start() < skip_until:
            continue  # the fraction of a mixed number read whole (`3 2/5`)
        if _LABEL_BEFORE.search(text, max(0, match.start() - 4), match.start()):
            # `horse #12`, `No. 3`, or the denominator of a fraction read with its numerator.
            continue
        if _LIST_MARKER.match(text, match.end()) and _starts_line(text, match.start()):
            continue
        if ruled_out_at(text, match.start(), match.end(), called_wrong=hints[1]):
            continue  # `The answer is NOT 18.`, `18 is wrong`: a value ruled out is not the answer
        mixed = reader.mixed_at(match, text)
        value, number_end = mixed if mixed is not None else (None, match.end())
        if mixed is not None:
            skip_until = number_end
        else:
            value = value_with_fraction(match, text)
        if value is None:
            continue
        found = (value, text[match.start() : number_end])
        in_question = value.copy_abs() in reader.question
        earlier = sentence.last
        sentence.last = found
        bold = _in_bold(text, sentence_start, match.start())
        # A number after `=` is the result of working (`20*3=60 meters`), never a restatement.
        computed = _RESULT_BEFORE.search(text, max(0, match.start() - 4), match.start())
        # After the sentence's result, a premise clause's numbers restate its reasons (`$20 a
        # day, since 9 eggs × $2 = $18`).
        premise = (
            sentence.fresh is not None
            and (
                in_reason(text, match.start(), sentence_start)
                or (
                    # The clauses below end on a word right before the number: a number after a
                    # digit or a sign (a flood of `1 1 1 …`) is none of them, found cheaply.
                    _WORD_RIGHT_BEFORE.search(text, max(0, match.start() - 4), match.start())
                    is not None
                    and (
                        # Without the question, what a value was found for cannot be told.
                        in_description(text, match.start(), sentence_start, bool(reader.question))
                        or (not asks_rest and in_complement(text, match.start()))
                        or POSITION_BEFORE.search(text, max(0, match.start() - 14), match.start())
                        is not None
                    )
                )
                or (
                    hints[0]
                    and computed is None
                    and in_comparison(text, match.start(), sentence_start)
                )
            )
        ) or (
            earlier is not None
            and computed is None
            and in_bracket(text, match.start(), sentence_start)
        )
        if (
            sentence.fresh is not None
            and computed is None
            and not asks_difference
            and _COMPARISON.match(text, number_end)
        ):
            premise = True  # `$59, which is $24 more than the base plan`: a difference beside it
        if (
            sentence.fresh is not None
            and computed is None
            and not asks_time
            and _SCOPE_BEFORE.search(text, max(sentence_start, match.start() - 24), match.start())
            and _PERIOD_AFTER.match(text, number_end)
        ):
            premise = True  # `210 miles over the 4 hours of the trip`: the time it took
        if sentence.fresh is not None and computed is None and not asks_percent:
            # `Mark has 35 flowers, of which 20% are green.`, `a profit of $70,000 — a return of
            # about 54%`: a ratio beside the value, when none is asked (`0.7, or 70%` restates
            # the value itself).
            premise = premise or (
                _PERCENT_AFTER.match(text, number_end) is not None
                and not same_number(value, sentence.fresh[0] * 100)
            )
        sentence.last_restates = (
            in_question
            and not bold
            and computed is None
            and restates_question(
                text, match.start(), number_end, value, reader.quantities, sentence_start
            )
        )
        means = _MEANS_BEFORE.search(text, max(0, match.start() - _MEANS_LOOK), match.start())
        if premise:
            sentence.last_restates = True
        elif means is not None and sentence.fresh is not None:
            # "So Janet makes $18 by selling 9 eggs.": the 9 is the means, 18 the result.
            sentence.last_restates = True
        elif computed is not None or (
            not in_question
            and not derived_restatement(
                reader.numbers, reader.question, text, (match.start(), number_end), sentence_start
            )
            and not (_COMPARISON.match(text, number_end) and not asks_difference)
        ):
            sentence.fresh = found
        if bold:
            sentence.bold = found
        if not sentence.last_restates:
            sentence.kept = found
        sentence.wanted = sentence.wanted or (wanted is not None and value == wanted)
        if computed is not None:
            sentence.computed.append(value)
        if (
            computed is not None
            and not premise
            # `So out of the 8 × 14 = 112 plants, 103 are left.`: the whole, not the result
            and not _OUT_OF.search(text, max(sentence_start, match.start() - 80), match.start())
        ):
            last_result = value
            sentence.result = found  # the sentence computes its own result (`$10 - $7 = $3`)
        elif value == last_result and sentence.result is None:
            sentence.result = found
    close_sentence(len(text) if end is None else end.start())
    return result


_SCOPE_BEFORE = re.compile(
    r"\b(?:over|during|across|within|in)[ \t]+(?:the|all|those|these|his|her|their)?[ \t]*$",
    re.IGNORECASE,
)
_PERIOD_AFTER = re.compile(
    r"[ \t-]*(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b", re.I
)
_TIME_UNITS = frozenset(("second", "minute", "hour", "day", "week", "month", "year"))
_PERCENT_AFTER = re.compile(r"[ \t]*(?:%|percent\b|per[ \t]+cent\b)", re.IGNORECASE)
_MEANS_BEFORE = re.compile(
    r"\bby[ \t]++[A-Za-z]{2,20}ing[ \t]++(?:(?:the|all|her|his|their|those|these)[ \t]++)?\$?\Z",
    re.IGNORECASE,
)
_MEANS_LOOK = 50
_WORD_RIGHT_BEFORE = re.compile(r"[^\W\d_][ \t\u00a0$]{0,3}\Z")
_OUT_OF = re.compile(r"\bout[ \t]+of[ \t]+(?:the[ \t]+|all[ \t]+)?[^,.;:!?\n]*\Z", re.IGNORECASE)


def _in_bold(text: str, sentence_start: int, position: int) -> bool:
    """Whether ``position`` is inside a markdown bold span opened in its sentence (bounded)."""
    return text.count("**", max(sentence_start, position - _BOLD_LOOK), position) % 2 == 1


_BOLD_LOOK = 200
"""Characters before a number in which the bold span around it is looked for."""


def _starts_line(text: str, position: int) -> bool:
    """Whether only spaces stand between ``position`` and the start of its line (bounded look)."""
    before = text[max(0, position - 8) : position]
    if position <= 8 and not before.strip(" \t"):
        return True
    return _LINE_START_BEFORE.search(before) is not None


def _program_result(reader: Reader) -> tuple[Decimal, int] | None:
    """The number the last ```output block printed, and where the text after it starts."""
    text = reader.text
    start = text.rfind("```output")
    block = _PROGRAM_OUTPUT.match(text, start) if start >= 0 else None
    if block is None:
        return None
    body = block.group("body").strip()
    match = reader.numbers.fullmatch(body)
    value = None if match is None else value_with_fraction(match, body)
    return None if value is None else (value, block.end())
