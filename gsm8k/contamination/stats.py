"""The statistics of a contamination signal: a difference with its interval, a permutation test
and the smallest difference a run of this size detects.

Two designs:

* **paired by template** (original against fresh instances of the same GSM-Symbolic template):
  one difference per template, original minus the mean of its fresh instances. The interval and
  drop come from :func:`gsm8k.compare.family_stats.paired_drop` (the family report's paired t
  interval over originals, which is clustered by template because each template contributes one
  difference); the test is a sign-flip permutation test over templates: under "no memorization"
  the sign of each template's difference is as likely either way. Exact (all 2^n flips) up to
  ``EXACT_FLIPS`` templates, else ``PERMUTATIONS`` seeded random flips.
* **two groups** (test questions against train questions, which are different questions): the
  difference of means with Welch's t interval, and a label-permutation test.

The smallest detectable difference is the normal-approximation effect with 80% power at the
two-sided 5% level, from the observed spread; it is never below what the test can reach at all
(``MIN_DISCORDANT`` templates moving together: with fewer, even a unanimous sign-flip test
cannot reach p < 0.05).
"""

from __future__ import annotations

import itertools
import math
import warnings
from dataclasses import dataclass
from statistics import mean, stdev

import numpy as np
from scipy import stats

from gsm8k.compare.family_stats import paired_drop
from gsm8k.compare.stats import CONFIDENCE, SIGNIFICANCE

POWER = 0.80
EXACT_FLIPS = 16
"""Up to this many templates the sign-flip test enumerates every flip (65,536)."""
PERMUTATIONS = 20_000
PERMUTATION_SEED = 20240502
"""Random permutations are seeded: the same logs always give the same p-value."""
MIN_DISCORDANT = 6
"""Fewest units that must all move the same way for a two-sided exact test to reach 0.05
(2 * 0.5**6 = 0.031; five give 0.0625)."""


@dataclass(frozen=True)
class Difference:
    """``first`` minus ``second`` (positive: the memorization direction)."""

    design: str
    """``paired`` (by template) or ``groups`` (two sets of different questions)."""
    units: int
    """Templates (paired) or questions in both groups together (groups)."""
    first_value: float
    second_value: float
    difference: float
    ci_low: float
    ci_high: float
    p_value: float
    test: str
    detectable: float
    """Smallest difference this run detects with ``POWER`` at ``SIGNIFICANCE`` (two-sided)."""
    higher: int = 0
    """Paired: templates where ``first`` was higher; groups: questions in ``first``."""
    lower: int = 0
    """Paired: templates where ``first`` was lower; groups: questions in ``second``."""


def paired_difference(first: dict[str, float], second: dict[str, list[float]]) -> Difference | None:
    """Per template, ``first[t]`` minus the mean of ``second[t]``, over templates both have."""
    common = sorted(set(first) & {t for t, values in second.items() if values})
    if not common:
        return None
    # The family report's paired drop on the same units (keys renumbered: it pairs by index).
    numbered = {i: t for i, t in enumerate(common)}
    with warnings.catch_warnings():
        # SciPy warns of precision loss when nearly every template moved alike; the interval
        # it returns is still the t interval (and a point is widened by paired_interval).
        warnings.simplefilter("ignore", RuntimeWarning)
        drop = paired_drop(
            {i: second[t] for i, t in numbered.items()}, {i: first[t] for i, t in numbered.items()}
        )
    assert drop is not None
    differences = [first[t] - mean(second[t]) for t in common]
    return Difference(
        design="paired",
        units=len(common),
        first_value=drop.gsm8k_accuracy,
        second_value=drop.variant_accuracy,
        difference=drop.drop,
        ci_low=drop.ci_low,
        ci_high=drop.ci_high,
        p_value=sign_flip_p(differences),
        test="sign-flip permutation over templates"
        + (" (exact)" if len(differences) <= EXACT_FLIPS else f" ({PERMUTATIONS:,} draws)"),
        detectable=detectable_paired(differences),
        higher=drop.worse,
        lower=drop.better,
    )


def group_difference(first: list[float], second: list[float]) -> Difference | None:
    """Mean of ``first`` minus mean of ``second``, two sets of different questions."""
    if not first or not second:
        return None
    difference = mean(first) - mean(second)
    if len(first) > 1 and len(second) > 1 and (len(set(first)) > 1 or len(set(second)) > 1):
        with warnings.catch_warnings():  # the same precision warning on near-constant groups
            warnings.simplefilter("ignore", RuntimeWarning)
            test = stats.ttest_ind(first, second, equal_var=False)
        interval = test.confidence_interval(CONFIDENCE)
        low, high = max(-1.0, float(interval.low)), min(1.0, float(interval.high))
    else:  # no spread to estimate: nothing bounds the difference but the scale
        low, high = -1.0, 1.0
    return Difference(
        design="groups",
        units=len(first) + len(second),
        first_value=mean(first),
        second_value=mean(second),
        difference=difference,
        ci_low=low,
        ci_high=high,
        p_value=label_permutation_p(first, second),
        test=f"label permutation ({PERMUTATIONS:,} draws)",
        detectable=detectable_groups(first, second),
        higher=len(first),
        lower=len(second),
    )


def sign_flip_p(differences: list[float]) -> float:
    """Two-sided p-value of the mean difference under random signs: the share of sign
    assignments whose mean is at least as far from 0 as the observed one."""
    values = np.asarray(differences, dtype=float)
    observed = abs(values.mean())
    tolerance = 1e-12  # equal means computed in another order must count as "as extreme"
    if len(values) <= EXACT_FLIPS:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=len(values))))
        means = np.abs(signs @ values) / len(values)
        return float(np.mean(means >= observed - tolerance))
    rng = np.random.default_rng(PERMUTATION_SEED)
    signs = rng.choice((1.0, -1.0), size=(PERMUTATIONS, len(values)))
    means = np.abs(signs @ values) / len(values)
    # The observed assignment counts as one of the draws (a p-value is never 0).
    return float((1 + np.sum(means >= observed - tolerance)) / (1 + PERMUTATIONS))


def label_permutation_p(first: list[float], second: list[float]) -> float:
    """Two-sided p-value of the difference of means when group labels are shuffled."""
    pooled = np.asarray(first + second, dtype=float)
    size = len(first)
    observed = abs(mean(first) - mean(second))
    rng = np.random.default_rng(PERMUTATION_SEED)
    order = np.argsort(rng.random((PERMUTATIONS, len(pooled))), axis=1)
    shuffled = pooled[order]
    gaps = np.abs(shuffled[:, :size].mean(axis=1) - shuffled[:, size:].mean(axis=1))
    return float((1 + np.sum(gaps >= observed - 1e-12)) / (1 + PERMUTATIONS))


def detectable_paired(differences: list[float]) -> float:
    """Smallest mean paired difference detected with ``POWER``: (z_α/2 + z_power) · sd / √n,
    and never below ``MIN_DISCORDANT`` of the n templates moving by the whole scale."""
    count = len(differences)
    spread = stdev(differences) if count > 1 else 1.0
    return min(1.0, max(_z() * spread / math.sqrt(count), MIN_DISCORDANT / count))


def detectable_groups(first: list[float], second: list[float]) -> float:
    """The same for two groups: (z_α/2 + z_power) · √(s₁²/n₁ + s₂²/n₂), with the same floor."""
    spread = math.sqrt(_variance(first) / len(first) + _variance(second) / len(second))
    floor = MIN_DISCORDANT / min(len(first), len(second))
    return min(1.0, max(_z() * spread, floor))


def _variance(values: list[float]) -> float:
    return float(np.var(values, ddof=1)) if len(values) > 1 else 1.0


def _z() -> float:
    return float(stats.norm.ppf(1 - SIGNIFICANCE / 2) + stats.norm.ppf(POWER))
