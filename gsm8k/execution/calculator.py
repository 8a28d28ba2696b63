"""Safe arithmetic: an AST walk over numbers, + - * / // % ** and parentheses. Never ``eval``.

Every operation does bounded work, whatever the expression: the expression's length is capped,
every intermediate result must stay below 10^60 in magnitude, and an exact fraction's
denominator below 10^60 as well (so ``((1/3)**100)**100`` cannot build a number with millions of
digits while its value stays tiny). A power is checked *before* it is computed, from the bit
lengths of its base and the exponent; sums, products and quotients of bounded operands are cheap
and are checked after. Division by zero, overflow and complex results are refused with a
:class:`CalculatorError` saying why.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from fractions import Fraction

MAX_EXPRESSION_LENGTH = 500
MAX_EXPONENT = 100
MAX_DIGITS = 60
"""Largest magnitude of any intermediate result, in decimal digits."""
MAX_DENOMINATOR_DIGITS = 60
"""Largest denominator of an exact fractional intermediate result, in decimal digits."""

_MAX_BITS = math.ceil(MAX_DIGITS * math.log2(10))
_MAX_DENOMINATOR_BITS = math.ceil(MAX_DENOMINATOR_DIGITS * math.log2(10))
_MAGNITUDE_LIMIT = 10**MAX_DIGITS
_DENOMINATOR_LIMIT = 10**MAX_DENOMINATOR_DIGITS

Number = int | float | Fraction

_BINARY: dict[type[ast.operator], Callable[[Number, Number], Number]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[Number], Number]] = {
    ast.UAdd: lambda value: value,
    ast.USub: lambda value: -value,
}


class CalculatorError(ValueError):
    """The expression is not plain arithmetic, or exceeds a limit."""


def calculate(expression: str) -> Number:
    """Evaluate plain arithmetic exactly: integer and fractional arithmetic stays exact
    (``1/3*3`` is 1); a float literal makes the result a float.

    Raises:
        CalculatorError: for anything but numbers, the operators above and parentheses, for
            division by zero, a complex result, or when a limit is exceeded. Nothing else
            escapes: whatever Python's arithmetic raises is turned into a ``CalculatorError``.
    """
    text = normalize_expression(expression)
    if not text:
        raise CalculatorError("empty expression")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise CalculatorError(f"expression longer than {MAX_EXPRESSION_LENGTH} characters")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError) as error:
        raise CalculatorError(f"not an arithmetic expression: {expression!r}") from error
    except (RecursionError, MemoryError) as error:
        raise CalculatorError("expression nested too deeply") from error
    try:
        return _evaluate(tree.body)
    except ZeroDivisionError as error:
        raise CalculatorError("division by zero") from error
    except OverflowError as error:
        raise CalculatorError(f"result larger than 10^{MAX_DIGITS}") from error
    except RecursionError as error:
        raise CalculatorError("expression nested too deeply") from error
    except (ArithmeticError, TypeError, MemoryError) as error:
        # Not expected after the checks below; still the model's problem, never the run's.
        raise CalculatorError(f"cannot evaluate: {type(error).__name__}: {error}") from error


def normalize_expression(expression: str) -> str:
    """Plain Python arithmetic from what people write: ``×``, ``÷``, ``^`` and ``1,200``."""
    text = expression.strip().replace("×", "*").replace("÷", "/").replace("^", "**")
    return text.replace(",", "")  # thousands separators, as in 1,200


def format_number(value: Number) -> str:
    """A result as text: integers plainly, exact fractions as decimals (up to 12 places)."""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        return f"{float(value):.12g}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def _evaluate(node: ast.expr) -> Number:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        literal = node.value
        return _checked(Fraction(literal) if isinstance(literal, int) else literal)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow):
            return _checked(_power(left, right))
        if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and right == 0:
            raise CalculatorError("division by zero")
        # Operands are bounded (< 10^60, denominators < 10^60), so this costs microseconds.
        return _checked(_BINARY[type(node.op)](left, right))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_evaluate(node.operand))
    raise CalculatorError(f"unsupported element: {ast.dump(node)[:60]}")


def _power(base: Number, exponent: Number) -> Number:
    """``base ** exponent``, refused before computing when the result would be out of bounds."""
    if abs(float(exponent)) > MAX_EXPONENT:
        raise CalculatorError(f"exponent larger than {MAX_EXPONENT}")
    if base == 0 and float(exponent) < 0:
        raise CalculatorError("division by zero: 0 raised to a negative power")
    if isinstance(exponent, Fraction) and exponent.denominator != 1:
        exponent = float(exponent)  # a root: the result is not a fraction in general
    if isinstance(base, Fraction) and isinstance(exponent, Fraction):
        _check_exact_power(base, int(exponent))
    elif base != 0 and float(exponent) * math.log10(abs(float(base))) >= MAX_DIGITS:
        # A float power overflows (OverflowError) or lands past the bound: refuse it first.
        raise CalculatorError(f"intermediate result larger than 10^{MAX_DIGITS}")
    return base**exponent


def _check_exact_power(base: Fraction, exponent: int) -> None:
    """Refuse ``base ** exponent`` from bit lengths alone, before any digit is computed.

    For a reduced fraction p/q, (p/q)**n is p**n/q**n, already reduced, and a k-bit integer
    raised to n has more than n*(k-1) bits. A result within bounds has a denominator below
    10^60 and a numerator below 10^60 times that; when the lower bound already exceeds either,
    the power is refused. Otherwise the true size is at most n bits more, so it is cheap to
    compute and :func:`_checked` then applies the exact bounds.
    """
    power = abs(exponent)
    top, bottom = abs(base.numerator), base.denominator
    if exponent < 0:
        top, bottom = bottom, top
    if power * (bottom.bit_length() - 1) >= _MAX_DENOMINATOR_BITS:
        raise CalculatorError(
            f"exact result needs a denominator of more than {MAX_DENOMINATOR_DIGITS} digits"
        )
    if power * (top.bit_length() - 1) >= _MAX_BITS + _MAX_DENOMINATOR_BITS:
        raise CalculatorError(f"intermediate result larger than 10^{MAX_DIGITS}")


def _checked(value: object) -> Number:
    if not isinstance(value, (int, float, Fraction)):  # a complex root of a negative number
        raise CalculatorError("result is not a real number")
    if isinstance(value, float) and not math.isfinite(value):
        raise CalculatorError(f"intermediate result larger than 10^{MAX_DIGITS}")
    if abs(value) >= _MAGNITUDE_LIMIT:
        raise CalculatorError(f"intermediate result larger than 10^{MAX_DIGITS}")
    if isinstance(value, Fraction) and value.denominator >= _DENOMINATOR_LIMIT:
        raise CalculatorError(
            f"exact result needs a denominator of more than {MAX_DENOMINATOR_DIGITS} digits"
        )
    return value
