"""Rates of a dict-valued score, all from one pass over the samples.

A scorer's ``metrics={key: [...]}`` dict gives every key its own score in the log, but Inspect
builds it from a deep copy of every sample's score, once per key: for 1,319 samples and five keys
that was 6,595 copies at the end of each run, the largest part of this task's time above a
one-scorer GSM8K's. So only the values that carry an interval (the accuracies) are metric-dict
keys; the plain rates beside them (format followed, no answer, truncated, execution errors…)
come from :func:`rates`, one metric that reads each sample's value dict as it is. The per-sample
values are unchanged, and epoch reduction still reduces every key.
"""

from __future__ import annotations

import math

from inspect_ai.scorer import Metric, SampleScore, Value, metric


@metric
def rates(keys: list[str]) -> Metric:
    """The mean of each of ``keys`` in the samples' dict values: ``{key: mean, ...}``.

    A sample whose value lacks a key, or holds NaN for it, is left out of that key's mean only;
    a key no sample has is NaN.
    """

    def compute(scores: list[SampleScore]) -> Value:
        totals = dict.fromkeys(keys, 0.0)
        counts = dict.fromkeys(keys, 0)
        for sample_score in scores:
            value = sample_score.score.value
            if not isinstance(value, dict):
                continue
            for key in keys:
                item = value.get(key)
                if isinstance(item, bool | int | float) and not math.isnan(item):
                    totals[key] += float(item)
                    counts[key] += 1
        return {key: totals[key] / counts[key] if counts[key] else math.nan for key in keys}

    return compute
