"""Candidates: closing text that offers two or more values as candidates rather than one answer
(docs/grading.md, "The delivered answer"): a value per case (`60 in the first case and 20 in the
second`, `Scenario A: 300` / `Scenario B: 305`, `For part (a): 12. For part (b): 16.`), a range in
words (`at least 128, at most 132`, `291 up to 301`), or a bare list (`Candidates: 126, 366.`,
`Possible answers:` and a list). Working (an operator between values) is never a list.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

from gsm8k.grading.reader import WORKING_SIGN

Value = tuple[Decimal, int, int]
"""A number of the text: its value, start and end."""

_WORD = re.compile(r"[^\W\d_]+(?:['’][a-z]+)?")
_WORD_AFTER = re.compile(r"[ \t]*+([A-Za-z]{2,12})\b")


# Values given per case: `60 in the first case and 20 in the second`, `352 (part a), 44 (part
# b)`, `10 if we include it, 8 if we don't`, `4 and 7 for the two options`, `8 and 50
# respectively`, `whichever of 1115 and 539 is correct`; and a list offered as candidates.
_PER_CASE = re.compile(
    r"\(part[ \t]+[a-z1-9]\)|\b(?:(?:first|second|third|one|other|another|each|both|two|either)"
    r"[ \t]+(?:possible[ \t]+)?(?:case|scenario|option|reading|interpretation|method|estimate"
    r"|way|approach|possibility)s?|(?:case|scenario|option|reading|interpretation)[ \t]+(?:one"
    r"|two|three|[a-c1-3])|(?:low|high|lower|upper)[ \t]+(?:estimate|bound)|respectively"
    r"|whichever|(?:if|when)[ \t]+(?:we|you|I)[ \t]+(?:do|don['’]?t"
    r"|include|exclude|count|ignore)|without[ \t]+(?:it|the[ \t]+extra)"
    r"|the[ \t]+numbers[ \t]+(?:are|were|in)|some[ \t]+numbers|every[ \t]+(?:integer|number))\b",
    re.IGNORECASE,
)


# Lines that give a value per case or a range: `Scenario A: 300` / `Scenario B: 305`, `Strict
# reading => 42`, `| literal | 720 |`, `For part (a): 12.`, `With the discount: 14410.`,
# `At least 128, at most 132.`, `60-ish to 64-ish`, `291 up to 301`, `Possible answers:`.
_CASE_OR_RANGE = re.compile(
    r"\b(?:scenario|case|reading|interpretation|version|option)[ \t]++(?:(?-i:[A-Z])\b|[1-9]\b"
    r"|one\b|two\b|\([a-c1-9]\))|\b(?:first|second|third|other|another|each|strict|loose|literal"
    r"|intended|alternative)[ \t]+(?:case|scenario|reading|interpretation|version|option)\b"
    r"|\bpart[ \t]*\(?[a-z1-9]\)|\bwith(?:out)?[ \t]+(?:the[ \t]+)?(?:it|discount|tax|tip|extra"
    r"|bonus|fee)[ \t]*:|\bat[ \t]+least\b[^\n]{0,30}\bat[ \t]+most\b"
    r"|\d[^\d\n]{0,6}-ish\b|\d[ \t]+up[ \t]+to[ \t]+\$?\d|\brange\b[^\n\d]{0,12}\d"
    r"|\b(?:possible|candidate|alternative|potential)[ \t]+(?:answers|values|results)\b"
    r"|\b(?:candidates|options|shortlist)[ \t]*:|^\|[^\n]*\b(?:reading|interpretation|scenario"
    r"|case)\b[^\n]*\|",
    re.IGNORECASE | re.MULTILINE,
)
_ARROW = re.compile(r"=>|->|→|⇒|\|")
_BLOCK_WORDS = 10
"""Most words a closing line of a case block holds (`Scenario A: 300`, not prose)."""


def per_case_block(block: str, values: list[Value]) -> bool:
    """Whether the closing ``block`` (from :func:`closing_block_start`), whose numbers are
    ``values``, gives two or more of them per case, as a range, or as listed candidates."""
    if not _CASE_OR_RANGE.search(block):
        return False
    return len({value[0] for value in values}) > 1


def closing_block_start(text: str, look_from: int) -> int:
    """Where the text's closing block starts: its last lines, after ``look_from``, that hold no
    working and few words (`Scenario A: 300`, not prose)."""
    block_start = len(text)
    for line in reversed(text[look_from:].splitlines(keepends=True)):
        bare = _ARROW.sub(" ", line)  # `Strict reading => 42`: an arrow is no working
        if WORKING_SIGN.search(bare) or len(_WORD.findall(line)) > _BLOCK_WORDS:
            break
        block_start -= len(line)
    return block_start


def candidate_list(
    text: str,
    start: int,
    end: int,
    values: list[Value],
    unit: Callable[[str, Value], str],
    joiners: frozenset[str],
) -> bool:
    """Whether a closing sentence ``text[start:end]`` with its ``values`` (no working in it)
    offers two or more values as candidates:
    per case, or as a bare list, values and joiners alone (`Guesses: 3 9`, `Also 160 and 260.`,
    `… up to 20: 1, 2, …`)."""
    sentence = text[start:end]
    if WORKING_SIGN.search(sentence) or len({value[0] for value in values}) < 2:
        return False
    if _PER_CASE.search(sentence):
        return True
    colon = sentence.rfind(":", 0, values[0][1] - start) if ":" in sentence else -1
    listed = sentence[colon + 1 :] if colon >= 0 else sentence
    if "→" in listed or "->" in listed:
        return False  # `Step recap: 16 → 9 → 18`: a chain of working, not a list
    words = [w for w in _WORD.findall(listed) if w.lower() not in joiners | {"and", "also"}]
    return not words and all(
        not _WORD_AFTER.match(text, value[2]) or unit(text, value) == unit(text, values[0])
        for value in values
    )


# Parallel cases: the last two closing segments (lines, sentences, or `;` parts) that hold a
# value are the same statement twice, each under its own condition or label, with two values:
# `If she sells at $2: $18.` / `If she sells at $3: $27.`, `Plan A profit: $125. Plan B profit:
# $96.`, `Assuming whole units, 595. Allowing fractions, 744.`, `Si se cuenta todo, 7425; si no,
# 9281.` The model states one value per case and chooses none. The same shape under different
# names (`Monday: $16.` / `Tuesday: $18.`) is a list of working, not of cases.
_SEGMENT_END = re.compile(r"[.!?。！？](?=\s|$)|[;\n]")
_OPENER = re.compile(r"[\s*_>#(-]*(?:\d+[.)][ \t]+)?([^\W\d_]+)")
_CONDITIONAL_OPENERS = frozenset(
    (
        "if", "when", "assuming", "allowing", "with", "without", "for", "under", "unless",
        "counting", "excluding", "including", "suppose", "supposing", "given", "si", "wenn",
        "falls", "se", "如果", "若", "假如", "もし",
    )
)  # fmt: skip
_CONCLUDING = frozenset(("so", "therefore", "thus", "hence", "total", "overall", "final", "answer"))
_SHAPE_TOKEN = re.compile(
    r"(?P<n>[-−]?\\?[$£€¥₹]?[-−]?\d[\d,.]*+%?)|(?P<w>[^\W\d_]+(?:['’][a-z]+)?)|(?P<p>[:,()-])"
)
_CASES_LOOK = 400


_LIST_ITEM = re.compile(r"[ \t]*(?:[-*•]|\d+[.)]|\(?[a-z][.)])[ \t]", re.IGNORECASE)
_LETTERED = re.compile(r"[\s*_>#-]*\(?([a-dA-D])[.):][ \t]")
_LABEL_WORDS = 4  # words of a label in which its condition is looked for


def _conditioned(words: list[str]) -> bool:
    return any(word in _CONDITIONAL_OPENERS or word in _READING_WORDS for word in words)


_READING_WORDS = frozenset(("ignoring", "treating", "reading", "interpreting", "taking"))
_DETERMINERS = frozenset(("the", "a", "an", "this", "that", "his", "her", "their", "its", "our"))


def _options(one: str, two: str) -> bool:
    """Whether two segments are consecutive lettered options (`A. …` / `B. …`)."""
    letters = _LETTERED.match(one), _LETTERED.match(two)
    if letters[0] is None or letters[1] is None:
        return False
    return ord(letters[1].group(1).lower()) == ord(letters[0].group(1).lower()) + 1


def _shape(segment: str) -> str:
    """A segment's shape: its numbers, runs of words and punctuation, in order (`If she sells at
    $2 per egg: $18.` is `WNW:N`)."""
    shape: list[str] = []
    for token in _SHAPE_TOKEN.finditer(segment):
        kind = "N" if token.group("n") else "W" if token.group("w") else token.group("p")
        if not (kind == "W" and shape and shape[-1] == "W"):
            shape.append(kind)
    return "".join(shape)


def parallel_cases(text: str, values: Callable[[int, int], list[Value]]) -> bool:
    """Whether the text's last two segments with a value are parallel cases with two values
    (``values(start, end)`` reads a span's values)."""
    start = max(0, len(text) - _CASES_LOOK)
    segments: list[tuple[int, int]] = []
    position = start
    for end in [*_SEGMENT_END.finditer(text, start), None]:
        stop = len(text) if end is None else end.start()
        if any(char.isdigit() for char in text[position:stop]):
            segments.append((position, stop))
        position = stop + 1
        if end is None:
            break
    if len(segments) < 2:
        return False
    (one_start, one_end), (two_start, two_end) = segments[-2:]
    one, two = text[one_start:one_end], text[two_start:two_end]
    if text[two_end:].strip(" \t\n.!?*_"):
        return False  # prose after the cases
    opened = _OPENER.match(one), _OPENER.match(two)
    first = "" if opened[0] is None else opened[0].group(1).lower()
    second = "" if opened[1] is None else opened[1].group(1).lower()
    words = [w.lower() for w in _WORD.findall(one)], [w.lower() for w in _WORD.findall(two)]
    listed = _LIST_ITEM.match(one) is not None and _LIST_ITEM.match(two) is not None
    lines = (
        text[text.rfind("\n", 0, one_start) + 1 : one_end],
        text[text.rfind("\n", 0, two_start) + 1 : two_end],
    )
    if _options(*lines) and values(one_start, one_end) and values(two_start, two_end):
        return True  # `A. $460 (overtime at 1.2×)` / `B. $450 (no premium)`: options offered
    if (WORKING_SIGN.search(one) or WORKING_SIGN.search(two)) and not (
        listed and first in _CONDITIONAL_OPENERS and second in _CONDITIONAL_OPENERS
    ):
        return False  # working; but `- If …: 60 / 9 = 6.67 mph` / `- If …: 60 / 6 = 10 mph`
    # The same sentence under another label (`Plan A profit` / `Plan B profit`), or two cases
    # opened by conditions (`If …` / `If …`, `Assuming …` / `Allowing …`, `Si …` / `si no`).
    differ = sum(one != two for one, two in zip(*words, strict=False))
    relabelled = len(words[0]) == len(words[1]) >= 1 and (
        differ == 0
        or (len(words[0]) >= 2 and (differ <= 1 or (differ <= 2 and len(words[0]) >= 5)))
    )  # `- 50 weeks: $57,500` / `- 52 weeks: $59,800`: the same words, another number
    conditions = (
        (first in _CONDITIONAL_OPENERS and second in _CONDITIONAL_OPENERS)
        or (first.endswith("ing") and second.endswith("ing"))
        or (  # `Profit, counting repairs: $70,000.` / `Profit, ignoring repairs: $120,000.`
            words[0][:1] == words[1][:1]
            and words[0][:1] != []
            and words[0][0] not in _DETERMINERS
            and _conditioned(words[0][1:_LABEL_WORDS])
            and _conditioned(words[1][1:_LABEL_WORDS])
        )
    )
    shaped = _shape(one) == _shape(two) or (listed and conditions)  # `- If …: 6.67 mph` items
    if second in _CONCLUDING or not (relabelled or conditions) or not shaped:
        return False
    stated = values(one_start, one_end), values(two_start, two_end)
    if not (stated[0] and stated[1]) or stated[0][-1][0] == stated[1][-1][0]:
        return False
    # Cases stand side by side; a step that goes on from the value before it is working (`…
    # 490 infected people. On the third day, each of the 490 …`).
    return all(value[0] != stated[0][-1][0] for value in stated[1])


# A value left open: asked about (`18?`, `$18... I think?`), or taken back (`32 — no wait`).
_ASKED_AFTER = re.compile(r"[^\d\n]{0,30}?[?？]")
_TAKEN_BACK_AFTER = re.compile(
    r"[ \t]*+(?:[,;]|[—–-]++|\.\.\.|…)?[ \t]*+(?:no|nope|wait|actually|scratch[ \t]+that)\b",
    re.IGNORECASE,
)


_OPEN_LOOK = 200  # characters at the end of a text whose values are read as left open
_FACTOR_AFTER = re.compile(r"[ \t]?(?:x\b|×|times\b)", re.IGNORECASE)
_COMPUTED_BEFORE = re.compile(r"[=*×÷+/][ \t]*\\?\$?[ \t]?$")


def none_committed(text: str, values: list[Value], hedged: Callable[[int], bool]) -> bool:
    """Whether a closing line's ``values`` are two or more different values and every one is
    left open: asked about, taken back, or hedged (``hedged(start)``): `Final: 32?? 36??`, `So
    $18... I think? Maybe $20.`, `32 — no wait, 16 — no, hmm, 32?`."""
    values = [
        value
        for value in values
        if value[1] >= len(text) - _OPEN_LOOK and not _FACTOR_AFTER.match(text, value[2])
    ]  # `reading 'two times older' as 3x`: a factor of the reading, no candidate
    if len({value[0] for value in values}) < 2:
        return False
    if any(_COMPUTED_BEFORE.search(text, max(0, start - 3), start) for _, start, _ in values):
        return False  # `… + 2 more good days = 5 good days`: a computed result is committed
    return all(
        _ASKED_AFTER.match(text, end) or _TAKEN_BACK_AFTER.match(text, end) or hedged(start)
        for _, start, end in values
    )


# A range of values: `$75 to $80`, `24-28`, `5 to 10 minutes`, `between 16 and 20`, `anywhere
# from 60 to 80`; not a change (`rose from 20 to 30`), a clock time, years, or working.
_RANGE = re.compile(
    r"(?<![\d.,:])(?P<one>\\?[$£€¥₹]?[ \t]?\d[\d,]*+(?:\.\d++)?)(?P<unit>[ \t]*+[A-Za-z]{1,12})?"
    r"[ \t]*+(?P<joiner>to|through|thru|–|—|-|~|up[ \t]+to|and|\.{2,3}|…)[ \t]*+"
    r"(?P<two>\\?[$£€¥₹]?[ \t]?\d[\d,]*+(?:\.\d++)?)(?![\d:])(?P<other>[ \t]*+[A-Za-z]{1,12})?",
    re.IGNORECASE,
)
# A change or a step of working: `rose from $20 to $30`, `add 22 to 48`, `doubled from 20 to 40`;
# `from` alone opens a change unless a range word comes before it (`anywhere from 60 to 80`).
_CHANGE_BEFORE = re.compile(
    r"(?:\b(?:rose|rises|risen|increas|decreas|went|goes|grew|grows|dropped|drops|fell|falls"
    r"|chang|mov|climb|jump|rais|reduc|lower|cut|up|down|add|subtract|multipl|divid|doubl|tripl"
    r"|halv|convert|compar)[a-z]*\b[^\d\n.!?]{0,24}"
    r"|(?<!anywhere[ \t])(?<!somewhere[ \t])(?<!number[ \t])(?<!value[ \t])(?<!ranges[ \t])"
    r"(?<!ranging[ \t])\bfrom[ \t]*+)$",
    re.IGNORECASE,
)
_SCALES = frozenset(("k", "m", "bn", "b", "mn", "thousand", "million", "billion"))
_BETWEEN_BEFORE = re.compile(r"\bbetween[ \t]*+$", re.IGNORECASE)


_TOLERANCE = re.compile(
    r"(?<![\d.,])\d[\d,.]*+[ \t]*+(?:±|\+/-|\\pm\b|plus[ \t]+or[ \t]+minus)[ \t]*+\\?\$?\d"
    r"|\bgive[ \t]+or[ \t]+take[ \t]+(?:a[ \t]+few|one|two|three|some|a[ \t]+couple|\$?\d)",
    re.I,
)
# Candidates offered as a set or a plural answer label: `x ∈ {99, 104, 109}`, `Final answers:`.
_OFFERED = re.compile(
    r"∈[ \t]*\\?\{|\b(?:final|possible|candidate|potential)[ \t]+answers[ \t*_]*:[ \t*_]*\\?\$?\d"
    r"|\b(?:the|my|possible|final)[ \t]+answers[ \t]+(?:are|would[ \t]+be|could[ \t]+be|include)\b",
    re.IGNORECASE,
)


# The answer between two bounds: `24 ≤ answer ≤ 26`, `250 < x < 270`.
_NOT_A_UNIT = frozenset(("", "on", "for", "per", "a", "in", "each", "over", "this", "that", "and"))
_BOUNDED = r"[\d,.]*+[ \t]*+[A-Za-z]{0,8}[ \t]*+"  # the rest of a bounded value and its unit
_BETWEEN_BOUNDS = re.compile(
    r"\d[ \t]*(?:≤|<=|<|\\le)[ \t]*[A-Za-z]+[ \t]*(?:≤|<=|<|\\le)[ \t]*\\?\$?\d"
    # Two bounds of one value: `10 mph at most, 8 mph at least`, `at least 8 and at most 10`.
    rf"|(?<![\d.,])\d{_BOUNDED}(?:at[ \t]+most|or[ \t]+(?:less|fewer))\b[ \t,;]*+(?:and[ \t]+)?"
    rf"\\?\$?\d{_BOUNDED}(?:at[ \t]+least|or[ \t]+more)\b"
    rf"|(?<![\d.,])\d{_BOUNDED}(?:at[ \t]+least|or[ \t]+more)\b[ \t,;]*+(?:and[ \t]+)?\\?\$?\d"
    rf"{_BOUNDED}(?:at[ \t]+most|or[ \t]+(?:less|fewer))\b"
    r"|\bat[ \t]+least[ \t]+\\?\$?\d[\d,.]*+[^.!?\n\d]{0,20}?\bat[ \t]+most[ \t]+\\?\$?\d",
    re.IGNORECASE,
)


def offers_range(sentence: str) -> bool:
    """Whether a sentence gives its value as a range of two values (an ascending pair, in one
    unit, or a value with a tolerance, `80 ± 5`) or as a set of candidates: no one answer."""
    if _TOLERANCE.search(sentence) or _OFFERED.search(sentence) or _BETWEEN_BOUNDS.search(sentence):
        return True
    if "=" in sentence:
        return False  # working
    for found in _RANGE.finditer(sentence):
        joiner = found.group("joiner").lower()
        before = sentence[max(0, found.start() - 40) : found.start()]
        if joiner == "and" and not _BETWEEN_BEFORE.search(before):
            continue
        if _CHANGE_BEFORE.search(before):
            continue  # `rose from $20 to $30`
        one, two = found.group("one"), found.group("two")
        if ("$" in two and "$" not in one) or re.fullmatch(r"(?:19|20)\d\d", one.strip()):
            continue
        other_word = (found.group("other") or "").strip().lower()
        if (
            "$" in one
            and "$" not in two
            and (other_word not in _NOT_A_UNIT or joiner not in ("-", "–", "to"))
        ):
            continue  # `$75-80` is a range; `$5 to 10 friends` is not
        unit, other = (found.group("unit") or "").strip(), (found.group("other") or "").strip()
        if unit and other and unit.lower() != other.lower():
            continue  # `2 hours to 30 minutes`
        if unit and joiner in ("-", "–") and unit.lower() not in _SCALES:
            continue  # `8-hour days`: a compound word, not a range (`$60k–$80k` is one)
        low, high = (float(re.sub(r"[^\d.]", "", side) or 0) for side in (one, two))
        if high > low:
            return True
    return False


# A closing object of values under names that are no answer field: `{"literal": 48,
# "intended": 60}`, one value per reading.
_KEYED = re.compile(
    r"[\"']?(?P<key>[A-Za-z_ ]{1,30})[\"']?[ \t]*:[ \t]*[\"']?\$?(?P<value>-?\d[\d,.]*)"
)
_ANSWER_KEY = re.compile(r"answer|result|value|total|final", re.IGNORECASE)


def keyed_candidates(line: str) -> bool:
    """Whether a closing line is an object of two or more different values none of whose names
    says it is the answer."""
    stripped = line.strip(" \t`")
    if not (stripped.startswith("{") and stripped.endswith("}")):
        return False
    pairs = [(m.group("key"), m.group("value").rstrip(".,")) for m in _KEYED.finditer(stripped)]
    if any(_ANSWER_KEY.search(key) for key, _ in pairs):
        return False
    return len({value for _, value in pairs}) >= 2
