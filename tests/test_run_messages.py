"""What a run tells its user: errors as one line, a warning for votes that cannot disagree, and
logs that name the evaluated variant."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai._util.error import PrerequisiteError

from gsm8k.metrics.votes import identical_votes_warning
from gsm8k.settings.errors import TaskInputError
from gsm8k.task import gsm8k
from tests.conftest import FIXTURES
from tests.scripted import run_eval, scripted_model

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param({"fewshot": -1}, id="bad-parameter"),
        pytest.param({"dataset": "gsm8k-plantinum"}, id="misspelt-dataset"),
        pytest.param({"dataset": "mgsm"}, id="missing-language"),
    ],
)
def test_task_errors_are_prerequisite_and_value_errors(
    mini_data: Path, arguments: dict[str, object]
) -> None:
    with pytest.raises(TaskInputError) as raised:
        gsm8k(**arguments)  # type: ignore[arg-type]
    assert isinstance(raised.value, PrerequisiteError) and isinstance(raised.value, ValueError)
    assert "\n" not in str(raised.value)


@pytest.mark.slow
def test_a_bad_parameter_is_one_line_on_the_command_line(tmp_path: Path) -> None:
    inspect_cli = shutil.which("inspect", path=str(Path(sys.executable).parent)) or "inspect"
    result = subprocess.run(
        [inspect_cli, "eval", "gsm8k/task.py", "-T", "fewshot=-1", "--model", "mockllm/model",
         "--log-dir", str(tmp_path), "--display", "plain"],
        cwd=ROOT, env={**os.environ, "PWD": str(ROOT), "COLUMNS": "200",
                       "GSM8K_DATA_DIR": str(FIXTURES / "mini")},
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    output = (result.stdout + result.stderr).strip()
    assert result.returncode != 0
    assert "Traceback" not in output
    assert "fewshot=-1: pass a whole number of examples" in output
    assert len(output.splitlines()) < 8, output


@pytest.mark.parametrize(
    ("votes", "temperature", "warns"),
    [
        pytest.param(3, 0.0, True, id="greedy-votes"),
        pytest.param(3, 0.7, False, id="sampled-votes"),
        pytest.param(3, None, False, id="provider-default-temperature"),
        pytest.param(1, 0.0, False, id="one-vote"),
    ],
)
def test_votes_at_temperature_zero_warn(votes: int, temperature: float | None, warns: bool) -> None:
    message = identical_votes_warning(votes, temperature)
    assert (message is not None) == warns
    if message:
        assert f"votes={votes} at temperature 0" in message and "--temperature" in message


@pytest.mark.slow
def test_the_warning_reaches_the_run_once(
    mini_data: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="gsm8k.metrics.votes"):
        log = run_eval(
            gsm8k(dataset=str(mini_data), fewshot=0, votes=2),
            scripted_model(lambda prompt: "ANSWER: 1"),
            log_dir=str(tmp_path),
            temperature=0.0,
            limit=3,
        )
    assert log.status == "success"
    warnings = [r for r in caplog.records if "votes=2 at temperature 0" in r.getMessage()]
    assert len(warnings) == 1


def test_logs_name_the_variant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GSM8K_DATA_DIR", str(FIXTURES / "family" / "gsm8k"))
    monkeypatch.delenv("GSM8K_FAMILY_DIR", raising=False)
    for arguments, name in [
        ({"dataset": "gsm-symbolic-p2"}, "gsm-symbolic-p2"),
        ({"dataset": "mgsm", "language": "de"}, "mgsm-de"),
        ({"mode": "pal", "trust_model_code": True}, "gsm8k pal"),
    ]:
        task = gsm8k(fewshot=0, **arguments)  # type: ignore[arg-type]
        assert task.display_name == name
        assert task.tags == [name.split()[0]]
    log = run_eval(
        gsm8k(dataset="gsm-symbolic-p2", fewshot=0),
        scripted_model(lambda prompt: "ANSWER: 1"),
        log_dir=str(tmp_path),
        limit=1,
    )
    # Inspect's log list and viewer show eval.task; the task function stays the registry name.
    assert log.eval.task == "gsm-symbolic-p2" and log.eval.task_registry_name == "gsm8k"
    assert log.eval.task_display_name == "gsm-symbolic-p2"
    assert log.eval.tags == ["gsm-symbolic-p2"]
