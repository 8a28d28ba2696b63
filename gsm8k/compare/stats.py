"""The statistics behind the comparison: intervals for one run, paired tests for two.

The building blocks work on plain numbers so other reports can reuse them: ``wilson_interval``,
``mean_interval``, ``paired_interval``, ``discordant_counts`` and ``mcnemar_exact``.

All tests come from SciPy: Wilson intervals (``binomtest(...).proportion_ci``), the paired
t interval (``ttest_rel(...).confidence_interval``) and the exact McNemar test, which is a two-sided
binomial test on the discordant pairs (``binomtest(b, b + c, 0.5)``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import mean

from scipy import stats

from gsm8k.compare.results import Run, SampleResult, id_order
from gsm8k.metrics.reducers import majority_vote

CONFIDENCE = 0.95
SIGNIFICANCE = 0.05


@dataclass(frozen=True)
class RunSummary:
    """One run's numbers. Rates a grader does not measure are ``None`` (the program grader has
    no answer format; the text grader runs no program); so are reasoning tokens when the
    provider reported none."""

    label: str
    model: str
    samples: int
    epochs: int
    accuracy: float
    ci_low: float
    ci_high: float
    strict_accuracy: float | None
    format_followed: float | None
    no_answer: float
    truncated: float
    majority_accuracy: float | None
    tokens_per_sample: float
    wall_seconds: float
    logs: int
    grader: str = "gsm8k_grader"
    execution_error: float | None = None
    reasoning_tokens: int | None = None
    reasoning_tokens_per_sample: float | None = None
    complete: bool = True
    planned_samples: int = 0
    missing_samples: list[int | str] = field(default_factory=list)
    unscored_missing: list[int | str] = field(default_factory=list)
    """Missing samples that were unscored, not failed: ``eval-retry`` leaves them as they are."""
    rerun: str = ""
    environment: dict[str, str] = field(default_factory=dict)
    """Variables the run read its data through (``GSM8K_DATA_DIR``), set on printed commands."""
    sample_ids: list[int | str] = field(default_factory=list)
    log_statuses: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PairedComparison:
    first: str
    second: str
    common_samples: int
    difference: float
    ci_low: float
    ci_high: float
    first_only_correct: int
    second_only_correct: int
    mcnemar_p: float
    verdict: str
    same_answer: int = 0
    """Common samples where both runs gave the same extracted answer (maj@k answer when epochs
    > 1; no answer on both sides counts as the same)."""


def summarize(run: Run) -> RunSummary:
    """Accuracy with its interval, format and truncation rates, tokens and completeness.

    Raises:
        ValueError: when the run has no completed sample.
    """
    samples = list(run.samples.values())
    if not samples:
        raise ValueError(f"{run.label}: no completed samples")
    accuracy = mean(s.accuracy for s in samples)
    low, high = accuracy_interval(samples, run.epochs)
    reasoning = [s.reasoning_tokens for s in samples if s.reasoning_tokens is not None]
    return RunSummary(
        label=run.label,
        model=run.model,
        samples=len(samples),
        epochs=run.epochs,
        accuracy=accuracy,
        ci_low=low,
        ci_high=high,
        strict_accuracy=mean_rate(samples, "strict"),
        format_followed=mean_rate(samples, "format_followed"),
        no_answer=mean_rate(samples, "no_answer") or 0.0,
        truncated=mean_rate(samples, "truncated") or 0.0,
        majority_accuracy=mean(s.majority_correct for s in samples) if run.epochs > 1 else None,
        tokens_per_sample=mean(s.tokens for s in samples),
        wall_seconds=run.wall_seconds,
        logs=len(run.logs),
        grader=run.grader,
        execution_error=mean_rate(samples, "execution_error"),
        reasoning_tokens=sum(reasoning) if reasoning else None,
        reasoning_tokens_per_sample=sum(reasoning) / len(samples) if reasoning else None,
        complete=run.complete,
        planned_samples=len(run.planned | set(run.samples)),
        missing_samples=run.missing,
        unscored_missing=[i for i in run.missing if i in run.unscored],
        rerun=run.rerun,
        environment=dict(run.environment),
        sample_ids=[s.sample_id for s in samples],
        log_statuses=dict(run.statuses),
    )


def mean_rate(samples: list[SampleResult], attribute: str) -> float | None:
    """Mean over samples of the per-sample rate; ``None`` when the grader does not measure it."""
    rates = [s.rate(attribute) for s in samples]
    if any(rate is None for rate in rates):
        return None
    return mean(rate for rate in rates if rate is not None)


def accuracy_interval(samples: list[SampleResult], epochs: int) -> tuple[float, float]:
    """95% interval: Wilson for one epoch; a t interval over per-question means for several
    (epochs of one question are not independent, the questions are)."""
    if epochs == 1:
        return wilson_interval(sum(s.epochs[0].correct for s in samples), len(samples))
    return mean_interval([s.accuracy for s in samples])


def wilson_interval(correct: int, total: int) -> tuple[float, float]:
    """Wilson score interval for ``correct`` successes out of ``total`` at ``CONFIDENCE``."""
    interval = stats.binomtest(correct, total).proportion_ci(CONFIDENCE, "wilson")
    return float(interval.low), float(interval.high)


def wilson(proportion: float, count: float) -> tuple[float, float]:
    """Wilson score interval for a proportion observed over ``count`` (possibly fractional)."""
    z = float(stats.norm.ppf(0.5 + CONFIDENCE / 2))
    z2 = z * z
    centre = (proportion + z2 / (2 * count)) / (1 + z2 / count)
    half = z * math.sqrt(proportion * (1 - proportion) / count + z2 / (4 * count * count))
    half /= 1 + z2 / count
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: list[float]) -> tuple[float, float]:
    """t interval for the mean of per-question values in [0, 1], clipped to [0, 1].

    When the values do not vary the t interval is a point, which no finite sample supports:
    Wilson's interval over the questions is used instead (what the log's ``wilson_ci`` reports
    for the same run), so three questions right in every epoch give 44%–100%, not 100%–100%.
    """
    if len(values) < 2 or len(set(values)) == 1:
        return wilson(mean(values), len(values))
    interval = stats.ttest_1samp(values, 0.0).confidence_interval(CONFIDENCE)
    return max(0.0, float(interval.low)), min(1.0, float(interval.high))


def paired_interval(first: list[float], second: list[float]) -> tuple[float, float, float]:
    """Mean of ``first - second`` over paired questions (values in [0, 1]) with its paired t
    interval: ``(difference, low, high)``.

    One question says nothing about the others: the whole range. When every question moved
    alike the t interval is a point; instead each direction's share of questions is bounded by
    Wilson's interval (none seen the other way is still up to Wilson's upper bound at 0), so
    three questions all won give -12 to +100 points, in line with McNemar's p = 0.25.
    """
    differences = [x - y for x, y in zip(first, second, strict=True)]
    difference = mean(differences)
    count = len(differences)
    if count < 2:
        return difference, -1.0, 1.0
    if len(set(differences)) == 1:
        unseen = wilson(0.0, count)[1]  # the share of questions that could move the other way
        seen = abs(difference) * wilson(1.0, count)[0]
        if difference == 0:
            return difference, -unseen, unseen
        low, high = seen - unseen, min(1.0, abs(difference) + unseen)
        return (difference, low, high) if difference > 0 else (difference, -high, -low)
    interval = stats.ttest_rel(first, second).confidence_interval(CONFIDENCE)
    return difference, max(-1.0, float(interval.low)), min(1.0, float(interval.high))


def discordant_counts(first: list[bool], second: list[bool]) -> tuple[int, int]:
    """Questions only the first got right, and only the second (McNemar's b and c)."""
    only_first = sum(x and not y for x, y in zip(first, second, strict=True))
    only_second = sum(y and not x for x, y in zip(first, second, strict=True))
    return only_first, only_second


def compare(first: Run, second: Run) -> PairedComparison:
    """Paired comparison on the samples both runs completed."""
    first_samples, second_samples = first.samples, second.samples
    common = sorted(set(first_samples) & set(second_samples), key=id_order)
    if not common:
        raise ValueError(f"{first.label} and {second.label} share no completed sample")
    difference, low, high = paired_interval(
        [first_samples[i].accuracy for i in common], [second_samples[i].accuracy for i in common]
    )
    only_first, only_second = discordant_counts(
        [_binary(first_samples[i], first.epochs) for i in common],
        [_binary(second_samples[i], second.epochs) for i in common],
    )
    p_value = mcnemar_exact(only_first, only_second)
    same = sum(
        final_answer(first_samples[i], first.epochs)
        == final_answer(second_samples[i], second.epochs)
        for i in common
    )
    return PairedComparison(
        first=first.label,
        second=second.label,
        common_samples=len(common),
        difference=difference,
        ci_low=low,
        ci_high=high,
        first_only_correct=only_first,
        second_only_correct=only_second,
        mcnemar_p=p_value,
        verdict=_verdict(first.label, second.label, difference, p_value),
        same_answer=same,
    )


def final_answer(sample: SampleResult, epochs: int) -> str | None:
    """The answer a run gives a question: its completion's, or the majority over epochs."""
    if epochs == 1:
        return sample.epochs[0].answer
    return majority_vote([e.answer for e in sample.epochs])


def mcnemar_exact(only_first: int, only_second: int) -> float:
    """Exact McNemar p-value: a two-sided binomial test on the discordant pairs."""
    discordant = only_first + only_second
    if discordant == 0:
        return 1.0
    return float(stats.binomtest(only_first, discordant, 0.5).pvalue)


def _binary(sample: SampleResult, epochs: int) -> bool:
    """The per-question outcome McNemar needs: correct, or maj@k-correct over several epochs."""
    return sample.epochs[0].correct if epochs == 1 else sample.majority_correct


def _verdict(first: str, second: str, difference: float, p_value: float) -> str:
    if p_value < SIGNIFICANCE and not math.isclose(difference, 0.0):
        better, worse = (first, second) if difference > 0 else (second, first)
        return f"{better} is better than {worse} (p={p_value:.3g})"
    return f"not distinguishable from noise (p={p_value:.3g})"
