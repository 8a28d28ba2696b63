"""Every dataset name finds its local copy beside ``$GSM8K_DATA_DIR``, relative or absolute, from
any working directory, through ``gsm8k/task.py`` and ``gsm8k/gsm8k`` (Inspect changes the working
directory to the task file's folder while it loads a task)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from tests.conftest import FIXTURES

ROOT = Path(__file__).resolve().parents[1]
TASK_FILE = ROOT / "gsm8k" / "task.py"

# name, extra task arguments, the file the samples must come from (under the data folder)
NAMES = [
    pytest.param("gsm8k", {}, "gsm8k/test.jsonl", id="gsm8k"),
    pytest.param("gsm8k-socratic", {}, "gsm8k/test_socratic.jsonl", id="gsm8k-socratic"),
    pytest.param("gsm8k-platinum", {}, "gsm8k-platinum/test.jsonl", id="gsm8k-platinum"),
    pytest.param("gsm-symbolic", {}, "gsm-symbolic/GSM_symbolic.jsonl", id="gsm-symbolic"),
    pytest.param("gsm-symbolic-p1", {}, "gsm-symbolic/GSM_p1.jsonl", id="gsm-symbolic-p1"),
    pytest.param("gsm-symbolic-p2", {}, "gsm-symbolic/GSM_p2.jsonl", id="gsm-symbolic-p2"),
    pytest.param("gsm-plus", {}, "gsm-plus/test.jsonl", id="gsm-plus"),
    pytest.param("gsm-plus-mini", {}, "gsm-plus/testmini.jsonl", id="gsm-plus-mini"),
    pytest.param("mgsm", {"language": "de"}, "mgsm/mgsm_de.tsv", id="mgsm"),
]


@pytest.fixture
def offline_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The family fixtures as a user's data folder, the hub unreachable and nothing cached."""
    data = tmp_path / "data"
    shutil.copytree(FIXTURES / "family", data)
    # The socratic split is the same questions with another solution style.
    shutil.copy(data / "gsm8k" / "test.jsonl", data / "gsm8k" / "test_socratic.jsonl")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.delenv("GSM8K_FAMILY_DIR", raising=False)
    return data


def scripted_model() -> object:
    outputs = [ModelOutput.from_content("mockllm/model", "ANSWER: 1") for _ in range(4)]
    for output in outputs:
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return get_model("mockllm/model", custom_outputs=outputs)


@pytest.mark.parametrize("relative", [True, False], ids=["relative", "absolute"])
@pytest.mark.parametrize(("name", "arguments", "expected"), NAMES)
def test_each_name_reads_its_local_copy_through_the_task_file(
    offline_copy: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    arguments: dict[str, str],
    expected: str,
    relative: bool,
) -> None:
    start = tmp_path / "elsewhere"
    start.mkdir()
    monkeypatch.chdir(start)
    monkeypatch.setenv("PWD", str(start))
    data_dir = offline_copy / "gsm8k"
    monkeypatch.setenv("GSM8K_DATA_DIR", os.path.relpath(data_dir) if relative else str(data_dir))
    [log] = inspect_eval(
        os.path.relpath(TASK_FILE),  # as typed: a path relative to where the command runs
        task_args={"dataset": name, "fewshot": 0, **arguments},
        model=scripted_model(),  # type: ignore[arg-type]
        limit=1,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    assert log.eval.dataset.location == str((offline_copy / expected).resolve())
    assert Path.cwd() == start


@pytest.mark.slow
def test_the_documented_command_runs_offline_by_name(offline_copy: Path, tmp_path: Path) -> None:
    """The real CLI, as the docs show it: from the project folder with a relative
    GSM8K_DATA_DIR, and by registry name from another folder."""
    inspect_cli = shutil.which("inspect", path=str(Path(sys.executable).parent)) or "inspect"
    runs = [
        (ROOT, "gsm8k/task.py", "gsm-symbolic-p2", "gsm-symbolic/GSM_p2.jsonl"),
        (tmp_path, "gsm8k/gsm8k", "gsm8k-platinum", "gsm8k-platinum/test.jsonl"),
    ]
    for start, task, name, expected in runs:
        log_dir = tmp_path / f"logs-{name}"
        environment = {
            **os.environ,
            "GSM8K_DATA_DIR": os.path.relpath(offline_copy / "gsm8k", start),
            "PWD": str(start),
            "COLUMNS": "200",
        }
        result = subprocess.run(
            [inspect_cli, "eval", task, "-T", f"dataset={name}", "-T", "fewshot=0",
             "--model", "mockllm/model", "--limit", "1", "--log-dir", str(log_dir),
             "--display", "plain"],
            cwd=start, env=environment, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        output = result.stdout + result.stderr
        # mockllm/model itself downloads a token encoding, so offline its sample fails after
        # the task loaded; what matters here is where the samples came from.
        [log_file] = log_dir.glob("*.eval")
        location = read_eval_log(str(log_file), header_only=True).eval.dataset.location
        assert location == str((offline_copy / expected).resolve()), output[-3000:]


def test_socratic_with_exemplars_runs_offline_from_a_copy_without_its_train_file(
    offline_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A GSM8K copy with test_socratic.jsonl but no train_socratic.jsonl (as the README's copy
    is): the exemplars come from its train.jsonl, said so, and recorded in the log."""
    from gsm8k.task import gsm8k

    data_dir = offline_copy / "gsm8k"
    monkeypatch.setenv("GSM8K_DATA_DIR", str(data_dir))
    [log] = inspect_eval(
        gsm8k(dataset="gsm8k-socratic", fewshot=1),
        model=scripted_model(),  # type: ignore[arg-type]
        limit=1,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    metadata = log.eval.metadata or {}
    assert metadata["dataset"] == str(data_dir / "test_socratic.jsonl")
    assert metadata["fewshot_dataset"] == str(data_dir / "train.jsonl")
    # With the Socratic train file present, it is the one used.
    shutil.copy(data_dir / "train.jsonl", data_dir / "train_socratic.jsonl")
    task = gsm8k(dataset="gsm8k-socratic", fewshot=1)
    assert (task.metadata or {})["fewshot_dataset"] == str(data_dir / "train_socratic.jsonl")
