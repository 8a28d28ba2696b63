"""Why a stated answer holds a number that is not its value (`Reader.refusal`, in reader).

A stated answer is refused, in this order, when it is an expression with a variable (`x - 14`),
arithmetic still to do (`9 × 2`), a bound (`at least 18`), a function of a number (`\\sqrt{18}`,
`18% of 50`), or two candidate values (`18 or 20`, `18, perhaps 20`, `18 to 20`); one quantity in
two units, each value with its unit (`$18 (or 1800 cents)`), and a mixed number are one value.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal

from gsm8k.grading.numbers import NUMBER_PATTERN, number_from_match, parse_number
from gsm8k.grading.units import competing, compound_at, one_quantity, rate_follows, same_unit
from gsm8k.grading.words import number_in_words

CURRENCY_SIGN = re.compile(r"[$£€¥₹]")

# A single-letter variable joined to the value by an operator: `x - 14`, `14 - x`, `2*n`. The
# articles and `I` are words, not variables.
_VARIABLE_BEFORE = re.compile(r"(?<![A-Za-z\\])(?![aAI][ \t])[A-Za-z][ \t]*[-+*×−][ \t]*$")
_VARIABLE_AFTER = re.compile(r"[ \t]*[-+*×−/][ \t]*(?![aAI](?![A-Za-z]))[A-Za-z](?![A-Za-z])")
_VARIABLE_LOOK = 8
# Arithmetic on the stated value (`9 × 2`, `9*2`, `\\boxed{9 \\times 2}`, `20 - 2`): its first
# operand is not the answer. A power of ten (`1.2 \\times 10^{5}`, `5×10⁴`) is one number.
# Every operator glyph counts: the minus sign `−` (U+2212), `x` between two numbers, the dots
# `·` and `⋅`, `∗`, `÷`, `\\cdot`.
_OPERATION = re.compile(
    r"[ \t]*+(?:[×*÷+−·⋅∗∙]|\\times|\\cdot|\\div|(?<=[ \t])[-x](?=[ \t])"
    r"|(?<=[ \t])(?:times|plus|minus|multiplied[ \t]by|divided[ \t]by)(?=[ \t]))[ \t]*+\\?[$£€¥₹]?"
    r"(?!10[ \t]*(?:\^|\*\*|[⁰¹²³⁴-⁹]))\d"
    # An operand in words: `120 times ten`.
    r"|[ \t]++(?:times|plus|minus|multiplied[ \t]by|divided[ \t]by)[ \t]++(?:two|three|four|five"
    r"|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|fifty|hundred|thousand|a[ \t]+(?:dozen"
    r"|hundred|thousand))\b"
)
# A function of the stated number, or words that make it an operand: `\\sqrt{18}`, `√18`,
# `twice 18`, `half of 18`; `18 squared`, `18% of 50`, `18\\pi`, `18π`, `\\boxed{18!}`.
_FUNCTION_BEFORE = re.compile(
    r"(?:\\sqrt[ \t]*(?:\[[^\]]{0,8}\])?[ \t]*\{?|√|∛|\b(?:twice|double|triple|thrice"
    r"|half[ \t]+of|square[ \t]+root[ \t]+of|sqrt\(?|log|ln|sin|cos|tan)|±|\\pm\b)"
    r"[ \t]*\\?[$£€¥₹]?[ \t]*$",
    re.IGNORECASE,
)
_FUNCTION_AFTER = re.compile(
    r"[ \t]*+(?:\\?%|percent)[ \t]++of[ \t]++\\?[$£€¥₹]?\d"
    r"|[ \t]*+(?:squared|cubed|to[ \t]+the[ \t]+power)\b|[ \t]*+(?:\\pi\b|π)"
    r"|!(?=[ \t]*(?:$|[=+*×/}]))",
    re.IGNORECASE,
)
_FUNCTION_LOOK = 24
# A bound on the value rather than the value: `at least 18`, `more than 18`, `≤ 18`. (`about 18`,
# `approximately 18` state the value, rounded.)
_BOUND_BEFORE = re.compile(
    r"(?:\b(?:at[ \t]+(?:least|most)|(?:more|less|fewer|greater|higher|lower)[ \t]+than"
    r"|no[ \t]+(?:more|less|fewer)[ \t]+than)|[≥≤><]|\\(?:geq?|leq?|gt|lt)\b)"
    r"[ \t]*\\?[$£€¥₹]?[ \t]*\Z",
    re.IGNORECASE,
)
# Two values offered as alternatives or side by side: `18 or 20`, `18 dollars or 20 dollars`,
# `18–20`, `18 to 20`, `18 and 20`, `18, 20`, `18; 20`, `18 20`, `18 \\text{ or } 20`, `18 \\text{
# (or } 20)`, `18, perhaps 20`, `18 or maybe 20`, `20 (…) / 18 (…)`, `18 vs 20`, `18~20`,
# `18 | 20`, `18 ± 2`, `18 (±2)`, `18 +/- 2`, `18 & 20`, `18 ∨ 20`, `18—20`, `18 (20?)`, the `or`
# of other languages (`18 oder 20`). The unit word is a word of its own: `$168 for 2 weeks` is
# not `$168 f` or `2`.
_ALTERNATIVE = re.compile(
    r"[ \t]*+(?:(?P<unit>[A-Za-z$%]{1,12})(?![A-Za-z])[ \t]*+"
    # A Chinese or Japanese counter before a joiner of those languages: `18個か20個`, `18个或20个`.
    r"|[\u30a0-\u30ff\u4e00-\u9fff]{1,3}(?=[か或到至～〜]|から))?(?:(?:\.{2,3}|…)[ \t]*+)?"
    r"(?:\(?[ \t]*(?<![A-Za-z])(?:(?P<joiner>or|vs\.?|versus|o|ou|oder|или|if[ \t]+not"
    r"|oppure|ovvero|hoặc|eller|bzw\.?|beziehungsweise|atau|veya|yoki|ou[ \t]+bien|au"
    r"|alt(?:\.|:|ernatively)?:?)|and[ \t]*/[ \t]*or|and|to|give[ \t]+or[ \t]+take"
    r"|plus[ \t]*(?:or|/)[ \t]*minus)[ \t]+"
    # An unspaced hyphen between two values is a range (`18-20`) or a subtraction not done;
    # a slash before a price is a choice (`$18 / $20`), never a fraction.
    r"|(?<=\d)(?<!\b(?:19|20)\d\d)-(?=\\?[$£€¥₹]?\d)|[ \t]*+/[ \t]*+(?=\\?[$£€¥₹])"
    r"|(?<=[A-Za-z])[ \t]*+/[ \t]*+(?=\\?[$£€¥₹]?\d)"
    r"|\(?[ \t]*(?:[–—;~∼|±&∨]|\+/-|\\pm\b)[ \t]*"
    r"|\(?[ \t]*(?:或者?|または|あるいは|또는|혹은)[ \t]*|,[ \t]+|[，、][ \t]*+"
    # `18か20` ("18 or 20"), `18から20`, `18到20`, `18至20` (a range): only before a value.
    r"|(?:か|から|到|至)(?=\\?[$£€¥₹]?\d)"
    r"|[?？]++[ \t]*+"
    r"|\([ \t]*+(?=\\?[$£€¥₹]?\d[\d,.]*+[ \t]*[?？])"
    r"|\([^()\n]{0,80}\)[ \t]*+(?:/|or\b)[ \t]*+|\([^()\n]{0,40}%[^()\n]{0,40}\)[ \t]*+,[ \t]*+"
    r"|\\(?:text|mathrm)\{[ \t]*\(?[ \t]*(?:or|and|to|vs\.?)(?:[ \t]+(?:perhaps|maybe|possibly"
    r"|probably|else|even))?[ \t]*\}[ \t]*|\\(?:lor|vee)[ \t]*)"
    # Joined words of the other languages read: `18, vielleicht aber auch 20`, `18, o quizás 20`,
    # `18, ou peut-être 20`, `18, а может быть 20`, `18、もしかしたら20`.
    r"(?:(?:or|perhaps|maybe|possibly|probably|conceivably|potentially|else|even|auch|aussi|soit"
    r"|aber|o|ou|oder|или|а|либо|sinon|o[ \t]+bien|quizá|acaso|puede[ \t]+que|pode[ \t]+ser"
    r"|possivelmente|probablement|eventuell|möglicherweise|vermutlich|вероятно|наверное"
    r"|if[ \t]+not|give[ \t]+or[ \t]+take"
    r"|plus[ \t]+or[ \t]+minus|tal[ \t]+vez|quizás?|vielleicht|wahrscheinlich|eher"
    r"|peut[- ]être|forse|talvez|aunque[ \t]+podría[ \t]+ser|может[ \t]+быть|возможно)[ \t,]++"
    r"|(?:也)?(?:可能是|也许是|或许是)[ \t]*+|(?:或者?|还是|或是)[ \t]*+"
    r"|(?:もしかしたら|もしかすると|たぶん|多分|おそらく|あるいは|または)[ \t、]*+"
    r"|(?:ANSWER|[Aa]nswer)[ \t]*+:[ \t]*+"
    r"|(?:it|that)(?:['’]s|[ \t]+is|[ \t]+would[ \t]+be)[ \t]++){0,3}"
    r"|[ \t]{1,3}(?=\\?[$£€¥₹]?\d)"
)
# Joiners that also open an explanation (`18 — 9 eggs at $2 each`, `18 & 9 eggs are sold`): the
# value after them is a candidate only when it closes the statement, alone or with a unit.
_CLOSING_ONLY = re.compile(r"[—&∼~±]")
_CLOSES = re.compile(r"[ \t]*+(?:[—–-]?[ \t]*+[A-Za-z]{1,12}[ \t]*+)?[\s.!?)*_}$]*\Z")
_WORD_AFTER = re.compile(r"[A-Za-z]{3,12}(?![A-Za-z])")
_UNIT_AFTER = re.compile(r"[ \t]*+(?:\\(?:text|mathrm)\{[ \t]*)?(?P<unit>[A-Za-z]{2,12}|¢)")
_LAST_DIGIT = Decimal("1e-20")
UNIT_FACTORS = frozenset(Decimal(f) for f in (2, 3, 4, 7, 12, 16, 24, 52, 60, 100, 365, 1000))
"""Ratios between the same quantity in two units (feet and inches, hours and minutes, dollars and
cents, …): two values in this ratio may be one answer written twice."""
EXPRESSION = "the stated answer is an expression with a variable, not a number"
HEDGED = "the stated answer offers two different values"
ARITHMETIC = "the stated answer is arithmetic still to be done, not its result"
BOUND = "the stated answer is a bound (at least, more than, ≤ …), not a value"
FUNCTION = (
    "the stated answer is a function of a number (a root, a power, a percent of), not a value"
)


def refusal_at(stated: str, first: re.Match[str], mixed: bool) -> str | None:
    """Why ``stated``, whose first number is ``first``, is not that number's value; ``None`` when
    it is. ``mixed`` says the number opens a mixed number or a compound quantity (one value)."""
    before = stated[max(0, first.start() - _VARIABLE_LOOK) : first.start()]
    if _VARIABLE_BEFORE.search(before) or _VARIABLE_AFTER.match(stated, first.end()):
        return EXPRESSION
    if _OPERATION.match(stated, first.end()):
        return ARITHMETIC
    if _unreduced(stated, first):
        return HEDGED  # `18/20`, `70000 / 87500`: a score or two values, not a fraction
    bound_before = stated[max(0, first.start() - _FUNCTION_LOOK) : first.start()]
    if _BOUND_BEFORE.search(bound_before):
        return BOUND
    if _FUNCTION_BEFORE.search(bound_before) or _FUNCTION_AFTER.match(stated, first.end()):
        return FUNCTION
    if mixed:
        return None  # `18 and 1/2`, `1 hour 30 minutes`: one value
    alternative = _ALTERNATIVE.match(stated, first.end())
    second = NUMBER_PATTERN.match(stated, alternative.end()) if alternative else None
    if second is None and alternative is not None and alternative.group("joiner"):
        other_word = _WORD_AFTER.match(stated, alternative.end())
        if other_word is not None and number_in_words(other_word.group(0)) is not None:
            return HEDGED  # `18 or twenty`: the other value in words
    if second is not None and alternative is not None and _CLOSING_ONLY.search(alternative[0]):
        if not _CLOSES.match(stated, second.end()):
            return None  # `18 — 9 eggs at $2 each`: an explanation after a dash, not a candidate
        if "±" in alternative[0] and number_from_match(second) == 0:
            return None  # `18 (±0)`
        if "~" in alternative[0] and _rounded_alike(stated, first, second):
            return None  # `33.33 ≈ 33`: the value and itself rounded
    if second is not None and alternative is not None:
        # Each value with its scale word: `$18 billion or $18 million` are two.
        one, other = parse_number(stated[first.start() :]), parse_number(stated[second.start() :])
        if other is not None and _OPERATION.match(stated, second.end()):
            # `18 (or maybe 9 × 2 + 2)`: the alternative is what its arithmetic comes to.
            other = arithmetic_value(stated, second)
        if (
            one is not None
            and other is not None
            and not _one_quantity(one, other, first, alternative, second, stated)
        ):
            return HEDGED
    return _restated_otherwise(stated, first)


_OFFERED = re.compile(r"\b(?:or|maybe|perhaps|possibly)\b", re.IGNORECASE)
_PARTS_BRACKET = re.compile(r"[ \t]*+[A-Za-z]{0,12}[ \t]*+\((?P<inside>[^()\n]{1,120})\)")


def bracketed_parts(stated: str, first: re.Match[str]) -> bool:
    """Whether a bracket right after the value (and its unit) holds two or more values that add
    up to it: its breakdown (`56 marbles (42 for Liam and 14 for Noah)`), not candidates."""
    bracket = _PARTS_BRACKET.match(stated, first.end())
    value = number_from_match(first)
    if bracket is None or value is None or _OFFERED.search(bracket.group("inside")):
        return False
    parts = [number_from_match(part) for part in NUMBER_PATTERN.finditer(bracket.group("inside"))]
    known = [part for part in parts if part is not None]
    return len(known) >= 2 and len(known) == len(parts) and sum(known) == value


# A fraction written after the value: `18/20`, `70000 / 87500`, and nothing after it but a unit.
_OVER = re.compile(r"[ \t]*+/[ \t]*+(?P<bottom>\d++)(?![\d.,/])[ \t]*+[A-Za-z]{0,12}[\s.!*_)}]*\Z")


_CHAIN = re.compile(r"[ \t]*+/[ \t]*+\d++[ \t]*+/[ \t]*+\d|,\d{1,2},\d{1,2}(?![\d.])")


def _unreduced(stated: str, first: re.Match[str]) -> bool:
    """Whether the stated value is a fraction not in lowest terms: a model that gives a fraction
    as its answer reduces it, so `18/20` is a score or a choice between two values."""
    if _CHAIN.match(stated, first.end()):
        return True  # `60/64/68`, `5,6,7`: three values
    over = _OVER.match(stated, first.end())
    if over is None or not first.group(0).isdigit():
        return False
    return math.gcd(int(first.group(0)), int(over.group("bottom"))) > 1


# The value restated in brackets in another unit: `1.5 hours (90 minutes)`, `$18 (1800 cents)`.
_BRACKETED = re.compile(
    r"[ \t]*+(?P<unit>[A-Za-z]{1,12})?[ \t]*+\([ \t]*+(?:(?:i\.e\.|that[ \t]+is|or|=|≈|about)"
    r"[ \t,]*+)?(?P<value>\\?[$£€¥₹]?[ \t]?\d[\d,.]*+)[ \t]*+(?P<other>[A-Za-z]{1,12}|¢)?"
)


def _restated_otherwise(stated: str, first: re.Match[str]) -> str | None:
    """A second value in brackets, in a unit of the same kind as the first's, that is not the
    same quantity (`1.5 hours (100 minutes)`, `$18 (1700 cents)`): two values, no one answer."""
    bracketed = _BRACKETED.match(stated, first.end())
    if bracketed is None:
        return None
    sign = CURRENCY_SIGN.search(stated[max(0, first.start() - 2) : first.end()])
    first_unit = sign[0] if sign else bracketed.group("unit") or ""
    sign = CURRENCY_SIGN.search(bracketed.group("value"))
    other_unit = sign[0] if sign else bracketed.group("other") or ""
    one = parse_number(stated[first.start() :])
    other = parse_number(bracketed.group("value"))
    number = NUMBER_PATTERN.match(stated, bracketed.start("value"))
    compound = compound_at(number, stated, None, bool(sign)) if number is not None else None
    if compound is not None:
        other = compound[0]  # `140 minutes (2 hours 20 minutes)`: in its larger unit
    if one is None or other is None or not competing(first_unit, other_unit):
        return None
    return None if one_quantity(one, first_unit, other, other_unit) else HEDGED


def _one_quantity(
    one: Decimal,
    other: Decimal,
    first: re.Match[str],
    alternative: re.Match[str],
    second: re.Match[str],
    stated: str,
) -> bool:
    """Whether two values side by side are one quantity: the same value, or one written in two
    units, each value with its own (`$18 (or 1800 cents)`, `2 hours or 120 minutes`); two bare
    values in a unit ratio (`2 or 4`), or in units that do not convert, are two answers."""
    word = alternative.group("unit") or ""
    sign = CURRENCY_SIGN.search(stated[max(0, first.start() - 2) : first.end()])
    first_unit = sign[0] if sign else word if word.isalpha() else ""
    after = _UNIT_AFTER.match(stated, second.end())
    sign = CURRENCY_SIGN.search(second.group(0))
    second_unit = sign[0] if sign else after.group("unit") if after else ""
    if one == other:
        # `90 minutes or 90 seconds` are two amounts; `$18 or 18 dollars` one.
        return not competing(first_unit, second_unit) or same_unit(first_unit, second_unit)
    compound = compound_at(second, stated, None, bool(sign))
    if compound is not None:
        other = compound[0]  # `160 minutes, or 2 hours and 40 minutes`: in its larger unit
    if rate_follows(stated, second.end()):
        # `$18, or $126 per week`: the value again as a rate of another period, not a second
        # answer; rates of one quantity are in the ratio of their periods.
        return same_quantity(one, other)
    return one_quantity(one, first_unit, other, second_unit)


def same_quantity(one: Decimal, other: Decimal) -> bool:
    """Whether two values may be one quantity in two units (`2 hours or 120 minutes`)."""
    if one == other:
        return True
    small, large = sorted((one.copy_abs(), other.copy_abs()))
    return small != 0 and ratio_in(large, small, UNIT_FACTORS)


def ratio_in(large: Decimal, small: Decimal, factors: frozenset[Decimal]) -> bool:
    """Whether ``large / small`` is one of ``factors`` (all under 10**4); values of millions
    of digits apart are not divided, which would overflow the decimal context."""
    if large.adjusted() - small.adjusted() > 4:
        return False
    ratio = large / small  # `2\\frac{1}{3}` hours and 140 minutes: 60 but for the last digit
    return ratio in factors or any(abs(ratio - factor) <= _LAST_DIGIT for factor in factors)


# One step of arithmetic after a value: its operator and the next operand (`× 2`, `\\cdot 3`).
_STEP = re.compile(
    r"[ \t]*+(?P<op>[×*·⋅∗∙÷/+−-]|\\times|\\cdot|\\div)[ \t]*+\\?[$£€¥₹]?[ \t]?"
    r"(?P<operand>\d[\d,]*+(?:\.\d++)?)"
)
_TIMES = frozenset(("×", "*", "·", "⋅", "∗", "∙", "\\times", "\\cdot"))
_MOST_STEPS = 8


def arithmetic_value(text: str, first: re.Match[str]) -> Decimal | None:
    """What the arithmetic that opens with the number ``first`` comes to (`9 \\times 2 + 2` is
    20), products and quotients before sums; ``None`` when it divides by zero."""
    start = parse_number(first.group(0))
    if start is None:
        return None
    terms: list[Decimal] = [start]
    at = first.end()
    for _ in range(_MOST_STEPS):
        step = _STEP.match(text, at)
        operand = parse_number(step.group("operand")) if step is not None else None
        if step is None or operand is None:
            break
        op, at = step.group("op"), step.end()
        if op in _TIMES:
            terms[-1] *= operand
        elif op in ("÷", "/", "\\div"):
            if operand == 0:
                return None
            terms[-1] /= operand
        else:
            terms.append(-operand if op in ("-", "−") else operand)
    return sum(terms, Decimal(0))


def _rounded_alike(stated: str, first: re.Match[str], second: re.Match[str]) -> bool:
    """Whether two values are one, the one with more decimals rounded to the other's."""
    one, other = parse_number(stated[first.start() :]), parse_number(stated[second.start() :])
    if one is None or other is None:
        return False
    fine, coarse = sorted((one, other), key=lambda v: v.as_tuple().exponent)
    exponent = coarse.as_tuple().exponent
    return isinstance(exponent, int) and fine.quantize(Decimal(1).scaleb(exponent)) == coarse


QUESTIONED = "the final answer line questions its value: it does not state an answer"
# A value the line asks about: `ANSWER: 18? No.`, `ANSWER: $18?`
# The line's one value only in brackets, questioned: `ANSWER: whatever the key says (800?)`.
_ONLY_VALUE_QUESTIONED = re.compile(
    r"[^\d\n]*\([ \t]*[-−]?[$£€]?[ \t]?\d[\d,.]*+[ \t]*[?？][ \t]*\)\W*"
)
_QUESTIONED = re.compile(
    r"[ \t*_`$\\]*(?:[-−]?[$£€]?[ \t]?\d[\d,.]*+[ \t]*+(?:→|->|⇒)[ \t*_`$\\]*+)?"
    r"[-−]?[$£€]?[ \t]?\d[\d,.]*+[ \t*_`]*\(?[?？]"
)


def questioned(value: str) -> bool:
    """Whether an answer line's value is asked about, not stated (`18?`, `20 → 18?`, `(800?)`)."""
    return bool(_QUESTIONED.match(value) or _ONLY_VALUE_QUESTIONED.fullmatch(value.strip()))
