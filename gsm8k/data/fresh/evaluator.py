"""Evaluating a checked expression: its syntax tree turned once into nested closures.

An expression reaches here only after :func:`gsm8k.data.fresh.expressions.compile_expression`
has accepted every node of it. Arithmetic is exact and bounded (:mod:`gsm8k.data.fresh.values`);
lists and texts join and repeat within the same bounds; a value that breaks a bound, a division
by zero or an index out of range rejects the draw (:class:`DrawError`), never the process.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TypeAlias

from gsm8k.data.fresh.functions import ATTRIBUTE_FUNCTIONS, PURE_FUNCTIONS, Draws
from gsm8k.data.fresh.values import (
    MAX_DIGITS,
    MAX_EXPONENT,
    MAX_ITEMS,
    MAX_TEXT,
    RANDOM_ITEM_WORK,
    DrawError,
    ExpressionError,
    Labelled,
    Number,
    Value,
    as_number,
    bounded_list,
    describe,
    exact,
    literal_number,
    truth,
    weight,
    whole,
)

Compiled: TypeAlias = Callable[[Mapping[str, Value], Draws], Value]
"""An expression node turned into a function of the variables and the random draws."""


def dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def compile_node(node: ast.expr) -> Compiled:
    """Turn a checked syntax tree into nested closures (several times faster than walking the
    tree on every draw; rejection sampling evaluates each expression thousands of times)."""
    if isinstance(node, ast.Constant):
        raw = node.value
        if isinstance(raw, float) and not math.isfinite(raw):
            raise ExpressionError(f"the number {raw} is not finite")
        constant: Value = raw if isinstance(raw, str) else literal_number(raw)  # type: ignore[arg-type]
        return lambda env, draws: constant
    if isinstance(node, ast.Name):
        return _name(node.id)
    if isinstance(node, ast.BinOp):
        return _binary(node.op, compile_node(node.left), compile_node(node.right))
    if isinstance(node, ast.UnaryOp):
        return _unary(node.op, compile_node(node.operand))
    if isinstance(node, ast.BoolOp):
        return _boolean(isinstance(node.op, ast.And), [compile_node(v) for v in node.values])
    if isinstance(node, ast.Compare):
        return _comparison(
            compile_node(node.left), list(node.ops), [compile_node(c) for c in node.comparators]
        )
    if isinstance(node, ast.IfExp):
        test, body = compile_node(node.test), compile_node(node.body)
        orelse = compile_node(node.orelse)
        return lambda env, draws: (
            body(env, draws) if truth(test(env, draws)) else orelse(env, draws)
        )
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [compile_node(item) for item in node.elts]
        if isinstance(node, ast.Tuple):
            return lambda env, draws: pair(_charged(draws, [item(env, draws) for item in items]))
        return lambda env, draws: _charged(draws, [item(env, draws) for item in items])
    if isinstance(node, ast.Subscript):
        return _subscript(compile_node(node.value), node.slice)
    if isinstance(node, ast.Call):
        return _call(node)
    raise ExpressionError(f"cannot evaluate {type(node).__name__}")


def _name(name: str) -> Compiled:
    def read(env: Mapping[str, Value], draws: Draws) -> Value:
        try:
            return env[name]
        except KeyError:
            raise DrawError(f"{name!r} has no value yet") from None

    return read


def _unary(op: ast.unaryop, operand: Compiled) -> Compiled:
    if isinstance(op, ast.Not):
        return lambda env, draws: not truth(operand(env, draws))
    if isinstance(op, ast.USub):
        return lambda env, draws: exact(-as_number(operand(env, draws)))
    return lambda env, draws: as_number(operand(env, draws))


def _boolean(conjunction: bool, parts: list[Compiled]) -> Compiled:
    def run(env: Mapping[str, Value], draws: Draws) -> Value:
        result: Value = None
        for part in parts:
            result = part(env, draws)
            if conjunction != truth(result):
                return result
        return result

    return run


def _comparison(first: Compiled, ops: list[ast.cmpop], rest: list[Compiled]) -> Compiled:
    def run(env: Mapping[str, Value], draws: Draws) -> bool:
        left = first(env, draws)
        for op, part in zip(ops, rest, strict=True):
            right = part(env, draws)
            if not compare(op, left, right):
                return False
            left = right
        return True

    return run


def _binary(op: ast.operator, left: Compiled, right: Compiled) -> Compiled:
    def run(env: Mapping[str, Value], draws: Draws) -> Value:
        result = binary(op, left(env, draws), right(env, draws))
        if isinstance(result, list):
            draws.budget.spend(len(result))
        return result

    return run


def _charged(draws: Draws, items: list[Value]) -> list[Value]:
    draws.budget.spend(len(items))
    return bounded_list(items)


def _subscript(value: Compiled, index_node: ast.expr) -> Compiled:
    if isinstance(index_node, ast.Slice):
        if index_node.step is not None:
            raise ExpressionError("slices with a step are not supported")
        low = None if index_node.lower is None else compile_node(index_node.lower)
        high = None if index_node.upper is None else compile_node(index_node.upper)

        def cut(env: Mapping[str, Value], draws: Draws) -> Value:
            items = value(env, draws)
            start = None if low is None else whole(low(env, draws), "slice")
            stop = None if high is None else whole(high(env, draws), "slice")
            if isinstance(items, (list, str)):
                return items[start:stop]
            raise DrawError(f"cannot slice {describe(items)}")

        return cut
    index = compile_node(index_node)

    def pick(env: Mapping[str, Value], draws: Draws) -> Value:
        items = value(env, draws)
        position = whole(index(env, draws), "index")
        if isinstance(items, Labelled):
            items = [items.text, items.value]
        if isinstance(items, (list, str)):
            if not -len(items) <= position < len(items):
                raise DrawError(f"index {position} out of range")
            return items[position]
        raise DrawError(f"cannot index {describe(items)}")

    return pick


def _call(node: ast.Call) -> Compiled:
    name = dotted(node.func) or ""
    args = [compile_node(arg) for arg in node.args]
    resolved = ATTRIBUTE_FUNCTIONS.get(name, name)
    pure = PURE_FUNCTIONS.get(resolved)

    def run(env: Mapping[str, Value], draws: Draws) -> Value:
        values = [arg(env, draws) for arg in args]
        target = pure if pure is not None else getattr(draws, resolved)
        try:
            result = target(*values)
        except TypeError as error:
            raise DrawError(f"{name}: wrong number of arguments ({len(values)})") from error
        if isinstance(result, list):
            draws.budget.spend(len(result) * (RANDOM_ITEM_WORK if pure is None else 1))
        return result

    return run


def binary(op: ast.operator, left: Value, right: Value) -> Value:
    """One arithmetic operation, exact and bounded; lists and texts join and repeat."""
    if isinstance(op, ast.Add) and isinstance(left, list) and isinstance(right, list):
        return bounded_list(left + right)
    if isinstance(op, ast.Add) and isinstance(left, str) and isinstance(right, str):
        if len(left) + len(right) > MAX_TEXT:
            raise DrawError(f"a text would exceed {MAX_TEXT} characters")
        return left + right
    if isinstance(op, ast.Mult) and isinstance(left, list) != isinstance(right, list):
        items, times = (left, right) if isinstance(left, list) else (right, left)
        count = whole(times, "list repetition")
        if count < 0 or weight(items) * count > MAX_ITEMS:
            raise DrawError(f"a list would exceed {MAX_ITEMS} items")
        return items * count
    a, b = as_number(left), as_number(right)
    if isinstance(op, ast.Add):
        return exact(a + b)
    if isinstance(op, ast.Sub):
        return exact(a - b)
    if isinstance(op, ast.Mult):
        return exact(a * b)
    if isinstance(op, (ast.Div, ast.FloorDiv, ast.Mod)) and b == 0:
        raise DrawError("division by zero")
    if isinstance(op, ast.Div):
        return exact(Fraction(a) / b)
    if isinstance(op, ast.FloorDiv):
        return exact(a // b)
    if isinstance(op, ast.Mod):
        return exact(a % b)
    if isinstance(op, ast.Pow):
        if not isinstance(b, int) or abs(b) > MAX_EXPONENT:
            raise DrawError(f"exponent {b} is not a whole number up to {MAX_EXPONENT}")
        if a == 0 and b < 0:
            raise DrawError("division by zero")
        if a != 0 and abs(Fraction(a)).numerator.bit_length() * abs(b) > 4 * MAX_DIGITS:
            raise DrawError(f"a value exceeds {MAX_DIGITS} digits")
        return exact(Fraction(a) ** b)
    raise DrawError(f"operator {type(op).__name__} is not supported")


def pair(items: list[Value]) -> Value:
    """A tuple literal: ``("six-sided", 6)`` is a :class:`Labelled`; ``(20, 20)`` the number.

    Other tuples (``a, b`` of names) stay lists.
    """
    if len(items) == 2 and not isinstance(items[1], (str, list, Labelled, bool)):
        if isinstance(items[0], str):
            return Labelled(items[0], as_number(items[1]))
        if not isinstance(items[0], (list, Labelled, bool)):
            return as_number(items[1])
    return items


def compare(op: ast.cmpop, left: Value, right: Value) -> bool:
    """Compare as the templates mean it: texts with texts (a pair by its text), numbers with
    numbers (a pair by its number)."""
    if isinstance(left, str) or isinstance(right, str):
        a = left.text if isinstance(left, Labelled) else left
        b = right.text if isinstance(right, Labelled) else right
        if isinstance(op, ast.Eq):
            return bool(a == b)
        if isinstance(op, ast.NotEq):
            return bool(a != b)
        raise DrawError("texts can only be compared with == and !=")
    if isinstance(left, list) or isinstance(right, list):
        if isinstance(op, (ast.Eq, ast.NotEq)):
            return bool(left == right) == isinstance(op, ast.Eq)
        raise DrawError("lists can only be compared with == and !=")
    a, b = as_number(left), as_number(right)
    checks: dict[type[ast.cmpop], Callable[[Number, Number], bool]] = {
        ast.Eq: lambda x, y: x == y,
        ast.NotEq: lambda x, y: x != y,
        ast.Lt: lambda x, y: x < y,
        ast.LtE: lambda x, y: x <= y,
        ast.Gt: lambda x, y: x > y,
        ast.GtE: lambda x, y: x >= y,
    }
    return checks[type(op)](a, b)
