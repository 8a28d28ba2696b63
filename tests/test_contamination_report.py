"""gsm8k-contamination on scripted runs: every figure against a hand count on a small run, and a
memorizer, a reasoner and a guesser told apart at the default sizes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gsm8k.contamination.cli import EXIT_NOT_COMPARABLE, main
from gsm8k.contamination.memorization import gsm8k_memorization
from gsm8k.contamination.readings import INCONCLUSIVE, INDICATED, NO_EVIDENCE, NOT_DETECTED
from gsm8k.contamination.render import markdown
from gsm8k.contamination.report import NotComparable, build
from gsm8k.task import gsm8k
from tests.contamination_support import guesser, memorizer, reasoner, write_gsm8k, write_templates
from tests.scripted import run_eval, scripted_model


@pytest.fixture
def synthetic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[int], Path]:
    """Synthetic GSM8K files and ``count`` templates made from its test questions."""

    def make(count: int) -> Path:
        data = write_gsm8k(tmp_path / "gsm8k", count)
        monkeypatch.setenv("GSM8K_DATA_DIR", str(data))
        return write_templates(tmp_path / "templates", count)

    monkeypatch.delenv("GSM_SYMBOLIC_TEMPLATES", raising=False)
    return make


def _fresh_task(templates: Path, **args: Any) -> Any:
    return gsm8k(dataset="gsm-symbolic-fresh", templates=str(templates), fewshot=0, **args)


def _probe_task(templates: Path, **args: Any) -> Any:
    return gsm8k_memorization(templates=str(templates), **args)


# --- every figure against a hand count ------------------------------------------------------

# Accuracy: originals right on templates 0-2; fresh instances right: t0 none, t1 one of two,
# t2 none, t3 both. Per template original − mean fresh: 1, .5, 1, −1.
RIGHT = {"0000-original", "0001-original", "0002-original", "0001-fresh-00"}
RIGHT |= {"0003-fresh-00", "0003-fresh-01"}
# Probe: recited word for word (everything else answered "zzz"): test questions of templates
# 0-2, fresh question 0000-0, both fresh questions of 0003, train question of the first unit.
RECITED = {"test-question-0-0", "test-question-1-0", "test-question-2-0"}
RECITED |= {"fresh-question-0000-0-0", "fresh-question-0003-0-0", "fresh-question-0003-1-0"}


def _hand_model(accuracy_task: Any, probe_task: Any, train_recited: str) -> Any:
    answers = {s.input: (s.target, str(s.id) in RIGHT) for s in accuracy_task.dataset}
    probes = {s.input: (s.target, s.id in RECITED | {train_recited}) for s in probe_task.dataset}

    def respond(prompt: str) -> str:
        if prompt in probes:
            rest, recite = probes[prompt]
            return rest if recite else "zzz"
        question = prompt.rsplit("Question:", 1)[-1].strip()
        target, right = answers[question]
        return f"ANSWER: {target if right else int(target) + 1}"

    return scripted_model(respond, name="hand")


@pytest.mark.slow
def test_every_figure_against_a_hand_count(
    synthetic: Callable[[int], Path], tmp_path: Path
) -> None:
    templates = synthetic(4)
    accuracy_task = _fresh_task(templates, fresh_per_template=2)
    probe_task = _probe_task(templates, fresh_per_template=2, train=4)
    train_ids = [s.id for s in probe_task.dataset if str(s.id).startswith("train-question")]
    model = _hand_model(accuracy_task, probe_task, train_ids[0])
    logs = tmp_path / "logs"
    run_eval(accuracy_task, model, log_dir=str(logs))
    run_eval(probe_task, model, log_dir=str(logs))

    report = build(str(logs))
    signals = {s["key"]: s for s in report["signals"]}

    drop = signals["accuracy"]
    assert (drop["units"], drop["first_value"], drop["second_value"]) == (4, 0.75, 0.375)
    assert drop["difference"] == pytest.approx(0.375)
    # Differences 1, .5, 1, −1: sd² = (.625² + .125² + .625² + 1.375²) / 3 = 2.6875 / 3;
    # t(.975, 3) = 3.182446: half-width 3.182446 · 0.946485 / 2 = 1.50607, clipped to ±1.
    assert (drop["ci_low"], drop["ci_high"]) == pytest.approx((-1.0, 1.0))
    # |±1 ±.5 ±1 ±1| ≥ 1.5 in 10 of the 16 sign assignments.
    assert drop["p_value"] == pytest.approx(10 / 16)
    assert (drop["higher"], drop["lower"]) == (3, 1)
    assert drop["detectable"] == 1.0  # four templates: below the six the test needs
    assert drop["verdict"] == INCONCLUSIVE  # 75% solved ≤ the 100-point detectable drop

    question = signals["question-rouge_l-fresh"]
    # Test questions 1, 1, 1, 0; fresh means .5, 0, 0, 1: differences .5, 1, 1, −1.
    assert (question["first_value"], question["second_value"]) == (0.75, 0.375)
    assert question["p_value"] == pytest.approx(10 / 16)
    for measure in ("exact", "ngram"):  # all-or-nothing replies: the same on every measure
        assert signals[f"question-{measure}-fresh"]["difference"] == pytest.approx(0.375)
        assert signals[f"question-{measure}-fresh"]["verdict"] == "supporting"
    solution = signals["solution-rouge_l-fresh"]
    assert (solution["difference"], solution["p_value"]) == (0.0, 1.0)

    train = signals["question-rouge_l-train"]
    # Test .75 (3 of 4) against train .25 (1 of 4); exact label permutation: the first group
    # holds 0, 1, 3 or 4 of the four 1s in 1 + 16 + 16 + 1 of C(8, 4) = 70 splits.
    assert (train["first_value"], train["second_value"], train["difference"]) == (0.75, 0.25, 0.5)
    assert train["p_value"] == pytest.approx(34 / 70, abs=0.02)
    # Welch: both variances 0.25, se = sqrt(.25/4 + .25/4) = .35355, df = 6, t = 2.446912.
    half = 2.446912 * 0.353553
    assert (train["ci_low"], train["ci_high"]) == pytest.approx((0.5 - half, 1.0), abs=1e-5)
    assert train["primary"] is False

    # Holm over the three primary signals (.625, .625, 1): 3 × .625 caps at 1.
    primary = [s for s in report["signals"] if s["primary"]]
    assert sorted(s["key"] for s in primary) == [
        "accuracy",
        "question-rouge_l-fresh",
        "solution-rouge_l-fresh",
    ]
    assert all(s["p_adjusted"] == 1.0 for s in primary)
    assert question["verdict"] == NOT_DETECTED
    assert report["overall"]["verdict"] == INCONCLUSIVE
    # The Markdown shows the same figures, rounded as a reader sees them.
    text = markdown(report)
    assert "| accuracy drop | originals vs fresh instances | 4 templates | 75.0% | 37.5% | " in text
    assert "+37.5 (-100.0 to +100.0) | 1 | 100.0 |" in text
    assert (
        "| question recitation, ROUGE-L | test vs train | 8 texts | 0.750 | 0.250 | +50.0 (" in text
    )
    assert "**Overall: Inconclusive.**" in text
    roles = {run["role"]: run for run in report["runs"]}
    assert roles["fresh questions"]["samples"] == 4 * 3
    assert roles["memorization probe"]["samples"] == len(probe_task.dataset)
    assert "-T dataset=gsm-symbolic-fresh" in roles["fresh questions"]["command"]
    assert "gsm8k/gsm8k_memorization" in roles["memorization probe"]["command"]


# --- three scripted models at the default sizes ---------------------------------------------


def _answers(task: Any) -> dict[str, str]:
    return {str(s.input): str(s.target) for s in task.dataset}


def _report_for(kind: str, templates: Path, logs: Path) -> dict[str, Any]:
    accuracy_task = _fresh_task(templates)
    probe_task = _probe_task(templates)
    respond = {
        "memorizer": memorizer(100),
        "reasoner": reasoner(_answers(accuracy_task)),
        "guesser": guesser(),
    }[kind]
    model = scripted_model(lambda prompt: respond(prompt), name=kind)
    run_eval(accuracy_task, model, log_dir=str(logs))
    run_eval(probe_task, model, log_dir=str(logs))
    return build(str(logs))


@pytest.mark.slow
def test_memorizer_reasoner_and_guesser_get_different_verdicts(
    synthetic: Callable[[int], Path], tmp_path: Path
) -> None:
    templates = synthetic(100)  # GSM-Symbolic's 100 templates, default seed and counts
    reports = {
        k: _report_for(k, templates, tmp_path / k) for k in ("memorizer", "reasoner", "guesser")
    }
    verdicts = {k: r["overall"]["verdict"] for k, r in reports.items()}
    assert verdicts == {"memorizer": INDICATED, "reasoner": NO_EVIDENCE, "guesser": INCONCLUSIVE}

    memorized = {s["key"]: s for s in reports["memorizer"]["signals"]}
    assert memorized["accuracy"]["verdict"] == INDICATED
    assert memorized["accuracy"]["first_value"] == 1.0
    assert memorized["question-rouge_l-fresh"]["verdict"] == INDICATED
    assert memorized["solution-rouge_l-fresh"]["verdict"] == INDICATED
    reasoned = {s["key"]: s for s in reports["reasoner"]["signals"]}
    assert reasoned["accuracy"]["verdict"] == NOT_DETECTED
    assert reasoned["accuracy"]["detectable"] < 0.2
    guessed = {s["key"]: s for s in reports["guesser"]["signals"]}
    assert guessed["accuracy"]["verdict"] == INCONCLUSIVE


@pytest.mark.slow
def test_originals_come_from_a_gsm8k_run_of_the_same_settings_when_the_fresh_run_lacks_them(
    synthetic: Callable[[int], Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    templates = synthetic(3)
    accuracy_task = _fresh_task(templates, fresh_per_template=1)
    answers = _answers(accuracy_task)
    # Right on GSM8K test questions 0 and 1, wrong on every fresh instance.
    right = {
        str(s.input)
        for s in accuracy_task.dataset
        if str(s.id) in ("0000-original", "0001-original")
    }

    def respond(prompt: str) -> str:
        asked = prompt.rsplit("Question:", 1)[-1].strip()
        return f"ANSWER: {answers[asked] if asked in right else 0}"

    model = scripted_model(respond, name="split")
    logs = tmp_path / "logs"
    fresh_ids = [s.id for s in accuracy_task.dataset if "fresh" in str(s.id)]
    run_eval(accuracy_task, model, log_dir=str(logs), sample_id=fresh_ids)
    run_eval(gsm8k(fewshot=0), model, log_dir=str(logs))
    drop = {s["key"]: s for s in build(str(logs))["signals"]}["accuracy"]
    assert (drop["units"], drop["first_value"], drop["second_value"]) == (3, 2 / 3, 0.0)
    # A GSM8K run whose prompt differs cannot supply the originals.
    other = tmp_path / "other"
    run_eval(accuracy_task, model, log_dir=str(other), sample_id=fresh_ids)
    run_eval(gsm8k(fewshot=1), model, log_dir=str(other))
    assert main([str(other)]) == EXIT_NOT_COMPARABLE
    assert "differ in `fewshot`" in capsys.readouterr().err


# --- refusals and the command ---------------------------------------------------------------


def _probe_only(logs: Path, name: str, templates: Path, **args: Any) -> None:
    model = scripted_model(lambda prompt: "zzz", name=name)
    run_eval(_probe_task(templates, **args), model, log_dir=str(logs), limit=6)


@pytest.mark.slow
def test_runs_of_two_models_are_refused_until_one_is_named(
    synthetic: Callable[[int], Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    templates = synthetic(3)
    logs = tmp_path / "logs"
    _probe_only(logs, "first", templates, train=3)
    _probe_only(logs, "second", templates, train=3)
    with pytest.raises(NotComparable, match="several models"):
        build(str(logs))
    assert main([str(logs)]) == EXIT_NOT_COMPARABLE
    assert "pick one with --model" in capsys.readouterr().err
    (logs / "broken.eval").write_bytes(b"not a log")  # named in the notes, never fatal
    assert main([str(logs), "--model", "mockllm/first", "--json", str(tmp_path / "r.json")]) == 0
    saved = json.loads((tmp_path / "r.json").read_text())
    assert saved["model"] == "mockllm/first"
    assert any("broken.eval" in note and "skipped" in note for note in saved["notes"])


@pytest.mark.slow
def test_probe_runs_with_different_settings_are_refused(
    synthetic: Callable[[int], Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    templates = synthetic(3)
    logs = tmp_path / "logs"
    _probe_only(logs, "same", templates, train=3, points=1)
    _probe_only(logs, "same", templates, train=3, points=2)
    assert main([str(logs)]) == EXIT_NOT_COMPARABLE
    err = capsys.readouterr().err
    assert "probe runs differ in `points`" in err
    assert main([str(logs), "--allow-mismatch"]) == 0
    assert "not comparable were read together" in capsys.readouterr().out


def test_a_folder_without_runs_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("gsm8k-contamination: ") and "\n" not in err


def test_a_plot_with_an_unknown_suffix_is_refused_before_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path), "--png", str(tmp_path / "plot.txt")]) == 2
    assert "--png" in capsys.readouterr().err
