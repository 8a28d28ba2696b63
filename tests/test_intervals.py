"""The accuracy's interval in the log, checked against formulas computed here, independently."""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from scipy import stats

from gsm8k.metrics.intervals import question_stderr, wilson_ci
from gsm8k.task import gsm8k
from tests.scripted import run_eval, scripted_model

FAMILY = Path(__file__).parent / "fixtures" / "family"
Z95 = stats.norm.ppf(0.975)


def sample_scores(values: list[float], originals: list[int] | None) -> list[Any]:
    from inspect_ai.scorer import SampleScore, Score

    return [
        SampleScore(
            score=Score(value=value),
            sample_id=i,
            sample_metadata=None if originals is None else {"gsm8k_index": originals[i]},
        )
        for i, value in enumerate(values)
    ]


def wilson(p: float, n: float, critical: float) -> tuple[float, float]:
    """Wilson's score interval, from its textbook form."""
    centre = (p + critical**2 / (2 * n)) / (1 + critical**2 / n)
    half = critical / (1 + critical**2 / n) * math.sqrt(p * (1 - p) / n + critical**2 / (4 * n**2))
    return centre - half, centre + half


def clustered_variance(values: list[float], originals: list[int]) -> float:
    """Variance of the mean with a finite-cluster correction: sum over clusters of the squared
    sum of deviations, times C / (C - 1), over n squared."""
    p = sum(values) / len(values)
    sums: dict[int, float] = defaultdict(float)
    for value, original in zip(values, originals, strict=True):
        sums[original] += value - p
    clusters = len(sums)
    return sum(s * s for s in sums.values()) * clusters / (clusters - 1) / len(values) ** 2


VALUES = [1, 1, 1, 0, 1, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0]
"""Sixteen items: eight originals with two items each (GSM-Plus-like), correlated within pairs."""
ORIGINALS = [i // 2 for i in range(16)]


def test_independent_questions_get_the_plain_wilson_interval() -> None:
    scores = sample_scores(VALUES, list(range(16)))  # each item its own question
    interval = wilson_ci()(scores)
    p = sum(VALUES) / 16
    assert (interval["lower"], interval["upper"]) == pytest.approx(wilson(p, 16, Z95))
    plain_stderr = math.sqrt(p * (1 - p) / 15)  # sample std (ddof=1) over sqrt(n)
    assert question_stderr()(scores) == pytest.approx(plain_stderr)


@pytest.mark.parametrize("value", [0, 1])
def test_all_wrong_or_all_right_bounds_are_exactly_zero_and_one(value: int) -> None:
    interval = wilson_ci()(sample_scores([value] * 20, list(range(20))))
    exact = interval["lower"] if value == 0 else interval["upper"]
    assert exact == float(value)  # not 1e-17 left by floating point, as the log would show


def test_one_question_or_none_has_no_standard_error_and_none_scored_no_interval() -> None:
    assert math.isnan(question_stderr()(sample_scores([1.0], [0])))
    assert math.isnan(question_stderr()(sample_scores([1.0, 0.0, 1.0], [7, 7, 7])))
    assert math.isnan(question_stderr()([]))
    interval = wilson_ci()([])
    assert math.isnan(interval["lower"]) and math.isnan(interval["upper"])  # not "0% surely"


def test_unpaired_samples_are_taken_as_independent() -> None:
    interval = wilson_ci()(sample_scores(VALUES, None))
    assert (interval["lower"], interval["upper"]) == pytest.approx(wilson(10 / 16, 16, Z95))


def test_repeated_originals_cluster_the_interval_and_the_stderr() -> None:
    scores = sample_scores(VALUES, ORIGINALS)
    p = sum(VALUES) / 16
    variance = clustered_variance(VALUES, ORIGINALS)
    effective_n = min(p * (1 - p) / variance, 16)  # Korn-Graubard
    critical = stats.t.ppf(0.975, df=8 - 1)
    interval = wilson_ci()(scores)
    assert (interval["lower"], interval["upper"]) == pytest.approx(wilson(p, effective_n, critical))
    assert question_stderr()(scores) == pytest.approx(math.sqrt(variance))
    plain = wilson(p, 16, Z95)
    assert interval["upper"] - interval["lower"] > plain[1] - plain[0]


def test_one_original_question_bounds_nothing() -> None:
    interval = wilson_ci()(sample_scores([1, 1, 0, 1], [7, 7, 7, 7]))
    assert interval == {"lower": 0.0, "upper": 1.0}


@pytest.fixture
def family_data(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GSM8K_DATA_DIR", str(FAMILY / "gsm8k"))
    monkeypatch.delenv("GSM8K_FAMILY_DIR", raising=False)


def _metrics(log: Any, name: str = "accuracy") -> dict[str, float]:
    score = next(s for s in log.results.scores if s.name == name and s.reducer in (None, "mean"))
    return {key: metric.value for key, metric in score.metrics.items()}


def _log_values(log: Any) -> tuple[list[float], list[int]]:
    samples = sorted(log.samples, key=lambda s: str(s.id))
    values = [s.scores["gsm8k_grader"].value["accuracy"] for s in samples]
    return values, [s.metadata["gsm8k_index"] for s in samples]


@pytest.mark.slow
def test_gsm_plus_log_carries_a_clustered_interval(family_data: None) -> None:
    # Right on question 0's perturbations, wrong elsewhere: strongly clustered.
    def reply(prompt: str) -> str:
        return "ANSWER: 2/5" if "Janet" in prompt else "ANSWER: 1"

    log = run_eval(gsm8k(dataset="gsm-plus-mini", fewshot=0), scripted_model(reply))
    assert log.status == "success", log.error
    values, originals = _log_values(log)
    assert len(set(originals)) < len(originals)
    p = sum(values) / len(values)
    variance = clustered_variance(values, originals)
    effective_n = min(p * (1 - p) / variance, len(values))
    critical = stats.t.ppf(0.975, df=len(set(originals)) - 1)
    metrics = _metrics(log)
    assert metrics["accuracy"] == pytest.approx(p)
    expected = wilson(p, effective_n, critical)
    assert (metrics["wilson_ci_lower"], metrics["wilson_ci_upper"]) == pytest.approx(expected)
    assert metrics["question_stderr"] == pytest.approx(math.sqrt(variance))


def test_gsm8k_log_carries_a_plain_interval(mini_data: Path) -> None:
    def reply(prompt: str) -> str:
        return "ANSWER: 18" if "Janet" in prompt else "ANSWER: 3"

    log = run_eval(gsm8k(dataset=str(mini_data), fewshot=0), scripted_model(reply))
    values = [s.scores["gsm8k_grader"].value["accuracy"] for s in log.samples]
    metrics = _metrics(log)
    expected = wilson(sum(values) / len(values), len(values), Z95)
    assert (metrics["wilson_ci_lower"], metrics["wilson_ci_upper"]) == pytest.approx(expected)


@pytest.mark.slow
def test_votes_give_one_score_per_question_before_the_interval(mini_data: Path) -> None:
    replies = iter(["ANSWER: 18", "ANSWER: 17", "ANSWER: 18"] * 100)
    log = run_eval(
        gsm8k(dataset=str(mini_data), fewshot=0, votes=3),
        scripted_model(lambda prompt: next(replies) if "Janet" in prompt else "ANSWER: 0"),
        limit=4,
    )
    score = next(
        s for s in log.results.scores if s.name == "accuracy" and s.reducer == "majority_answer"
    )
    assert score.scored_samples == 4  # questions, not 12 completions
    metrics = {key: metric.value for key, metric in score.metrics.items()}
    expected = wilson(metrics["accuracy"], 4, Z95)
    assert (metrics["wilson_ci_lower"], metrics["wilson_ci_upper"]) == pytest.approx(expected)


@pytest.mark.slow
def test_inspects_dataframes_read_the_interval_and_the_headline_stderr(
    mini_data: Path, tmp_path: Path
) -> None:
    from inspect_ai.analysis import evals_df

    log = run_eval(
        gsm8k(dataset=str(mini_data), fewshot=0),
        scripted_model(lambda prompt: "ANSWER: 18" if "Janet" in prompt else "ANSWER: 3"),
        log_dir=str(tmp_path),
    )
    [row] = evals_df(log.location).to_dict("records")
    metrics = _metrics(log)
    assert row["score_headline_value"] == metrics["accuracy"]
    assert row["score_headline_stderr"] == pytest.approx(metrics["stderr"])
    assert row["score_accuracy_wilson_ci_lower"] == pytest.approx(metrics["wilson_ci_lower"])
    assert row["score_accuracy_wilson_ci_upper"] == pytest.approx(metrics["wilson_ci_upper"])
