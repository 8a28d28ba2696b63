"""Every pattern of the grader grades its worst inputs in linear time (docs/grading.md).

benchmarks/pattern_attacks.py takes each compiled pattern of the grading modules apart and builds
candidate inputs from its pieces (a piece then a long run of one character, a piece and a
character repeated, a piece repeated); the slowest for the pattern alone are then graded whole,
after a number, after `ANSWER:` and after an answer phrase. Time is CPU time of this process,
compared between two sizes rather than against absolute seconds, since the machine may be shared:
the input grows 8 times, so linear work grows about 8 times and quadratic work about 64 times;
up to 24 times is allowed, with one retry.
"""

from __future__ import annotations

import re

import pytest

from benchmarks.pattern_attacks import (
    MODULES,
    ONE_LINE,
    SETTINGS,
    attacks,
    grade_seconds,
    grading_patterns,
    slowest,
)

PATTERNS = grading_patterns()
SMALL = 1_250
"""Characters in the small input."""
GROWTH_FACTOR = 8
"""How many times larger the large input is."""
MAX_GROWTH = 24.0
"""Most the grading time may grow when the input grows 8 times (linear: 8; quadratic: 64)."""
TIMER_FLOOR = 0.002
"""Times below this are timer noise; ratios are taken against at least this much."""
ONE_LINE_MULTIPLE = 20_000
"""Most a large worst input may cost in units of a one-line completion's time (a linear 20 kB
grading costs a few hundred)."""


def test_every_grading_module_and_the_known_slow_patterns_are_attacked() -> None:
    modules = {name.split(".")[0] for name in PATTERNS}
    assert modules == set(MODULES)
    # The pattern that took 25 CPU-s on `18^` and 20,000 spaces, and the placeholder pattern
    # whose runs were retried at every split, are among those searched.
    assert {"numbers._POWER", "numbers._TOWER", "reader.PLACEHOLDER"} <= set(PATTERNS)


def test_the_search_builds_the_shape_that_was_quadratic() -> None:
    power = PATTERNS["numbers._POWER"]
    built = {attack.build(40) for attack in attacks(power)}
    assert "^" + " " * 39 in built


def test_a_formerly_quadratic_input_is_now_cheap() -> None:
    # `18^` then 20,000 spaces: each split of the two space runs around `^` was retried.
    one_line = grade_seconds(ONE_LINE, repeats=50)
    assert grade_seconds("18^" + " " * 20_000) < max(one_line, 1e-5) * ONE_LINE_MULTIPLE


@pytest.mark.slow  # 199 patterns, 12 gradings of up to 10 kB each: half a CPU-minute in all
@pytest.mark.parametrize("name", list(PATTERNS))
def test_worst_inputs_for_each_pattern_grade_in_linear_time(name: str) -> None:
    pattern: re.Pattern[str] = PATTERNS[name]
    candidates = slowest(pattern)
    for attack in candidates:
        for setting, before in SETTINGS.items():
            for _attempt in range(2):  # one retry: a single slow measurement on a busy machine
                small = grade_seconds(before + attack.build(SMALL), repeats=2)
                large = grade_seconds(before + attack.build(SMALL * GROWTH_FACTOR))
                growth = large / max(small, TIMER_FLOOR)
                if growth <= MAX_GROWTH:
                    break
            else:
                pytest.fail(
                    f"{name}: {attack.label} {setting}: {large:.3f} s at "
                    f"{SMALL * GROWTH_FACTOR:,} characters, {growth:.1f}x for {GROWTH_FACTOR}x"
                )
