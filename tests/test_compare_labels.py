"""Run labels and the methods card for many runs at once: a model under several presets, modes and
decoding settings, as a user comparing presets would have them (real logs, scripted models)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gsm8k.compare.cli import main as compare_main
from gsm8k.compare.methods import markdown
from gsm8k.compare.runs import read_runs
from gsm8k.task import gsm8k
from tests.conftest import MINI_DATA
from tests.scripted import run_eval, scripted_model

PRESETS = ("default", "lm-eval-gsm8k", "lm-eval-gsm8k-cot", "kojima-zero-shot-cot", "inspect-evals")


def _run(logs: Path, model: str, eval_args: dict[str, Any] | None = None, **task_args: Any) -> None:
    run_eval(
        gsm8k(dataset=str(MINI_DATA), **task_args),
        scripted_model(lambda prompt: "It is 18.\nANSWER: 18", name=model),
        log_dir=str(logs),
        **({"limit": 2} | (eval_args or {})),
    )


@pytest.fixture(scope="module")
def many_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Eight runs: model-a under five presets, zero-shot, and at temperature 0.5; model-b once."""
    logs = tmp_path_factory.mktemp("labels") / "logs"
    for preset in PRESETS:
        _run(logs, "model-a", preset=preset)
    _run(logs, "model-a", fewshot=0)
    _run(logs, "model-a", {"temperature": 0.5})
    _run(logs, "model-b")
    return logs


def test_labels_name_the_preset_first_and_never_repeat(many_runs: Path) -> None:
    runs = read_runs(many_runs).runs
    labels = [run.label for run in runs]
    assert len(runs) == 8
    assert len(set(labels)) == len(labels), labels
    assert not any("#" in label or "more]" in label for label in labels), labels
    for preset in PRESETS[1:]:
        # The preset is the first thing named after the model, and it alone tells the run apart.
        assert f"mockllm/model-a [preset={preset}]" in labels
    assert "mockllm/model-b" in labels  # one run of its model: nothing to tell apart
    defaults = sorted(label for label in labels if "preset=default" in label)
    assert defaults == [
        "mockllm/model-a [preset=default, fewshot=0]",
        "mockllm/model-a [preset=default, fewshot=5, temperature=0.5]",
        "mockllm/model-a [preset=default, fewshot=5, temperature=unset]",
    ]
    # What follows from a preset (its file, checksum, origin, rule) is not spelled out.
    assert not any("dataset" in label or "origin" in label for label in labels)


def test_compare_table_rows_are_readable_with_eight_runs(
    many_runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.json"
    compare_main([str(many_runs), "--allow-mismatch", "--json", str(out)])
    text = capsys.readouterr().out
    labels = [run["label"] for run in json.loads(out.read_text())["runs"]]
    assert len(labels) == 8 and all(len(label) <= 70 for label in labels), labels
    for label in labels:
        assert f"| {label} |" in text


def test_methods_card_says_once_what_differs(many_runs: Path) -> None:
    runs = read_runs(many_runs).runs
    text = markdown(runs)
    paragraph = text.split("\n\n")[1]
    assert "per model" not in text
    # The settings the runs differ in are named once, in the paragraph, and are table columns.
    assert paragraph.count("see the results table") == 1
    assert "The runs differ in prompt, shots" in paragraph
    # Each model is named once, however many runs it has.
    assert paragraph.count("mockllm/model-a") == 1 + paragraph.count("mockllm/model-a [")
    header = next(line for line in text.splitlines() if line.startswith("| Run |"))
    assert header.index("Prompt") < header.index("Shots")
    rows = [line for line in text.splitlines() if line.startswith("| mockllm/")]
    assert len(rows) == 8
