"""A small, safe evaluator for the expressions of GSM-Symbolic's template language.

Templates are third-party data, so their expressions are never given to ``eval``: each is parsed
with :mod:`ast` and only a whitelist of node types, names and functions is accepted
(:data:`FUNCTIONS`, the vocabularies, the template's own variables). Arithmetic is exact:
numbers are ``int`` or :class:`fractions.Fraction` (a literal ``0.25`` is exactly 1/4), so a
condition such as ``is_int(n * 0.1)`` is never decided by binary rounding. Every value is bounded
(:data:`MAX_DIGITS`, :data:`MAX_ITEMS`, :data:`MAX_EXPONENT`), so a hostile template can neither
exhaust memory nor run for long.

A value a template samples from a list of pairs, ``("six-sided", 6)``, is a :class:`Labelled`:
its text goes into the question, its number into arithmetic (``sides - target``), and
``value[0]`` / ``value[1]`` read the two parts as the templates write them.
"""

from __future__ import annotations

import ast
import math
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeAlias

MAX_DIGITS = 40
"""Largest numerator or denominator, in decimal digits, any intermediate value may have."""
MAX_ITEMS = 100_000
"""Largest list (a ``range``, a repeated list) an expression may build."""
MAX_TEXT = 10_000
"""Longest string an expression may build."""
MAX_EXPONENT = 64
"""Largest exponent ``**`` accepts (templates use cubes)."""
MAX_EXPRESSION = 4_000
"""Longest expression source accepted, in characters."""
MAX_NODES = 2_000
"""Most syntax nodes one expression may have."""
MAX_WORK = 50_000_000
"""Work one instance may take, in evaluated syntax nodes plus list items built (an item drawn
at random counts ten). GSM-Symbolic's hungriest template (0011) spends about 350,000 on an
instance and would spend about 5 million over all 200,000 draws; a template that asks for more
is refused (after about 5 s here) instead of running for hours."""
RANDOM_ITEM_WORK = 10

_LIMIT = 10**MAX_DIGITS


@dataclass(frozen=True)
class Labelled:
    """A sampled pair: ``text`` is written in the question, ``value`` is used in arithmetic."""

    text: str
    value: int | Fraction


Number: TypeAlias = int | Fraction
Value: TypeAlias = Any
"""int, Fraction, bool, str, Labelled, or a list of values."""


class ExpressionError(ValueError):
    """An expression is not part of the language (syntax, a name or function it does not know).

    Permanent for a template: it fails the same way on every draw.
    """


class WorkExceeded(ValueError):
    """An instance took more than :data:`MAX_WORK`; the template is refused, not the draw."""


@dataclass
class Budget:
    """The work left to one instance (shared by all its draws)."""

    limit: int = field(default_factory=lambda: MAX_WORK)
    spent: int = 0

    def spend(self, amount: int) -> None:
        self.spent += amount
        if self.spent > self.limit:
            raise WorkExceeded(f"more than {self.limit:,} steps of work for one instance")


class DrawError(ValueError):
    """Evaluating an expression failed for these particular values (a division by zero, an
    index out of range, a value past the bounds): the draw is rejected, the template is not."""


def as_number(value: Value) -> Number:
    """The number a value stands for in arithmetic."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else value
    if isinstance(value, Labelled):
        return value.value
    raise DrawError(f"{_describe(value)} is used as a number")


def exact(value: Number) -> Number:
    """A number in its canonical form: a whole Fraction becomes an int; bounds are checked."""
    if isinstance(value, Fraction):
        if abs(value.numerator) >= _LIMIT or value.denominator >= _LIMIT:
            raise DrawError(f"a value exceeds {MAX_DIGITS} digits")
        return value.numerator if value.denominator == 1 else value
    if abs(value) >= _LIMIT:
        raise DrawError(f"a value exceeds {MAX_DIGITS} digits")
    return value


def literal_number(value: int | float) -> Number:
    """A numeric literal as written: ``0.25`` is exactly 1/4, not the nearest binary float."""
    if isinstance(value, (bool, int)):
        return exact(int(value))
    return exact(Fraction(repr(value)))


def _describe(value: Value) -> str:
    if isinstance(value, str):
        return f"the text {value[:40]!r}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return repr(value)


def _sequence(value: Value, what: str) -> list[Value]:
    if isinstance(value, list):
        return value
    raise DrawError(f"{what} needs a list, got {_describe(value)}")


def _whole(value: Value, what: str) -> int:
    number = as_number(value)
    if not isinstance(number, int):
        raise DrawError(f"{what} needs a whole number, got {number}")
    return number


def weight(items: list[Value]) -> int:
    """Items in a list, those of lists inside it included (a list of lists is as large as all
    of its lists together, even when they are the same list repeated)."""
    total = len(items)
    for item in items:
        if isinstance(item, list):
            total += weight(item)
            if total > MAX_ITEMS:
                break
    return total


def _bounded_list(items: list[Value]) -> list[Value]:
    if len(items) > MAX_ITEMS or weight(items) > MAX_ITEMS:
        raise DrawError(f"a list would exceed {MAX_ITEMS} items")
    return items


def _steps(start: Number, stop: Number, step: Number) -> list[Value]:
    if step == 0:
        raise DrawError("a range step of 0")
    size = max(0, math.ceil(Fraction(stop - start) / step))
    if size > MAX_ITEMS:
        raise DrawError(f"a range would exceed {MAX_ITEMS} items")
    return [exact(start + k * step) for k in range(size)]


def _range(*args: Value) -> list[Value]:
    if not 1 <= len(args) <= 3:
        raise DrawError("range takes 1 to 3 arguments")
    numbers = [_whole(a, "range") for a in args]
    start, stop, step = (0, numbers[0], 1) if len(numbers) == 1 else (*numbers[:2], 1)
    if len(numbers) == 3:
        step = numbers[2]
    return _steps(start, stop, step)


def _arange(*args: Value) -> list[Value]:
    """``np.arange`` on exact numbers: start, start + step, ... while below ``stop``."""
    if not 1 <= len(args) <= 3:
        raise DrawError("arange takes 1 to 3 arguments")
    numbers = [as_number(a) for a in args]
    start, stop, step = (0, numbers[0], 1) if len(numbers) == 1 else (*numbers[:2], 1)
    if len(numbers) == 3:
        step = numbers[2]
    return _steps(start, stop, step)


def _numbers_within(low: Value, high: Value) -> list[Value]:
    """The whole numbers from ``low`` to ``high``, both included."""
    return _steps(_whole(low, "numbers_within"), _whole(high, "numbers_within") + 1, 1)


def _is_int(value: Value) -> bool:
    return isinstance(as_number(value), int)


def _int(value: Value) -> int:
    """Python's ``int``: toward zero."""
    number = as_number(value)
    return int(number)


def _divides(value: Value, divisor: Value) -> bool:
    """Whether ``value`` is a whole multiple of ``divisor`` (the templates' ``divides(a, b)``)."""
    number, by = as_number(value), as_number(divisor)
    return by != 0 and exact(number % by) == 0


def _fraction(numerator: Value, denominator: Value = 1) -> Number:
    if isinstance(numerator, str):
        # digits only: Fraction("1e999999999") would build a number of a billion digits
        if not re.fullmatch(r"\s*-?\d{1,40}(\.\d{1,40})?(\s*/\s*\d{1,40})?\s*", numerator):
            raise DrawError(f"Fraction({numerator[:40]!r}) is not a number")
        try:
            parsed = Fraction(numerator.strip().replace(" ", ""))
        except (ValueError, ZeroDivisionError) as error:
            raise DrawError(f"Fraction({numerator[:40]!r}) is not a number") from error
        return exact(parsed / as_number(denominator))
    by = as_number(denominator)
    if by == 0:
        raise DrawError("Fraction with denominator 0")
    return exact(Fraction(as_number(numerator)) / by)


def round_half_away(value: Number, digits: int = 0) -> Number:
    """Round to ``digits`` decimals, halves away from zero (school rounding: 2.5 → 3)."""
    scale = Fraction(10) ** digits
    scaled = abs(Fraction(value)) * scale
    whole = int(scaled + Fraction(1, 2))
    result = Fraction(whole if value >= 0 else -whole) / scale
    return exact(result)


def _round(value: Value, digits: Value = 0) -> Number:
    places = _whole(digits, "round")
    if not -MAX_DIGITS <= places <= MAX_DIGITS:
        raise DrawError("round to too many places")
    return round_half_away(as_number(value), places)


def format_frac(value: Value) -> str:
    """A number as a mixed fraction, as worked solutions write it: ``3 1/2``, ``1/2``, ``4``."""
    number = Fraction(as_number(value))
    whole, rest = divmod(abs(number.numerator), number.denominator)
    sign = "-" if number < 0 else ""
    if rest == 0:
        return f"{sign}{whole}"
    part = f"{rest}/{number.denominator}"
    return f"{sign}{whole} {part}" if whole else f"{sign}{part}"


def _list(value: Value) -> list[Value]:
    if isinstance(value, str):
        raise DrawError("list() of a text")
    return list(_sequence(value, "list"))


@dataclass(frozen=True)
class Draws:
    """The random functions, bound to one seeded generator, and the instance's work budget."""

    rng: random.Random
    budget: Budget

    def sample(self, items: Value, count: Value = None) -> Value:
        pool = _sequence(items, "sample")
        if not pool:
            raise DrawError("sample from an empty list")
        if count is None:
            return self.rng.choice(pool)
        k = _whole(count, "sample")
        if not 0 <= k <= len(pool):
            raise DrawError(f"sample of {k} from a list of {len(pool)}")
        return self.rng.sample(pool, k)

    def sample_sequential(self, items: Value, count: Value) -> list[Value]:
        """``count`` consecutive items from a random start, wrapping around (a week is a cycle)."""
        pool = _sequence(items, "sample_sequential")
        k = _whole(count, "sample_sequential")
        if not pool or not 0 <= k <= len(pool):
            raise DrawError(f"sample_sequential of {k} from a list of {len(pool)}")
        start = self.rng.randrange(len(pool))
        return [pool[(start + i) % len(pool)] for i in range(k)]

    def shuffle_list(self, items: Value) -> list[Value]:
        shuffled = list(_sequence(items, "shuffle_list"))
        self.rng.shuffle(shuffled)
        return shuffled

    def randint(self, low: Value, high: Value) -> int:
        """A whole number from ``low`` to ``high``, both included (``random.randint``)."""
        a, b = _whole(low, "randint"), _whole(high, "randint")
        if a > b:
            raise DrawError(f"randint({a}, {b}) is empty")
        return self.rng.randint(a, b)

    def np_randint(self, low: Value, high: Value, size: Value = None) -> Value:
        """``np.random.randint``: from ``low`` up to but excluding ``high``; ``size`` of them."""
        a, b = _whole(low, "randint"), _whole(high, "randint")
        if a >= b:
            raise DrawError(f"np.random.randint({a}, {b}) is empty")
        if size is None:
            return self.rng.randrange(a, b)
        n = _whole(size, "randint")
        if not 0 <= n <= MAX_ITEMS:
            raise DrawError(f"np.random.randint size {n}")
        return [self.rng.randrange(a, b) for _ in range(n)]


Compiled: TypeAlias = Callable[[Mapping[str, Value], Draws], Value]
"""An expression node turned into a function of the variables and the random draws."""


PURE_FUNCTIONS: dict[str, Callable[..., Value]] = {
    "range": _range,
    "arange": _arange,
    "frange": _arange,
    "numbers_within": _numbers_within,
    "is_int": _is_int,
    "int": _int,
    "divides": _divides,
    "Fraction": _fraction,
    "round": _round,
    "format_frac": format_frac,
    "fix_floats": lambda value: value,  # exact numbers carry no binary noise to fix
    "list": _list,
    "abs": lambda value: exact(abs(as_number(value))),  # type: ignore[arg-type]
}
RANDOM_FUNCTIONS = ("sample", "sample_sequential", "shuffle_list", "randint")
FUNCTIONS = frozenset([*PURE_FUNCTIONS, *RANDOM_FUNCTIONS])
"""Every function a template may call (``np.arange`` and ``np.random.randint`` also)."""
ATTRIBUTE_FUNCTIONS = {"np.arange": "arange", "np.random.randint": "np_randint"}

_BINARY = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)
_COMPARE = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_ALLOWED = (
    ast.Expression,
    ast.Constant,
    ast.Name,
    ast.Load,
    ast.BinOp,
    ast.UnaryOp,
    ast.USub,
    ast.UAdd,
    ast.Not,
    ast.BoolOp,
    ast.And,
    ast.Or,
    ast.Compare,
    ast.IfExp,
    ast.Call,
    ast.Attribute,
    ast.List,
    ast.Tuple,
    ast.Subscript,
    ast.Slice,
    *_BINARY,
    *_COMPARE,
)


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


@dataclass(frozen=True)
class Expression:
    """One parsed, checked expression of a template."""

    source: str
    tree: ast.Expression
    names: frozenset[str]
    """The variables and vocabularies it reads (functions excluded)."""
    randomized: bool
    """Whether it draws random values (its result can differ between draws)."""
    compiled: Compiled
    size: int = 1
    """Its syntax nodes: the work one evaluation is charged."""

    def evaluate(
        self, env: Mapping[str, Value], rng: random.Random, budget: Budget | None = None
    ) -> Value:
        """Evaluate with the variables in ``env``, charging ``budget`` (a fresh one if none).

        Raises:
            DrawError: for these values the expression has no value.
            WorkExceeded: the budget is spent.
        """
        draws = Draws(rng, Budget() if budget is None else budget)
        draws.budget.spend(self.size)
        try:
            return self.compiled(env, draws)
        except DrawError:
            raise
        except (ZeroDivisionError, OverflowError) as error:
            raise DrawError(str(error) or type(error).__name__) from error
        except RecursionError as error:
            raise DrawError("expression nested too deeply") from error


def compile_expression(source: str, known: Callable[[str], bool]) -> Expression:
    """Parse and check one expression.

    Args:
        source: The expression text; ``$name`` (the templates' mark of a numeric variable) reads
            as ``name``.
        known: Whether a bare name (a variable or vocabulary) exists.

    Raises:
        ExpressionError: the text is not an expression of the language.
    """
    text = strip_dollars(source).strip()
    if not text:
        raise ExpressionError("empty expression")
    if len(text) > MAX_EXPRESSION:
        raise ExpressionError(f"expression longer than {MAX_EXPRESSION} characters")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        detail = error.msg if isinstance(error, SyntaxError) else type(error).__name__
        raise ExpressionError(f"not an expression ({detail}): {text[:80]}") from error
    names: set[str] = set()
    drawn = False
    count = 0
    for count, node in enumerate(ast.walk(tree), start=1):
        if count > MAX_NODES:
            raise ExpressionError(f"expression has more than {MAX_NODES} parts")
        if not isinstance(node, _ALLOWED):
            raise ExpressionError(
                f"{type(node).__name__} is not allowed in a template: {text[:80]}"
            )
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, str)):
            raise ExpressionError(f"constant {node.value!r} is not allowed")
        if isinstance(node, ast.Call):
            name = _dotted(node.func)
            if node.keywords:
                raise ExpressionError(f"keyword arguments are not supported: {text[:80]}")
            if name in RANDOM_FUNCTIONS or name == "np.random.randint":
                drawn = True
            elif name not in PURE_FUNCTIONS and name not in ATTRIBUTE_FUNCTIONS:
                raise ExpressionError(f"unknown function {name or ast.unparse(node.func)!r}")
        elif isinstance(node, ast.Attribute) and _dotted(node) not in (
            *ATTRIBUTE_FUNCTIONS,
            "np.random",
        ):
            raise ExpressionError(f"unknown attribute {ast.unparse(node)!r}")
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    attribute_parts = {
        id(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute) and isinstance(n.value, (ast.Name, ast.Attribute))
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and id(node) not in called | attribute_parts:
            if not known(node.id):
                raise ExpressionError(f"unknown name {node.id!r}")
            names.add(node.id)
        elif isinstance(node, ast.Name) and id(node) in called and node.id not in FUNCTIONS:
            raise ExpressionError(f"unknown function {node.id!r}")
    try:
        compiled = _compile(tree.body)
    except RecursionError as error:
        raise ExpressionError("expression nested too deeply") from error
    except DrawError as error:  # a literal past the bounds
        raise ExpressionError(str(error)) from error
    return Expression(source, tree, frozenset(names), drawn, compiled, count)


def strip_dollars(text: str) -> str:
    """``$ans`` → ``ans``: the templates mark numeric variables with ``$``."""
    out = []
    quote = ""
    for i, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "$" and i + 1 < len(text) and (text[i + 1].isalpha() or text[i + 1] == "_"):
            continue
        out.append(char)
    return "".join(out)


def _compile(node: ast.expr) -> Compiled:
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
        return _binary(node.op, _compile(node.left), _compile(node.right))
    if isinstance(node, ast.UnaryOp):
        return _unary(node.op, _compile(node.operand))
    if isinstance(node, ast.BoolOp):
        return _boolean(isinstance(node.op, ast.And), [_compile(v) for v in node.values])
    if isinstance(node, ast.Compare):
        return _comparison(
            _compile(node.left), list(node.ops), [_compile(c) for c in node.comparators]
        )
    if isinstance(node, ast.IfExp):
        test, body, orelse = _compile(node.test), _compile(node.body), _compile(node.orelse)
        return lambda env, draws: (
            body(env, draws) if truth(test(env, draws)) else orelse(env, draws)
        )
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_compile(item) for item in node.elts]
        if isinstance(node, ast.Tuple):
            return lambda env, draws: pair([item(env, draws) for item in items])
        return lambda env, draws: _charged(draws, [item(env, draws) for item in items])
    if isinstance(node, ast.Subscript):
        return _subscript(_compile(node.value), node.slice)
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
    return _bounded_list(items)


def _subscript(value: Compiled, index_node: ast.expr) -> Compiled:
    if isinstance(index_node, ast.Slice):
        if index_node.step is not None:
            raise ExpressionError("slices with a step are not supported")
        low = None if index_node.lower is None else _compile(index_node.lower)
        high = None if index_node.upper is None else _compile(index_node.upper)

        def cut(env: Mapping[str, Value], draws: Draws) -> Value:
            items = value(env, draws)
            start = None if low is None else _whole(low(env, draws), "slice")
            stop = None if high is None else _whole(high(env, draws), "slice")
            if isinstance(items, (list, str)):
                return items[start:stop]
            raise DrawError(f"cannot slice {_describe(items)}")

        return cut
    index = _compile(index_node)

    def pick(env: Mapping[str, Value], draws: Draws) -> Value:
        items = value(env, draws)
        position = _whole(index(env, draws), "index")
        if isinstance(items, Labelled):
            items = [items.text, items.value]
        if isinstance(items, (list, str)):
            if not -len(items) <= position < len(items):
                raise DrawError(f"index {position} out of range")
            return items[position]
        raise DrawError(f"cannot index {_describe(items)}")

    return pick


def _call(node: ast.Call) -> Compiled:
    name = _dotted(node.func) or ""
    args = [_compile(arg) for arg in node.args]
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
        return _bounded_list(left + right)
    if isinstance(op, ast.Add) and isinstance(left, str) and isinstance(right, str):
        if len(left) + len(right) > MAX_TEXT:
            raise DrawError(f"a text would exceed {MAX_TEXT} characters")
        return left + right
    if isinstance(op, ast.Mult) and isinstance(left, list) != isinstance(right, list):
        items, times = (left, right) if isinstance(left, list) else (right, left)
        count = _whole(times, "list repetition")
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


def truth(value: Value) -> bool:
    if isinstance(value, Labelled):
        return value.value != 0
    return bool(value)


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


def call_argument(expression: Expression, position: int = 0) -> Expression | None:
    """The ``position``-th argument of an expression that is a call (``sample(names)`` →
    ``names``), as an expression of its own; ``None`` when it is not a call with that argument."""
    body = expression.tree.body
    if not isinstance(body, ast.Call) or len(body.args) <= position:
        return None
    node = body.args[position]
    tree = ast.Expression(body=node)
    names = frozenset(
        n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in expression.names
    )
    drawn = any(
        isinstance(n, ast.Call)
        and (_dotted(n.func) or "") in (*RANDOM_FUNCTIONS, "np.random.randint")
        for n in ast.walk(node)
    )
    return Expression(ast.unparse(node), tree, names, drawn, _compile(node))


def top_call(expression: Expression) -> str | None:
    """The function an expression calls at its top (``sample`` for ``sample(names, 2)``)."""
    body = expression.tree.body
    return _dotted(body.func) if isinstance(body, ast.Call) else None
