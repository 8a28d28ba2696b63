"""The comparison's intervals where the t interval degenerates: runs whose per-question values
do not vary (several epochs all right, or all wrong) and pairs that moved alike."""

from __future__ import annotations

import pytest

from gsm8k.compare.stats import mean_interval, paired_interval, wilson, wilson_interval


def test_wilson_over_a_fractional_count_agrees_with_scipy_on_whole_counts() -> None:
    for correct, total in [(0, 3), (3, 3), (7, 20), (1319, 1319)]:
        assert wilson(correct / total, total) == pytest.approx(wilson_interval(correct, total))


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([1.0, 1.0, 1.0], (0.4385, 1.0)),  # the log's wilson_ci for 3 questions all right
        ([0.0, 0.0, 0.0], (0.0, 0.5615)),
        ([0.5, 0.5, 0.5], (0.1253, 0.8747)),  # right in one epoch of two, every question
    ],
)
def test_questions_that_do_not_vary_get_wilson_not_a_point(
    values: list[float], expected: tuple[float, float]
) -> None:
    assert mean_interval(values) == pytest.approx(expected, abs=1e-4)


def test_pairs_that_moved_alike_do_not_rule_out_no_change_on_three_questions() -> None:
    difference, low, high = paired_interval([1.0] * 3, [0.0] * 3)
    assert difference == 1.0 and high == 1.0
    assert low < 0 < high  # McNemar's p = 0.25: not distinguishable, and the interval agrees
    assert paired_interval([0.0] * 3, [1.0] * 3) == pytest.approx((-1.0, -1.0, -low))


def test_identical_runs_get_a_narrow_interval_around_zero() -> None:
    difference, low, high = paired_interval([1.0] * 60 + [0.0] * 40, [1.0] * 60 + [0.0] * 40)
    assert difference == 0.0
    assert (low, high) == pytest.approx((-0.037, 0.037), abs=1e-3)  # rule of three, about


def test_many_questions_won_give_an_interval_near_the_difference() -> None:
    difference, low, high = paired_interval([1.0] * 200, [0.0] * 200)
    assert difference == 1.0 and high == 1.0 and 0.95 < low < 1.0
