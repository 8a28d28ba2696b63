"""Drawing fresh questions from a template: seeded values, rejection sampling, rendering.

One draw evaluates the ``#init:`` lines in order (a line whose value is a list, such as
``range(2, 100)``, draws one item of it), then the ``#conditions:``; a draw that breaks a
condition, or whose ``#answer:`` is not a whole number (every GSM8K answer is one), or whose
worked solution ends in another number than the answer, is rejected and another is drawn, up to
:data:`MAX_TRIES` times. A template that yields nothing within that many draws is an error naming
it and the most frequent reason, never a question with a wrong answer.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from gsm8k.data.fresh.expressions import Expression, top_call
from gsm8k.data.fresh.templates import Condition, Template, TemplateError
from gsm8k.data.fresh.values import (
    Budget,
    DrawError,
    Labelled,
    Value,
    WorkExceeded,
    as_number,
    truth,
)
from gsm8k.data.fresh.vocabulary import VOCABULARIES, vocabulary
from gsm8k.data.fresh.writing import (
    final_number,
    render_question,
    render_solution,
    solution_answer,
)

MAX_TRIES = 200_000
"""Draws tried for one instance before the template is declared impossible to instantiate.

The least productive of the 100 templates (0011: an equality between drawn numbers) accepts
about one draw in 11,000; 200,000 fails it by chance with probability about e^-18 per instance.
"""
MAX_LATE_REJECTIONS = 1_000
"""Draws that met every condition and still had no usable answer (not a whole number, or a
solution that ends in another number) after which the template is declared broken: in the 99
templates that work, every draw that meets the conditions is accepted."""

_DRAWING = ("sample", "sample_sequential")


@dataclass(frozen=True)
class Instance:
    """One question drawn from a template."""

    template: str
    """The template's file stem (``0000``)."""
    original_index: int
    """The GSM8K test index the template was made from."""
    question: str
    answer: int
    solution: str
    """The template's worked solution for these values."""
    bindings: dict[str, Any]
    """Every variable the template defines, name → value as JSON (:func:`to_json`)."""
    tries: int
    """Draws it took (1 = the first draw was accepted)."""


class InstantiationError(TemplateError):
    """No draw within the allowed number met the template's conditions."""


def base_environment() -> dict[str, Value]:
    """The vocabularies, as every template sees them (never mutated by an evaluation)."""
    return {name: vocabulary(name) for name in VOCABULARIES}


@dataclass
class Drawer:
    """Draws instances of one template.

    The fixed parts of its ``#init:`` are evaluated once, and each condition is checked as soon
    as the variables it reads are drawn, so a rejected draw stops early (conditions draw nothing,
    so the order does not change which draws are accepted).
    """

    template: Template
    constants: dict[int, Value] = field(default_factory=dict)
    checks: dict[int, list[Condition]] = field(default_factory=dict)
    base: dict[str, Value] = field(default_factory=base_environment)
    quiet: random.Random = field(default_factory=lambda: random.Random(0))
    """Passed where nothing is drawn (conditions): seeding a generator per draw is costly."""

    def __post_init__(self) -> None:
        bound_at: dict[str, int] = {}
        for position, statement in enumerate(self.template.statements):
            bound_at.update(dict.fromkeys(statement.targets, position))
            if not statement.expression.randomized and statement.expression.names <= set(self.base):
                try:
                    self.constants[position] = statement.expression.evaluate(
                        self.base, random.Random(0)
                    )
                except DrawError as error:
                    raise TemplateError(
                        f"{self.template.where(statement.line)}: {error}."
                    ) from error
                except WorkExceeded as error:  # skipped and listed, as when drawing
                    raise InstantiationError(
                        f"template {self.template.path.name}: {error}."
                    ) from error
        for condition in self.template.conditions:
            # -1: it reads no variable, and is checked before anything is drawn
            ready = max((bound_at.get(n, -1) for n in condition.expression.names), default=-1)
            self.checks.setdefault(ready, []).append(condition)

    def draw(self, rng: random.Random, budget: Budget | None = None) -> dict[str, Value] | str:
        """Values for every variable, or why this draw is rejected.

        Raises:
            WorkExceeded: ``budget`` is spent.
        """
        env = dict(self.base)
        quiet = self.quiet
        budget = Budget() if budget is None else budget
        for condition in self.checks.get(-1, ()):
            verdict = _holds(condition, env, quiet, budget)
            if verdict is not None:
                return verdict
        for position, statement in enumerate(self.template.statements):
            value = self.constants.get(position)
            try:
                if value is None:
                    value = statement.expression.evaluate(env, rng, budget)
                _bind(statement.targets, value, statement.expression, rng, env)
            except DrawError as error:
                return f"#init line {statement.line}: {error}"
            for condition in self.checks.get(position, ()):
                verdict = _holds(condition, env, quiet, budget)
                if verdict is not None:
                    return verdict
        return {name: env[name] for name in self.template.variables}

    def instance(self, rng: random.Random, max_tries: int = MAX_TRIES) -> Instance:
        """The first accepted draw.

        Raises:
            InstantiationError: no draw within ``max_tries`` was accepted.
        """
        reasons: Counter[str] = Counter()
        late: Counter[str] = Counter()
        budget = Budget()
        for tries in range(1, max_tries + 1):
            try:
                values = self.draw(rng, budget)
                verdict = (
                    values
                    if isinstance(values, str)
                    else finish(self.template, self.base | values, budget)
                )
            except WorkExceeded as error:
                raise InstantiationError(f"template {self.template.path.name}: {error}.") from error
            if isinstance(values, str):
                reasons[values] += 1
                continue
            if isinstance(verdict, str):
                late[verdict] += 1
                if late.total() >= MAX_LATE_REJECTIONS:
                    raise InstantiationError(
                        f"template {self.template.path.name}: {late.total():,} draws met every "
                        f"condition but none has a usable answer ({late.most_common(1)[0][0]})."
                    )
                continue
            answer, solution, question = verdict
            return Instance(
                template=self.template.name,
                original_index=self.template.original_index,
                question=question,
                answer=answer,
                solution=solution,
                bindings=to_json(values),
                tries=tries,
            )
        common = "; ".join(
            f"{reason} ({count:,})" for reason, count in (reasons + late).most_common(3)
        )
        raise InstantiationError(
            f"template {self.template.path.name}: no draw of {max_tries:,} was accepted; "
            f"most frequent rejections: {common}."
        )


def _holds(
    condition: Condition, env: dict[str, Value], rng: random.Random, budget: Budget | None = None
) -> str | None:
    """``None`` when the condition holds, else why not."""
    try:
        if truth(condition.expression.evaluate(env, rng, budget)):
            return None
        return f"condition on line {condition.line}"
    except DrawError as error:
        return f"condition on line {condition.line}: {error}"


def _bind(
    targets: tuple[str, ...],
    value: Value,
    expression: Expression,
    rng: random.Random,
    env: dict[str, Value],
) -> None:
    if len(targets) == 1:
        # `$x = range(2, 100)` or `$r = [0.25, 0.5]` means one item of the list; `sample(...)`
        # has already drawn.
        if isinstance(value, list) and top_call(expression) not in _DRAWING:
            if not value:
                raise DrawError(f"{targets[0]} draws from an empty list")
            value = rng.choice(value)
        env[targets[0]] = value
        return
    if not isinstance(value, list) or len(value) != len(targets):
        raise DrawError(f"{', '.join(targets)} need {len(targets)} values")
    env.update(zip(targets, value, strict=True))


def finish(
    template: Template, env: dict[str, Value], budget: Budget | None = None
) -> tuple[int, str, str] | str:
    """The answer, worked solution and question once the conditions hold, or why the draw is
    rejected: an answer that is not a whole number, a solution whose own final number says
    otherwise (or that states none to check against), a question or solution past
    :data:`MAX_RENDERED` characters."""
    try:
        answer = as_number(template.answer.evaluate(env, random.Random(0), budget))
    except DrawError as error:
        return f"#answer: {error}"
    if not isinstance(answer, int):
        return "#answer is not a whole number"
    try:
        solution = render_solution(template, env, budget)
        question = render_question(template, env)
    except DrawError as error:
        return f"solution: {error}"
    # Without "#### N" the answer is checked against the solution's own last computation: a
    # wrong #answer formula never reaches a question's target.
    stated = solution_answer(solution)
    if stated is None:
        return "the solution has no #### line and no number to check #answer against"
    if stated != answer:
        if final_number(solution) is not None:
            return "the solution's #### line differs from #answer"
        return "the solution's last computation (it has no #### line) differs from #answer"
    return answer, solution, question


def instance_rng(seed: int, template: str, instance: int) -> random.Random:
    """The generator of one instance: its own seed, so instance k of a template is the same
    whatever other templates or how many instances a run asks for."""
    return random.Random(f"gsm-symbolic-fresh/{seed}/{template}/{instance}")


def instantiate(
    template: Template,
    rng: random.Random,
    max_tries: int = MAX_TRIES,
) -> Instance:
    """One fresh instance of ``template`` drawn with ``rng``.

    Raises:
        InstantiationError: no draw within ``max_tries`` met the conditions.
    """
    return Drawer(template).instance(rng, max_tries)


def to_json(values: dict[str, Value]) -> dict[str, Any]:
    """Bindings as JSON: whole numbers as ints, exact decimals as floats (``2.75``), other
    fractions as ``"1/3"``, a pair as ``{"text": ..., "value": ...}``, lists as lists."""
    return {name: json_value(value) for name, value in values.items()}


def json_value(value: Value) -> Any:
    if isinstance(value, Labelled):
        return {"text": value.text, "value": json_value(value.value)}
    if isinstance(value, list):
        return [json_value(item) for item in value]
    if isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, Fraction):
        as_float = float(value)
        if Fraction(repr(as_float)) == value:
            return as_float
        return f"{value.numerator}/{value.denominator}"
    raise TypeError(f"cannot record {value!r}")


def from_json(value: Any) -> Value:
    """The inverse of :func:`json_value`."""
    if isinstance(value, dict):
        return Labelled(str(value["text"]), as_number(from_json(value["value"])))
    if isinstance(value, list):
        return [from_json(item) for item in value]
    if isinstance(value, float):
        number = Fraction(repr(value))
        return number.numerator if number.denominator == 1 else number
    if isinstance(value, str) and re.fullmatch(r"-?\d+/\d+", value):
        number = Fraction(value)
        return number.numerator if number.denominator == 1 else number
    return value
