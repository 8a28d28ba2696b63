"""Program-aided grading: real-style programs, hostile programs, and the task end to end."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import Target
from inspect_ai.solver import TaskState

from gsm8k.execution.programs import extract_program, program_from_solution
from gsm8k.execution.runner import Limits, run_program
from gsm8k.execution.scorer import pal_grader
from gsm8k.task import gsm8k
from tests.data.pal_programs import PROGRAMS
from tests.scripted import run_eval, scripted_model

FAST = Limits(timeout_seconds=3.0, cpu_seconds=1, memory_mb=256)


def score(completion: str, target: str, limits: Limits = FAST) -> Any:
    state = TaskState(
        model="scripted/model",
        sample_id="s",
        epoch=1,
        input="",
        messages=[],  # type: ignore[arg-type]
    )
    state.output = ModelOutput.from_content(model="scripted", content=completion)
    return asyncio.run(pal_grader(limits)(state, Target(target)))


@pytest.mark.parametrize(("completion", "target", "answer", "correct"), [
    pytest.param(completion, target, answer, correct, id=name)
    for name, completion, target, answer, correct in PROGRAMS
])  # fmt: skip
def test_real_style_programs_are_graded(
    completion: str, target: str, answer: str | None, correct: bool
) -> None:
    result = score(completion, target)
    assert (result.answer, result.value["accuracy"]) == (answer, float(correct)), result.explanation


def test_program_corpus_is_large_enough() -> None:
    assert len(PROGRAMS) >= 30


@pytest.mark.parametrize(
    ("program", "status", "reason"),
    [
        pytest.param("def solution():\n    raise ValueError('nope')\n", "error", "ValueError: nope", id="raises"),
        pytest.param("def solution():\n    while True:\n        pass\n", "timeout", "", id="infinite-loop"),
        pytest.param("import time\ndef solution():\n    time.sleep(60)\n", "timeout", "wall-clock", id="sleeps-forever"),
        pytest.param("def solution():\n    block = bytearray(8 * 1024**3)\n    return 1\n", "memory", "MemoryError", id="allocates-gigabytes"),
        pytest.param("def solution():\n    return len(open('/etc/passwd').read())\n", "error", "FileNotFoundError", id="reads-outside-scratch"),
        pytest.param("def solution():\n    open('/tmp/gsm8k-escape.txt', 'w').write('x')\n    return 1\n", "error", "FileNotFoundError", id="writes-outside-scratch"),
        pytest.param("import socket\ndef solution():\n    socket.create_connection(('127.0.0.1', 22))\n    return 1\n", "error", "Error", id="opens-a-socket"),
        pytest.param("def solution(:\n    return 1\n", "syntax_error", "SyntaxError", id="syntax-error"),
        pytest.param("import sys\nsys.stdout.close()\nans = 1\n", "ok", "", id="closes-stdout-still-reports"),
        pytest.param("import os\nos._exit(3)\n", "crashed", "exit 3", id="exits-without-result"),
        # the parent waits for its child, so both result lines are written before it exits
        pytest.param("import os\nchild = os.fork()\nif child:\n    os.waitpid(child, 0)\nans = 1\n", "invalid_result", "more than one line", id="forks-two-results"),
    ],
)  # fmt: skip
def test_hostile_programs_end_as_scored_failures_quickly(
    program: str, status: str, reason: str
) -> None:
    started = time.monotonic()
    result = run_program(program, FAST)
    assert time.monotonic() - started < FAST.timeout_seconds + 60  # generous: a busy machine
    assert result.status == status, result
    assert reason in (result.error or "")


def test_nothing_is_left_behind_outside_the_scratch_directory() -> None:
    run_program("open('/tmp/gsm8k-escape.txt', 'w').write('x')\nans = 1\n", FAST)
    assert not Path("/tmp/gsm8k-escape.txt").exists()


def test_exemplar_programs_come_from_calculator_annotations() -> None:
    solution = (
        "Janet sells 16 - 3 - 4 = <<16-3-4=9>>9 duck eggs a day.\n"
        "She makes 9 * 2 = $<<9*2=18>>18 every day at the farmer's market."
    )
    program = program_from_solution(solution, "18")
    assert program is not None
    assert "step_1 = 16 - 3 - 4" in program and program.rstrip().endswith("return step_2")
    assert run_program(program, FAST).value == "18"
    assert program_from_solution(solution, "19") is None  # annotations that miss the gold: unused


def test_extracts_the_last_defining_block() -> None:
    completion = (
        "```python\nprint('scratch')\n```\nthen\n```python\ndef solution():\n    return 2\n```"
    )
    assert extract_program(completion) == "def solution():\n    return 2"


PAL_REPLIES = {
    "Janet": "```python\ndef solution():\n    return (16 - 3 - 4) * 2\n```",
    "robe": "```python\nans = 2 + 2 / 2\n```",
    "house": "```python\ndef solution():\n    return 1_000_000 + 450_001\n```",
    "diver": "```python\ndef solution():\n    return -5 + 2 - 7\n```",
    "pencils": "```python\ndef solution():\n    while True:\n        pass\n```",
    "factory": "I think it is 2,880,000.",
}


@pytest.mark.slow
@pytest.mark.parametrize("sandbox", [None, "local"])
def test_pal_mode_end_to_end(mini_data: Path, tmp_path: Path, sandbox: str | None) -> None:
    log = run_eval(
        # Inspect's local sandbox is no isolation: it runs model code only for trusted models.
        gsm8k(
            dataset=str(mini_data),
            fewshot=2,
            mode="pal",
            sandbox=sandbox,
            trust_model_code=sandbox == "local",
        ),
        scripted_model(PAL_REPLIES),
        log_dir=str(tmp_path),
    )
    assert log.status == "success"
    metrics = {s.name: {k: m.value for k, m in s.metrics.items()} for s in log.results.scores}
    assert metrics["accuracy"]["accuracy"] == pytest.approx(3 / 6)
    assert metrics["pal_grader"]["timeout"] == pytest.approx(1 / 6)
    assert metrics["pal_grader"]["no_program"] == pytest.approx(1 / 6)
    assert metrics["pal_grader"]["execution_error"] == 0
    headline = log.results.headline
    assert (headline.scorer, headline.score) == ("pal_grader", "accuracy")
    samples = {s.id: s.scores["pal_grader"] for s in log.samples}
    assert samples[0].metadata["code"].startswith("def solution():")
    assert samples[4].metadata["status"] == "timeout"
    prompt = log.samples[0].messages[0].text
    assert "def solution():" in prompt and "```python" in prompt and "return step_" in prompt
