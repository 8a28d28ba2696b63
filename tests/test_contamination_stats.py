"""The contamination statistics against hand counts."""

from __future__ import annotations

import math

import pytest
from scipy import stats

from gsm8k.contamination.stats import (
    MIN_DISCORDANT,
    PERMUTATIONS,
    detectable_groups,
    detectable_paired,
    group_difference,
    paired_difference,
    sign_flip_p,
)

Z = 1.959964 + 0.841621  # two-sided 5% and 80% power


def test_sign_flip_exact_p_counts_assignments_by_hand() -> None:
    # Four templates all +1: only all-plus and all-minus reach |mean| 1: 2 of 16.
    assert sign_flip_p([1.0, 1.0, 1.0, 1.0]) == pytest.approx(2 / 16)
    # Sums ±1 ±.5 ±.5 ±.5 reaching |1.5|: 4 with +1 (2.5 once, 1.5 three times), 4 with -1.
    assert sign_flip_p([1.0, 0.5, 0.5, -0.5]) == pytest.approx(8 / 16)
    assert sign_flip_p([0.0, 0.0, 0.0]) == 1.0


def test_sign_flip_random_draws_on_many_templates_are_seeded_and_small_for_a_clear_drop() -> None:
    values = [1.0] * 30 + [0.0] * 10
    first, second = sign_flip_p(values), sign_flip_p(values)
    assert first == second
    assert first == pytest.approx(1 / (1 + PERMUTATIONS))  # no random flip reaches the observed


def test_paired_difference_by_hand() -> None:
    originals = {"a": 1.0, "b": 1.0, "c": 0.0, "d": 1.0}
    fresh = {"a": [0.0, 0.0], "b": [1.0, 0.0], "c": [0.0, 0.0], "d": [1.0, 1.0], "e": [1.0]}
    result = paired_difference(originals, fresh)
    assert result is not None
    # Differences per template: 1, 0.5, 0, 0 (template e has no original: left out).
    assert result.units == 4
    assert result.first_value == pytest.approx(0.75)
    assert result.second_value == pytest.approx((0 + 0.5 + 0 + 1) / 4)
    assert result.difference == pytest.approx(0.375)
    sd = stats.tstd([1, 0.5, 0, 0])
    half = stats.t.ppf(0.975, 3) * sd / 2
    assert (result.ci_low, result.ci_high) == pytest.approx((0.375 - half, min(1.0, 0.375 + half)))
    # Signs of (1, .5, 0, 0): |sum| >= 1.5 when 1 and .5 share a sign: 2 * 4 of 16 assignments.
    assert result.p_value == pytest.approx(8 / 16)
    assert (result.higher, result.lower) == (2, 0)
    # Four templates: the floor is six of them moving, more than all four: the whole scale.
    assert result.detectable == 1.0


def test_detectable_paired_is_the_normal_power_formula_above_the_floor() -> None:
    differences = [1.0, 0.0] * 50  # sd 0.5025, n 100
    expected = Z * stats.tstd(differences) / 10
    assert detectable_paired(differences) == pytest.approx(expected, rel=1e-5)
    # No spread at all: the floor, six of the templates moving by the whole scale.
    assert detectable_paired([0.0] * 100) == pytest.approx(MIN_DISCORDANT / 100)


def test_group_difference_by_hand() -> None:
    first, second = [1.0, 0.5, 0.5, 0.0], [0.0, 0.0, 0.5, 0.5]
    result = group_difference(first, second)
    assert result is not None
    assert result.difference == pytest.approx(0.5 - 0.25)
    welch = stats.ttest_ind(first, second, equal_var=False).confidence_interval(0.95)
    assert (result.ci_low, result.ci_high) == pytest.approx((welch.low, welch.high))
    assert 0.0 < result.p_value <= 1.0
    spread = math.sqrt(stats.tvar(first) / 4 + stats.tvar(second) / 4)
    assert detectable_groups(first, second) == pytest.approx(min(1.0, max(Z * spread, 6 / 4)))


def test_label_permutation_finds_a_clear_gap() -> None:
    result = group_difference([1.0] * 40, [0.0] * 40)
    assert result is not None
    assert result.p_value < 0.001
    assert result.difference == 1.0
