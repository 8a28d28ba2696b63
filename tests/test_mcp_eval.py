"""Whole evals against real MCP servers: the shipped gsm8k-mcp over stdio and over streamable
HTTP on 127.0.0.1, the npm filesystem server where node is present, and servers that fail in
each way a server can. A scripted model calls their tools; the task's grader grades its answer."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import ChatMessageTool
from inspect_ai.scorer import Score
from inspect_ai.tool import ToolCall, ToolInfo

from gsm8k.mcp_tools import agent, calls
from gsm8k.mcp_tools.liveness import DIED_KEY
from gsm8k.mcp_tools.startup import DEFAULT_START_SECONDS
from gsm8k.task import gsm8k
from tests.conftest import MINI_DATA
from tests.mcp_support import ROOT, Plan, call, faulty_server, shipped_server, tool_model
from tests.scripted import run_eval

pytestmark = pytest.mark.slow

EXPRESSIONS = {"Janet": "(16 - 3 - 4) * 2", "robe": "2 + 2 / 2"}
PROGRAMS = {
    "Janet": "print((16 - 3 - 4) * 2)",
    "robe": "import numpy as np\nprint(int(np.sum([2, 1])))",
}
TRUE_ANSWERS = {"Janet": "18", "robe": "3"}


def _key(question: str) -> str:
    return next(key for key in EXPRESSIONS if key in question)


def run(mcp: str, plan: Plan, limit: int = 2, **kwargs: Any) -> tuple[EvalLog, list[EvalSample]]:
    """The eval's log (it ended ``success``) and its samples."""
    task = gsm8k(dataset=str(MINI_DATA), fewshot=0, mcp=mcp)
    log: EvalLog = run_eval(task, tool_model(plan), limit=limit, **kwargs)
    assert log.status == "success", log.error
    assert log.samples is not None
    return log, log.samples


def score(sample: EvalSample) -> Score:
    return (sample.scores or {})["gsm8k_grader"]


def grade(sample: EvalSample) -> dict[str, float]:
    value = score(sample).value
    assert isinstance(value, dict)
    return value


def tool_texts(sample: EvalSample) -> list[str]:
    return [m.text for m in sample.messages if isinstance(m, ChatMessageTool)]


def answer_from_tool(
    question: str, tools: list[ToolInfo], results: list[ChatMessageTool]
) -> ToolCall | str:
    if not results:
        return call("calculator", expression=EXPRESSIONS[_key(question)])
    if len(results) == 1:
        return call("python", code=PROGRAMS[_key(question)])
    calculated, printed = results[0].text, results[1].text
    assert calculated in printed, printed  # both tools agree
    return f"The calculator says {calculated}.\nANSWER: {calculated}"


def test_shipped_server_over_stdio_answers_through_both_tools(tmp_path: Path) -> None:
    log, samples = run(shipped_server(tmp_path), answer_from_tool)
    assert [grade(s)["accuracy"] for s in samples] == [1.0, 1.0]
    janet = samples[0]
    assert tool_texts(janet)[0] == "18"
    assert "18" in tool_texts(janet)[1]
    metadata = log.eval.metadata or {}
    assert metadata["mcp_transport"] == "stdio"
    assert metadata["mcp_server"].endswith("-m gsm8k.mcp_tools")
    assert (log.eval.config.turn_limit, log.eval.config.time_limit) == (
        agent.DEFAULT_TURNS,
        agent.DEFAULT_TIME_LIMIT,
    )


def test_shipped_server_runs_programs_in_the_sandbox(tmp_path: Path) -> None:
    """A program that reads the evaluator's files finds nothing: it runs in bubblewrap."""
    secret = tmp_path / "secret.txt"
    # A token no temporary path can contain: pytest's numbered folders once held "42".
    key = "answer-key-q7xv"
    secret.write_text(key, encoding="utf-8")

    def plan(
        question: str, tools: list[ToolInfo], results: list[ChatMessageTool]
    ) -> ToolCall | str:
        if not results:
            return call("python", code=f"print(open({str(secret)!r}).read())")
        return "ANSWER: 0"

    _log, samples = run(shipped_server(tmp_path), plan, limit=1)
    [result] = [m for m in samples[0].messages if isinstance(m, ChatMessageTool)]
    assert result.error is not None
    assert "FileNotFoundError" in result.error.message
    assert key not in result.error.message


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def http_server() -> Iterator[str]:
    """``gsm8k-mcp --http`` on a free loopback port, stopped after the test."""
    port = free_port()
    environment = os.environ | {"PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "gsm8k.mcp_tools", "--http", "--port", str(port)],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        # The task's own start timeout: a busy 2-core machine took over 30 s to start it.
        deadline = time.monotonic() + DEFAULT_START_SECONDS
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert process.poll() is None, process.stderr.read() if process.stderr else ""
                assert time.monotonic() < deadline, "gsm8k-mcp --http did not listen in time"
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stderr:
            process.stderr.close()


def test_shipped_server_over_http_on_loopback(http_server: str) -> None:
    log, samples = run(http_server, answer_from_tool)
    assert [grade(s)["accuracy"] for s in samples] == [1.0, 1.0]
    assert (log.eval.metadata or {})["mcp_transport"] == "http"
    assert tool_texts(samples[1])[0] == "3"


NPM_CACHE = Path(os.environ.get("GSM8K_NPM_CACHE", ROOT / ".cache" / "npm"))
FILESYSTEM_PACKAGE = "@modelcontextprotocol/server-filesystem"


def filesystem_cached() -> bool:
    return any((NPM_CACHE / "_npx").glob(f"*/node_modules/{FILESYSTEM_PACKAGE}/package.json"))


@pytest.mark.skipif(shutil.which("npx") is None, reason="node/npx is not installed")
@pytest.mark.skipif(
    not filesystem_cached(),
    reason=f"{FILESYSTEM_PACKAGE} is not in {NPM_CACHE} (see .ci/run for the one-time install)",
)
def test_npm_filesystem_server_with_a_fresh_workdir_per_sample(tmp_path: Path) -> None:
    """The seed's exact server, ``npx -y @modelcontextprotocol/server-filesystem {workdir}``, in
    mcpbr's YAML shape; npm runs offline from the cache, never the network."""
    config = tmp_path / "mcpbr.yaml"
    config.write_text(
        "mcp_server:\n"
        "  command: npx\n"
        f"  args: [-y, '{FILESYSTEM_PACKAGE}', '{{workdir}}']\n"
        f"  env: {{npm_config_cache: '{NPM_CACHE}', npm_config_offline: 'true'}}\n",
        encoding="utf-8",
    )
    seen: list[str] = []

    def plan(
        question: str, tools: list[ToolInfo], results: list[ChatMessageTool]
    ) -> ToolCall | str:
        if not results:
            return call("list_allowed_directories")
        folder = results[0].text.splitlines()[-1].strip()
        if len(results) == 1:
            seen.append(folder)
            path = f"{folder}/work.txt"
            return call("write_file", path=path, content=TRUE_ANSWERS[_key(question)])
        if len(results) == 2:
            return call("read_file", path=f"{folder}/work.txt")
        return f"ANSWER: {results[-1].text.strip()}"

    log, samples = run(str(config), plan)
    assert [grade(s)["accuracy"] for s in samples] == [1.0, 1.0]
    assert len(set(seen)) == 2, seen  # each sample had its own folder
    assert not any(Path(folder).exists() for folder in seen)  # removed after the sample
    assert (log.eval.metadata or {})["mcp_server"].startswith("npx -y @modelcontextprotocol")


def lookup_then_answer(
    question: str, tools: list[ToolInfo], results: list[ChatMessageTool]
) -> ToolCall | str:
    if not results:
        return call("lookup", query="eggs")
    return f"ANSWER: {TRUE_ANSWERS[_key(question)]}"


def test_a_server_that_exits_during_a_call_is_the_models_outcome(tmp_path: Path) -> None:
    """The model reads that the server exited and answers; its answer is graded."""
    _log, samples = run(faulty_server(tmp_path, "exit-mid-run"), lookup_then_answer, limit=1)
    [sample] = samples
    assert sample.error is None
    assert grade(sample)["accuracy"] == 1.0
    assert agent.FAILURE_KEY not in (sample.metadata or {})
    assert "a call to lookup" in (sample.metadata or {})[DIED_KEY]
    [result] = [m for m in sample.messages if isinstance(m, ChatMessageTool)]
    assert result.error is not None and "the MCP server exited" in result.error.message


def test_a_flood_is_clipped_before_the_model_reads_it(tmp_path: Path) -> None:
    _log, samples = run(faulty_server(tmp_path, "flood"), lookup_then_answer, limit=1)
    [sample] = samples
    [result] = tool_texts(sample)
    assert len(result.encode()) < calls.RESULT_BYTES + 1024
    assert grade(sample)["accuracy"] == 1.0


def test_a_call_past_its_time_limit_is_an_error_the_model_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(calls, "CALL_SECONDS", 2.0)
    started = time.monotonic()
    _log, samples = run(faulty_server(tmp_path, "sleep"), lookup_then_answer, limit=1)
    assert time.monotonic() - started < 60
    [sample] = samples
    [result] = [m for m in sample.messages if isinstance(m, ChatMessageTool)]
    assert result.error is not None and "did not answer within 2 s" in result.error.message
    assert grade(sample)["accuracy"] == 1.0


def test_a_server_sleeping_past_the_sample_time_limit_is_a_scored_failure(tmp_path: Path) -> None:
    """The per-sample limit ends the sample even while a call is still waiting."""
    started = time.monotonic()
    _log, samples = run(faulty_server(tmp_path, "sleep"), lookup_then_answer, limit=1, time_limit=4)
    assert time.monotonic() - started < 60
    [sample] = samples
    assert sample.limit is not None and sample.limit.type == "time"
    assert grade(sample)["accuracy"] == 0.0


def test_what_the_server_says_never_changes_the_grade(tmp_path: Path) -> None:
    """The tool answers ``ANSWER: 999``; only the model's own reply is graded."""
    _log, samples = run(faulty_server(tmp_path, "says-answer"), lookup_then_answer, limit=1)
    [sample] = samples
    assert "ANSWER: 999" in tool_texts(sample)[0]
    assert score(sample).answer == "18"
    assert grade(sample)["accuracy"] == 1.0


def test_a_model_that_never_stops_calling_tools_ends_at_the_turn_limit(tmp_path: Path) -> None:
    def forever(question: str, tools: list[ToolInfo], results: list[ChatMessageTool]) -> ToolCall:
        return call("calculator", expression=f"{len(results)} + 1")

    log, samples = run(shipped_server(tmp_path), forever, limit=1, turn_limit=4)
    [sample] = samples
    assert sample.limit is not None and sample.limit.type == "turn"
    assert len(tool_texts(sample)) == 4  # four replies answered; the fifth is past the limit
    assert grade(sample)["accuracy"] == 0.0
    assert log.eval.config.turn_limit == 4


def test_without_a_server_the_same_loop_runs_with_the_same_limits() -> None:
    def plan(question: str, tools: list[ToolInfo], results: list[ChatMessageTool]) -> str:
        assert tools == []
        return f"ANSWER: {TRUE_ANSWERS[_key(question)]}"

    log, samples = run("none", plan)
    assert [grade(s)["accuracy"] for s in samples] == [1.0, 1.0]
    assert (log.eval.metadata or {})["mcp_server"] is None
    assert log.eval.config.turn_limit == agent.DEFAULT_TURNS
