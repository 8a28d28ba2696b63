"""The package's patterns match alike on every Python it supports.

CPython 3.11.0 to 3.11.4 (Debian 12 ships 3.11.2) match a possessive repeat of a group wrongly
when the group can backtrack (python/cpython#106052, fixed in 3.11.5): `(?:[^#\\n]|#(?!###))*+`
ran past its lookahead there, and `#### 140. (Correction: …) #### 45` was graded 140. Possessive
repeats of a single character class (`[^#\\n]*+`) compile to another opcode and are not affected,
so only a quantifier after a closing parenthesis is refused.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import gsm8k
from gsm8k.grading import grade

PACKAGE = Path(gsm8k.__file__).parent
POSSESSIVE_GROUP = re.compile(r"\)(?:[*+?]|\{\d*(?:,\d*)?\})\+")
"""A possessive quantifier (`*+`, `++`, `?+`, `{m,n}+`) right after a group."""


def string_constants(path: Path) -> Iterator[tuple[int, str]]:
    """Every string literal of a module (f-strings' literal parts included), with its line."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_no_pattern_repeats_a_group_possessively() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {text[:80]!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, text in string_constants(path)
        if POSSESSIVE_GROUP.search(text)
    ]
    assert found == [], "possessive repeat of a group (wrong before Python 3.11.5): " + "; ".join(
        found
    )


def test_the_check_finds_the_pattern_that_misgraded_on_python_3_11_2() -> None:
    assert POSSESSIVE_GROUP.search(r"####[ \t]*(?P<value>(?:[^#\n]|#(?!###))*+)")
    assert POSSESSIVE_GROUP.search(r"(?:ab?c){2,}+")
    assert not POSSESSIVE_GROUP.search(r"[^#\n]*+\d++(?:x)*")


def test_a_second_hash_mark_ends_the_first_statement() -> None:
    verdict = grade("#### 140. (Correction: the total is $45 each time.) #### 45", "45")
    assert (verdict.answer, verdict.correct) == ("45", True)
