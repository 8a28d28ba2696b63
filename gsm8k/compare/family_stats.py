"""The family report's statistics: intervals for accuracies measured on items clustered by
their GSM8K original, and the paired drop from GSM8K on the same originals."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import mean
from typing import cast

from gsm8k.compare.stats import SIGNIFICANCE, mcnemar_exact, paired_interval


@dataclass(frozen=True)
class Drop:
    """GSM8K accuracy minus variant accuracy on the same originals (positive: worse on the
    variant)."""

    originals: int
    gsm8k_accuracy: float
    variant_accuracy: float
    drop: float
    ci_low: float
    ci_high: float
    worse: int
    better: int
    p_value: float
    verdict: str


def clustered_standard_error(clusters: list[list[float]]) -> float:
    """Standard error of the overall mean with observations clustered (by original question).

    The cluster-robust (CR1) estimator: sqrt(G/(G-1) · Σ_g (Σ_i (y_gi − ȳ))²) / N. With one
    observation per cluster it is the usual sqrt(Σ (y − ȳ)² / (N (N−1))).
    """
    count = sum(len(c) for c in clusters)
    groups = len(clusters)
    if groups < 2:
        return 0.0
    overall = sum(sum(c) for c in clusters) / count
    spread = sum(sum(y - overall for y in c) ** 2 for c in clusters)
    return math.sqrt(groups / (groups - 1) * spread) / count


def clustered_interval(clusters: dict[int, list[float]]) -> tuple[float, float]:
    """The 95% interval of the mean over items clustered by original question: the log's own
    ``wilson_ci`` (Inspect's clustered ``ci_wilson``: Wilson's interval at the effective sample
    size the clustered variance implies, with Student's t on ``clusters − 1`` degrees of
    freedom), computed by the same code so that the report and the log never disagree.

    With few originals the variance itself is uncertain, and the t value says so: two originals
    give nearly [0, 1]. Items of one original bound nothing about other questions: [0, 1].
    """
    from inspect_ai.scorer import MetricProtocol, SampleScore, Score

    from gsm8k.metrics.intervals import CLUSTER_KEY, wilson_ci

    scores = [
        SampleScore(score=Score(value=value), sample_metadata={CLUSTER_KEY: original})
        for original, values in clusters.items()
        for value in values
    ]
    interval = cast(MetricProtocol, wilson_ci())(scores)
    assert isinstance(interval, dict)
    return float(interval["lower"]), float(interval["upper"])


def paired_drop(clusters: dict[int, list[float]], gold: dict[int, float]) -> Drop | None:
    """GSM8K minus the variant on the originals both have, per original."""
    common = sorted(set(clusters) & set(gold))
    if not common:
        return None
    original = [gold[i] for i in common]
    variant = [mean(clusters[i]) for i in common]
    differences = [o - v for o, v in zip(original, variant, strict=True)]
    drop, low, high = paired_interval(original, variant)
    worse = sum(d > 0 for d in differences)
    better = sum(d < 0 for d in differences)
    p_value = mcnemar_exact(worse, better)
    if p_value < SIGNIFICANCE and drop > 0:
        verdict = f"worse on the variant (p={p_value:.3g})"
    elif p_value < SIGNIFICANCE and drop < 0:
        verdict = f"better on the variant (p={p_value:.3g})"
    else:
        verdict = f"no detectable change (p={p_value:.3g})"
    return Drop(
        originals=len(common),
        gsm8k_accuracy=mean(original),
        variant_accuracy=mean(variant),
        drop=drop,
        ci_low=low,
        ci_high=high,
        worse=worse,
        better=better,
        p_value=p_value,
        verdict=verdict,
    )
