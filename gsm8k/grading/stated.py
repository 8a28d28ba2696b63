"""Which part of an answer statement states its value (`Reader.value_of`, in reader).

The value is what the statement's working gives: after its last `=` (`9 * 2 = 18`), after
working said in words (`Half of 40 is 20`, `2 times 9 is 18`), after a conclusion (`9 eggs, so
$18`), after a leading phrase (`In 10 years, Tim gets 300 lemons.`) or a label (`Day 1: 18`);
the value before an `=` that only shows how it was made (`$18 = $2 × 9 eggs`). A statement that
offers two signs, a value per label, or says first that the value cannot be known states no one
value.
"""

from __future__ import annotations

import re

from gsm8k.grading.units import asked_unit, unit_named

# Working said in words before the value it gives: `Half of 40 is 20`, `25% of 80 is 20`, `2 times
# 9 is 18`, `9 eggs at $2 each makes $18`. The words before `is` hold a number and an operation.
_WORKING_IS = re.compile(
    r"(?P<working>[^\n]{0,80}?\d[^\n]{0,80}?)[ \t]++(?:is|are|equals|makes|gives|comes[ \t]+to)"
    r"[ \t]++(?=[^\d\n]{0,12}\d)",
    re.IGNORECASE,
)
_OPERATION_WORD = re.compile(
    r"\b(?:times|plus|minus|divided|multiplied|half|double|twice|triple|thrice|percent|of|each)\b"
    r"|[%×*+÷/−]|\d[ \t]+[x-][ \t]+\d",
    re.IGNORECASE,
)
# A conclusion after a value, opened by `so`, `thus`, `therefore`, `hence`: its value is stated.
_CONCLUSION = re.compile(
    r"\d[^\n,;]{0,40}?[,;][ \t]*+(?:and[ \t]+)?(?:so|thus|therefore|hence)\b[ \t,]*+"
    r"(?=[^\n\d]{0,30}\d)",
    re.IGNORECASE,
)
_PHRASE_UNIT = re.compile(r"\d[ \t]*+([A-Za-z]{2,12})")
# A leading phrase of time or place before the statement: `In 10 years, Tim gets 300 lemons.`
_LEADING_PHRASE = re.compile(
    r"[ \t]*+(?:in|after|within|over|for|by|although|though|while|since|because|if|when|once"
    r"|despite)[ \t]++[^,\n\d]{0,20}+\d++(?:\.\d++)?"
    r"[^,\n\d]{0,30}+,[ \t]*+"
    r"(?=[^\n]*\d)",
    re.IGNORECASE,
)
_TWO_SIGNS = re.compile(
    r"\b(?:profit|gain)\b[^.\n]{0,24}\bor\b[^.\n]{0,24}\b(?:loss|lost|deficit)\b"
    r"|\b(?:loss|lost|deficit)\b[^.\n]{0,24}\bor\b[^.\n]{0,24}\b(?:profit|gain)\b",
    re.IGNORECASE,
)
_UNDETERMINED = re.compile(
    r"[\s*_]*+(?:(?:it|this)[ \t]+)?(?:cannot|can['’]?t|could[ \t]+not|not[ \t]+possible[ \t]+to)"
    r"[ \t]+(?:be[ \t]+)?(?:determined|known|determine|know|say|tell)\b|[\s*_]*+(?:unknown|unclear"
    r"|undetermined|indeterminate|not[ \t]+(?:enough|sure|certain))\b",
    re.IGNORECASE,
)
# A value per label (`Day 1: 18, Day 2: 20`, `Monday $18; Tuesday $20`, `(a) 18 (b) 20`, `18
# (first reading), 20 (second reading)`, `18 for Monday and 20 for Tuesday`): no one answer.
_VALUE = r"(?<![\d,.])[-−]?\\?[$£€¥₹]?[ \t]?(?<![\d,.])\d[\d,.]*+"
_NAME = (
    r"(?:\\(?:text|mathrm)\{[ \t]*+)?(?:[A-Z][a-z]{1,11}(?:[ \t]+(?:[A-Z]|\d{1,3}))?"
    r"|\([a-z]\)|[A-Za-z]{2,12}[ \t]+\d{1,3})[ \t]*+:?[ \t]*+\}?[ \t]*+"
)
_SEPARATOR = r"[ \t]*+(?:[,;/]|\band\b|\.(?=[ \t]))?[ \t]*+"
_ASIDE = r"[ \t]*+(?:\\text\{[ \t]*+)?\([A-Za-z][^()\n]{0,30}\)\}?"
_LABELLED_AGAIN = re.compile(
    rf"[,;/.][ \t]*+{_NAME}{_VALUE}|\band[ \t]++{_NAME}{_VALUE}"
    rf"|\A[ \t*_]*+{_NAME}{_VALUE}[^\n]{{0,30}}?{_SEPARATOR}{_NAME}{_VALUE}"
    rf"|{_VALUE}{_ASIDE}{_SEPARATOR}{_VALUE}{_ASIDE}"
    rf"|{_VALUE}[ \t]++for[ \t]++[A-Za-z]{{2,12}}[ \t]++and[ \t]++{_VALUE}[ \t]++for[ \t]++"
)
# A label with its own number before the value: `Day 1: 18`, `\\text{Week 2: } 18`.
_LABEL = re.compile(
    r"[ \t]*+(?:\\(?:text|mathrm)\{[ \t]*+)?[A-Za-z]{2,12}[ \t]++\d{1,3}[ \t]*+:[ \t]++\}?"
    r"(?=[ \t]*+[-−]?\\?[$£€¥₹]?[ \t]?\d)"
)
_ARITHMETIC_ONLY = re.compile(
    r"[ \t]*+\\?\$?[ \t]?\d[\d,.]*+[ \t]*+(?:[A-Za-z]{1,12}[ \t]*+)?(?:[×*÷+−]|\\times|\\cdot|x\b)"
)
_LONE_VALUE = re.compile(r"[ \t]*+(?P<value>[-−]?\\?[$£€¥₹]?[ \t]?\d[\d,.]*+)[ \t]*+\Z")


def _working_before(snippet: str, asked: str | None) -> int:
    """Where the stated value starts, after working said in words or a leading phrase (`Half of
    40 is 20`, `In 10 years, Tim gets 300 lemons.`); 0 when the snippet opens with it."""
    colon = max(snippet.find(":"), snippet.find("："))
    head = colon + 1 if colon >= 0 else 0
    conclusion = _CONCLUSION.search(snippet, head)
    if conclusion is not None:
        return conclusion.end()  # `9 eggs, so $18`, `Half of 40 is 20, so he keeps 40`
    leading = _LEADING_PHRASE.match(snippet, head)
    if leading is not None and not _of_asked_unit(leading.group(0), asked):
        return leading.end()  # not `After 12 days, …` when the days are what is asked
    working = _WORKING_IS.match(snippet, head)
    if working is not None and _OPERATION_WORD.search(working.group("working")):
        return working.end()
    return 0


def _last_working_equals(snippet: str) -> int | None:
    """The position of the last `=` that shows working (`9 * 2 = 18`), or ``None``.

    An `=` inside an open bracket is an aside after the stated value (`18 (= 9 × 2)`,
    `18 (with x = 2)`), not working that leads to it.
    """
    depth, found = 0, None
    for position, char in enumerate(snippet):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        elif char == "=" and depth == 0 and snippet[position - 1 : position] not in ("!", "<", ">"):
            found = position  # `x != 18`, `<=`, `>=` compare; they do not show working
    return found


def _of_asked_unit(phrase: str, asked: str | None) -> bool:
    unit = _PHRASE_UNIT.search(phrase)
    return asked is not None and unit is not None and unit_named(unit.group(1)) == asked


def stated_part(snippet: str, question: str | None = None) -> str:
    """The part of ``snippet`` that states its value (see the module docstring); a leading
    phrase is the statement when it holds the quantity the ``question`` asks for."""
    equals = _last_working_equals(snippet)
    if equals is not None and _ARITHMETIC_ONLY.match(snippet, equals + 1):
        # `$18 = $2 × 9 eggs`: the value, then the working that gives it.
        lone = _LONE_VALUE.match(snippet[:equals])
        stated = lone.group("value") if lone is not None else snippet[equals + 1 :]
    elif equals is not None:
        stated = snippet[equals + 1 :]
    else:
        stated = snippet[_working_before(snippet, asked_unit(question)) :]
    label = _LABEL.match(stated)
    if label is not None:
        stated = stated[label.end() :]  # `\\text{Day 1: } 18`: the value after its label
    return stated


# Options under letters or numbers: `A) 15  B) 15.67`, `(a) 18 (b) 20`.
_OPTIONS = re.compile(
    r"(?:^|[\s(])[A-Da-d1-4][).:][ \t]*\\?\$?\d[\d,.]*[^\n]{0,30}?[\s(][A-Da-d1-4][).:][ \t]*"
    r"\\?\$?\d"
)


def offers_no_one_value(stated: str) -> bool:
    """Whether a stated answer offers two signs (`$18 profit or a $18 loss`), a value per label
    (`18, Day 2: 20`), or opens by saying the value cannot be known (`Cannot be determined,
    but likely 18`)."""
    return bool(
        _TWO_SIGNS.search(stated)
        or _LABELLED_AGAIN.search(stated)
        or _UNDETERMINED.match(stated)
        or _OPTIONS.search(stated)
    )
