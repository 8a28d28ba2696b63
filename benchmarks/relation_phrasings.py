"""The metamorphic relations that add to a final answer statement, and the verdict each implies.

Each relation rewrites or extends the final answer statement of a completion whose delivered
answer ``d`` is known, in several phrasings models write, and says what the grader must then
read: nothing (``NONE``), ``d`` unchanged (``SAME``), or the other value ``a`` the rewrite
states (``NEW``); ``a`` is neither ``d`` nor a number of the question. A phrasing is a template
with the fields ``{d}``, ``{a}``, ``{q}`` and ``{n}`` (a number of the question and the noun after
it, ``16 eggs``), written into the statement's slot (``slot``), in place of the whole mark
(``mark``) or after the completion (``after``). Hedges, corrections and retractions follow
reasoning-model outputs (``Wait, …``, ``Alternatively, …``, ``Hmm, maybe …``, ``~~18~~ 20``).
The method: Chen et al., "Metamorphic Testing: A Review of Challenges and Opportunities", ACM
Computing Surveys 51(1), 2018.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum

from benchmarks.answer_statements import Statement, fmt, question_quantities


@dataclass(frozen=True)
class Case:
    """One usable completion: its text, final statement, delivered value and question."""

    completion: str
    statement: Statement
    question: str | None
    alternative: Decimal

    @property
    def d(self) -> str:
        return fmt(self.statement.value)

    @property
    def a(self) -> str:
        return fmt(self.alternative)

    @property
    def number(self) -> str:
        """The number as the completion wrote it (``$45.0``, ``1,200``)."""
        return self.statement.number(self.completion)

    def replace_mark(self, mark: str) -> str:
        s = self.statement
        return self.completion[: s.start] + mark + self.completion[s.end :]

    def slot(self, inner: str) -> str:
        """The completion with the statement's slot holding ``inner`` instead of its value
        (the mark's own markup kept: ``**ANSWER:**``, ``$\\boxed{…}$``)."""
        s = self.statement
        if s.kind == "boxed":  # a box sits in LaTeX math, where a bare `$` would end it
            inner = re.sub(r"(?<!\\)\$", r"\\$", inner)
        inner = inner if s.quoted else f'"{inner}"'
        return self.completion[: s.slot_start] + inner + self.completion[s.slot_end :]

    def replace_line(self, text: str) -> str:
        """The completion with the statement's line (and anything after it) replaced by ``text``."""
        line_start = self.completion.rfind("\n", 0, self.statement.start) + 1
        return self.completion[:line_start] + text

    def after(self, text: str) -> str:
        return self.completion.rstrip() + text

    def quantity(self) -> tuple[str, str] | None:
        """A question number with its noun (``16``, ``eggs``), unequal to ``d`` and ``a``."""
        for value, noun in question_quantities(self.question):
            if value not in (self.statement.value, self.alternative):
                return fmt(value), noun
        return None

    def fill(self, template: str) -> str | None:
        """The template with this case's fields; ``None`` when it names ``{q}``/``{n}`` and the
        question has no such quantity."""
        q, n = self.quantity() or ("", "")
        if not q and ("{q}" in template or "{n}" in template):
            return None
        return template.format(d=self.d, a=self.a, q=q, n=n, number=self.number)


Build = Callable[[Case], "str | None"]
Phrasing = tuple[str, Build]


class Expect(Enum):
    NONE = "none"
    SAME = "same"
    NEW = "new"


@dataclass(frozen=True)
class Relation:
    name: str
    expect: Expect
    phrasings: tuple[Phrasing, ...]
    truncated: bool = False
    """Grade the rewrite as cut at the token limit (a retraction that the limit cut off)."""


NOT_JSON = ("a_line", "answer_line", "hash_line", "boxed", "phrase")
WORDS_SLOT = ("a_line", "answer_line", "hash_line", "json", "phrase")
BOXED, JSON = ("boxed",), ("json",)
STRUCK = ("a_line", "answer_line", "hash_line", "phrase")


def _where(
    place: Callable[[Case, str], str], template: str, kinds: Collection[str] | None
) -> Build:
    def build(case: Case) -> str | None:
        if kinds is not None and case.statement.kind not in kinds:
            return None
        text = case.fill(template)
        return None if text is None else place(case, text)

    return build


def slot(template: str, kinds: Collection[str] | None = None) -> Phrasing:
    """Written into the statement's slot (``A: …``, ``\\boxed{…}``, ``"answer": "…"``)."""
    return template, _where(Case.slot, template, kinds)


def mark(template: str, kinds: Collection[str] | None = None) -> Phrasing:
    """Written in place of the whole answer mark."""
    return template, _where(Case.replace_mark, template, kinds)


def line(template: str, kinds: Collection[str] | None = NOT_JSON) -> Phrasing:
    """Written in place of the statement's line: another kind of mark (``#### …``) as the final
    line; not inside a JSON object, where no model writes one."""
    return template, _where(Case.replace_line, template, kinds)


def after_working(template: str) -> Phrasing:
    """In place of the statement's line, where the working before it reaches ``d`` (its last
    number): closing words that rule out the working's value."""

    def build(case: Case) -> str | None:
        before = case.completion[: case.statement.start]
        numbers = re.findall(r"-?\d[\d,]*(?:\.\d+)?", before)
        last = numbers[-1].replace(",", "") if numbers else ""
        if case.statement.kind not in NOT_JSON or not last or Decimal(last) != case.statement.value:
            return None
        text = case.fill(template)
        return None if text is None else case.replace_line(text)

    return template, build


def after(template: str, kinds: Collection[str] | None = None) -> Phrasing:
    """Written after the completion, following two newlines."""
    return template, _where(lambda c, t: c.after("\n\n" + t), template, kinds)


HEDGED = Relation(
    "hedged_statement",
    Expect.NONE,
    (
        slot("{d}, perhaps {a}"),
        slot("{d} or maybe {a}"),
        slot("{d} to {a}"),
        slot("either {d} or {a}"),
        slot("{d} (or possibly {a})"),
        slot("{d}, or {a} if rounded"),
        slot("{d}; {a}", BOXED),
        slot("{d} \\text{{ (or }} {a})", BOXED),
        slot("{d} \\mid {a}", BOXED),
        slot("{d} \\text{{ through }} {a}", BOXED),
        slot("{d} \\approx {a}", BOXED),
        mark("\\boxed{{{d}}} or \\boxed{{{a}}}", BOXED),
        mark('"answer": [{d}, {a}]', JSON),
        mark('"answer": {d}, "alternatives": [{a}]', JSON),
        slot("{d} (counting the {n}) / {a} (not counting them)"),
    ),
)

ALTERNATIVE = Relation(
    "alternative_after",
    Expect.SAME,
    (
        after("If we also count the {n}, the answer would be {a}."),
        after(
            "(If the question meant the total for both days, the answer would be \\boxed{{{a}}}.)"
        ),
        after("Alternatively, if each of the {q} {n} is counted on its own, we get {a}."),
        after("Hmm, maybe the final answer is {a} if we round up."),
        after("Or maybe {a}?"),
        after("(It would be {a} if we count the {n} too.)"),
    ),
)

CORRECTION = Relation(
    "unhedged_correction",
    Expect.NEW,
    (
        after("Wait, I made a mistake above. The correct answer is {a}."),
        after("Correction: the answer is {a}."),
        after("Actually, I misread the question. The final answer is \\boxed{{{a}}}."),
        slot("{d}, actually {a}"),
        slot("~~{d}~~ {a}", STRUCK),
        slot("{d} — scratch that, {a}"),
        slot("{d} (typo, should be {a})"),
        mark("~~\\boxed{{{d}}}~~ \\boxed{{{a}}}", BOXED),
        after(
            'Correction:\n```json\n{{"reasoning": "I misread a step.", "answer": "{a}"}}\n```', JSON
        ),
    ),
)

QUOTED = Relation(
    "quoted_mistake",
    Expect.SAME,
    (
        after("A common mistake is to answer \\boxed{{{a}}}."),
        slot("{d} (not {a})"),
        after("Note that the answer is not {a}: that would leave out the {n}."),
        after("(Some might get {a} by skipping a step, but that is wrong.)"),
        after("An answer of {a} would double-count; the correct total is {d}."),
    ),
)

RETRACTION = Relation(
    "retraction_cut",
    Expect.NONE,
    (
        after("Wait, I made a mistake. Let me recompute"),
        after("Oh no, that's not right. Let me redo the second step: the"),
        after("Hmm, on second thought, the {n} should be counted"),
        after("Correction:"),
        after("Actually, wait. I misread the question. It says"),
    ),
    truncated=True,
)

EMPTY = Relation(
    "empty_slot",
    Expect.NONE,
    (
        slot("not enough information"),
        slot("cannot be determined"),
        slot("?", NOT_JSON),
        mark('"answer": null', JSON),
        line("#### not enough information"),
        line("<answer></answer>"),
    ),
)

# With no answer mark the closing sentences are the statement (the statement's line and what
# follows it replaced by them), and the same definition holds there.
CLOSING_GUESSES = Relation(
    "closing_guesses",
    Expect.NONE,
    (
        line("I'd say {d}, maybe {a}."),
        line("Probably {d}. Possibly {a}."),
        line("Either {d} or {a}?"),
        line("My best guess: {d}. Could be {a} though."),
        line("The answer cannot be determined."),
        line("I don't know the answer."),
        line("ANSWER: ..."),
        line("So the total is {d} or {a}."),
        line("I can't decide between {d} and {a}."),
    ),
)

CLOSING_HEDGE = Relation(
    "closing_hedge",
    Expect.SAME,
    (
        line("So the total is probably {d}."),
        line("Maybe {d}."),
        line("I think it is {d}."),
    ),
)

# A value the model rules out is not stated; closing words that rule out the working's value
# leave none (the working before the rewrite reaches `d`).
RULED_OUT = Relation(
    "ruled_out",
    Expect.NONE,
    (
        slot("{d} (wrong)", STRUCK),
        slot("{d} is incorrect", STRUCK),
        slot("~~{d}~~", STRUCK),
        slot("anything but {d}", STRUCK),
        after_working("It's definitely not {d}."),
        after_working("I initially got {d}, but that was wrong."),
        after_working("The answer is not {d}."),
    ),
)

# After a committed answer, words that the model cannot choose, is not sure, or takes the
# answer back, with nothing after them.
UNDECIDED = Relation(
    "undecided_after",
    Expect.NONE,
    (
        after("But honestly {a} is equally likely."),
        after("Either answer ({d} or {a}) should be accepted."),
        after("I can't decide between this and {a}."),
        after("It's a coin flip between {d} and {a}."),
        after("Though {a} would also be a reasonable reading."),
        after("I take that back."),
        after("Disregard the above."),
        after("Hmm, I no longer trust that number."),
    ),
)

# With no answer mark, closing lines that give a value per case, a range in words, or a list.
PER_CASE = Relation(
    "per_case",
    Expect.NONE,
    (
        line("Scenario A: {d}\nScenario B: {a}"),
        line("For part (a): {d}. For part (b): {a}."),
        line("At least {d}, at most {a}."),
        line("Candidates: {d}, {a}."),
        line("So we get {d} in the first case and {a} in the second case."),
        line("ANSWER: {d}\nANSWER: {a}"),
    ),
)


ADDITIONS: tuple[Relation, ...] = (HEDGED, ALTERNATIVE, CORRECTION, QUOTED, RETRACTION, EMPTY)
ADDITIONS += (CLOSING_GUESSES, CLOSING_HEDGE, RULED_OUT, UNDECIDED, PER_CASE)
