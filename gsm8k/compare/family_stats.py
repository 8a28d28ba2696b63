"""The family report's statistics: intervals for accuracies measured on items clustered by
their GSM8K original, and the paired drop from GSM8K on the same originals."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import mean

from gsm8k.compare.stats import SIGNIFICANCE, mcnemar_exact, paired_interval, wilson


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


def clustered_interval(
    accuracy: float, count: int, clusters: int, se: float
) -> tuple[float, float]:
    """A Wilson interval at the effective sample size the clustered standard error implies.

    The effective size is ``accuracy (1 − accuracy) / se²`` (the count divided by the design
    effect), kept between the number of clusters and the number of items; when every item has
    the same outcome (no variance to measure) it is the number of clusters. Unlike a normal
    interval this stays inside [0, 1] and is not a point at 0% or 100%. Items of one original
    bound nothing about other questions: the interval is then [0, 1], as in the log.
    """
    if clusters < 2:
        return 0.0, 1.0
    variance = accuracy * (1 - accuracy)
    effective = clusters if variance == 0 or se == 0 else variance / (se * se)
    effective = min(float(count), max(float(clusters), effective))
    return wilson(accuracy, effective)


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
