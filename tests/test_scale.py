"""The scale recipe end to end, as commands: one ``inspect eval-set`` (2 models x 3 datasets of
``gsm8k/family_set.py``, models served by a scripted OpenAI-compatible server) into one log
store, interrupted by an outage and resumed, then ``gsm8k-family`` and ``gsm8k-compare`` over that
store; on a local folder and on a real S3-compatible server."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.scale_recipe import (
    FIXTURES,
    MODELS,
    RecipeResult,
    run_arguments,
    run_recipe,
    s3_store,
)
from gsm8k.compare.cli import main as compare_main
from gsm8k.compare.family import main as family_main
from gsm8k.compare.runs import read_runs

pytestmark = pytest.mark.slow  # full-size eval sets: minutes each


def check_store(store: str, result: RecipeResult) -> None:
    interrupted, resumed, family, compare = result.steps
    assert interrupted.exit_code != 0, interrupted.stdout[-2000:]  # the outage stopped the set
    assert "Did not successfully complete all tasks" in interrupted.stdout
    assert resumed.exit_code == 0, resumed.stdout[-2000:] + resumed.stderr[-2000:]
    assert "Completed all tasks" in resumed.stdout
    scan = read_runs(store)
    assert len(scan.runs) == 6 and all(run.complete for run in scan.runs)
    assert family.exit_code == 0, family.stderr
    assert compare.exit_code == 0, compare.stderr
    assert result.family["model"] == MODELS[0]
    assert {row["name"] for row in result.family["variants"]} == {
        "gsm-symbolic-p2",
        "gsm-plus-mini",
    }
    accuracies = {run["label"]: run["accuracy"] for run in result.compare["runs"]}
    assert accuracies == {MODELS[0]: 1.0, MODELS[1]: pytest.approx(5 / 6)}


def test_eval_set_on_a_local_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The documented command (docs/scale.md), with a store and report folder kept to read."""
    store = tmp_path / "store"
    code, result = run_arguments(["--store", str(store), "--out", str(tmp_path)])
    assert code == 0
    check_store(str(store), result)
    # A selection that matches nothing names what the store holds.
    capsys.readouterr()
    assert compare_main([str(store), "--model", "openai/gpt-4o"]) == 2
    assert family_main([str(store), "--model", "openai/gpt-4o"]) == 2
    err = capsys.readouterr().err
    assert "no runs match --model 'openai/gpt-4o': the logs hold models " in err
    assert f"{MODELS[0]}, {MODELS[1]}; datasets gsm-plus-mini, gsm-symbolic-p2, gsm8k" in err


def test_eval_set_on_s3(tmp_path: Path) -> None:
    """The S3 run of docs/scale.md, on the recipe's own moto server, read before it stops."""
    server, store, env = s3_store()
    try:
        with pytest.MonkeyPatch.context() as patch:
            for name, value in env.items():
                patch.setenv(name, value)
            patch.delenv("AWS_PROFILE", raising=False)
            result = run_recipe(store, tmp_path, {"GSM8K_DATA_DIR": str(FIXTURES / "gsm8k")} | env)
            check_store(store, result)
    finally:
        server.stop()


def test_reports_name_a_location_they_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "no-store")
    assert compare_main([missing]) == 2
    assert family_main([missing]) == 2
    err = capsys.readouterr().err
    assert f"gsm8k-compare: {missing}: no such folder or log file" in err
    assert f"gsm8k-family: {missing}: no such folder or log file" in err
    not_a_log = tmp_path / "notes.txt"
    not_a_log.write_text("x")
    assert compare_main([str(not_a_log)]) == 2
    assert "not an Inspect log" in capsys.readouterr().err
