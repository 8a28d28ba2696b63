"""Hedges: the words by which a model does not commit to a value, and the closing guesses of a
text with no answer mark.

A text with no answer mark delivers its closing sentence's number (the last-number rule). The
definition of the delivered answer (docs/grading.md) holds there too: two **candidate answers**
offered side by side deliver none. With no mark, a candidate is a value offered as a guess,
so two candidates are

- two values in one sentence that a strong hedge word hedges, joined by nothing but
  alternative words (`I'd say 18, maybe 20.`, `Either 18 or 20?`, `18 dollars, or perhaps 20`);
- two **bare guesses** side by side: sentences of one value each, in the same unit, each hedged
  by a strong hedge word and holding little else (`Probably 18. Possibly 20.`, `My best guess:
  18. Could be 20 though.`).

Working is no guess: a value that is an operand or ruled out (`9 eggs times $2, or $18`, `Not
20, probably 18`), other words between the values (`Step 2: she probably makes $18`, `$18 per
day, or $126 per week`), the same quantity in another unit (`$18, or maybe 1800 cents`), a
sentence hedged only by `would`, `could` or `might` (`She would sell 9 eggs. She would earn
$18.`), and sentences of different quantities (`She probably has 9 eggs left. She probably
makes $18.`) all keep the value.
"""

from __future__ import annotations

import re
from functools import partial

from gsm8k.grading.alternatives import (
    GAP_WORD,
    JOINERS,
    alternatives_in_one,
    value_unit,
)
from gsm8k.grading.breakdown import breakdown_statement
from gsm8k.grading.candidates import (
    Value,
    candidate_list,
    closing_block_start,
    keyed_candidates,
    none_committed,
    offers_range,
    parallel_cases,
    per_case_block,
)
from gsm8k.grading.doubt import (
    HEDGE,
    SENTENCE_LOOK,
    UNDECIDED_LOOK,
    UNDECIDED_NOTE,
    hypothetical,
    one_of_several,
    undecided_after,
)
from gsm8k.grading.fallback import find_last_number
from gsm8k.grading.glyphs import fold_letters
from gsm8k.grading.numbers import same_number
from gsm8k.grading.reader import SENTENCE_END, WORKING_SIGN, Found, Reader
from gsm8k.grading.result_statement import result_statement
from gsm8k.grading.ruled_out import ruled_out_at
from gsm8k.grading.rules import NoAnswer
from gsm8k.grading.statement_cases import CASES_IN_SENTENCE
from gsm8k.grading.units import asked_unit, asking_text, unit_named

TWO_GUESSES = "the closing sentences offer two values, hedged: no one answer"

# The strong hedges of the languages of MGSM's questions that models answer in (German, French,
# Spanish, Italian, Portuguese, Russian; Chinese ones are matched without word boundaries).
_STRONG_ELSEWHERE = (
    r"|vielleicht|wahrscheinlich|peut[- ]être|probablement|quizás?|tal[ \t]+vez|probablemente"
    r"|forse|probabilmente|talvez|возможно|наверное"
)
# A strong hedge: not `would`, `could` or `might` alone (a conditional working step), except
# `could be` and `might be` offering a value.
_STRONG = re.compile(
    r"\b(?:maybe|perhaps|possibly|probably|conceivably|potentially|plausibly|arguably"
    r"|I[ \t]+(?:think|believe|guess|suppose)|I['’]d[ \t]+(?:say|guess)"
    r"|(?:my|best)[ \t]+guess|not[ \t]+(?:sure|certain)|unsure|alternatively|either"
    r"|(?:could|might)[ \t]+(?:also[ \t]+)?be" + _STRONG_ELSEWHERE + r")\b|也许|或许|大概|可能",
    re.IGNORECASE,
)
_ALTERNATIVE_HINT = re.compile(
    r"\b(?:or|either|vs|versus|between|to|otherwise|alternat\w+|unless|oder|ou|o|ó|или|soit"
    r"|if[ \t]+not|give[ \t]+or[ \t]+take|plus[ \t]+or[ \t]+minus|entre|zwischen|между|до)\b"
    r"|或|[—–~∼∨|±]|(?<=\d)-(?=\d)|/[ \t]*+\\?[$£€¥₹]",
    re.IGNORECASE,
)
_OPENS_ALTERNATIVE = re.compile(r"[\s*_>(]*+(?:or|alternatively|otherwise)\b", re.IGNORECASE)
_BARE_WORDS = 5
"""Most words of a bare guess besides its hedge words (`My best guess: 18.`, `Could be 20
though.`)."""
_WORDS = re.compile(r"[^\W\d_]{2,}")
_LOOK = 400
"""Characters at the end of a text in which its closing sentences are read."""


def _closing(reader: Reader) -> tuple[Reader, list[tuple[int, int]]]:
    """The text as its words read (look-alike letters and invisible marks folded), and its
    closing sentences that hold a digit."""
    text = fold_letters(reader.text)
    if text != reader.text:
        reader = reader.with_text(text)
    start = max(0, len(text) - _LOOK)
    sentences = [s for s in _sentences(text, start) if any(c.isdigit() for c in text[s[0] : s[1]])]
    return reader, sentences


def closing_guesses(reader: Reader) -> tuple[str, Found] | NoAnswer | None:
    """What the closing sentences of a text with no answer mark deliver when they guess: none for
    two guesses, the statement a hedged alternative follows, else ``None`` (the last number)."""
    result = result_statement(reader)
    if result is not None and (
        _conditional_after(reader.text, result) or _bold(reader.text, result)
    ):
        # `The sale price is **$30**. Alternatively, if the discount were applied twice, the
        # price would be $22.50.`: one conditional alternative after a committed statement.
        return "last_number", result
    if two_guesses(reader) or _hedged_then_alternative(reader):
        return NoAnswer(TWO_GUESSES)
    last = reader.numbers.search(reader.text, max(0, len(reader.text) - UNDECIDED_LOOK))
    if last is not None and undecided_after(reader.text, last.start()):
        return NoAnswer(UNDECIDED_NOTE)
    result = result or breakdown_statement(reader)
    if result is not None:
        return "last_number", result  # `He made $70,000. In percentage terms, that's about 54%.`
    committed = committed_before_guess(reader)
    stated = None if committed is None else find_last_number(committed)
    return None if stated is None else ("last_number", stated)


def _hedged_then_alternative(reader: Reader) -> bool:
    """Whether the closing sentences state a value hedged (`The answer might be 160 minutes.`,
    `Perhaps the answer is 9?`) and then open an alternative with another value (`Alternatively,
    …, it would be … = 120 minutes.`, `Or it might be 5 if …`): two guesses, none committed."""
    reader, sentences = _closing(reader)
    if len(sentences) < 2:
        return False
    text = reader.text
    last_start, last_end = sentences[-1]
    offered = _values(reader, last_start, last_end)
    if not offered or _OPENS_ALTERNATIVE.match(text, last_start) is None:
        return False
    for start, end in sentences[-4:-1]:
        hedge = _STRONG.search(text, start, end)
        values = _values(reader, start, end) if hedge is not None else []
        if any(value[1] > hedge.start() for value in values if hedge is not None):
            return not any(same_number(value[0], offered[-1][0]) for value in values)
    return False


# An alternative under a condition (a bare `If …` may be one of several cases).
_CONDITIONAL_OPENING = re.compile(
    r"\s*+[*_(]*(?:alternatively|otherwise|however|but)[ \t,]+(?:if|assuming|suppose"
    r"|in[ \t]+case)\b",
    re.IGNORECASE,
)


def _bold(text: str, result: Found) -> bool:
    """Whether the result statement's value is set in bold: the model's own emphasis, which a
    hedged guess after it does not undo (`**Ava has 70 stickers left.**` then a table)."""
    at = text.rfind(result[1])
    line_start = text.rfind("\n", 0, max(at, 0)) + 1
    return at >= 0 and text.count("**", line_start, at) % 2 == 1


def _conditional_after(text: str, result: Found) -> bool:
    """Whether the only sentence with a number after the result statement's sentence opens on
    an alternative under a condition (`Alternatively, if the discount were applied twice, the
    price would be $22.50.`)."""
    at = text.rfind(result[1])
    closed = SENTENCE_END.search(text, at + len(result[1])) if at >= 0 else None
    if closed is None:
        return False
    starts = [closed.end()] + [end.end() for end in SENTENCE_END.finditer(text, closed.end())]
    with_numbers = [
        start
        for start, end in zip(starts, [*starts[1:], len(text)], strict=True)
        if any(char.isdigit() for char in text[start:end])
    ]
    return len(with_numbers) == 1 and _CONDITIONAL_OPENING.match(text, with_numbers[0]) is not None


def committed_before_guess(reader: Reader) -> Reader | None:
    """The text up to a committed statement that a closing hedged alternative follows (`She makes
    $18. Or maybe $20.`, `It's 18. Maybe 20.`): the statement stands, as after an answer mark.
    The statement is a sentence of one value with no hedge and no working; the guess one other
    value of the same unit and little else, opened by a strong hedge word or by `Or`."""
    reader, sentences = _closing(reader)
    if len(sentences) < 2:
        return None
    (before_start, before_end), (last_start, last_end) = sentences[-2:]
    text = reader.text
    scenario = hypothetical(text[last_start:last_end])
    if text[before_end:last_start].strip() or not (
        scenario
        or _bare_guess(reader, last_start, last_end, True)
        or _hedged_guess(reader, last_start, last_end)
    ):
        return None
    statement = text[before_start:before_end]
    if HEDGE.search(statement) or WORKING_SIGN.search(statement):
        return None
    stated = _values(reader, before_start, before_end)
    guessed = _values(reader, last_start, last_end)
    if not guessed or len(stated) != 1 or abs(stated[0][0] - guessed[-1][0]) < 1:
        # A sentence of several values is working, not a bare statement; the statement's value
        # rounded (`266.67 cups. Maybe 266.`) is no alternative to it.
        return None
    units = value_unit(text, stated[0]), value_unit(text, guessed[-1])
    # A guess with no unit is an alternative to a statement that points back (`it could be 230`)
    # or that states the unit the question asks for (`She eats 6 dozen eggs. Could be 7.`).
    asked = asked_unit(reader.question_text)
    counted = _ASKED_NOUN.search(asking_text(reader.question_text))
    refers_back = not units[1] and (
        _REFERS_BACK.search(text, last_start, guessed[-1][1]) is not None
        or (asked is not None and unit_named(units[0].split(" ")[0]) == asked)
        # `It takes 3 bolts in total.` when the question asks how many bolts
        or (counted is not None and units[0].rstrip("s") == counted.group(1).rstrip("s"))
    )
    if (
        units[0] != units[1]
        and not refers_back
        and not (scenario and units[0].split(" per ")[0] == units[1])
    ):
        # A scenario's value may leave out the rate (`$18 a day. If …, $16.`), and a guess that
        # points back to the statement its unit (`150 miles. Then again, it could be 230 if …`).
        return None
    return reader.with_text(text[:before_end])


def two_guesses(reader: Reader) -> bool:
    """Whether the text's closing sentences, read with no answer mark, offer two candidates."""
    if "**" in reader.text:
        # `She has **18** or **20** eggs.`: bold marks are no operators (same length, so every
        # position read stays where it was).
        reader = reader.with_text(reader.text.replace("**", "  "))
    reader, sentences = _closing(reader)
    text = reader.text
    if not sentences:
        return False
    last_start, last_end = sentences[-1]
    last = text[last_start:last_end]
    if one_of_several(last) and _values(reader, last_start, last_end):
        return True
    # A value the sentence rules out is no candidate (`Verification: 187 ✓ (234 ✗)`).
    values = [
        v for v in _values(reader, last_start, last_end) if not ruled_out_at(text, v[1], v[2])
    ]
    if candidate_list(text, last_start, last_end, values, value_unit, JOINERS):
        return True
    block_start = closing_block_start(text, max(0, len(text) - _LOOK))
    if per_case_block(text[block_start:], _values(reader, block_start, len(text))):
        return True
    # `If at $2: $18.` / `If at $3: $27.`; `3 if it means total bolts, 2 if blue only`. Read on
    # the sentence's last characters: a flood with no sentence end is one sentence of any length.
    tail = last[-_TAIL_LOOK:]
    if CASES_IN_SENTENCE.search(tail) or parallel_cases(text, partial(_values, reader)):
        return True
    if offers_range(tail) or _slash_pair(tail):
        return True  # `He spends $75 to $80 over 30 days.`, `He runs 540m/180m a week.`
    line_start = max(text.rfind("\n", 0, len(text.rstrip())) + 1, len(text) - _TAIL_LOOK)
    if keyed_candidates(text[line_start:]):
        return True  # `{"literal": 48, "intended": 60}`
    if none_committed(text, _values(reader, line_start, len(text)), partial(_hedged_at, text)):
        return True  # `Final: 32?? 36??`, `So $18... I think? Maybe $20.`
    strong = _STRONG.search(last) is not None
    if not strong and not _ALTERNATIVE_HINT.search(last):
        return False
    values = _values(reader, last_start, last_end)
    delivered = find_last_number(reader) if not strong else None
    if alternatives_in_one(text, values, offered=not strong, delivered=delivered):
        return True
    if not strong or len(sentences) < 2 or not _bare_guess(reader, last_start, last_end):
        return False
    before_start, before_end = sentences[-2]
    between = text[before_end:last_start]
    if any(c.isdigit() for c in between) or len(_WORDS.findall(between)) > 3:
        return False  # not side by side
    earlier = _values(reader, before_start, before_end)
    return (
        _bare_guess(reader, before_start, before_end)
        and not same_number(earlier[0][0], values[0][0])
        and value_unit(text, earlier[0]) == value_unit(text, values[0])
    )


# Two values of one unit joined by a slash (`540m/180m`, `$294/$2058`, `10 mph / 12 mph`): a
# division of like quantities is no answer a question asks for, so the slash offers a choice.
_OPERATOR_AFTER = re.compile(r"[ \t)]*(?:[×*+÷/=-]|\b(?:times|plus|minus|divided)\b)")
_SLASH_PAIR = re.compile(
    r"(?<![\d/.,$£€¥₹\\])(?P<sign>\\?[$£€¥₹]?)(?P<one>\d[\d,]*+(?:\.\d+)?)[ \t]*+"
    r"(?P<unit>[A-Za-z%]{0,8})[ \t]*+/[ \t]*+(?P=sign)(?P<two>\d[\d,]*+(?:\.\d+)?)[ \t]*+"
    r"(?P=unit)(?![\d/]|(?<=[A-Za-z%])[A-Za-z])"
)


def _slash_pair(tail: str) -> bool:
    """Whether a closing sentence offers two values joined by a slash, each with the same unit or
    currency (a bare pair is a fraction: `2/4 or 50%`)."""
    if "=" in tail:
        return False  # working: `48 inches / 6 inches per piece = 8 pieces`
    for pair in _SLASH_PAIR.finditer(tail):
        if _OPERATOR_AFTER.match(tail, pair.end()) or tail[pair.start() - 1 : pair.start()] == "(":
            continue  # `(12/20) * 100`
        if pair.group("sign") or pair.group("unit"):
            return True
    return False


def _hedged_at(text: str, start: int) -> bool:
    """Whether a strong hedge word stands before ``start`` in its sentence (not `would`: `it
    would take 12 minutes` states 12)."""
    before = text[max(0, start - SENTENCE_LOOK) : start]
    # A hedge reaches to the end of its clause: `You might be tempted to say 12, but the school
    # needs 36 teachers.` states 36.
    opened = max(before.rfind(mark) for mark in (". ", "! ", "? ", "\n", " but ", "; "))
    return _STRONG.search(before, opened + 1) is not None


_TAIL_LOOK = 400  # characters of a closing sentence read for cases, ranges and open values
# A condition or a doubt that closes a guess (`, if …`, ` if we need …`, `, but I'm not sure`).
_CLOSING_CONDITION = re.compile(
    r",[ \t]*(?:if|assuming|since|because|when|unless|depending)\b"
    r"|[ \t](?:if|assuming|unless|depending[ \t]+on)[ \t]|,?[ \t]+but[ \t]+I['’]m[ \t]+not\b",
    re.IGNORECASE,
)


def _bare_guess(reader: Reader, start: int, end: int, opened: bool = False) -> bool:
    """A sentence that is one hedged value and little else: no working, one value, a strong
    hedge word (or, with ``opened``, an opening `Or`), a few other words."""
    sentence = reader.text[start:end]
    hedged = _STRONG.search(sentence) is not None or (
        opened and _OPENS_ALTERNATIVE.match(sentence) is not None
    )
    if not hedged or WORKING_SIGN.search(sentence) is not None:
        return False
    if len(_values(reader, start, end)) != 1:
        return False
    # A condition that closes the guess is its reason, not more words (`Possibly 20, if the
    # morning meal counts differently.`).
    core = _CLOSING_CONDITION.split(sentence, 1)[0]
    others = [w for w in GAP_WORD.findall(core) if w.lower() not in JOINERS]
    return len(others) <= _BARE_WORDS


def _hedged_guess(reader: Reader, start: int, end: int) -> bool:
    """A sentence of one value, no working, with a strong hedge before the value in its clause
    (`Then again, it could be 230 if you include the first day.`, `Though I suppose it might be
    14.`): a guess, however many words carry it."""
    values = _values(reader, start, end)
    if len(values) != 1 or WORKING_SIGN.search(reader.text, start, end) is not None:
        return False
    hedged = _hedged_at(reader.text, values[0][1]) or (
        _OPENS_ALTERNATIVE.match(reader.text, start) is not None  # `Or $75 with the discount.`
    )
    return hedged and not _CONCLUDES_BEFORE.search(reader.text, start, values[0][1])


_ASKED_NOUN = re.compile(r"\bhow[ \t]+many[ \t]+([a-z]{3,20})\b")
_REFERS_BACK = re.compile(r"\b(?:it|that)[ \t]+(?:could|might|may|would)\b", re.I)
_CONCLUDES_BEFORE = re.compile(r"\b(?:so|therefore|thus|hence|actually|instead)\b", re.I)


def _sentences(text: str, start: int) -> list[tuple[int, int]]:
    """The sentences of ``text[start:]`` as spans (the first one possibly cut at ``start``)."""
    spans = []
    for end in SENTENCE_END.finditer(text, start):
        spans.append((start, end.end()))
        start = end.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


def _values(reader: Reader, start: int, end: int) -> list[Value]:
    """The numbers of ``reader.text[start:end]``: value and span, in text order."""
    found = []
    for match in reader.numbers.finditer(reader.text, start, end):
        value = reader.value_of(match.group(0))
        if value is not None:
            found.append((value, match.start(), match.end()))
    return found
