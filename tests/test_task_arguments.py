"""A misspelt -T parameter never runs an eval; the log's task arguments are the settings that ran,
and its task name says the variant and preset, while old and new logs still merge."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log

from gsm8k.compare.methods import card
from gsm8k.compare.rerun import rerun_prefix
from gsm8k.compare.runs import read_runs
from gsm8k.settings.errors import TaskInputError
from gsm8k.task import TASK_PARAMETERS, gsm8k
from tests.conftest import FIXTURES, MINI_DATA
from tests.scripted import run_eval, scripted_model

ROOT = Path(__file__).resolve().parent.parent


def _inspect(*words: str, log_dir: Path) -> subprocess.CompletedProcess[str]:
    inspect_cli = shutil.which("inspect", path=str(Path(sys.executable).parent)) or "inspect"
    return subprocess.run(
        [inspect_cli, *words, "--model", "mockllm/model", "--log-dir", str(log_dir),
         "--display", "plain"],
        cwd=ROOT, env={**os.environ, "PWD": str(ROOT), "COLUMNS": "200",
                       "GSM8K_DATA_DIR": str(FIXTURES / "family" / "gsm8k")},
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip


@pytest.mark.slow  # an `inspect` process each
@pytest.mark.parametrize(
    "command",
    [
        pytest.param(["eval", "gsm8k/task.py"], id="eval"),
        pytest.param(["eval-set", "gsm8k/task.py"], id="eval-set"),
        pytest.param(["eval-set", "gsm8k/family_set.py@gsm8k_platinum"], id="eval-set-family"),
    ],
)
def test_a_misspelt_parameter_stops_the_run_naming_the_real_one(
    command: list[str], tmp_path: Path
) -> None:
    logs = tmp_path / "logs"
    result = _inspect(*command, "-T", "fewshots=3", "--limit", "1", log_dir=logs)
    output = (result.stdout + result.stderr).strip()
    assert result.returncode != 0, output
    assert "Traceback" not in output
    lines = [line for line in output.splitlines() if "fewshots" in line]
    assert lines == [
        "-T fewshots=3: gsm8k has no parameter 'fewshots'; did you mean fewshot? (nothing was run)."
    ], output
    assert not [path for path in logs.rglob("*.eval")], "a log was written: something ran"


def test_every_unknown_name_is_listed_with_the_closest_or_all_parameters() -> None:
    with pytest.raises(TaskInputError) as raised:
        gsm8k(fewshots=3, colour="red", dataset=str(MINI_DATA))
    message = str(raised.value)
    assert "\n" not in message
    assert "-T fewshots=3: gsm8k has no parameter 'fewshots'; did you mean fewshot?" in message
    assert (
        f"-T colour=red: gsm8k has no parameter 'colour'; it takes {', '.join(TASK_PARAMETERS)}"
        in message
    )
    assert "unknown" not in TASK_PARAMETERS and TASK_PARAMETERS[-1] == "templates"


def test_a_misspelt_parameter_is_refused_before_any_data_is_read() -> None:
    with pytest.raises(TaskInputError, match="did you mean placement"):
        gsm8k(dataset="/no/such/folder", placment="turns")


def _run(tmp_path: Path, **arguments: object) -> EvalLog:
    log: EvalLog = run_eval(
        gsm8k(**arguments),  # type: ignore[arg-type]
        scripted_model(lambda prompt: "The answer is 18.\n#### 18\nANSWER: 18"),
        log_dir=str(tmp_path),
        limit=1,
    )
    return log


def test_a_default_run_records_the_values_that_ran_as_its_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GSM8K_DATA_DIR", str(MINI_DATA))
    log = _run(tmp_path)
    arguments = log.eval.task_args
    assert arguments["fewshot"] == 5 and arguments["fewshot_seed"] == 42
    assert arguments["placement"] == "user"
    assert arguments["dataset"] == str(MINI_DATA.resolve())
    assert arguments["fewshot_dataset"] == str(MINI_DATA.resolve() / "train.jsonl")
    assert arguments["calculator_annotations"] is False and arguments["preset"] == "default"
    assert log.eval.task_args_passed == {}  # what eval-retry replays: nothing was passed
    assert (log.eval.task, log.eval.task_registry_name) == ("gsm8k", "gsm8k")


def test_a_preset_run_records_its_own_values_and_names_itself(tmp_path: Path) -> None:
    log = _run(tmp_path, dataset=str(MINI_DATA), preset="lm-eval-gsm8k")
    arguments = log.eval.task_args
    assert arguments["fewshot"] == 5 and arguments["fewshot_seed"] == 1234
    assert arguments["calculator_annotations"] is True  # lm-eval shows the solutions as written
    assert log.eval.task == "gsm8k_lm-eval-gsm8k"
    assert log.eval.task_display_name == "gsm8k lm-eval-gsm8k"
    assert log.eval.task_registry_name == "gsm8k"
    assert rerun_prefix(log).split()[2] == "gsm8k/gsm8k"  # by entry point, not its name
    fixed = _run(tmp_path / "cot", dataset=str(MINI_DATA), preset="lm-eval-gsm8k-cot")
    assert fixed.eval.task_args["fewshot"] == 8
    assert fixed.eval.task_args["fewshot_seed"] is None  # fixed exemplars: there is no seed


def test_a_new_log_merges_with_an_old_log_of_the_same_run(tmp_path: Path) -> None:
    """Logs from before the task named its variant (eval.task 'gsm8k/gsm8k', unset arguments
    recorded as null) are the same run as today's: one run, both logs."""
    logs = tmp_path / "logs"
    new = _run(logs, dataset=str(MINI_DATA), preset="lm-eval-gsm8k-cot")
    old = read_eval_log(new.location)
    old.eval.task = "gsm8k/gsm8k"
    old.eval.task_registry_name = "gsm8k/gsm8k"
    old.eval.task_args = old.eval.task_args | {"fewshot": None, "dataset": str(MINI_DATA)}
    old.eval.eval_id = "an-earlier-run"
    old.eval.created = "2026-01-01T00:00:00+00:00"
    write_eval_log(old, str(logs / "2026-01-01T00-00-00+00-00_gsm8k-gsm8k_old.eval"))
    scan = read_runs(str(logs))
    assert len(scan.runs) == 1, [run.label for run in scan.runs]
    assert len(scan.runs[0].logs) == 2


def test_the_methods_card_shows_the_decoding_that_ran_and_the_originals(tmp_path: Path) -> None:
    _run(tmp_path, dataset=str(MINI_DATA), preset="kojima-zero-shot-cot")
    [run] = read_runs(str(tmp_path)).runs
    setup = card(run).setup
    assert setup["Decoding"] == "temperature=0.0, max_tokens=128"
    assert setup["Original decoding"].startswith("max_tokens=128, temperature=0.0; from ")
    assert "--max_length_cot 128" in setup["Original decoding"]
