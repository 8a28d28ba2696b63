"""The whole task through inspect_ai.eval with scripted completions of known correctness."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gsm8k.task import TASK_VERSION, gsm8k
from tests.scripted import Reply, run_eval, scripted_model

# Keyed by a fragment of each fixture question. The grader must accept 3 of 6; match(numeric=True)
# also accepts the two near-misses on large answers (rounded to 5 significant digits) = 5 of 6.
REPLIES: dict[str, Reply] = {
    "Janet": "She sells 16 - 3 - 4 = 9 eggs and makes 9 * 2 = 18 dollars.\nANSWER: 18",
    "robe": "Half of 2 is 1, so 2 + 1 = 3.\nThe answer is 3.",
    "house": "1,000,000 + 450,000 = 1,450,000\nANSWER: $1,450,000",
    "diver": "-5 + 2 - 7 = -10\nANSWER: -11",
    "pencils": "ANSWER: 123459",
    "factory": ("It made 2,880,004 bolts so far and then", "max_tokens"),
}


def metric(log: Any, name: str, metric_name: str) -> float:
    for score in log.results.scores:
        if score.name == name:
            return float(score.metrics[metric_name].value)
    raise AssertionError(f"no score {name} in {[s.name for s in log.results.scores]}")


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Any:
    data = str(Path(__file__).parent / "fixtures" / "mini")
    return run_eval(
        gsm8k(dataset=data, fewshot=3, fewshot_seed=7),
        scripted_model(REPLIES),
        log_dir=str(tmp_path_factory.mktemp("logs")),
    )


@pytest.mark.slow
def test_exact_grader_and_match_disagree_where_match_rounds(log: Any) -> None:
    assert log.status == "success"
    assert metric(log, "accuracy", "accuracy") == pytest.approx(3 / 6)
    assert metric(log, "match", "accuracy") == pytest.approx(5 / 6)


def test_format_and_truncation_rates(log: Any) -> None:
    assert metric(log, "strict_accuracy", "accuracy") == pytest.approx(2 / 6)
    # The plain rates are one metric of the grader's own score (gsm8k.metrics.rates), not three.
    assert metric(log, "gsm8k_grader", "format_followed") == pytest.approx(4 / 6)
    assert metric(log, "gsm8k_grader", "truncated") == pytest.approx(1 / 6)
    assert metric(log, "gsm8k_grader", "no_answer") == pytest.approx(1 / 6)


def test_every_sample_carries_both_scores_and_grading_metadata(log: Any) -> None:
    by_id = {sample.id: sample for sample in log.samples}
    for sample in log.samples:
        # One scorer entry carries both verdicts: the grader's and match(numeric=True)'s.
        assert set(sample.scores) == {"gsm8k_grader"}
        assert set(sample.scores["gsm8k_grader"].value) >= {"accuracy", "match"}
    matched = [sample.scores["gsm8k_grader"].value["match"] for sample in log.samples]
    assert sum(matched) == 5  # the two rounded near-misses too, as a scorer of its own would
    assert by_id[1].scores["gsm8k_grader"].metadata["match_answer"] == "3"
    robe = by_id[1].scores["gsm8k_grader"]
    assert robe.answer == "3" and robe.metadata["rule"] == "answer_is"
    assert robe.value["accuracy"] == 1.0 and robe.value["strict_accuracy"] == 0.0
    factory = by_id[5].scores["gsm8k_grader"]
    assert factory.metadata["truncated"] is True and factory.answer is None


def test_exact_grader_is_the_headline_and_ids_sort_numerically(log: Any) -> None:
    # The task names its headline: the grader's rates come before its accuracy in the scores.
    headline = log.results.headline
    assert (headline.scorer, headline.score, headline.metric) == (
        "gsm8k_grader",
        "accuracy",
        "accuracy",
    )
    assert next(score.scorer for score in log.results.scores) == "gsm8k_grader"
    # match(numeric=True)'s own score, with the metrics inspect_evals' gsm8k reports for it.
    [matched] = [score for score in log.results.scores if score.name == "match"]
    assert matched.scorer == "gsm8k_grader"
    assert set(matched.metrics) == {"accuracy", "stderr"}


def test_dataframes_name_match_as_inspect_evals_logs_do(log: Any) -> None:
    from inspect_ai.analysis import evals_df

    frame = evals_df(log.location, quiet=True)
    assert frame["score_match_accuracy"].tolist() == [pytest.approx(5 / 6)]
    assert frame["score_accuracy_accuracy"].tolist() == [pytest.approx(3 / 6)]
    assert [sample.id for sample in log.samples] == sorted(sample.id for sample in log.samples)
    assert all(isinstance(sample.id, int) for sample in log.samples)


def test_log_records_data_provenance_and_fewshot_settings(log: Any) -> None:
    metadata = log.eval.metadata
    assert metadata["dataset"].endswith("mini/test.jsonl")
    assert len(metadata["dataset_sha256"]) == 64
    assert metadata["fewshot"] == 3 and metadata["fewshot_seed"] == 7
    assert metadata["fewshot_dataset"].endswith("mini/train.jsonl")
    assert log.eval.task_args["fewshot"] == 3 and log.eval.task_args["fewshot_seed"] == 7
    assert log.eval.task_version == TASK_VERSION
    assert log.eval.dataset.location.endswith("mini/test.jsonl")


def test_self_consistency_votes_on_the_answer_not_on_correctness(
    tmp_path: Path, mini_data: Path
) -> None:
    # Per question, 5 completions: answers 17, 16, 18, 18, 15 for Janet (target 18). Inspect's
    # `mode` would call the sample wrong (3 of 5 wrong); majority voting on answers picks 18.
    counters: dict[str, int] = {}
    janet = ["17", "16", "18", "18", "15"]

    def reply(prompt: str) -> str:
        question = prompt.rsplit("Question:", 1)[-1]
        key = next(k for k in REPLIES if k in question)
        counters[key] = counters.get(key, 0) + 1
        if key == "Janet":
            return f"ANSWER: {janet[(counters[key] - 1) % 5]}"
        return "ANSWER: 0"

    log = run_eval(
        gsm8k(dataset=str(mini_data), fewshot=0, votes=5),
        scripted_model(reply),
        log_dir=str(tmp_path),
        max_connections=1,
    )
    assert log.status == "success"
    results = {(s.name, s.reducer): s for s in log.results.scores}
    majority = results[("accuracy", "majority_answer")].metrics["accuracy"].value
    mean = results[("accuracy", "mean")].metrics["accuracy"].value
    pass_at = results[("accuracy", "pass_at_5")].metrics["accuracy"].value
    assert majority == pytest.approx(1 / 6)  # Janet right by vote, the rest wrong
    assert mean == pytest.approx((2 / 5) / 6)
    assert pass_at == pytest.approx(1 / 6)
    # match(numeric=True) reads the same answers here, so it votes the same way.
    assert results[("match", "majority_answer")].metrics["accuracy"].value == pytest.approx(1 / 6)
    assert results[("match", "mean")].metrics["accuracy"].value == pytest.approx((2 / 5) / 6)


def test_package_entry_point_registers_task_provider_and_reducer() -> None:
    from importlib.metadata import entry_points

    [entry] = [e for e in entry_points(group="inspect_ai") if e.name == "gsm8k"]
    registry = entry.load()
    assert entry.value == "gsm8k._registry"
    assert {"gsm8k", "gguf", "majority_answer"} <= set(registry.__all__)


def test_namespaced_task_name_resolves_from_an_editable_install() -> None:
    # The tests run from an editable install (or the checkout on sys.path), where Inspect cannot
    # see the distribution's namespace by itself.
    from inspect_ai._util.registry import registry_lookup

    import gsm8k._registry  # noqa: F401  (registers the namespaced name)

    assert registry_lookup("task", "gsm8k/gsm8k") is not None
