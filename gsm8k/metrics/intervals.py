"""Uncertainty of an accuracy in the log itself: a standard error and a 95% Wilson interval.

Both come from Inspect's own metrics (``stderr``, ``ci_wilson``). Items that derive from the same
GSM8K question are not independent (GSM-Symbolic has 50 instances of each template, GSM-Plus 8
perturbations of each question), so where the scored samples repeat an original question
(``metadata["gsm8k_index"]``) the metrics cluster by it; where every sample is its own question
(GSM8K, Platinum, MGSM) they are the plain ones. Several completions of one question (votes,
``--epochs``) are reduced to one score per question before any metric runs, so they never count
as independent samples.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

from inspect_ai.scorer import (
    Metric,
    MetricProtocol,
    SampleScore,
    Value,
    ci_wilson,
    metric,
    stderr,
)

CLUSTER_KEY = "gsm8k_index"
"""Sample metadata naming the GSM8K test question an item derives from."""
CONFIDENCE_LEVEL = 0.95


def cluster_key(scores: Sequence[SampleScore]) -> str | None:
    """``gsm8k_index`` when the samples repeat an original question, else ``None``.

    Samples without the key (a custom set not paired with GSM8K) are taken as independent.
    """
    indices = [(score.sample_metadata or {}).get(CLUSTER_KEY) for score in scores]
    if not indices or any(index is None for index in indices):
        return None
    return CLUSTER_KEY if len(set(indices)) < len(indices) else None


@metric
def question_stderr() -> Metric:
    """Standard error of the mean, clustered by original question where questions repeat."""

    def compute(scores: list[SampleScore]) -> Value:
        cluster = cluster_key(scores)
        if _questions(scores, cluster) < 2:
            # One question (or none scored) has no spread to measure: Inspect would say 0,
            # which reads as certainty next to an interval of [0, 1].
            return math.nan
        return _metric(stderr(cluster=cluster))(scores)

    return compute


@metric
def wilson_ci(level: float = CONFIDENCE_LEVEL) -> Metric:
    """Wilson score interval for an accuracy (``lower``, ``upper``), clustered by original
    question where questions repeat.

    All samples from one original question cannot bound the accuracy on others: the interval is
    then the whole range [0, 1] rather than a falsely narrow one.
    """

    def compute(scores: list[SampleScore]) -> Value:
        if not scores:  # every sample unscored: no interval, as the accuracy is NaN
            return {"lower": math.nan, "upper": math.nan}
        cluster = cluster_key(scores)
        if cluster is not None and _questions(scores, cluster) < 2:
            return {"lower": 0.0, "upper": 1.0}
        value = _metric(ci_wilson(level, cluster=cluster))(scores)
        if not isinstance(value, dict):
            return value
        # At 0% and 100% the bound is exact but floating point leaves 1e-17 in the log.
        return {
            key: round(bound, 12) if isinstance(bound, float) else bound
            for key, bound in value.items()
        }

    return compute


def _questions(scores: Sequence[SampleScore], cluster: str | None) -> int:
    """How many distinct questions the scores cover (each sample is one when not clustered)."""
    if cluster is None:
        return len(scores)
    return len({(score.sample_metadata or {})[cluster] for score in scores})


def _metric(built: Metric) -> MetricProtocol:
    """Inspect's metric as what it is: one that takes ``SampleScore`` lists (``Metric`` also
    admits the deprecated ``Score``-list form, which these never are)."""
    return cast(MetricProtocol, built)
