"""The slowest inputs that can be built for each regular expression of the grader, and their cost.

    python -m benchmarks.pattern_attacks [SIZE_KB] [--all]

Every compiled pattern at the top level of the grading modules (numbers, reader, sections,
extract, phrases, fallback, golds, delivery) is taken apart with Python's own regex parser. From
its parts come the pieces a slow input is made of: its literal words (``answer``, ``\\boxed``,
``<|im_start|>``), one character of each class and run (a digit, a space, a ``^``), and an
example of the whole pattern. They are put together in the shapes that make a backtracking
matcher slow: a piece followed by a long run of one character (``18^`` and 20,000 spaces), a
piece and a character repeated, a piece repeated. Each candidate is first timed against the
pattern alone (``finditer`` over the text, which tries every start); the slowest few are then
graded whole, in four settings (alone, after a number, after ``ANSWER:``, after an answer
phrase), because that is how the grader meets them.

Prints, for each number pattern (``--all``: every pattern), the slowest whole grading at
SIZE_KB (default 200) in CPU seconds, next to the time of a one-line completion.
``tests/test_grading_linear.py`` runs the same search with generous bounds.
"""

from __future__ import annotations

import importlib
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from benchmarks.adversarial_completions import seconds_per_completion as grade_seconds

_parser: Any = importlib.import_module("re._parser")
_constants: Any = importlib.import_module("re._constants")

MODULES = (
    "numbers",
    "reader",
    "sections",
    "extract",
    "phrases",
    "fallback",
    "golds",
    "delivery",
    "delivered",
    "marks",
    "rules",
    "question",
    "refusals",
    "endings",
    "glyphs",
    "hedges",
    "closing",
    "box_values",
    "units",
    "stated",
    "ruled_out",
    "doubt",
    "candidates",
    "statements",
    "disclaimed",
    "result_statement",
)
"""The grading modules whose patterns are attacked (``gsm8k.grading.<name>``)."""
ONE_LINE = "ANSWER: 18"
"""The one-line completion every time is compared with."""
SETTINGS: dict[str, str] = {
    "alone": "",
    "after a number": "She has 18",
    "after ANSWER:": "ANSWER: ",
    "after an answer phrase": "The answer is ",
}
"""Text put before an attack, since most patterns are only tried after a number or a mark."""

# Characters tried as runs besides the pattern's own: spaces of several kinds, line breaks,
# digits, letters, signs and the markup models write.
_POOL = " \t\n\u2007" + '7a.,:-*^{}()$\\#_<|=?"' + "\u200b\u066b\uff0d"
_MAX_PIECES = 8
"""Most literal words and examples taken from one pattern."""
_KEEP = 3
"""Slowest candidates per pattern that are graded whole."""


@dataclass(frozen=True)
class Attack:
    """A way to build an input of any size from a pattern's pieces."""

    label: str
    build: Callable[[int], str]


def grading_patterns(modules: tuple[str, ...] = MODULES) -> dict[str, re.Pattern[str]]:
    """Every compiled pattern at the top level of the grading modules, by ``module.NAME``."""
    found: dict[str, re.Pattern[str]] = {}
    for name in modules:
        module = importlib.import_module(f"gsm8k.grading.{name}")
        for attribute, value in vars(module).items():
            if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                found[f"{name}.{attribute}"] = value
    return found


def attacks(pattern: re.Pattern[str]) -> list[Attack]:
    """Candidate inputs for ``pattern``: its pieces followed by runs, repeated, or alone."""
    pieces, characters = _pieces(pattern)
    runs = list(dict.fromkeys(characters + list(_POOL)))
    found: list[Attack] = []
    for piece in ["", *pieces]:
        for char in runs:
            found.append(Attack(f"{piece!r} + {char!r} run", _run(piece, char)))
            if piece:
                found.append(Attack(f"({piece!r} + {char!r}) repeated", _repeat(piece + char)))
        if piece:
            found.append(Attack(f"{piece!r} repeated", _repeat(piece)))
    return found


def _run(piece: str, char: str) -> Callable[[int], str]:
    return lambda size: piece + char * max(1, size - len(piece))


def _repeat(unit: str) -> Callable[[int], str]:
    return lambda size: unit * max(1, size // len(unit))


def _pieces(pattern: re.Pattern[str]) -> tuple[list[str], list[str]]:
    """The pattern's literal words and examples, and one character of each of its classes."""
    tree = _parser.parse(pattern.pattern, pattern.flags)
    words: list[str] = []
    characters: list[str] = []
    _collect(tree, words, characters)
    example = _example(tree)
    pieces = [example] if example else []
    pieces += [word for word in dict.fromkeys(words) if word != example]
    return pieces[:_MAX_PIECES], list(dict.fromkeys(characters))


def _collect(tree: Any, words: list[str], characters: list[str]) -> None:
    """Gather literal runs (words) and class representatives from a parsed pattern."""
    run = ""
    for op, value in tree:
        if op is _constants.LITERAL:
            run += chr(value)
            characters.append(chr(value))
            continue
        if len(run) >= 2:
            words.append(run)
        run = ""
        for part in _children(op, value):
            _collect(part, words, characters)
        if op is _constants.IN:
            characters.extend(_representatives(value))
        elif op is _constants.BRANCH:
            words.extend(filter(None, (_example(branch) for branch in value[1])))
    if len(run) >= 2:
        words.append(run)


def _children(op: Any, value: Any) -> Iterator[Any]:
    """The sub-patterns of one node of the parse tree."""
    if op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT, _constants.POSSESSIVE_REPEAT):
        yield value[2]
    elif op is _constants.SUBPATTERN:
        yield value[3]
    elif op in (_constants.ASSERT, _constants.ASSERT_NOT):
        yield value[1]
    elif op is _constants.ATOMIC_GROUP:
        yield value
    elif op is _constants.BRANCH:
        yield from value[1]
    elif op is _constants.GROUPREF_EXISTS:
        yield from (branch for branch in value[1:] if branch is not None)


def _representatives(items: Any) -> list[str]:
    """One or two characters a character class accepts (or, negated, one it refuses)."""
    found: list[str] = []
    for op, value in items:
        if op is _constants.LITERAL:
            found.append(chr(value))
        elif op is _constants.RANGE:
            found.append(chr(value[0]))
        elif op is _constants.CATEGORY:
            found.extend(_CATEGORY_EXAMPLES.get(str(value), ""))
    return found[:4]


_CATEGORY_EXAMPLES = {
    "CATEGORY_DIGIT": "7",
    "CATEGORY_SPACE": " \n",
    "CATEGORY_WORD": "a7",
    "CATEGORY_NOT_DIGIT": "a",
    "CATEGORY_NOT_SPACE": "a",
    "CATEGORY_NOT_WORD": " ",
}


def _example(tree: Any) -> str:
    """A short text built along the pattern's first branches (not always a match)."""
    parts: list[str] = []
    for op, value in tree:
        if op is _constants.LITERAL:
            parts.append(chr(value))
        elif op is _constants.IN:
            parts.append((_representatives(value) or ["a"])[0])
        elif op is _constants.ANY:
            parts.append("a")
        elif op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT, _constants.POSSESSIVE_REPEAT):
            parts.append(_example(value[2]) * min(max(value[0], 1), 3))
        elif op is _constants.SUBPATTERN:
            parts.append(_example(value[3]))
        elif op is _constants.ATOMIC_GROUP:
            parts.append(_example(value))
        elif op is _constants.BRANCH:
            parts.append(_example(value[1][0]))
    return "".join(parts)


def pattern_seconds(pattern: re.Pattern[str], text: str) -> float:
    """CPU seconds for ``pattern`` to try every start of ``text``."""
    started = time.process_time()
    for _ in pattern.finditer(text):
        pass
    return time.process_time() - started


def slowest(pattern: re.Pattern[str], screen_size: int = 300, keep: int = _KEEP) -> list[Attack]:
    """The ``keep`` candidates the pattern alone takes longest on, at ``screen_size``."""
    timed = [(pattern_seconds(pattern, a.build(screen_size)), a) for a in attacks(pattern)]
    timed.sort(key=lambda pair: -pair[0])
    return [attack for _, attack in timed[:keep]]


@dataclass(frozen=True)
class Worst:
    """The slowest whole grading found for one pattern."""

    pattern: str
    attack: str
    setting: str
    seconds: float


def worst_case(name: str, pattern: re.Pattern[str], size: int) -> Worst:
    """The slowest whole grading of the pattern's slowest candidates, in every setting."""
    worst = Worst(name, "", "", 0.0)
    for attack in slowest(pattern):
        for setting, before in SETTINGS.items():
            seconds = grade_seconds(before + attack.build(size - len(before)))
            if seconds > worst.seconds:
                worst = Worst(name, attack.label, setting, seconds)
    return worst


def main(argv: list[str]) -> int:
    size_kb = int(next((a for a in argv if a.isdigit()), "200"))
    modules = MODULES if "--all" in argv else ("numbers",)
    one_line = grade_seconds(ONE_LINE, repeats=200)
    print(f"One-line completion ({ONE_LINE!r}): {one_line * 1e6:.0f} µs CPU\n")
    print(f"| pattern | slowest input found | setting | CPU s at {size_kb} kB | × one line |")
    print("|---|---|---|---:|---:|")
    for name, pattern in grading_patterns(modules).items():
        worst = worst_case(name, pattern, size_kb * 1000)
        ratio = worst.seconds / max(one_line, 1e-9)
        label = worst.attack.replace("|", "\\|")
        print(f"| `{name}` | {label} | {worst.setting} | {worst.seconds:.4f} | {ratio:,.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
