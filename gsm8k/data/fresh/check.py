"""The interpreter's self-check: with every slot at its default, does a template give back the
GSM8K question it was made from, and its gold answer?

Each variable that appears in the question takes its slot's default (``{x,10}`` → 10,
``{frac,half}`` → 1/2, ``{sides,six-sided}`` → the pair ``("six-sided", 6)`` of its list). A
variable that the question does not show (``ans`` in ``x + y + z + ans == total``) is solved for:
every value of its list is tried against the conditions that mention it. The question is then
written by the same code that writes fresh questions, and ``#answer:`` evaluated. A template
*reproduces* its original when the written question equals the original character for character
and the answer equals the gold answer.
"""

from __future__ import annotations

import ast
import itertools
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from gsm8k.data.fresh.expressions import Expression, call_argument, top_call
from gsm8k.data.fresh.instances import base_environment
from gsm8k.data.fresh.quantities import parse_quantity
from gsm8k.data.fresh.templates import Template, load_templates
from gsm8k.data.fresh.values import DrawError, Labelled, Value, as_number, truth
from gsm8k.data.fresh.writing import (
    final_number,
    render_defaults,
    render_question,
    render_solution,
)
from gsm8k.data.fresh.writing import solution_answer as stated_answer

MAX_COMBINATIONS = 200_000
"""Most value combinations tried when solving for variables the question does not show."""
EQUATION_RANGE = 10_000
"""A hidden variable outside its list is looked for among the whole numbers up to this size."""


@dataclass(frozen=True)
class CheckResult:
    """How one template fares with its slots at their defaults."""

    template: str
    original_index: int
    question_matches: bool
    """The question written from the default values equals the original."""
    text_matches: bool
    """The slots' default texts pasted in place equal the original (the template's own text)."""
    gold: int | Fraction | None
    answer: int | Fraction | None
    """``#answer:`` at the defaults (``None`` when it cannot be evaluated)."""
    solution_answer: int | Fraction | None
    """The number on the solution template's ``####`` line at the defaults."""
    failed_conditions: tuple[int, ...]
    """Lines of conditions the original's own values break."""
    reasons: tuple[str, ...]
    """Why the template does not reproduce its original (empty when it does)."""
    remarks: tuple[str, ...] = ()
    """What is worth knowing even when it reproduces (a hidden value outside its list)."""
    matches_gsm8k: bool | None = None
    """The template's copy of the question equals GSM8K's test record (``None``: not checked)."""

    @property
    def reproduces(self) -> bool:
        return self.question_matches and self.answer is not None and self.answer == self.gold


def default_values(
    template: Template, remarks: list[str] | None = None
) -> tuple[dict[str, Value], list[str]]:
    """The values of every variable with the slots at their defaults, and notes on what could
    not be settled (an unreadable default, a hidden variable with no or several solutions).

    ``remarks`` collects what is worth knowing but settles the value all the same."""
    env = base_environment()
    notes: list[str] = []
    remarks = [] if remarks is None else remarks
    domains: dict[str, list[Value]] = {}
    hidden: list[str] = []
    defaults: dict[str, str] = {}
    for slot in template.slots:
        defaults.setdefault(slot.name, slot.default)
    rng = random.Random(0)
    for statement in template.statements:
        pool = _domain(statement.expression, env, rng, notes)
        if pool is None:
            continue
        for target, items in zip(statement.targets, pool, strict=True):
            domains[target] = items
            if target in defaults:
                value = read_default(defaults[target], items)
                if value is None:
                    notes.append(f"the default {defaults[target]!r} of {target} is not a number")
                    continue
                env[target] = value
            elif isinstance(items, list):
                hidden.append(target)
            else:
                env[target] = items
    if hidden:
        _solve(template, env, hidden, domains, notes, remarks)
    return {name: env[name] for name in template.variables if name in env}, notes


def _domain(
    expression: Expression, env: dict[str, Value], rng: random.Random, notes: list[str]
) -> list[Value] | None:
    """What each target of an ``#init:`` line ranges over: a list per target, or a single value
    for a derived variable."""
    try:
        argument = call_argument(expression)
        if top_call(expression) in ("sample", "sample_sequential") and argument is not None:
            items = argument.evaluate(env, rng)
            if call_argument(expression, 1) is not None:  # sample(items, k): k targets
                return [items] * len(expression.evaluate(env, rng))
            return [items]
        value = expression.evaluate(env, rng)
    except DrawError as error:
        notes.append(f"{expression.source.strip()}: {error}")
        return None
    return [value]


def read_default(default: str, items: Value) -> Value | None:
    """The value a slot's default text stands for, among the items its variable ranges over."""
    text = default.strip()
    pool = items if isinstance(items, list) else [items]
    for item in pool:
        if isinstance(item, str) and item.strip().lower() == text.lower():
            return item
        if isinstance(item, Labelled) and item.text.lower() == text.lower():
            return item
    numeric = any(not isinstance(item, str) for item in pool)
    quantity = parse_quantity(text)
    if quantity is None:
        return None if numeric else text
    if any(isinstance(item, Labelled) for item in pool):
        return Labelled(text, quantity)
    return quantity if numeric or not pool else text


def _solve(
    template: Template,
    env: dict[str, Value],
    hidden: list[str],
    domains: dict[str, list[Value]],
    notes: list[str],
    remarks: list[str],
) -> None:
    """Bind the variables the question does not show to the values its conditions allow."""
    relevant = [c for c in template.conditions if c.expression.names & set(hidden)]
    pools = [_distinct(domains[name]) for name in hidden]
    total = 1
    for pool in pools:
        total *= max(len(pool), 1)
    if total > MAX_COMBINATIONS:
        notes.append(f"{', '.join(hidden)} not shown and too many combinations to solve")
        return
    rng = random.Random(0)
    found: list[dict[str, Value]] = []
    answers: set[str] = set()
    for combination in itertools.product(*pools):
        trial = env | dict(zip(hidden, combination, strict=True))
        try:
            if all(truth(c.expression.evaluate(trial, rng)) for c in relevant):
                found.append(dict(zip(hidden, combination, strict=True)))
                answers.add(str(template.answer.evaluate(trial, rng)))
        except DrawError:
            continue
    if not found and len(hidden) == 1:
        found = _solve_equations(template, env, hidden[0], rng)
        if found:
            remarks.append(
                f"{hidden[0]} (not in the question) is {found[0][hidden[0]]} in the original, "
                "outside the values the template draws it from"
            )
            answers = {str(template.answer.evaluate(env | found[0], rng))}
    if not found:
        notes.append(f"no value of {', '.join(hidden)} (not in the question) meets the conditions")
        return
    if len(answers) > 1:
        notes.append(
            f"{', '.join(hidden)} (not in the question) are not settled by the conditions: "
            f"answers {', '.join(sorted(answers))} are all possible"
        )
    env.update(found[0])


def _solve_equations(
    template: Template, env: dict[str, Value], name: str, rng: random.Random
) -> list[dict[str, Value]]:
    """Values of one hidden variable, any whole number within :data:`EQUATION_RANGE`, that meet
    the template's equations (``==`` conditions) mentioning it: the original question's hidden
    quantity is what its equations make it, even where the template draws from a narrower list."""
    equations = [
        c
        for c in template.conditions
        if name in c.expression.names
        and isinstance(c.expression.tree.body, ast.Compare)
        and all(isinstance(op, ast.Eq) for op in c.expression.tree.body.ops)
    ]
    if not equations:
        return []
    found = []
    for candidate in range(-EQUATION_RANGE, EQUATION_RANGE + 1):
        trial = env | {name: candidate}
        try:
            if all(truth(c.expression.evaluate(trial, rng)) for c in equations):
                found.append({name: candidate})
        except DrawError:
            continue
    return found


def _distinct(items: list[Value]) -> list[Value]:
    seen: dict[str, Value] = {}
    for item in items:
        seen.setdefault(repr(item), item)
    return list(seen.values())


def check_template(template: Template, gsm8k_question: str | None = None) -> CheckResult:
    """Instantiate ``template`` at its defaults and compare with its original."""
    remarks: list[str] = []
    values, notes = default_values(template, remarks)
    reasons = list(notes)
    gold = final_number(template.original_answer)
    env = base_environment() | values
    rng = random.Random(0)
    question_matches = False
    if not notes and set(values) >= {slot.name for slot in template.slots}:
        try:
            written = render_question(template, values)
        except DrawError as error:
            reasons.append(f"the question cannot be written: {error}")
        else:
            question_matches = written == template.original_question.strip()
            if not question_matches:
                reasons.extend(_two_defaults(template))
                reasons.append(_difference(written, template.original_question.strip()))
    text_matches = render_defaults(template) == template.original_question.strip()
    answer: int | Fraction | None = None
    try:
        answer = as_number(template.answer.evaluate(env, rng))
    except DrawError as error:
        reasons.append(f"#answer cannot be evaluated: {error}")
    if answer is not None and answer != gold:
        reasons.append(f"#answer gives {answer}, the gold answer is {gold}")
    try:
        solution_answer = stated_answer(render_solution(template, env))
    except DrawError:
        solution_answer = None
    failed = []
    for condition in template.conditions:
        try:
            if not truth(condition.expression.evaluate(env, rng)):
                failed.append(condition.line)
        except DrawError:
            failed.append(condition.line)
    matches_gsm8k = None
    if gsm8k_question is not None:
        matches_gsm8k = _same_text(gsm8k_question, template.original_question)
        if not matches_gsm8k:
            reasons.append("the template's copy of the question differs from GSM8K's")
    return CheckResult(
        template=template.name,
        original_index=template.original_index,
        question_matches=question_matches,
        text_matches=text_matches,
        gold=gold,
        answer=answer,
        solution_answer=solution_answer,
        failed_conditions=tuple(failed),
        reasons=tuple(reasons),
        remarks=tuple(remarks),
        matches_gsm8k=matches_gsm8k,
    )


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


def _difference(written: str, original: str) -> str:
    """Where the written question departs from the original, in a few words; spacing apart,
    which is reported only when it is the whole difference."""
    a, b = " ".join(written.split()), " ".join(original.split())
    if a == b:
        return "the question differs from the original in spacing only"
    start = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    lo = max(0, start - 25)
    # Only GSM8K's side is quoted (MIT): the templates' text is CC BY-NC-ND and not reproduced.
    return f"the wording departs from GSM8K's at {json.dumps(b[lo : start + 25])}"


def _two_defaults(template: Template) -> list[str]:
    """Variables whose slots show different defaults: a variable is written the same way
    everywhere, so such a template cannot give back both texts (the texts are not quoted)."""
    seen: dict[str, set[str]] = {}
    for slot in template.slots:
        seen.setdefault(slot.name, set()).add(slot.default)
    return [
        f"the variable {name} has {len(texts)} different defaults in its slots"
        for name, texts in seen.items()
        if len({t.lower() for t in texts}) > 1
    ]


def self_check(
    templates: str | Path | Sequence[Template], gsm8k_questions: Sequence[str] | None = None
) -> list[CheckResult]:
    """Check every template (of a folder, or given); with GSM8K's test questions, also that each
    template's copy of its original is GSM8K's own.

    Raises:
        TemplateError: a folder that is missing, or a malformed template in it.
    """
    if isinstance(templates, (str, Path)):
        templates = load_templates(templates)
    results = []
    for template in templates:
        question = None
        if gsm8k_questions is not None and template.original_index < len(gsm8k_questions):
            question = gsm8k_questions[template.original_index]
        results.append(check_template(template, question))
    return results
