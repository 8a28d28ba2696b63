"""Hostile programs against the real OS sandbox, end to end through Inspect.

A scripted model answers each question with an attack program (tests/sandbox_attacks.py), in
``mode=pal`` and through the python tool. The answer key sits where the evaluator reads it
(``GSM8K_DATA_DIR``, served over loopback TCP and a Unix socket too) and every attack knows its
path. Every attack must score incorrect, the evaluator and an unrelated process must survive,
nothing outside the sandbox may change, nothing may be left running — and honest programs in the
same run must still score correct. A control runs two attacks without the sandbox
(``isolation="process"``) and sees them succeed, so these tests can fail.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import random
import shutil
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import ChatMessage, ChatMessageTool, ModelOutput
from inspect_ai.scorer import Score
from inspect_ai.tool import ToolInfo

from gsm8k.execution.isolation import unavailable_reason
from gsm8k.execution.runner import ExecutionResult, Limits, run_program
from gsm8k.task import gsm8k
from tests.sandbox_attacks import ATTACKS, attack_program
from tests.sandbox_resource_attacks import RESOURCE_ATTACKS
from tests.scripted import last_user_text, mock_model, run_eval, scripted_model

pytestmark = [
    pytest.mark.slow,  # the attack suite: minutes of sandboxed programs
    pytest.mark.skipif(
        not sys.platform.startswith("linux"), reason="the OS sandbox needs Linux namespaces"
    ),
]

HONEST = {
    "honest-arithmetic": "def solution():\n    return {gold} - 7 + 7\n",
    "honest-float": "def solution():\n    return {gold} * 0.5 * 2\n",
}


@dataclass
class AnswerKey:
    data: Path
    outside: Path
    token: str
    port: int
    unix: Path
    golds: dict[str, int]

    def program(self, name: str) -> str:
        if name in HONEST:
            return HONEST[name].format(gold=self.golds[name])
        body = ATTACKS.get(name) or RESOURCE_ATTACKS[name]
        return attack_program(
            body,
            tag=tag(name),
            data=self.data,
            outside=self.outside,
            token=self.token,
            port=self.port,
            unix=self.unix,
        )


def tag(name: str) -> str:
    return f"[{name}]"


@pytest.fixture(autouse=True)
def _sandbox_must_work() -> None:
    reason = unavailable_reason()
    if reason is not None:
        pytest.fail(f"the OS sandbox cannot run here: {reason}")


@pytest.fixture
def answer_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AnswerKey]:
    """A GSM8K directory with one question per program, in the evaluator's environment and
    served over loopback TCP, a Unix socket and an abstract Unix socket."""
    names = [*ATTACKS, *RESOURCE_ATTACKS, *HONEST]
    golds = {name: 10_007 + 31 * index for index, name in enumerate(names)}
    data = tmp_path / "answers"
    data.mkdir()
    records = [
        {
            "question": f"Problem {tag(name)}: a farmer has {gold - 5} apples and buys 5 more. "
            "How many apples does the farmer have?",
            "answer": f"{gold - 5} + 5 = <<{gold - 5}+5={gold}>>{gold}\n#### {gold}",
        }
        for name, gold in golds.items()
    ]
    key_text = "".join(json.dumps(r) + "\n" for r in records)
    (data / "test.jsonl").write_text(key_text)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("unchanged")
    monkeypatch.setenv("GSM8K_DATA_DIR", str(data))
    token = str(random.randint(700_000, 799_999))
    servers = _serve(key_text.encode(), tmp_path / "answers.sock", token)
    try:
        yield AnswerKey(data, outside, token, servers[0], tmp_path / "answers.sock", golds)
    finally:
        for server in servers[1:]:
            server.shutdown()  # type: ignore[attr-defined]
            server.server_close()  # type: ignore[attr-defined]


def _serve(payload: bytes, unix_path: Path, token: str) -> list[Any]:
    class Handler(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            self.request.sendall(payload)

    tcp = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
    unix = socketserver.ThreadingUnixStreamServer(str(unix_path), Handler)
    abstract = socketserver.ThreadingUnixStreamServer(f"\0gsm8k-answers-{token}", Handler)
    for server in (tcp, unix, abstract):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    # Prove the servers hand out the key to anyone who can reach them.
    with socket.create_connection(("127.0.0.1", tcp.server_address[1])) as connection:
        assert b"####" in connection.makefile("rb").read()
    return [tcp.server_address[1], tcp, unix, abstract]


def snapshot(*roots: Path) -> dict[str, str]:
    """Every path under ``roots`` with a digest of its content (or its kind)."""
    found = {}
    for root in roots:
        for path in [root, *root.rglob("*")]:
            if path.is_symlink() or not path.is_file():
                found[str(path)] = "dir" if path.is_dir() else "other"
            else:
                found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def survivors(token: str) -> list[str]:
    """Host processes whose command line carries the attack's token."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if token.encode() in command:
            found.append(f"{pid}: {command!r}")
    return found


def pal_model(key: AnswerKey, names: list[str]) -> Any:
    return scripted_model(
        {tag(name): f"```python\n{key.program(name)}\n```" for name in names}, name="attacker"
    )


def tool_model(key: AnswerKey, names: list[str]) -> Any:
    """Calls python_runner with its question's program once, then answers with the result."""

    def respond(messages: list[ChatMessage], tools: list[ToolInfo]) -> ModelOutput:
        prompt = last_user_text(messages)
        name = next(n for n in names if tag(n) in prompt)
        results = [m for m in messages if isinstance(m, ChatMessageTool)]
        if not results:
            return ModelOutput.for_tool_call(
                "attacker", "python_runner", {"code": key.program(name)}
            )
        text = results[-1].text
        value = text.rsplit("Result:", 1)[-1].strip() if "Result:" in text else "-1"
        return ModelOutput.from_content("attacker", f"The program says {value}.\nANSWER: {value}")

    return mock_model(respond, "attacker")


def in_evaluator(function: Any, *arguments: Any) -> Any:
    """Call ``function`` in a fresh evaluator process whose initial environment (what
    ``/proc/<pid>/environ`` shows) holds ``GSM8K_DATA_DIR``, as a user's shell would set it."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        result = pool.apply(function, arguments)
        # A worker that exits by itself removes its sandbox image; terminate() would leave it.
        pool.close()
        pool.join()
        return result


def run_attacks(key: AnswerKey, names: list[str], through: str, tmp_path: Path) -> dict[str, Score]:
    """Run the named programs through the task in a separate evaluator; each score, by name."""
    return in_evaluator(_evaluate, key, names, through, str(tmp_path / "logs"))  # type: ignore[no-any-return]


def _evaluate(key: AnswerKey, names: list[str], through: str, log_dir: str) -> dict[str, Score]:
    assert os.environ["GSM8K_DATA_DIR"] in Path("/proc/self/environ").read_text(errors="replace")
    task = (
        gsm8k(dataset=str(key.data), fewshot=0, mode="pal")
        if through == "pal"
        else gsm8k(dataset=str(key.data), fewshot=0, tools="python")
    )
    model = pal_model(key, names) if through == "pal" else tool_model(key, names)
    wanted = {tag(n) for n in names}
    task.dataset = task.dataset.filter(lambda s: any(t in str(s.input) for t in wanted))
    log = run_eval(task, model, log_dir=log_dir, max_connections=8)
    assert log.status == "success", log.error
    assert log.eval.metadata["code_isolation"] == "bwrap"
    scorer = "pal_grader" if through == "pal" else "gsm8k_grader"
    return {
        next(n for n in names if tag(n) in str(s.input)): s.scores[scorer]
        for s in log.samples or []
    }


@pytest.mark.parametrize("through", ["pal", "python-tool"])
def test_every_attack_fails_and_honest_programs_pass(
    answer_key: AnswerKey, through: str, tmp_path: Path
) -> None:
    sentinel = subprocess.Popen(["sleep", "300"])
    before = snapshot(answer_key.data, answer_key.outside)
    names = [*ATTACKS, *HONEST]
    try:
        scores = run_attacks(answer_key, names, through, tmp_path)
        assert sentinel.poll() is None, "a process outside the sandbox was killed"
    finally:
        sentinel.kill()
        sentinel.wait()
    assert set(scores) == set(names)
    stolen = {n: s.answer for n, s in scores.items() if n in ATTACKS and s.value["accuracy"]}
    assert not stolen, f"attacks that got the answer: {stolen}"
    for name in HONEST:
        assert scores[name].value["accuracy"] == 1.0, (name, scores[name].explanation)
    assert snapshot(answer_key.data, answer_key.outside) == before
    assert not survivors(answer_key.token)
    if through == "pal":
        # Forged lines on the result channel are that sample's failure, never a verdict.
        forged = scores["forges-result-lines"]
        assert forged.metadata["status"] == "invalid_result", forged.explanation
        hung = scores["setsid-grandchild-and-a-hung-parent"].metadata
        assert hung["status"] == "timeout" and hung["seconds"] < 60


@pytest.mark.parametrize("through", ["pal", "python-tool"])
def test_resource_attacks_end_as_that_samples_failure(
    answer_key: AnswerKey, through: str, tmp_path: Path
) -> None:
    names = [*RESOURCE_ATTACKS, *HONEST]
    free_before = shutil.disk_usage(tempfile.gettempdir()).free
    scores = run_attacks(answer_key, names, through, tmp_path)
    for name in RESOURCE_ATTACKS:
        assert scores[name].value["accuracy"] == 0.0, (name, scores[name].explanation)
    for name in HONEST:
        assert scores[name].value["accuracy"] == 1.0, (name, scores[name].explanation)
    assert not survivors(answer_key.token)
    # The source arrives on a read-only pipe: no call reserved space anywhere (-2, not -1), and
    # the evaluator's temporary disk lost nothing like the 2 GB asked for.
    assert scores["reserves-disk-through-stdin"].answer == "-2", scores[
        "reserves-disk-through-stdin"
    ].explanation
    assert free_before - shutil.disk_usage(tempfile.gettempdir()).free < 1 << 30
    if through == "pal":
        flood = scores["a-gibibyte-of-stdout"].metadata
        assert flood["output_dropped_bytes"] > 1 << 29 and len(flood["stdout"]) <= 2000
        broken = scores["non-utf8-and-huge-numbers"]
        assert broken.metadata["status"] == "no_result"
        assert "more than 4300 digits" in broken.explanation
        assert "\ufffd" in broken.metadata["stdout"]


FAST = Limits(timeout_seconds=4.0, cpu_seconds=2)


CONTROLS = ["proc-environ-snooping", "reads-the-known-path"]


def test_control_the_same_attacks_succeed_without_the_sandbox(answer_key: AnswerKey) -> None:
    """Without OS isolation (the trusted opt-in) these attacks do read the answer key."""
    programs = [answer_key.program(name) for name in CONTROLS]
    unsandboxed, sandboxed = in_evaluator(_run_both_ways, programs)
    for name, result in zip(CONTROLS, unsandboxed, strict=True):
        assert result.status == "ok" and result.value == str(answer_key.golds[name]), result
    for result in sandboxed:
        assert result.status == "ok" and result.value == "-1", result


def _run_both_ways(programs: list[str]) -> tuple[list[ExecutionResult], list[ExecutionResult]]:
    return (
        [run_program(program, FAST, "process") for program in programs],
        [run_program(program, FAST) for program in programs],
    )


def test_the_runner_does_not_wait_for_a_grandchild_that_keeps_the_pipes_open(
    answer_key: AnswerKey,
) -> None:
    started = time.monotonic()
    result = run_program(answer_key.program("setsid-grandchild-and-a-hung-parent"), FAST)
    assert result.status == "timeout"
    assert time.monotonic() - started < FAST.timeout_seconds + 30  # kill + grace, on a busy box
    assert not survivors(answer_key.token)
