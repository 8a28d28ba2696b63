"""Parsing and checking the expressions of GSM-Symbolic's template language.

Templates are third-party data, so their expressions are never given to ``eval``: each is parsed
with :mod:`ast` and only a whitelist of node types, names and functions is accepted
(:data:`gsm8k.data.fresh.functions.FUNCTIONS`, the vocabularies, the template's own variables);
anything else is refused when the template is read. An accepted expression is compiled once by
:mod:`gsm8k.data.fresh.evaluator` and evaluated on every draw.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from gsm8k.data.fresh.evaluator import Compiled, compile_node, dotted
from gsm8k.data.fresh.functions import (
    ATTRIBUTE_FUNCTIONS,
    FUNCTIONS,
    PURE_FUNCTIONS,
    RANDOM_FUNCTIONS,
    Draws,
)
from gsm8k.data.fresh.values import (
    MAX_EXPRESSION,
    MAX_NODES,
    Budget,
    DrawError,
    ExpressionError,
    Value,
)

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
            name = dotted(node.func)
            if node.keywords:
                raise ExpressionError(f"keyword arguments are not supported: {text[:80]}")
            if name in RANDOM_FUNCTIONS or name == "np.random.randint":
                drawn = True
            elif name not in PURE_FUNCTIONS and name not in ATTRIBUTE_FUNCTIONS:
                raise ExpressionError(f"unknown function {name or ast.unparse(node.func)!r}")
        elif isinstance(node, ast.Attribute) and dotted(node) not in (
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
        compiled = compile_node(tree.body)
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
        and (dotted(n.func) or "") in (*RANDOM_FUNCTIONS, "np.random.randint")
        for n in ast.walk(node)
    )
    return Expression(ast.unparse(node), tree, names, drawn, compile_node(node))


def top_call(expression: Expression) -> str | None:
    """The function an expression calls at its top (``sample`` for ``sample(names, 2)``)."""
    body = expression.tree.body
    return dotted(body.func) if isinstance(body, ast.Call) else None
