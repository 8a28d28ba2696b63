"""The family report on scripted models of known behaviour: every figure recomputed here."""

from __future__ import annotations

import json
import math
import shlex
from collections.abc import Callable
from pathlib import Path
from statistics import mean, stdev

import pytest
from inspect_ai import Task
from scipy import stats

from gsm8k.compare.family import build, main
from gsm8k.compare.family_render import markdown
from gsm8k.compare.family_stats import clustered_interval, clustered_standard_error, paired_drop
from gsm8k.compare.runs import load_runs
from gsm8k.compare.stats import paired_interval, wilson
from gsm8k.task import gsm8k
from tests.conftest import FIXTURES
from tests.scripted import run_eval, scripted_model

FAMILY = FIXTURES / "family"

Policy = Callable[[object], bool]
"""Whether the scripted model answers a sample (given its id) correctly."""


@pytest.fixture(autouse=True)
def _family_data(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GSM8K_DATA_DIR", str(FAMILY / "gsm8k"))
    monkeypatch.delenv("GSM8K_FAMILY_DIR", raising=False)


def _run(task: Task, right: Callable[[object], bool], log_dir: Path, name: str = "known") -> None:
    """Run ``task`` with a model that is right exactly on the samples ``right`` picks."""
    by_question = {str(s.input): s for s in task.dataset}

    def reply(prompt: str) -> str:
        asked = prompt.rsplit("\n\n", 1)[-1]
        sample = next(s for q, s in by_question.items() if q in asked)
        target = str(sample.target)
        if not right(sample.id):
            return "ANSWER: 999999"
        return f"ANSWER: {target}" if target != "NONE" else "ANSWER: NONE"

    run_eval(task, scripted_model(reply, name), log_dir=str(log_dir))


def _known_runs(log_dir: Path) -> None:
    # Right on every GSM8K question.
    _run(gsm8k(fewshot=0), lambda i: True, log_dir)
    # GSM-Symbolic P2: right on the template of original 1 except its draw 0, wrong on every
    # draw of the template of original 3 (half the templates).
    _run(
        gsm8k(dataset="gsm-symbolic-p2", fewshot=0),
        lambda i: str(i).startswith("0001-0") and str(i) != "0001-00",
        log_dir,
    )
    # GSM-Plus: says a number on critical-thinking items; also misses original 2's distractor.
    _run(
        gsm8k(dataset="gsm-plus-mini", fewshot=0),
        lambda i: not str(i).endswith("critical-thinking") and i != "0002-distraction-insertion",
        log_dir,
    )
    # MGSM: right only in English.
    _run(gsm8k(dataset="mgsm", language="en", fewshot=0), lambda i: True, log_dir)
    _run(gsm8k(dataset="mgsm", language="de", fewshot=0), lambda i: False, log_dir)


@pytest.fixture(scope="module")
def known_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log_dir = tmp_path_factory.mktemp("family-logs")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GSM8K_DATA_DIR", str(FAMILY / "gsm8k"))
        _known_runs(log_dir)
    return log_dir


def _rows(report: dict[str, object], key: str) -> dict[str, dict[str, object]]:
    return {row["name"]: row for row in report[key]}  # type: ignore[attr-defined,index]


@pytest.mark.slow
def test_symbolic_figures(known_logs: Path) -> None:
    report = build(load_runs(known_logs))
    assert report["paired"] and report["warnings"] == []
    assert report["baseline"]["accuracy"] == 1.0
    row = _rows(report, "variants")["gsm-symbolic-p2"]
    outcomes = {1: [0, 1, 1, 1], 3: [0, 0, 0, 0]}
    assert row["samples"] == 8 and row["originals"] == 2
    assert row["accuracy"] == pytest.approx(3 / 8)
    assert row["interval"] == "clustered"
    # Clustered standard error by hand: CR1 with G = 2 clusters of 4.
    residual_sums = [sum(y - 3 / 8 for y in ys) for ys in outcomes.values()]
    se = math.sqrt(2 / 1 * sum(r * r for r in residual_sums)) / 8
    assert row["clustered_se"] == pytest.approx(se)
    # The interval is Wilson's at the effective size p(1-p)/se² (at most the items), with t's
    # critical value on clusters - 1 = 1 degree of freedom: Inspect's clustered ci_wilson.
    effective = min(8, (3 / 8) * (5 / 8) / se**2)
    z = stats.t.ppf(0.975, 1)
    centre = (3 / 8 + z * z / (2 * effective)) / (1 + z * z / effective)
    half = z * math.sqrt((3 / 8) * (5 / 8) / effective + z * z / (4 * effective**2))
    half /= 1 + z * z / effective
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((centre - half, centre + half))
    # The same interval the run's log carries.
    from inspect_ai.log import list_eval_logs, read_eval_log

    headers = [read_eval_log(info, header_only=True) for info in list_eval_logs(str(known_logs))]
    [log] = [h for h in headers if (h.eval.task_args or {}).get("dataset") == "gsm-symbolic-p2"]
    [accuracy] = [s for s in log.results.scores if s.name == "accuracy"]
    in_log = (accuracy.metrics["wilson_ci_lower"].value, accuracy.metrics["wilson_ci_upper"].value)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(in_log)
    drop = row["drop"]
    differences = [1 - mean(outcomes[1]), 1 - mean(outcomes[3])]
    assert drop["drop"] == pytest.approx(mean(differences))
    interval = stats.ttest_rel([1, 1], [mean(outcomes[1]), 0]).confidence_interval(0.95)
    clipped = (max(-1.0, interval.low), min(1.0, interval.high))  # a drop lies in [-1, 1]
    assert (drop["ci_low"], drop["ci_high"]) == pytest.approx(clipped)
    assert (drop["worse"], drop["better"], drop["p_value"]) == (2, 0, pytest.approx(0.5))
    spread = report["symbolic_spread"][0]
    per_draw = [0.0, 0.5, 0.5, 0.5]
    assert spread["per_draw"] == per_draw
    assert spread["mean"] == pytest.approx(mean(per_draw))
    assert spread["sd"] == pytest.approx(stdev(per_draw))
    assert (spread["min"], spread["max"]) == (0.0, 0.5)


def test_plus_rows_per_perturbation(known_logs: Path) -> None:
    report = build(load_runs(known_logs))
    row = _rows(report, "variants")["gsm-plus-mini"]
    assert row["samples"] == 16 and row["accuracy"] == pytest.approx(13 / 16)
    perturbations = _rows(report, "perturbations")
    assert len(perturbations) == 8
    critical = perturbations["gsm-plus-mini critical-thinking"]
    assert critical["accuracy"] == 0.0 and critical["interval"] == "wilson"
    assert critical["drop"]["drop"] == 1.0
    assert (critical["drop"]["worse"], critical["drop"]["p_value"]) == (2, pytest.approx(0.5))
    distraction = perturbations["gsm-plus-mini distraction-insertion"]
    assert distraction["accuracy"] == 0.5 and distraction["drop"]["drop"] == 0.5
    assert perturbations["gsm-plus-mini digit-expansion"]["drop"]["drop"] == 0.0
    wilson = stats.binomtest(1, 2).proportion_ci(0.95, "wilson")
    assert distraction["ci_low"] == pytest.approx(wilson.low)


def test_mgsm_rows_per_language(known_logs: Path) -> None:
    report = build(load_runs(known_logs))
    rows = _rows(report, "variants")
    assert rows["mgsm-en"]["accuracy"] == 1.0 and rows["mgsm-en"]["drop"]["drop"] == 0.0
    german = rows["mgsm-de"]
    assert german["accuracy"] == 0.0 and german["drop"]["originals"] == 4
    assert german["drop"]["drop"] == 1.0
    assert german["drop"]["p_value"] == pytest.approx(stats.binomtest(4, 4).pvalue)
    assert [r["name"] for r in report["variants"]][-2:] == ["mgsm-de", "mgsm-en"]


def test_cli_writes_markdown_json_and_png(
    known_logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [str(known_logs), "--json", str(tmp_path / "r.json"), "--png", str(tmp_path / "r.png")]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "| gsm-symbolic-p2 | 8 | 2 | 37.5%" in out
    assert "## GSM-Plus by perturbation" in out
    assert "## gsm-symbolic-p2: accuracy across 4 draws" in out
    assert json.loads((tmp_path / "r.json").read_text())["model"] == "mockllm/known"
    assert (tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_refuses_runs_with_other_settings_or_models(tmp_path: Path) -> None:
    _run(gsm8k(fewshot=0), lambda i: True, tmp_path)
    _run(gsm8k(dataset="gsm-symbolic-p2", fewshot=1), lambda i: True, tmp_path)
    report = build(load_runs(tmp_path))
    assert not report["paired"]
    assert any("`fewshot` differs" in w for w in report["warnings"])
    assert report["variants"][0]["drop"] is None
    assert main([str(tmp_path)]) == 3
    assert main([str(tmp_path), "--allow-mismatch"]) == 0

    other = tmp_path / "models"
    _run(gsm8k(fewshot=0), lambda i: True, other, name="one")
    _run(gsm8k(dataset="mgsm", language="en", fewshot=0), lambda i: True, other, name="two")
    assert any("different models" in w for w in build(load_runs(other))["warnings"])


def test_needs_a_gsm8k_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _run(gsm8k(dataset="mgsm", language="en", fewshot=0), lambda i: True, tmp_path)
    assert main([str(tmp_path)]) == 2
    assert "no GSM8K run" in capsys.readouterr().err


def test_wilson_matches_scipy_and_clustered_interval_is_never_a_point() -> None:

    expected = stats.binomtest(3, 10).proportion_ci(0.95, "wilson")
    assert wilson(0.3, 10) == pytest.approx((expected.low, expected.high))
    low, high = clustered_interval({1: [0.0] * 5, 2: [0.0] * 5})  # all wrong, 2 originals
    assert low == 0.0 and high > 0.9  # two originals say little about a third


def test_clustered_standard_error_with_single_items_is_the_usual_one() -> None:
    values = [1.0, 0.0, 1.0, 1.0, 0.0]
    usual = stdev(values) / math.sqrt(len(values))
    assert clustered_standard_error([[v] for v in values]) == pytest.approx(usual)


@pytest.mark.slow
def test_originals_the_gsm8k_run_lacks_are_named_with_the_command_that_pairs_them(
    tmp_path: Path,
) -> None:
    """A --limit-ed GSM8K run covers other originals than the variant: the report says which,
    instead of a bare `-`, and prints the --sample-id that completes the pairing."""
    gsm8k_task = gsm8k(fewshot=0)
    kept = [s for s in gsm8k_task.dataset if s.id == 1]
    gsm8k_task.dataset = type(gsm8k_task.dataset)(kept)  # GSM8K on original 1 only
    _run(gsm8k_task, lambda i: True, tmp_path, "limited")
    _run(gsm8k(dataset="gsm-symbolic-p2", fewshot=0), lambda i: True, tmp_path, "limited")
    report = build(load_runs(tmp_path))
    [entry] = report["unpaired"]
    assert entry["variant"] == "gsm-symbolic-p2" and entry["missing"] == [3]
    text = markdown(report)
    assert "1 of its 2 originals lack a GSM8K result" in text
    # The command runs those originals as the GSM8K run ran: its task, model and -T options.
    line = next(line for line in text.splitlines() if "lack a GSM8K result" in line)
    words = shlex.split(line.split("`")[1])
    # It runs in a new shell: the data copy the run read, this environment's inspect, the
    # task by its entry point.
    assert words[0] == f"GSM8K_DATA_DIR={FAMILY / 'gsm8k'}"
    assert Path(words[1]).name == "inspect" and words[2:4] == ["eval", "gsm8k/gsm8k"]
    assert "fewshot=0" in words
    assert words[words.index("--model") + 1] == report["model"]
    assert words[-4:] == ["--sample-id", "3", "--log-dir", str(tmp_path)]


def test_one_original_bounds_nothing_about_the_others() -> None:
    # Eight variant items of one original: the drop is measured, its interval is the whole range.
    drop = paired_drop({1109: [1.0] * 7 + [0.0]}, {1109: 1.0})
    assert drop is not None and drop.originals == 1
    assert drop.drop == pytest.approx(0.125) and (drop.ci_low, drop.ci_high) == (-1.0, 1.0)
    assert paired_interval([1.0], [0.0]) == (1.0, -1.0, 1.0)
    assert clustered_interval({1109: [1.0] * 7 + [0.0]}) == (0.0, 1.0)  # as the log's wilson_ci
    # Two originals that moved alike: the t interval would be a point at +100 points; each
    # direction bounded by Wilson's interval instead, so no change is not ruled out (McNemar's
    # p is 0.5 too).
    drop, low, high = paired_interval([1.0, 1.0], [0.0, 0.0])
    assert drop == 1.0 and high == 1.0 and low == pytest.approx(-0.315, abs=1e-3)


@pytest.mark.slow
def test_a_variant_with_nothing_completed_is_left_out_and_said_so(tmp_path: Path) -> None:
    """An engine that failed every variant item leaves that variant out, and the report says
    so, instead of ending the whole report; a GSM8K run that lacks samples is said to."""
    from inspect_ai.model import ModelOutput

    from tests.scripted import mock_model

    def engine_down(messages: object, tools: object) -> ModelOutput:
        failed = ModelOutput.from_content(model="m", content="", stop_reason="unknown")
        failed.error = "engine went away"
        return failed

    gsm8k_task = gsm8k(fewshot=0)
    gsm8k_task.dataset = type(gsm8k_task.dataset)([s for s in gsm8k_task.dataset if s.id == 1])
    _run(gsm8k_task, lambda i: True, tmp_path)
    run_eval(
        gsm8k(dataset="gsm-symbolic-p2", fewshot=0),
        mock_model(engine_down, "known"),
        log_dir=str(tmp_path),
    )
    report = build(load_runs(tmp_path))
    assert report["variants"] == []
    note, nothing_to_pair = report["notes"]
    assert note.startswith("gsm-symbolic-p2: no completed sample of ") and "left out" in note
    assert nothing_to_pair.startswith("no variant run of mockllm/known to pair")
    assert "> - gsm-symbolic-p2: no completed sample" in markdown(report)


def test_draws_of_a_partial_run_are_not_called_instances_of_every_template(
    known_logs: Path,
) -> None:
    [spread] = build(load_runs(known_logs))["symbolic_spread"]
    assert spread["templates"] == [2, 2, 2, 2] and spread["all_templates"] == 2
    assert "Each draw is one instance of every template in the run (2)." in markdown(
        build(load_runs(known_logs))
    )
    # A --limit run: draw 00 has both templates, draw 01 only one.
    partial = {**spread, "templates": [2, 1], "per_draw": [0.5, 0.0], "names": ["00", "01"]}
    text = markdown({**build(load_runs(known_logs)), "symbolic_spread": [partial]})
    assert "A partial run: draws cover 1 to 2 of the run's 2 templates" in text
    assert "| draw | 00 | 01 |" in text
