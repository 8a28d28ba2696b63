"""gsm8k-compare on real Inspect logs made by scripted models with known right and wrong answers."""

from __future__ import annotations

import json
import math
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from statistics import mean, stdev
from typing import Any

import pytest
from inspect_ai.log import (
    EvalConfig,
    EvalError,
    EvalLog,
    list_eval_logs,
    read_eval_log,
    write_eval_log,
)
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import Score
from scipy.stats import t as student_t

from gsm8k.compare import settings
from gsm8k.compare.cli import EXIT_NOT_COMPARABLE, main, skipped_lines
from gsm8k.compare.display import MAX_SHOWN, clipped, id_ranges, shorten_paths, shown_values
from gsm8k.compare.runs import SkippedLog, load_runs, read_runs
from gsm8k.compare.settings import (
    EVAL_OPERATIONAL_FIELDS,
    EVAL_OUTPUT_FIELDS,
    GENERATION_OPERATIONAL_FIELDS,
    GENERATION_OUTPUT_FIELDS,
)
from gsm8k.task import TASK_VERSION, gsm8k
from tests.scripted import run_eval, scripted_model

QUESTIONS = 40
A_WRONG = {0, 1, 2, 3}  # model A: 36/40 = 90%
B_WRONG = {4, 5, 6, 7, 8, 9}  # model B: 34/40 = 85%
Z95 = 1.959963984540054
EVAL_ARGS = (
    "limit",
    "fail_on_error",
    "temperature",
    "seed",
    "max_tokens",
    "max_connections",
    "max_retries",
    "timeout",
)
"""Arguments of ``evaluate`` that go to Inspect's eval() rather than to the task."""


def write_dataset(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for split, count in (("test", QUESTIONS), ("train", 5)):
        rows = [
            {
                "question": f"Problem {split} {i}: what is {i} plus {i}?",
                "answer": f"{i}+{i}\n#### {2 * i}",
            }
            for i in range(count)
        ]
        (root / f"{split}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return root


def answerer(wrong: set[int], fail: set[int] | None = None) -> Any:
    def reply(prompt: str) -> str:
        number = int(re.findall(r"Problem test (\d+):", prompt)[-1])
        if fail and number in fail:
            raise RuntimeError("simulated provider outage")
        return f"{number} + {number}\nANSWER: {2 * number + (1 if number in wrong else 0)}"

    return reply


def evaluate(
    data: Path,
    logs: Path,
    name: str,
    wrong: set[int],
    fail: set[int] | None = None,
    **task_args: Any,
) -> None:
    eval_args = {key: task_args.pop(key) for key in EVAL_ARGS if key in task_args}
    task_args.setdefault("fewshot", 2)
    run_eval(
        gsm8k(dataset=str(data), **task_args),
        scripted_model(answerer(wrong, fail), name=name),
        log_dir=str(logs),
        **eval_args,
    )


def wilson(k: int, n: int) -> tuple[float, float]:
    p = k / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n**2)) / (1 + Z95**2 / n)
    return centre - half, centre + half


def exact_mcnemar(b: int, c: int) -> float:
    n = b + c
    tail = sum(math.comb(n, k) for k in range(min(b, c) + 1)) / 2**n
    return min(1.0, 2 * tail)


@pytest.fixture(scope="module")
def comparable_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("compare")
    data = write_dataset(root / "data")
    logs = root / "logs"
    evaluate(data, logs, "model-a", A_WRONG)
    # Model B's run was interrupted after 25 questions and then run again in full: the report
    # must count each question once.
    evaluate(data, logs, "model-b", B_WRONG, limit=25)
    evaluate(data, logs, "model-b", B_WRONG)
    return logs


def run_report(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    return code, capsys.readouterr().out


@pytest.mark.slow
def test_report_numbers_match_independent_computation(
    comparable_logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_json = tmp_path / "report.json"
    code, text = run_report([str(comparable_logs), "--json", str(out_json)], capsys)
    assert code == 0
    report = json.loads(out_json.read_text())
    runs = {r["model"]: r for r in report["runs"]}
    a, b = runs["mockllm/model-a"], runs["mockllm/model-b"]
    assert [r["model"] for r in report["runs"]] == ["mockllm/model-a", "mockllm/model-b"]
    assert (a["samples"], b["samples"]) == (QUESTIONS, QUESTIONS)
    assert b["logs"] == 2
    assert a["accuracy"] == pytest.approx(36 / 40) and b["accuracy"] == pytest.approx(34 / 40)
    assert (a["ci_low"], a["ci_high"]) == pytest.approx(wilson(36, 40))
    assert (b["ci_low"], b["ci_high"]) == pytest.approx(wilson(34, 40))
    assert a["format_followed"] == 1.0 and a["no_answer"] == 0.0 and a["tokens_per_sample"] == 120

    [pair] = report["pairwise"]
    differences = [1] * 6 + [-1] * 4 + [0] * 30  # only-A-right: 4..9, only-B-right: 0..3
    half = student_t.ppf(0.975, len(differences) - 1) * stdev(differences) / math.sqrt(40)
    assert pair["difference"] == pytest.approx(mean(differences))
    assert (pair["ci_low"], pair["ci_high"]) == pytest.approx(
        (mean(differences) - half, mean(differences) + half)
    )
    assert (pair["first_only_correct"], pair["second_only_correct"]) == (6, 4)
    # the answers differ exactly where one of the two is wrong: questions 0-9
    assert pair["same_answer"] == 30 and "| 40 | 30 (75%) |" in text
    assert pair["mcnemar_p"] == pytest.approx(exact_mcnemar(6, 4))
    assert "not distinguishable from noise" in pair["verdict"]
    assert "| mockllm/model-a | 40 | 90.0% (" in text


@pytest.mark.slow
def test_a_large_gap_is_called_real(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = write_dataset(tmp_path / "data")
    evaluate(data, tmp_path / "logs", "strong", set())
    evaluate(data, tmp_path / "logs", "weak", set(range(15)))
    code, text = run_report([str(tmp_path / "logs")], capsys)
    assert code == 0
    assert exact_mcnemar(15, 0) < 0.001
    assert "mockllm/strong is better than mockllm/weak" in text


@pytest.mark.slow
def test_mismatched_settings_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_dataset(tmp_path / "data")
    evaluate(data, tmp_path / "logs", "model-a", A_WRONG)
    evaluate(data, tmp_path / "logs", "model-b", B_WRONG, fewshot_seed=7)
    code, text = run_report([str(tmp_path / "logs")], capsys)
    assert code == EXIT_NOT_COMPARABLE
    assert "not directly comparable" in text
    assert "`fewshot_seed`: 42 → mockllm/model-a; 7 → mockllm/model-b" in text
    assert "Pairwise" not in text
    code, text = run_report([str(tmp_path / "logs"), "--allow-mismatch"], capsys)
    assert code == 0 and "Pairwise" in text and "not directly comparable" in text


@pytest.mark.slow
def test_different_sample_sets_are_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_dataset(tmp_path / "data")
    evaluate(data, tmp_path / "logs", "model-a", A_WRONG, limit=30)
    evaluate(data, tmp_path / "logs", "model-b", B_WRONG)
    code, text = run_report([str(tmp_path / "logs")], capsys)
    assert code == EXIT_NOT_COMPARABLE
    assert "samples: 30 (0–29) → mockllm/model-a; 40 (0–39) → mockllm/model-b" in text
    assert "30 in common" in text


@pytest.mark.slow
def test_failed_samples_are_not_counted_until_retried(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_dataset(tmp_path / "data")
    logs = tmp_path / "logs"
    evaluate(data, logs, "model-a", A_WRONG, fail={10, 11}, fail_on_error=False)
    report_file = tmp_path / "r.json"
    _, text = run_report([str(logs), "--json", str(report_file)], capsys)
    [partial] = json.loads(report_file.read_text())["runs"]
    assert partial["samples"] == 38 and not partial["complete"]
    assert partial["missing_samples"] == [10, 11]
    assert "| 38 of 40 (incomplete) |" in text and "missing 10–11" in text
    evaluate(data, logs, "model-a", A_WRONG)
    run_report([str(logs), "--json", str(report_file)], capsys)
    [run] = json.loads(report_file.read_text())["runs"]
    assert run["samples"] == 40 and run["accuracy"] == pytest.approx(0.9)
    assert run["complete"] and run["missing_samples"] == []


def test_forest_plot_is_written(
    comparable_logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "forest.png"
    code, _ = run_report([str(comparable_logs), "--png", str(picture)], capsys)
    assert code == 0
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert picture.stat().st_size > 10_000


def test_empty_directory_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path)]) == 2
    assert "no GSM8K logs" in capsys.readouterr().err


@pytest.mark.slow
def test_epochs_report_mean_accuracy_and_majority_vote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every question is answered three times: wrong, right, right. Mean accuracy is 2/3 and
    # the majority answer is always right.
    data = write_dataset(tmp_path / "data")
    calls: dict[int, int] = {}

    def reply(prompt: str) -> str:
        number = int(re.findall(r"Problem test (\d+):", prompt)[-1])
        calls[number] = calls.get(number, 0) + 1
        return f"ANSWER: {2 * number + (1 if calls[number] == 1 else 0)}"

    run_eval(
        gsm8k(dataset=str(data), fewshot=0, votes=3),
        scripted_model(reply, name="voter"),
        log_dir=str(tmp_path / "logs"),
        max_connections=1,
    )
    out_json = tmp_path / "r.json"
    code, text = run_report([str(tmp_path / "logs"), "--json", str(out_json)], capsys)
    assert code == 0
    [run] = json.loads(out_json.read_text())["runs"]
    assert run["epochs"] == 3 and run["samples"] == QUESTIONS
    assert run["accuracy"] == pytest.approx(2 / 3)
    assert run["majority_accuracy"] == 1.0
    assert "100.0% (k=3)" in text


# --- What identifies a run -------------------------------------------------------------------


def test_every_inspect_setting_is_classified() -> None:
    """A field a newer Inspect adds fails here until it is classified (until then it counts as
    output-affecting, which can only split runs, never merge different experiments)."""
    generation = set(GenerateConfig.model_fields)
    assert generation <= GENERATION_OUTPUT_FIELDS | GENERATION_OPERATIONAL_FIELDS
    assert not GENERATION_OUTPUT_FIELDS & GENERATION_OPERATIONAL_FIELDS
    evaluation = set(EvalConfig.model_fields)
    assert evaluation <= EVAL_OUTPUT_FIELDS | EVAL_OPERATIONAL_FIELDS
    assert not EVAL_OUTPUT_FIELDS & EVAL_OPERATIONAL_FIELDS
    for name in ("temperature", "top_p", "top_k", "seed", "max_tokens", "stop_seqs"):
        assert name in GENERATION_OUTPUT_FIELDS
    for name in ("reasoning_effort", "reasoning_tokens", "reasoning_summary", "system_message"):
        assert name in GENERATION_OUTPUT_FIELDS
    for name in ("max_connections", "max_retries", "timeout", "attempt_timeout"):
        assert name in GENERATION_OPERATIONAL_FIELDS


def test_unclassified_generation_field_counts_as_output_affecting(
    base_log: EvalLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = base_log.model_copy(deep=True)
    log.plan.config.verbosity = "low"
    monkeypatch.setattr(settings, "GENERATION_OUTPUT_FIELDS", frozenset())
    assert settings.generation_settings(log)["verbosity"] == "low"


def test_eval_config_overrides_the_model_config_as_inspect_applies_it(base_log: EvalLog) -> None:
    # Inspect merges the active (eval) config over the model's own: the eval's stop sequences ran.
    log = base_log.model_copy(deep=True)
    log.eval.model_generate_config.stop_seqs = ["\nQuestion:"]
    log.plan.config.stop_seqs = ["Question:", "</s>"]
    assert settings.generation_settings(log)["stop_seqs"] == ["Question:", "</s>"]


@pytest.mark.slow
def test_temperature_mismatch_is_flagged_and_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_dataset(tmp_path / "data")
    logs = tmp_path / "logs"
    evaluate(data, logs, "model-a", A_WRONG, limit=10, temperature=0.0)
    evaluate(data, logs, "model-b", B_WRONG, limit=10, temperature=0.8)
    code, text = run_report([str(logs)], capsys)
    assert code == EXIT_NOT_COMPARABLE
    assert "> - `temperature`: 0.0 → mockllm/model-a; 0.8 → mockllm/model-b" in text
    assert "Pairwise" not in text
    code, text = run_report([str(logs), "--allow-mismatch"], capsys)
    assert code == 0 and "Pairwise" in text and "`temperature`" in text

    # The same model at two temperatures is two runs, labelled by what differs.
    evaluate(data, logs, "model-a", A_WRONG, limit=10, temperature=0.8)
    out = tmp_path / "r.json"
    run_report([str(logs), "--json", str(out), "--allow-mismatch"], capsys)
    labels = {r["label"] for r in json.loads(out.read_text())["runs"]}
    assert labels == {
        "mockllm/model-a [temperature=0.0]",
        "mockllm/model-a [temperature=0.8]",
        "mockllm/model-b",
    }


@pytest.mark.slow
def test_connection_retry_and_timeout_settings_neither_split_nor_flag_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_dataset(tmp_path / "data")
    logs = tmp_path / "logs"
    # An interrupted run resumed with other operational settings is still one run.
    evaluate(data, logs, "model-a", A_WRONG, limit=5, max_connections=1)
    evaluate(data, logs, "model-a", A_WRONG, limit=10, max_connections=4, max_retries=2, timeout=30)
    evaluate(data, logs, "model-b", B_WRONG, limit=10, max_connections=2)
    out = tmp_path / "r.json"
    code, text = run_report([str(logs), "--json", str(out)], capsys)
    assert code == 0
    report = json.loads(out.read_text())
    assert report["warnings"] == [] and report["ranked"]
    runs = {r["label"]: r for r in report["runs"]}
    assert set(runs) == {"mockllm/model-a", "mockllm/model-b"}
    assert runs["mockllm/model-a"]["logs"] == 2 and runs["mockllm/model-a"]["samples"] == 10
    assert "max_connections" not in text and "max_retries" not in text


def test_model_arguments_are_compared_within_a_provider(
    base_log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def with_args(model: str, args: dict[str, Any]) -> Callable[[EvalLog], None]:
        def edit(log: EvalLog) -> None:
            log.eval.model, log.eval.model_args = model, args

        return edit

    logs = tmp_path / "logs"
    write_clone(base_log, logs, "x", with_args("gguf/x", {"repeat_penalty": 1.1, "n_threads": 2}))
    write_clone(base_log, logs, "y", with_args("gguf/y", {"n_threads": 1}))
    write_clone(base_log, logs, "z", with_args("openai-api/server/z", {"api_key": "k"}))
    code, text = run_report([str(logs)], capsys)
    assert code == EXIT_NOT_COMPARABLE
    # A repeat penalty changes greedy text; the thread count changes only speed.
    assert "> - `model_args.repeat_penalty`: 1.1 → gguf/x; unset → gguf/y" in text
    assert "n_threads" not in text
    assert "api_key" not in text and "openai-api" not in warnings(text)


def test_runs_that_differ_only_in_threads_are_one_experiment(
    base_log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def with_threads(name: str, threads: object) -> Callable[[EvalLog], None]:
        def edit(log: EvalLog) -> None:
            log.eval.model, log.eval.model_args = f"gguf/{name}", {"n_threads": threads}

        return edit

    logs = tmp_path / "logs"
    for name, threads in (("x", 1), ("y", 2), ("z", "auto")):
        write_clone(base_log, logs, name, with_threads(name, threads))
    code, text = run_report([str(logs)], capsys)
    assert code == 0, text
    assert "not directly comparable" not in text
    assert "api_key" not in text and "openai-api" not in warnings(text)


# --- Partial, failed and unreadable logs -------------------------------------------------------


def test_cancelled_and_started_logs_are_marked_incomplete(
    base_log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def stopped(status: str, model: str, keep: int) -> Callable[[EvalLog], None]:
        def edit(log: EvalLog) -> None:
            log.status = status  # type: ignore[assignment]
            log.eval.model = model
            log.samples = [s for s in log.samples or [] if int(s.id) < keep]

        return edit

    logs = tmp_path / "logs"
    write_clone(base_log, logs, "cancelled", stopped("cancelled", "mockllm/model-a", 12))
    write_clone(base_log, logs, "started", stopped("started", "mockllm/model-b", 12))
    out = tmp_path / "r.json"
    code, text = run_report([str(logs), "--json", str(out)], capsys)
    assert code == 0  # same 12 samples, same settings: comparable, but said to be partial
    report = json.loads(out.read_text())
    for run in report["runs"]:
        assert run["samples"] == 12 and run["planned_samples"] == QUESTIONS
        assert not run["complete"] and run["missing_samples"] == list(range(12, QUESTIONS))
    assert "| mockllm/model-a | 12 of 40 (incomplete) |" in text
    assert "**Incomplete runs**" in text
    assert "mockllm/model-a: 12 of 40 samples completed (0–11); missing 12–39." in text
    assert "(cancelled)" in text and "(started)" in text
    # log paths are shown relative to the log directory; the commands, which run in any
    # folder, name it by its absolute path and this environment's inspect by its own
    assert str(tmp_path) not in re.sub(r"`\S*inspect eval-retry [^`]+`", "", text)
    [retry, _] = re.findall(r"`(\S*inspect eval-retry [^`]+)`", text)
    assert Path(retry.split()[0]).is_absolute()
    log, log_dir = retry.split()[2], retry.split()[-1]
    assert retry.split()[3] == "--log-dir" and Path(log).parent == Path(log_dir)
    assert Path(log).is_file() and read_eval_log(log, header_only=True).status != "success"


def test_a_run_whose_every_sample_failed_is_named_not_fatal(
    base_log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def all_failed(log: EvalLog) -> None:
        log.eval.model, log.status = "mockllm/broken", "error"
        for sample in log.samples or []:
            sample.error = EvalError(message="boom", traceback="", traceback_ansi="")

    logs = tmp_path / "logs"
    write_clone(base_log, logs, "good", lambda log: None)
    write_clone(base_log, logs, "broken", all_failed)
    code, text = run_report([str(logs)], capsys)
    assert code == 0
    assert "mockllm/broken: no completed sample, left out" in text
    assert "| mockllm/model-a | 40 |" in text


def test_unreadable_logs_are_named_and_skipped(
    comparable_logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "logs"
    shutil.copytree(comparable_logs, logs)
    real = sorted(logs.glob("*.eval"))[0].read_bytes()
    (logs / "2026-01-01T00-00-00+00-00_gsm8k_garbage.eval").write_bytes(b"not a zip file at all")
    (logs / "2026-01-01T00-00-01+00-00_gsm8k_truncated.eval").write_bytes(real[: len(real) // 2])
    (logs / "2026-01-01T00-00-02+00-00_gsm8k_broken.json").write_text('{"version": 2, "eval": ')
    (logs / "nested").mkdir()
    (logs / "nested" / "empty.eval").write_bytes(b"")
    code = main([str(logs)])
    captured = capsys.readouterr()
    assert code == 0
    for name in ("_garbage.eval", "_truncated.eval", "_broken.json", "nested/empty.eval"):
        [line] = [line for line in captured.err.splitlines() if name in line]
        assert line.startswith("gsm8k-compare: warning: skipped ") and "cannot be read" in line
        assert str(tmp_path) not in line
    assert "Traceback" not in captured.err + captured.out
    assert "| mockllm/model-a | 40 | 90.0% (" in captured.out
    assert "**Logs skipped:**" in captured.out and "_garbage.eval: cannot be read" in captured.out


def test_only_unreadable_logs_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "2026-01-01T00-00-00+00-00_gsm8k_x.eval").write_bytes(b"\x00" * 100)
    assert main([str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "skipped 2026-01-01T00-00-00+00-00_gsm8k_x.eval" in err and "no GSM8K logs" in err
    assert "Traceback" not in err


# --- Many runs, old logs, program-aided logs, reasoning tokens ---------------------------------


@pytest.mark.slow
def test_mismatch_warning_stays_readable_on_twenty_runs(
    base_log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def variant(index: int) -> Callable[[EvalLog], None]:
        def edit(log: EvalLog) -> None:
            log.eval.model = f"mockllm/m{index:02d}"
            metadata = log.eval.metadata or {}
            if index == 5:
                log.plan.config.temperature = 0.7
            if index == 9:
                metadata["fewshot_seed"] = log.eval.task_args["fewshot_seed"] = 7
            if index == 11:
                metadata["dataset"] = "/somewhere/else/gsm8k/test.jsonl"
            if index == 13:
                log.plan.config.max_connections = 8  # operational: not a difference
            if index == 17:
                log.samples = [s for s in log.samples or [] if int(s.id) < 30]
                log.eval.dataset.sample_ids = list(range(30))

        return edit

    logs = tmp_path / "logs"
    for index in range(1, 21):
        write_clone(base_log, logs, f"m{index:02d}", variant(index))
    code, text = run_report([str(logs)], capsys)
    assert code == EXIT_NOT_COMPARABLE
    lines = warnings(text)
    assert lines == [
        "`fewshot_seed`: 7 → mockllm/m09; 42 → the other 19 runs",
        "`temperature`: 0.7 → mockllm/m05; unset → the other 19 runs",
        "`dataset`: gsm8k/test.jsonl → mockllm/m11; data/test.jsonl → the other 19 runs",
        "samples: 30 (0–29) → mockllm/m17; 40 (0–39) → the other 19 runs; 30 in common, and "
        "pairwise tests use the common samples only",
    ]
    assert str(tmp_path) not in text
    [shared] = [line for line in text.splitlines() if line.startswith("Settings all runs share")]
    assert "fewshot=2" in shared and "temperature" not in shared and "fewshot_seed" not in shared
    assert not re.search(r"\bdataset=", shared)  # differs for one run, so not "shared"
    code, text = run_report([str(logs), "--allow-mismatch"], capsys)
    assert code == 0 and text.count("\n| mockllm/m") == 20 + 20 * 19 // 2  # runs, pairs


def test_logs_with_old_sample_ids_pair_with_new_ones(
    base_log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Logs of task version 1.0.0 named samples "test-17" and listed `match` first."""

    def old_style(log: EvalLog) -> None:
        log.eval.model, log.eval.task_version = "mockllm/old", "1.0.0"
        log.eval.dataset.sample_ids = [f"test-{i}" for i in log.eval.dataset.sample_ids or []]
        for sample in log.samples or []:
            sample.id = f"test-{sample.id}"
            scores = sample.scores or {}
            sample.scores = {
                "match": standalone_match(scores),
                "gsm8k_grader": scores["gsm8k_grader"],
            }

    logs = tmp_path / "logs"
    write_clone(base_log, logs, "new", lambda log: None)
    write_clone(base_log, logs, "old", old_style)
    out = tmp_path / "r.json"
    code, text = run_report([str(logs), "--json", str(out)], capsys)
    assert code == EXIT_NOT_COMPARABLE
    assert f"`task_version`: {TASK_VERSION} → mockllm/model-a; 1.0.0 → mockllm/old" in text
    assert "samples:" not in text  # the same 40 questions under both id styles
    run_report([str(logs), "--json", str(out), "--allow-mismatch"], capsys)
    report = json.loads(out.read_text())
    assert [r["accuracy"] for r in report["runs"]] == [pytest.approx(0.9)] * 2
    [pair] = report["pairwise"]
    assert pair["common_samples"] == QUESTIONS and pair["difference"] == 0


def program_answerer(wrong: set[int], crash: set[int]) -> Any:
    def reply(prompt: str) -> str:
        number = int(re.findall(r"Problem test (\d+):", prompt)[-1])
        body = "return 1 / 0" if number in crash else f"return {2 * number + (number in wrong)}"
        return f"```python\ndef solution():\n    {body}\n```"

    return reply


@pytest.fixture(scope="module")
def pal_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pal")
    data = write_dataset(root / "data")
    for name, wrong, crash in (("pal-a", {0}, set()), ("pal-b", {1, 2}, {3})):
        run_eval(
            gsm8k(dataset=str(data), fewshot=0, mode="pal"),
            scripted_model(program_answerer(wrong, crash), name=name),
            log_dir=str(root / "logs"),
            limit=10,
        )
    return root / "logs"


def test_program_aided_logs_are_compared_with_their_grader(
    pal_logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    code, text = run_report([str(pal_logs), "--json", str(out)], capsys)
    assert code == 0
    report = json.loads(out.read_text())
    runs = {r["model"]: r for r in report["runs"]}
    a, b = runs["mockllm/pal-a"], runs["mockllm/pal-b"]
    assert (a["grader"], b["grader"]) == ("pal_grader", "pal_grader")
    assert (a["samples"], a["accuracy"], b["accuracy"]) == (10, 0.9, 0.7)
    assert (a["execution_error"], b["execution_error"]) == (0.0, 0.1)
    assert a["strict_accuracy"] is None and a["format_followed"] is None
    assert "| program errors |" in text and "| mockllm/pal-b | 10 | 70.0% (" in text
    [pair] = report["pairwise"]
    assert (pair["first_only_correct"], pair["second_only_correct"]) == (3, 1)


def test_pal_and_cot_runs_are_not_ranked_together(
    pal_logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "logs"
    shutil.copytree(pal_logs, logs)
    evaluate(write_dataset(tmp_path / "data"), logs, "cot", set(), limit=10, fewshot=0)
    code, text = run_report([str(logs)], capsys)
    assert code == EXIT_NOT_COMPARABLE
    # settings that split the runs alike share one line
    [mode_line] = [line for line in warnings(text) if "`mode`" in line.split(":")[0]]
    assert mode_line.endswith(": pal → mockllm/pal-a, mockllm/pal-b; cot → mockllm/cot")
    code, text = run_report([str(logs), "--allow-mismatch"], capsys)
    assert code == 0 and "| mockllm/cot | 10 | 100.0% (" in text


def test_reasoning_tokens_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def generate(
        messages: list[ChatMessage], tools: Any, tool_choice: Any, config: GenerateConfig
    ) -> ModelOutput:
        output = ModelOutput.from_content(model="thinker", content="ANSWER: 0")
        output.usage = ModelUsage(
            input_tokens=100, output_tokens=80, total_tokens=180, reasoning_tokens=50
        )
        return output

    data = write_dataset(tmp_path / "data")
    run_eval(
        gsm8k(dataset=str(data), fewshot=0),
        get_model("mockllm/thinker", custom_outputs=generate, memoize=False),
        log_dir=str(tmp_path / "logs"),
        limit=4,
        reasoning_effort="high",
    )
    out = tmp_path / "r.json"
    code, text = run_report([str(tmp_path / "logs"), "--json", str(out)], capsys)
    assert code == 0
    report = json.loads(out.read_text())
    [run] = report["runs"]
    assert run["reasoning_tokens"] == 200 and run["reasoning_tokens_per_sample"] == 50
    assert report["settings"]["mockllm/thinker"]["reasoning_effort"] == "high"
    assert "| 180 | 50 |" in text and "reasoning_effort=high" in text


def test_reasoning_tokens_absent_read_as_not_reported(
    comparable_logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    code, text = run_report([str(comparable_logs), "--json", str(out)], capsys)
    assert code == 0
    assert all(r["reasoning_tokens"] is None for r in json.loads(out.read_text())["runs"])
    assert "| 120 | - |" in text


# --- Helpers for reports ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ids", "expected"),
    [
        pytest.param([0, 1, 2, 5, 7, 8], "0–2, 5, 7–8", id="ranges-and-singles"),
        pytest.param([], "", id="none"),
        pytest.param([3, "x-1", "x-2"], "3, x-1, x-2", id="strings-never-joined"),
        pytest.param(list(range(0, 40, 2)), "0, 2, 4 and 17 more", id="long-lists-counted"),
    ],
)
def test_id_ranges(ids: list[int | str], expected: str) -> None:
    assert id_ranges(ids, limit=3) == expected


def test_paths_are_shortened_to_what_tells_them_apart() -> None:
    values = ["/a/x/test.jsonl", "/b/y/test.jsonl", "/a/x/train.jsonl", "cot"]
    assert shorten_paths(values) == {
        "/a/x/test.jsonl": "x/test.jsonl",
        "/b/y/test.jsonl": "y/test.jsonl",
        "/a/x/train.jsonl": "train.jsonl",
        "cot": "cot",
    }


# --- Fixtures and helpers ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def base_log(comparable_logs: Path) -> EvalLog:
    """Model A's complete 40-sample log: the starting point of hand-edited logs."""
    for info in list_eval_logs(str(comparable_logs)):
        log = read_eval_log(info)
        if log.eval.model == "mockllm/model-a":
            return log
    raise AssertionError("model A's log is missing")


def standalone_match(scores: dict[str, Score]) -> Score:
    """The separate `match` scorer's score that logs before task version 1.4.0 held, from the
    verdict the grader now carries."""
    grader = scores["gsm8k_grader"]
    assert isinstance(grader.value, dict)
    answer = (grader.metadata or {}).get("match_answer")
    return Score(value="C" if grader.value["match"] else "I", answer=answer)


def write_clone(log: EvalLog, directory: Path, name: str, edit: Callable[[EvalLog], None]) -> Path:
    """A copy of ``log`` changed by ``edit``, written as a new ``.eval`` file."""
    copy = log.model_copy(deep=True)
    copy.eval.eval_id = copy.eval.run_id = copy.eval.task_id = name
    edit(copy)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"2026-01-01T00-00-00+00-00_gsm8k_{name}.eval"
    write_eval_log(copy, str(path))
    return path


def warnings(report_text: str) -> list[str]:
    """The comparability warning's lines, without the quote marker."""
    block = report_text.split("They differ in:", 1)[-1].split("\n\n", 1)[0]
    return [line[4:] for line in block.splitlines() if line.startswith("> - ")]


def test_a_gsm8k_log_from_another_package_is_named_and_skipped(
    base_log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def other_package(log: EvalLog) -> None:
        log.eval.task, log.eval.model = "inspect_evals/gsm8k", "mockllm/elsewhere"
        for sample in log.samples or []:
            sample.scores = {"match": standalone_match(sample.scores or {})}

    logs = tmp_path / "logs"
    write_clone(base_log, logs, "ours", lambda log: None)
    other = write_clone(base_log, logs, "theirs", other_package)
    code = main([str(logs)])
    captured = capsys.readouterr()
    assert code == 0
    assert f"skipped {other.name}: scored by match, not by gsm8k_grader or pal_grader" in (
        captured.err
    )
    assert "mockllm/elsewhere" not in captured.out.split("## Runs")[1]


def test_models_named_by_file_path_are_labelled_by_what_tells_them_apart(
    base_log: EvalLog, tmp_path: Path
) -> None:
    def model(name: str) -> Callable[[EvalLog], None]:
        def edit(log: EvalLog) -> None:
            log.eval.model = name

        return edit

    logs = tmp_path / "logs"
    write_clone(base_log, logs, "a", model("gguf//home/me/q4/qwen.gguf"))
    write_clone(base_log, logs, "b", model("gguf//home/me/q8/qwen.gguf"))
    write_clone(base_log, logs, "c", model("openai-api/vllm/Qwen2.5-7B-Instruct"))
    labels = {run.label for run in read_runs(logs).runs}
    assert labels == {
        "gguf/q4/qwen.gguf",
        "gguf/q8/qwen.gguf",
        "openai-api/vllm/Qwen2.5-7B-Instruct",
    }


def test_load_runs_names_unusable_logs_for_the_calling_program(
    base_log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "logs"
    write_clone(base_log, logs, "good", lambda log: None)
    (logs / "2026-01-01T00-00-09+00-00_gsm8k_bad.eval").write_bytes(b"PK\x03\x04 broken")
    [run] = load_runs(logs, program="gsm8k-family")
    assert run.model == "mockllm/model-a" and len(run.samples) == QUESTIONS
    err = capsys.readouterr().err
    assert err.startswith("gsm8k-family: warning: skipped 2026-01-01T00-00-09+00-00_gsm8k_bad.eval")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no GSM8K logs with samples"):
        load_runs(tmp_path / "empty")
    with pytest.raises(ValueError, match="nothing-here: no such folder or log file"):
        load_runs(tmp_path / "nothing-here")


def test_answers_too_long_for_inspect_summaries_are_read_whole(
    base_log: EvalLog, tmp_path: Path
) -> None:
    """Inspect's sample summaries shorten an answer over 1,024 characters to "..."; majority
    votes must compare the answers themselves."""
    huge = "9" * 3000

    def huge_answers(log: EvalLog) -> None:
        for sample in log.samples or []:
            if sample.id in (0, 1):
                score = (sample.scores or {})["gsm8k_grader"]
                score.answer = huge + str(sample.id)

    write_clone(base_log, tmp_path / "logs", "huge", huge_answers)
    [run] = read_runs(tmp_path / "logs").runs
    assert [run.results[i][1].answer for i in (0, 1, 2)] == [huge + "0", huge + "1", "5"]


def test_an_eval_that_stopped_on_an_error_is_marked_incomplete(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real partial log: Inspect stops the eval at the first failed sample (status error)."""
    data = write_dataset(tmp_path / "data")
    logs = tmp_path / "logs"
    evaluate(data, logs, "model-a", A_WRONG, fail={5}, limit=10, max_connections=1)
    out = tmp_path / "r.json"
    code, text = run_report([str(logs), "--json", str(out)], capsys)
    assert code == 0
    [run] = json.loads(out.read_text())["runs"]
    assert not run["complete"] and 5 in run["missing_samples"]
    assert run["samples"] + len(run["missing_samples"]) == run["planned_samples"] == 10
    assert list(run["log_statuses"].values()) == ["error"]
    assert f"| {run['samples']} of 10 (incomplete) |" in text and "(error)" in text


def test_code_isolation_counts_only_as_isolated_or_trusted(
    base_log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Programs run under bubblewrap or in a docker sandbox are graded alike; a trusted local
    process can read the answers, so that run is flagged."""

    def isolation(model: str, where: str, trust: bool) -> Callable[[EvalLog], None]:
        def edit(log: EvalLog) -> None:
            metadata = log.eval.metadata or {}
            log.eval.model = model
            metadata["code_isolation"], metadata["trust_model_code"] = where, trust
            metadata["sandbox"] = "docker" if where.startswith("inspect") else None

        return edit

    logs = tmp_path / "logs"
    write_clone(base_log, logs, "a", isolation("mockllm/a", "bwrap", False))
    write_clone(base_log, logs, "b", isolation("mockllm/b", "inspect sandbox: docker", False))
    code, _ = run_report([str(logs)], capsys)
    assert code == 0
    trusted = "local process, trusted (trust_model_code=true)"
    write_clone(base_log, logs, "c", isolation("mockllm/c", trusted, True))
    code, text = run_report([str(logs)], capsys)
    assert code == EXIT_NOT_COMPARABLE
    assert warnings(text) == [
        f"`code_isolation`: isolated → mockllm/a, mockllm/b; {trusted} → mockllm/c"
    ]


# --- Readable output on a mixed folder -------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "shown"),
    [
        pytest.param(
            [["\nQuestion:"], None], ['["\\nQuestion:"]', "-"], id="stop-sequence-is-not-a-path"
        ),
        pytest.param(
            ["/a/x/test.jsonl", "/b/y/test.jsonl"],
            ["x/test.jsonl", "y/test.jsonl"],
            id="paths-cut-to-what-differs",
        ),
    ],
)  # fmt: skip
def test_values_are_shown_whole_or_cut_where_they_are_paths(
    values: list[Any], shown: list[str]
) -> None:
    assert shown_values(values) == shown


def test_long_values_are_clipped_in_the_middle() -> None:
    text = "a" * 50 + "MIDDLE" + "z" * 50
    assert clipped(text) == "a" * 29 + "…" + "z" * 30 and len(clipped(text)) == MAX_SHOWN
    assert clipped("short") == "short"


def test_a_mixed_folder_gives_short_labels_and_one_line_per_split(
    base_log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Runs of one model differing in many settings: labels name the fewest that tell them
    apart, the exemplars before the dataset's file; settings that split the runs alike share a
    warning line; a stop sequence reads as written."""

    def variant(number: int) -> Callable[[EvalLog], None]:
        def edit(log: EvalLog) -> None:
            metadata = dict(log.eval.metadata or {})
            metadata |= {
                "dataset": f"/data/set-{number}/" + "deep/" * 20 + "test.jsonl",
                "dataset_sha256": f"{number}" * 64,
                "fewshot": number,
                "placement": ["user", "system"][number % 2],
            }
            log.eval.metadata = metadata
            log.eval.model_generate_config.stop_seqs = ["\nQuestion:"] if number else None

        return edit

    logs = tmp_path / "logs"
    for number in range(3):
        write_clone(base_log, logs, str(number), variant(number))
    code, text = run_report([str(logs)], capsys)
    assert code == EXIT_NOT_COMPARABLE
    labels = [line.split(" | ")[0].lstrip("| ") for line in text.splitlines() if "| 40 " in line]
    assert len(labels) == 3 and all(len(label) < 200 for label in labels), labels
    assert sorted(labels) == [f"mockllm/model-a [fewshot={n}]" for n in range(3)]
    lines = warnings(text)
    [dataset_line] = [line for line in lines if "`dataset`" in line]
    assert "`dataset_sha256`" in dataset_line and "`fewshot`" in dataset_line
    [stop_line] = [line for line in lines if "`stop_seqs`" in line]
    assert '["\\nQuestion:"]' in stop_line and 'nQuestion:"]' not in stop_line.replace("\\n", "")


def test_skipped_logs_are_summarised_per_reason(tmp_path: Path) -> None:
    skipped = [SkippedLog(str(tmp_path / f"{i}.eval"), "not a log") for i in range(5)]
    skipped.append(SkippedLog(str(tmp_path / "x.json"), "unreadable"))
    assert skipped_lines(skipped, str(tmp_path)) == [
        "skipped 0.eval, 1.eval, 2.eval and 2 more: not a log",
        "skipped x.json: unreadable",
    ]
