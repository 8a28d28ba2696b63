"""The one-pass rates metric beside the grader's accuracies."""

from __future__ import annotations

import math

import pytest
from inspect_ai.scorer import SampleScore, Score

from gsm8k.metrics.rates import rates


def _scores(*values: object) -> list[SampleScore]:
    return [
        SampleScore(score=Score(value=value), sample_id=index)  # type: ignore[arg-type]
        for index, value in enumerate(values)
    ]


def test_rates_are_means_of_each_key() -> None:
    metric = rates(["a", "b"])
    result = metric(_scores({"a": 1.0, "b": 0.0}, {"a": 0.0, "b": 0.0}, {"a": 1.0, "b": 1.0}))
    assert result == pytest.approx({"a": 2 / 3, "b": 1 / 3})


def test_rates_leave_out_missing_and_nan_values_per_key() -> None:
    metric = rates(["a", "b", "c"])
    result = metric(_scores({"a": 1.0, "b": math.nan}, {"a": 0.0, "b": 1.0}, math.nan))
    assert isinstance(result, dict)
    assert result["a"] == pytest.approx(0.5)  # the NaN-valued (unscored) sample is left out
    assert result["b"] == pytest.approx(1.0)  # NaN for one key leaves out only that key
    assert math.isnan(result["c"])  # no sample has it


def test_rates_read_booleans_as_zero_or_one() -> None:
    assert rates(["a"])(_scores({"a": True}, {"a": False})) == {"a": 0.5}
