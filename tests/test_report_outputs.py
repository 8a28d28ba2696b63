"""What ``gsm8k-compare`` and ``gsm8k-family`` are asked to write is checked before any log is
read, and a store where nothing completed is said to be so, with a non-zero exit."""

from __future__ import annotations

from pathlib import Path

import pytest

from gsm8k.compare.cli import EXIT_NOT_COMPARABLE
from gsm8k.compare.cli import main as compare_main
from gsm8k.compare.family import main as family_main
from gsm8k.task import gsm8k
from tests.conftest import FIXTURES
from tests.scripted import run_eval, scripted_model


@pytest.mark.parametrize(
    ("option", "name", "says"),
    [
        ("--json", "missing/report.json", "no folder"),
        ("--png", "missing/plot.png", "no folder"),
        ("--png", "plot.txt", "the plot is written as .png, .pdf, .svg"),
        ("--json", ".", "is a folder"),
    ],
)
def test_an_output_that_cannot_be_written_is_one_line_before_any_log_is_read(
    option: str, name: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = str(tmp_path / name)
    store = str(tmp_path / "no-store")  # not read: the output is checked first
    assert compare_main([store, option, target]) == 2
    assert family_main([store, option, target]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(says in line and option in line for line in err)


def test_an_empty_location_is_not_the_current_folder(capsys: pytest.CaptureFixture[str]) -> None:
    assert compare_main([""]) == 2
    assert "'': an empty location" in capsys.readouterr().err


@pytest.mark.slow
def test_a_store_where_nothing_completed_exits_non_zero_and_writes_no_methods_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GSM8K_DATA_DIR", str(FIXTURES / "family" / "gsm8k"))

    def broken(prompt: str) -> str:
        raise RuntimeError("the provider refused the key")

    log = run_eval(gsm8k(fewshot=0), scripted_model(broken), log_dir=str(tmp_path / "logs"))
    assert log.status == "error"
    card = tmp_path / "methods.md"
    code = compare_main([str(tmp_path / "logs"), "--methods", str(card)])
    assert code == EXIT_NOT_COMPARABLE
    assert "no run has a completed sample (no methods card written)" in capsys.readouterr().err
    assert not card.exists()


def test_a_single_unreadable_log_is_named_by_its_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "run.eval"
    broken.write_bytes(b"not a zip")
    assert compare_main([str(broken)]) == 2
    assert f"skipped {broken}: cannot be read" in capsys.readouterr().err


def test_a_log_still_marked_started_is_not_called_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from inspect_ai.log import write_eval_log

    monkeypatch.setenv("GSM8K_DATA_DIR", str(FIXTURES / "family" / "gsm8k"))
    log = run_eval(gsm8k(fewshot=0), scripted_model(lambda prompt: "ANSWER: 1"), limit=3)
    assert log.samples is not None
    log.samples = log.samples[:2]  # as a log written while its third sample still runs
    log.status = "started"
    log.results = None
    write_eval_log(log, str(tmp_path / "2026-11-25T00-00-00+00-00_gsm8k_running.eval"))
    compare_main([str(tmp_path)])
    entry = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("> - "))
    assert "(started)" in entry
    assert "once it has stopped (a log marked started is still running, or crashed)" in entry
