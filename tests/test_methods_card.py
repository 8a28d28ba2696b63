"""The methods card: what a paper needs, read back from real logs of scripted runs."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from gsm8k.compare.cli import main as compare_main
from gsm8k.compare.methods_cli import main as methods_main
from gsm8k.task import gsm8k
from tests.scripted import run_eval, scripted_model

MINI = Path(__file__).parent / "fixtures" / "mini"


def _wilson(correct: int, total: int) -> str:
    """The 95% Wilson interval, computed from its formula (not by the code under test)."""
    z = 1.959963984540054
    p = correct / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return f"{centre - half:.1%}–{centre + half:.1%}"


KNOWN = {"Janet": "18", "robe": "3", "house": "1,450,000", "diver": "-10"}
"""The answers the scripted strong model knows: four of the six mini questions."""


def _right(prompt: str) -> str:
    tail = prompt[-300:]
    answer = next((value for key, value in KNOWN.items() if key in tail), "7")
    return f"Working it out.\nANSWER: {answer}"


def _wrong(prompt: str) -> str:
    return "I think it is\nANSWER: 7"


def _table(text: str) -> dict[str, list[str]]:
    """The card's tables as {first cell: other cells}, split on unescaped pipes."""
    rows = {}
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith("|---"):
            cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            rows[cells[0]] = cells[1:]
    return rows


def _results(text: str, model: str) -> dict[str, str]:
    """One model's row of the results table, by column."""
    rows = _table(text)
    return dict(zip(rows["Run"], rows[model], strict=True))


@pytest.mark.slow
def test_compare_writes_the_card_for_every_model(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    for name, reply in (("strong", _right), ("weak", _wrong)):
        model = scripted_model(reply, name=name)
        run_eval(gsm8k(dataset=str(MINI)), model, log_dir=str(logs), temperature=0.5)
    card = tmp_path / "methods.md"
    assert compare_main([str(logs), "--methods", str(card)]) == 0
    text = card.read_text(encoding="utf-8")
    assert text.startswith("## Methods\n\nWe evaluated mockllm/strong, mockllm/weak on ")
    settings = _table(text)
    assert settings["Shots"] == ["5"]
    assert settings["Shot seed"] == ["42"]
    assert settings["Decoding"] == ["temperature=0.5"]
    assert "inspect-gsm8k's own prompt" in settings["Prompt"][0]
    strong, weak = _results(text, "mockllm/strong"), _results(text, "mockllm/weak")
    correct = len(KNOWN)
    assert strong["Accuracy (95% CI)"] == f"{correct / 6:.1%} ({_wilson(correct, 6)}, Wilson; n=6)"
    assert weak["Accuracy (95% CI)"] == f"0.0% ({_wilson(0, 6)}, Wilson; n=6)"
    assert strong["Inspect match(numeric=True)"] == f"{correct / 6:.1%} ({_wilson(correct, 6)})"
    assert strong["Strict accuracy (ANSWER: line)"] == f"{correct / 6:.1%}"


@pytest.mark.slow
def test_settings_that_differ_become_columns(tmp_path: Path) -> None:
    for temperature in (0.0, 1.0):
        run_eval(
            gsm8k(dataset=str(MINI)),
            scripted_model(_right),
            log_dir=str(tmp_path),
            temperature=temperature,
        )
    card = tmp_path / "methods.md"
    assert compare_main([str(tmp_path), "--methods", str(card)]) in (0, 3)
    text = card.read_text(encoding="utf-8")
    assert "Decoding:" not in text and "per model" not in text
    assert "The runs differ in decoding (see the results table)." in text
    decodings = sorted(row[0] for name, row in _table(text).items() if name.startswith("mockllm"))
    assert decodings == ["temperature=0.0", "temperature=1.0"]


@pytest.mark.slow
def test_single_log_card_reads_that_log_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    task = gsm8k(preset="lm-eval-gsm8k-cot", dataset=str(MINI))
    first = run_eval(task, scripted_model(lambda p: "The answer is 18."), log_dir=str(tmp_path))
    run_eval(gsm8k(dataset=str(MINI)), scripted_model(_wrong, name="other"), log_dir=str(tmp_path))
    location = first.location.removeprefix("file://")
    capsys.readouterr()  # drop the runs' own console output: only the card is read below
    assert methods_main([location]) == 0
    text = capsys.readouterr().out
    assert "mockllm/other" not in text
    assert "preset lm-eval-gsm8k-cot" in text
    assert "Wei et al. 2022" in text
    # The preset's decoding defaults, as the model received them.
    assert 'stop_seqs=["Q:", "</s>", "<\\|im_end\\|>"]' in text
    results = _results(text, "mockllm/scripted")
    assert results["lm-eval strict-match"].startswith("16.7% (")  # only item 0's gold is 18
    assert "Strict accuracy (ANSWER: line)" not in results


def test_command_line_settings_override_the_presets_in_the_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    task = gsm8k(preset="lm-eval-gsm8k", dataset=str(MINI))
    log = run_eval(
        task, scripted_model(_wrong), log_dir=str(tmp_path), stop_seqs=["STOP"], max_tokens=64
    )
    assert log.status == "success"
    assert methods_main([str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert 'temperature=0.0, max_tokens=64, stop_seqs=["STOP"]' in text
    assert "5 exemplars (GSM8K train" in text
    assert "seed 1234" in text


def test_votes_give_maj_at_k_with_a_wilson_interval(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_eval(gsm8k(dataset=str(MINI), votes=3), scripted_model(_right), log_dir=str(tmp_path))
    assert methods_main([str(tmp_path)]) == 0
    text = capsys.readouterr().out
    results = _results(text, "mockllm/scripted")
    assert results["maj@3 (95% Wilson)"] == f"{4 / 6:.1%} ({_wilson(4, 6)})"
    assert results["Completions"] == "18 (6 × 3)"
    assert "3 completions per question" in text


def test_no_logs_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert methods_main([str(tmp_path)]) == 2
    assert "no GSM8K log with samples" in capsys.readouterr().err
    assert methods_main([str(tmp_path / "missing.eval")]) == 2
