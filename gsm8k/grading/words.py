"""English numbers written in words (``eighteen``, ``twenty-five``, ``one hundred and five``).

Read only where a final answer is stated in words and holds no digit (``ANSWER: eighteen``,
``\\boxed{twelve}``): there the words are the answer, and a number of the working before them is
not. Elsewhere words are never read as numbers (``one of them``, ``each one``).
"""

from __future__ import annotations

import re
from decimal import Decimal

from gsm8k.grading.words_other import foreign_number, foreign_states_one_value

_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
_UNITS += ["eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"]
_UNITS += ["eighteen", "nineteen"]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
SMALL_NUMBER_WORDS: dict[str, int] = {word: value for value, word in enumerate(_UNITS)}
SMALL_NUMBER_WORDS.update({word: 20 + 10 * index for index, word in enumerate(_TENS)})
"""Number words that stand for one value on their own."""
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_WORDS_LIMIT = 40
"""Most words one number may span (a bound that keeps reading linear)."""
_WORD = re.compile(r"[A-Za-z]+")
_GAP = re.compile(r"[ \t-]*")
_MINUS = re.compile(r"(?:minus|negative)[ \t]+$", re.IGNORECASE)


def number_in_words(text: str) -> Decimal | None:
    """The first English number written in words in ``text``, or ``None`` when there is none.

    ``a hundred`` and ``a dozen`` count; a number word inside a longer word (``someone``) does
    not. ``minus``/``negative`` before it makes it negative. Without English number words, the
    number words of the other languages read (``dieciocho``, ``sieben``, ``十三``) are read.
    """
    words = list(_WORD.finditer(text))
    for index, word in enumerate(words):
        if _value_word(word.group(0)):
            value = _read_from(text, words, index)
            negative = _MINUS.search(text, max(0, word.start() - 12), word.start())
            return -value if negative else value
    return foreign_number(text)


def _value_word(word: str) -> bool:
    lowered = word.lower()
    return lowered in SMALL_NUMBER_WORDS or lowered in _SCALES or lowered == "dozen"


def _read_from(text: str, words: list[re.Match[str]], start: int) -> Decimal:
    """The value of the run of number words from ``words[start]`` on (`a hundred` is 100)."""
    total, current = 0, 0
    before = words[start - 1].group(0).lower() if start > 0 else ""
    if before == "a" and words[start].group(0).lower() in (*_SCALES, "dozen"):
        current = 1
    previous_end, after_scale = None, False
    for word in words[start : start + _WORDS_LIMIT]:
        lowered = word.group(0).lower()
        if previous_end is not None:
            gap = text[previous_end : word.start()]
            if lowered == "and" and after_scale and _GAP.fullmatch(gap):
                previous_end = word.end()  # `one hundred and five`, never `three and four`
                continue
            if not _GAP.fullmatch(gap):
                break
        if lowered in SMALL_NUMBER_WORDS:
            current += SMALL_NUMBER_WORDS[lowered]
        elif lowered == "dozen":
            current = (current or 1) * 12
        elif lowered == "hundred":
            current = (current or 1) * 100
        elif lowered in _SCALES:
            total += (current or 1) * _SCALES[lowered]
            current = 0
        else:
            break
        previous_end, after_scale = word.end(), lowered in _SCALES
    return Decimal(total + current)


_NEGATED_WORDS = re.compile(r"\b(?:not|never|hardly)\b|n['’]t\b", re.IGNORECASE)


def words_state_one_value(text: str) -> bool:
    """Whether number words state one value: not negated (`not fifty`), not two runs of number
    words with other words between (`sixteen or eighteen`, `thirty-seven? seventy?`)."""
    words = list(_WORD.finditer(text))
    first = next((i for i, word in enumerate(words) if _value_word(word.group(0))), None)
    if first is None:
        return foreign_states_one_value(text)  # `sieben oder acht`, `不是三`
    if _NEGATED_WORDS.search(text, 0, words[first].start()):
        return False
    runs, in_run = 0, False
    for word in words[first:]:
        lowered = word.group(0).lower()
        numeric = _value_word(lowered) or (in_run and lowered == "and")
        if numeric and not in_run and lowered != "and":
            runs += 1
        in_run = numeric
    return runs < 2


def word_runs(text: str, dozens_asked: bool = False) -> list[tuple[int, int, str]]:
    """Each run of English number words in ``text``: where it starts and ends, and its value in
    digits (`thirty-five` is `35`, `one hundred and five` is `105`). `dozen` after a count is its
    unit, kept for the unit rules (`seven dozen` is `7 dozen`); `a dozen` is `12`, or `1 dozen`
    when dozens are asked. Linear: each word is read once."""
    words = list(_WORD.finditer(text))
    runs: list[tuple[int, int, str]] = []
    index = 0
    while index < len(words):
        if not _value_word(words[index].group(0)):
            index += 1
            continue
        start, stop, total, current = index, index, 0, 0
        lowered = words[index].group(0).lower()
        opener = words[index - 1] if index > 0 else None
        article = (
            opener is not None
            and lowered in (*_SCALES, "dozen")
            and opener.group(0).lower() == "a"
            and _GAP.fullmatch(text[opener.end() : words[index].start()]) is not None
        )
        unit = ""
        while stop < len(words) and stop - start < _WORDS_LIMIT:
            lowered = words[stop].group(0).lower()
            if stop > start:
                gap = text[words[stop - 1].end() : words[stop].start()]
                after_scale = words[stop - 1].group(0).lower() in _SCALES
                if lowered == "and" and after_scale and _GAP.fullmatch(gap):
                    following = words[stop + 1].group(0) if stop + 1 < len(words) else ""
                    if following.lower() in SMALL_NUMBER_WORDS:
                        stop += 1  # `one hundred and five`, never `three and four`
                        continue
                if not _GAP.fullmatch(gap) or gap.count("-") > 1:
                    break
            if lowered in SMALL_NUMBER_WORDS and not _joins(current, SMALL_NUMBER_WORDS[lowered]):
                break  # `nine ten`: two numbers side by side, never 19
            if lowered in SMALL_NUMBER_WORDS:
                current += SMALL_NUMBER_WORDS[lowered]
            elif lowered == "dozen" and (current or total):
                unit = " dozen"  # `seven dozen eggs`: the count, and its unit
                stop += 1
                break
            elif lowered == "dozen":
                current, unit = (1, " dozen") if dozens_asked else (12, "")
            elif lowered in _SCALES and lowered != "hundred":
                total += (current or 1) * _SCALES[lowered]
                current = 0
            elif lowered == "hundred":
                current = (current or 1) * 100
            else:
                break
            stop += 1
        begin = opener.start() if article and opener is not None else words[start].start()
        runs.append((begin, words[stop - 1].end(), f"{total + current}{unit}"))
        index = stop
    return runs


def _joins(current: int, value: int) -> bool:
    """Whether a small number word continues the number read so far: the first word, after a
    scale (`hundred five`), or a unit after a tens word (`twenty five`)."""
    tens = current % 100
    return current == 0 or tens == 0 or (tens % 10 == 0 and tens >= 20 and value < 10)


_WORD_JOINER = re.compile(r"\b(?:or|to|and/or)\b|/", re.IGNORECASE)


def words_offered(stated: str) -> bool:
    """Whether a statement in words offers two values joined by `or` or `to` (`eighteen or
    twenty`, `twenty to twenty-five`); `one hundred and five` is one value."""
    # Its first and last characters (bounded), so a flood of `eighteen or eighteen or …` that
    # ends on another value is read at both ends.
    head = _WORD_JOINER.split(stated[:_OFFER_LOOK])
    tail = _WORD_JOINER.split(stated[-_OFFER_LOOK:])[1:] if len(stated) > _OFFER_LOOK else []
    parts = head[:-1] + tail if tail else head
    values = {number_in_words(part) for part in parts}
    return len(parts) > 1 and None not in values and len(values) > 1


_OFFER_LOOK = 200
