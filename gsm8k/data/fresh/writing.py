"""Writing an instance: its question and worked solution from the drawn values, and the number
a worked solution ends on (against which a drawn answer is checked).

A drawn value is written the way its slot's default writes it (:mod:`gsm8k.data.fresh.quantities`);
three rules keep the English right whatever was drawn (a capital at a sentence's start, ``a``/
``an`` agreeing with the value, digits after a currency sign). Both texts are bounded
(:data:`gsm8k.data.fresh.values.MAX_RENDERED`) before they are built.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

from gsm8k.data.fresh.quantities import solution_text, write_number, write_value
from gsm8k.data.fresh.templates import SLOT, Template
from gsm8k.data.fresh.values import (
    MAX_RENDERED,
    Budget,
    Labelled,
    Value,
    WorkExceeded,
    as_number,
    text_size,
)


def final_number(solution: str) -> int | Fraction | None:
    """The number after the solution's last ``####``, if it is one."""
    if "####" not in solution:
        return None
    text = solution.rsplit("####", 1)[1].strip().replace(",", "")
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None
    return value.numerator if value.denominator == 1 else value


_ANNOTATION = re.compile(r"<<[^<>]*=\s*([-\d.,/]+)\s*>>")
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?(?:/\d+)?")


def solution_answer(solution: str) -> int | Fraction | None:
    """The number a worked solution ends on: after its last ``####``, else the result of its
    last ``<<a*b=c>>`` annotation, else the last number written after an ``=``, else its last
    number."""
    final = final_number(solution)
    if final is not None:
        return final
    annotations = _ANNOTATION.findall(solution)
    if annotations:
        return _number(annotations[-1])
    after_equals = solution.rsplit("=", 1)[1] if "=" in solution else solution
    numbers = _NUMBER.findall(after_equals) or _NUMBER.findall(solution)
    return _number(numbers[-1]) if numbers else None


def _number(text: str) -> int | Fraction | None:
    try:
        value = Fraction(text.replace(",", "").rstrip("."))
    except (ValueError, ZeroDivisionError):
        return None
    return value.numerator if value.denominator == 1 else value


def render_question(template: Template, values: dict[str, Value]) -> str:
    """The question with each slot written from its variable, in its default's style.

    Three rules keep the English right whatever was drawn: a value that starts a sentence
    starts with a capital, ``a``/``an`` before a slot agrees with the value written, and a number
    right after a currency symbol is written in digits (``$50``, not ``$fifty``).
    """
    out: list[str] = []
    position = 0
    length = 0
    for match in SLOT.finditer(template.text):
        before = template.text[position : match.start()]
        out.append(before)
        written = "".join(out)
        default = match.group(2)
        value = values[match.group(1)]
        if length + len(before) + text_size(value) > MAX_RENDERED:
            raise WorkExceeded(f"the question would be longer than {MAX_RENDERED:,} characters")
        if written[-1:] in CURRENCY_SIGNS and not isinstance(value, (str, Labelled)):
            text = write_number(as_number(value), default, words=False)
        else:
            text = write_value(value, default)
        if _starts_sentence(written):
            text = text[:1].upper() + text[1:]
        length += len(before) + len(text)
        out[-1] = _agree_article(before, text)
        out.append(text)
        position = match.end()
    out.append(template.text[position:])
    return "".join(out).strip()


CURRENCY_SIGNS = "$€£¥"
_ARTICLE = re.compile(r"(^|[^\w])([Aa]n?) $")
_SOUNDS_VOWEL = re.compile(r"(?i)^(?:[aeio]|u(?!ni|s[eu]|ro)|hour|honest|heir|8|1[18](?!\d))")


def _starts_sentence(written: str) -> bool:
    stripped = written.rstrip(" ")
    return not stripped or (stripped[-1] in ".?!\n" and written != stripped)


def _agree_article(before: str, text: str) -> str:
    """``a`` / ``an`` right before a slot, chosen by the sound the written value starts with."""
    match = _ARTICLE.search(before)
    if match is None or not text[:1].isalnum():
        return before
    article = match.group(2)
    wanted = "an" if _SOUNDS_VOWEL.match(text) else "a"
    if article[0].isupper():
        wanted = wanted.capitalize()
    return before[: match.start(2)] + wanted + " "


def render_defaults(template: Template) -> str:
    """The question with every slot at its default text."""
    return SLOT.sub(lambda m: m.group(2).strip(), template.text).strip()


def render_solution(template: Template, env: dict[str, Value], budget: Budget | None = None) -> str:
    """The worked solution with each ``{expression}`` evaluated."""
    pieces = re.split(r"\{[^{}]*\}", template.solution)
    rng = random.Random(0)
    out = [pieces[0]]
    length = len(template.solution)
    for part, text in zip(template.solution_parts, pieces[1:], strict=True):
        value = part.evaluate(env, rng, budget)
        length += text_size(value)
        if length > MAX_RENDERED:
            raise WorkExceeded(f"the solution would be longer than {MAX_RENDERED:,} characters")
        out.append(solution_text(value))
        out.append(text)
    return "".join(out).strip()
