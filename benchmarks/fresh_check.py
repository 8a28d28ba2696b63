"""Check fresh GSM-Symbolic questions with code that shares nothing with their generator.

For every fresh sample of ``dataset=gsm-symbolic-fresh`` this reads the template file itself
(its own regular expressions, not :mod:`gsm8k.data.fresh.templates`) and checks that

* the recorded bindings, put into the template's slots, give back the question text: the text
  between slots is the template's, each slot shows its variable's recorded value (a text, a
  pair's text, or a number written in digits, as a decimal, a fraction or in words), allowing
  only a capital at a sentence's start and ``a``/``an`` before a slot;
* the template's ``#answer:`` formula, evaluated by a second, separate evaluator on SymPy
  rationals with the recorded bindings, equals the recorded answer.

    python -m benchmarks.fresh_check --templates ../shared/data/gsm-symbolic/templates/symbolic \
        --seeds 0 1 2 --per-template 5

It prints how many samples pass each check and the time drawing took; any failure is listed and
the exit status is 1.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import sympy

_SLOT = re.compile(r"\{\s*([A-Za-z_]\w*)\s*,([^{}]*)\}")
_UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
_TEENS = "fifteen sixteen seventeen eighteen nineteen"
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety"
_WORDS = {w: n for n, w in enumerate(f"{_UNITS} {_TEENS}".split(" "))}
for _tens, _word in enumerate(_TENS.split(" "), 2):
    _WORDS[_word] = _tens * 10
    for _unit in range(1, 10):
        _WORDS[f"{_word}-{_UNITS.split(' ')[_unit]}"] = _tens * 10 + _unit


def decode(value: Any) -> Any:
    """A recorded binding as SymPy numbers: ``{"text", "value"}`` pairs, floats, ``"p/q"``."""
    if isinstance(value, dict):
        return (str(value["text"]), decode(value["value"]))
    if isinstance(value, list):
        return [decode(item) for item in value]
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, float):
        return sympy.Rational(repr(value))
    if isinstance(value, str) and re.fullmatch(r"-?\d+/\d+", value):
        return sympy.Rational(value)
    return value


def read_number(text: str) -> sympy.Rational | None:
    """A number as a question writes it: digits, a decimal, ``p/q`` or an English word."""
    clean = text.strip().lower().replace(",", "")
    if re.fullmatch(r"-?\d+(\.\d+)?|-?\d+/\d+", clean):
        return sympy.Rational(clean)
    if clean in _WORDS:
        return sympy.Integer(_WORDS[clean])
    return None


def question_problems(annotated: str, question: str, bindings: dict[str, Any]) -> list[str]:
    """Why ``question`` is not the template's text with ``bindings`` in its slots (none: it is)."""
    text = annotated.split("#init:", 1)[0].strip()
    pattern = ""
    names: list[str] = []
    position = 0
    for match in _SLOT.finditer(text):
        literal = re.escape(text[position : match.start()])
        # a/an before a slot agrees with what is written; a sentence may start with a capital
        literal = re.sub(r"(^|\\ |\W)([Aa])n?\\ $", lambda m: m.group(1) + "[Aa]n?\\ ", literal)
        name = match.group(1)
        value = decode(bindings.get(name))
        shown = value[0] if isinstance(value, tuple) else value
        # a text must appear as recorded (any case); a number is read back after matching
        slot = f"((?i:{re.escape(shown)}))" if isinstance(shown, str) else "(.+?)"
        pattern += literal + slot
        names.append(name)
        position = match.end()
    pattern += re.escape(text[position:])
    found = re.fullmatch(pattern, question, re.DOTALL)
    if found is None:
        found = re.fullmatch(pattern, question[:1].lower() + question[1:], re.DOTALL)
    if found is None:
        return ["the text between the slots is not the template's"]
    problems = []
    for name, shown in zip(names, found.groups(), strict=True):
        if name not in bindings:
            problems.append(f"{name} is not recorded")
            continue
        value = decode(bindings[name])
        if isinstance(value, tuple):
            value = value[0]
        if isinstance(value, str):
            if shown.lower() != value.lower():
                problems.append(f"{name} shows {shown!r}, recorded {value!r}")
        elif read_number(shown) != value:
            problems.append(f"{name} shows {shown!r}, recorded {value}")
    return problems


def answer_formula(annotated: str) -> str:
    """The text of the template's ``#answer:`` line (``#answer =`` and braces allowed)."""
    match = re.search(r"^\s*#\s*answer\s*[:=](.*)$", annotated, re.MULTILINE)
    if match is None:
        raise ValueError("no #answer line")
    formula = match.group(1).strip()
    if formula.startswith("{") and formula.endswith("}"):
        formula = formula[1:-1]
    return formula.replace("$", "")


class SympyFormula:
    """A second evaluator for answer formulas: arithmetic, comparisons, ``x if c else y``,
    ``int``, ``round``, ``Fraction`` and pair indexing, on SymPy rationals."""

    def __init__(self, formula: str) -> None:
        self.tree = ast.parse(formula, mode="eval").body

    def value(self, bindings: dict[str, Any]) -> Any:
        return self._eval(self.tree, {k: decode(v) for k, v in bindings.items()})

    def _number(self, value: Any) -> Any:
        return value[1] if isinstance(value, tuple) else value

    def _eval(self, node: ast.expr, env: dict[str, Any]) -> Any:
        if isinstance(node, ast.Constant):
            raw = node.value
            return raw if isinstance(raw, str) else sympy.Rational(repr(raw))
        if isinstance(node, ast.Name):
            return env[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self._number(self._eval(node.operand, env))
        if isinstance(node, ast.BinOp):
            a = self._number(self._eval(node.left, env))
            b = self._number(self._eval(node.right, env))
            operations: dict[type, Callable[[Any, Any], Any]] = {
                ast.Add: lambda x, y: x + y,
                ast.Sub: lambda x, y: x - y,
                ast.Mult: lambda x, y: x * y,
                ast.Div: lambda x, y: x / y,
                ast.FloorDiv: lambda x, y: sympy.floor(x / y),
                ast.Mod: lambda x, y: x - y * sympy.floor(x / y),
                ast.Pow: lambda x, y: x**y,
            }
            return operations[type(node.op)](a, b)
        if isinstance(node, ast.IfExp):
            return self._eval(node.body if self._eval(node.test, env) else node.orelse, env)
        if isinstance(node, ast.BoolOp):
            results = [self._eval(v, env) for v in node.values]
            return all(results) if isinstance(node.op, ast.And) else any(results)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right = self._eval(node.left, env), self._eval(node.comparators[0], env)
            if isinstance(left, tuple) and isinstance(right, str):
                left = left[0]
            return {ast.Eq: left == right, ast.NotEq: left != right}[type(node.ops[0])]
        if isinstance(node, ast.Subscript):
            return self._eval(node.value, env)[int(self._eval(node.slice, env))]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = [self._number(self._eval(a, env)) for a in node.args]
            if node.func.id == "int":
                return sympy.sign(args[0]) * sympy.floor(abs(args[0]))
            if node.func.id == "round":
                return sympy.sign(args[0]) * sympy.floor(abs(args[0]) + sympy.Rational(1, 2))
            if node.func.id == "Fraction":
                return args[0] / (args[1] if len(args) > 1 else 1)
        raise ValueError(f"the independent evaluator does not read {ast.dump(node)[:60]}")


def sample_problems(template: dict[str, Any], sample: Any) -> list[str]:
    """Everything wrong with one fresh sample, checked independently of its generator."""
    metadata = sample.metadata or {}
    bindings = metadata["bindings"]
    annotated = template["question_annotated"]
    problems = question_problems(annotated, str(sample.input), bindings)
    expected = SympyFormula(answer_formula(annotated)).value(bindings)
    if sympy.Rational(str(sample.target)) != expected:
        problems.append(f"#answer evaluates to {expected}, the sample's target is {sample.target}")
    return problems


def check(folder: Path, seeds: Sequence[int], per_template: int) -> int:
    from gsm8k.data.fresh import fresh_set

    templates = {p.stem: json.loads(p.read_text("utf-8")) for p in sorted(folder.glob("*.json"))}
    checked = failed = 0
    started = time.perf_counter()
    drawing = 0.0
    for seed in seeds:
        cpu = time.process_time()
        drawn = fresh_set(folder, seed, per_template, include_originals=False)
        drawing += time.process_time() - cpu
        for sample in drawn.samples:
            name = (sample.metadata or {})["template"]
            problems = sample_problems(templates[name], sample)
            checked += 1
            if problems:
                failed += 1
                print(f"{sample.id} (seed {seed}): {'; '.join(problems)}")
        skipped = ", ".join(sorted(drawn.skipped)) or "none"
        print(f"seed {seed}: {len(drawn.samples)} fresh samples, templates skipped: {skipped}")
    elapsed = time.perf_counter() - started
    print(
        f"{checked - failed} of {checked} fresh samples pass both checks "
        f"({len(seeds)} seeds x {per_template} per template; drawing and checking took "
        f"{elapsed:.1f} s; drawing alone {drawing / max(len(seeds), 1):.1f} s of CPU per seed)"
    )
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--templates", required=True, type=Path)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--per-template", type=int, default=5)
    args = parser.parse_args(argv)
    return check(args.templates, args.seeds, args.per_template)


if __name__ == "__main__":
    sys.exit(main())
