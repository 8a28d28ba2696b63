"""The relations for answers left open and remarks after a result (task version 1.11.0): a
disclaimed answer delivers none, values per case deliver none, and with no answer mark a remark
after the sentence that states the working's result leaves it (docs/grading.md, "The delivered
answer"; benchmarks/relation_phrasings.py holds the phrasing helpers)."""

from __future__ import annotations

import re
from decimal import Decimal

from benchmarks.relation_phrasings import (
    NOT_JSON,
    Case,
    Expect,
    Phrasing,
    Relation,
    after,
    line,
)

_RESULT = re.compile(r"(?:=|>>)[ \t]*\$?(-?\d[\d,]*(?:\.\d+)?)")


def after_result(template: str) -> Phrasing:
    """In place of the statement's line, where the working's last computation (`= d`) reaches
    ``d``: a closing sentence that states the result, then a remark on it."""

    def build(case: Case) -> str | None:
        if "```" in case.completion:
            return None  # a program's assignments are no working results
        results = _RESULT.findall(case.completion[: case.statement.start])
        last = results[-1].replace(",", "") if results else ""
        if case.statement.kind not in NOT_JSON or not last or Decimal(last) != case.statement.value:
            return None
        text = case.fill(template)
        return None if text is None else case.replace_line(text)

    return template, build


def after_unasked(template: str, word: str) -> Phrasing:
    """Written after the completion, unless the question itself uses ``word`` (`Tim's guess`, a
    pinch of salt): there the word is the question's, not the model's doubt."""

    def build(case: Case) -> str | None:
        if word in (case.question or "").lower():
            return None
        return case.after("\n\n" + template)

    return template, build


# The model says it does not know its answer, or is guessing: none, however it says so.
DISCLAIMED = Relation(
    "disclaimed",
    Expect.NONE,
    (
        after("I'm not sure about this."),
        after_unasked("Honestly, this is a wild guess.", "guess"),
        after("I really don't know if that is right."),
        after("I keep going back and forth on this one."),
        after_unasked("Take it with a grain of salt.", "salt"),
        line("I'm not sure, but maybe {d}."),
        line("I genuinely don't know. Possibly {d}."),
    ),
)

# Values per case in other shapes than the lines above: the same statement under two conditions
# or labels, or two values each with its own condition in one sentence.
CASES = Relation(
    "parallel_cases",
    Expect.NONE,
    (
        line("If we count every {n}: {d}.\nIf we don't: {a}."),
        line("Plan A: {d}. Plan B: {a}."),
        line("{d} if we count the {n}, {a} if we don't."),
        line("Assuming whole units, {d}. Allowing fractions, {a}."),
    ),
)

# With no answer mark, the sentence that states the working's last result is the statement;
# a remark after it (a number of the question, a hedged alternative, a value ruled out) leaves it.
REMARK = Relation(
    "closing_remark",
    Expect.SAME,
    (
        after_result("So the total is {d}. Reminder: the question gives {q} {n}."),
        after_result("So the total is {d}. Alternatively, if we left out the {n}, it'd be {a}."),
        after_result("So the total is {d}. Note that {a} is not the answer."),
    ),
)

OPEN_ANSWERS: tuple[Relation, ...] = (DISCLAIMED, CASES, REMARK)
