"""Attacks on the MCP path's containment, each through a real server process: the shipped
gsm8k-mcp over stdio and over streamable HTTP, the npm filesystem server where node and its
cached package are present, and the task's own calculator and Python tools. A scripted model
sends what a hostile or broken model would; every sample must end scored (or unscored only on
the harness's own evidence), every eval ``success``, and nothing may outlive a sample."""

from __future__ import annotations

import json
import math
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import ChatMessageTool, ModelOutput, ModelUsage, get_model
from inspect_ai.tool import ToolCall, ToolInfo

from gsm8k.execution.tools import DEFAULT_BUDGET
from gsm8k.grading.reasons import MCP_SERVER_FAILED
from gsm8k.mcp_tools import agent, calls, liveness
from gsm8k.task import gsm8k
from tests.conftest import MINI_DATA
from tests.mcp_support import ROOT, serving_http, shipped_server, tool_model
from tests.scripted import run_eval
from tests.test_mcp_eval import FILESYSTEM_PACKAGE, NPM_CACHE, filesystem_cached, score

pytestmark = pytest.mark.slow

ECHOED = "Connection closed ClosedResourceError BrokenResourceError"
"""What the old classifier read as a lost server, in a tool's error text."""
WRONG = "ANSWER: 7"
"""Every question of the mini set has another answer: a scored sample grades 0."""


def nested(levels: int) -> Any:
    value: Any = "1"
    for _ in range(levels):
        value = {"a": value}
    return value


def scripted(calls: list[ToolCall], final: str = WRONG) -> Callable[..., ToolCall | str]:
    """Make ``calls`` one per reply, then answer ``final``."""

    def plan(
        question: str, tools: list[ToolInfo], results: list[ChatMessageTool]
    ) -> ToolCall | str:
        return calls[len(results)] if len(results) < len(calls) else final

    return plan


def hostile(function: str, argument: str) -> list[ToolCall]:
    """Calls to ``function(argument=...)`` that echo the old markers or could not be sent."""
    values: list[tuple[str, Any]] = [
        ("echo", ECHOED),
        ("surrogate", "1 + \ud800"),
        ("deep", nested(600)),
        ("huge", "1 + " * 300_000 + "1"),
    ]
    return [
        *(
            ToolCall(id=f"{name}-{function}", function=function, arguments={argument: value})
            for name, value in values
        ),
        # A lone surrogate in the call's id, and in its name (which the scripted reply's text
        # repeats): the log must still be written.
        ToolCall(id="\udfff", function=function, arguments={argument: "1 + 1"}),
        ToolCall(id="name", function=f"{function}\ud800", arguments={argument: "1 + 1"}),
    ]


def run(task_args: dict[str, Any], plan: Callable[..., ToolCall | str], **kwargs: Any) -> EvalLog:
    task = gsm8k(dataset=str(MINI_DATA), fewshot=0, **task_args)
    log: EvalLog = run_eval(task, tool_model(plan), limit=1, **kwargs)
    assert log.status == "success", log.error
    return log


def only_sample(log: EvalLog) -> EvalSample:
    assert log.samples is not None
    [sample] = log.samples
    assert sample.error is None
    return sample


def assert_scored_wrong(sample: EvalSample) -> None:
    """Scored, not left out: the attack did not take the sample out of the accuracy."""
    value = score(sample).value
    assert isinstance(value, dict), score(sample)
    assert value["accuracy"] == 0.0
    assert agent.FAILURE_KEY not in (sample.metadata or {})


def tool_errors(sample: EvalSample) -> list[str]:
    return [m.error.message for m in sample.messages if isinstance(m, ChatMessageTool) and m.error]


def assert_refused_three(sample: EvalSample) -> None:
    """The surrogate, the nesting and the size: refused before sending, read by the model."""
    refused = [e for e in tool_errors(sample) if "arguments were refused" in e]
    assert len(refused) == 3, tool_errors(sample)
    assert any("UTF-8" in e for e in refused)
    assert any("nested more than" in e for e in refused)
    assert any("larger than" in e for e in refused)


@pytest.mark.parametrize(
    ("task_args", "function", "argument"),
    [
        pytest.param({"tools": "calculator"}, "calculator", "expression", id="tools-calculator"),
        pytest.param({"tools": "python"}, "python_runner", "code", id="tools-python"),
    ],
)
def test_hostile_arguments_to_the_tasks_own_tools_end_scored(
    task_args: dict[str, Any], function: str, argument: str
) -> None:
    sample = only_sample(run(task_args, scripted(hostile(function, argument))))
    assert_scored_wrong(sample)
    assert_refused_three(sample)


def shipped_attacks() -> list[ToolCall]:
    program = f"print({ECHOED!r})\nraise RuntimeError({ECHOED!r})"
    return [
        *hostile("calculator", "expression"),
        ToolCall(id="program-echo", function="python", arguments={"code": program}),
        *hostile("python", "code")[1:4],
    ]


def test_shipped_server_over_stdio_is_not_unscored_or_aborted_by_the_model(tmp_path: Path) -> None:
    sample = only_sample(run({"mcp": shipped_server(tmp_path)}, scripted(shipped_attacks())))
    assert_scored_wrong(sample)
    errors = tool_errors(sample)
    assert sum(ECHOED in e for e in errors) == 2, errors  # the echoes reached the model
    assert sum("arguments were refused" in e for e in errors) == 6, errors


def test_shipped_server_over_http_is_not_unscored_or_aborted_by_the_model() -> None:
    with serving_http() as (_process, url):
        sample = only_sample(run({"mcp": url}, scripted(shipped_attacks())))
    assert_scored_wrong(sample)
    assert sum("arguments were refused" in e for e in tool_errors(sample)) == 6


def test_an_http_server_that_goes_away_between_calls_is_the_servers_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The harness's own evidence: the server process is gone and the next call's connection
    refused (no grace after the last call here: the scripted model kills it at once)."""
    monkeypatch.setattr(liveness, "AFTER_CALL_SECONDS", 0.0)
    with serving_http() as (process, url):
        killed: list[int] = []

        def plan(
            question: str, tools: list[ToolInfo], results: list[ChatMessageTool]
        ) -> ToolCall | str:
            if not results:
                return ToolCall(id="c1", function="calculator", arguments={"expression": "1 + 1"})
            if len(results) == 1:
                process.kill()
                process.wait(timeout=10)
                killed.append(process.pid)
                return ToolCall(id="c2", function="calculator", arguments={"expression": "2 + 2"})
            return WRONG

        sample = only_sample(run({"mcp": url}, plan))
    assert killed
    given = score(sample)
    assert isinstance(given.value, float) and math.isnan(given.value)
    assert given.reason == MCP_SERVER_FAILED
    assert "stopped answering" in (sample.metadata or {})[agent.FAILURE_KEY]


def test_an_http_server_that_goes_away_during_a_call_is_the_models_outcome(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Killed while a program runs: the client's transport fails and ends the turns with it,
    yet the model reads that the server exited, its next call is refused, its answer graded."""
    monkeypatch.setattr(calls, "CALL_SECONDS", 6.0)  # the lost call is given up sooner
    sleeper = ToolCall(id="p", function="python", arguments={"code": "import time\ntime.sleep(5)"})
    then = ToolCall(id="c", function="calculator", arguments={"expression": "2 + 2"})
    with serving_http() as (process, url):
        killer = threading.Timer(2.0, process.kill)

        def plan(
            question: str, tools: list[ToolInfo], results: list[ChatMessageTool]
        ) -> ToolCall | str:
            if not results:
                killer.start()
            return [sleeper, then][len(results)] if len(results) < 2 else WRONG

        sample = only_sample(run({"mcp": url}, plan))
        killer.join()
    assert_scored_wrong(sample)
    assert "a call to python" in (sample.metadata or {})[liveness.DIED_KEY]
    first, second = tool_errors(sample)
    assert first.startswith("python failed: the MCP server exited"), first
    assert second.startswith("calculator was not run: the MCP server exited"), second


def filesystem_config(tmp_path: Path) -> str:
    config = tmp_path / "filesystem.json"
    block = {
        "command": "npx",
        "args": ["-y", FILESYSTEM_PACKAGE, "{workdir}"],
        "env": {"npm_config_cache": str(NPM_CACHE), "npm_config_offline": "true"},
    }
    config.write_text(json.dumps(block), encoding="utf-8")
    return str(config)


DEPTH = 1_500


@pytest.mark.skipif(shutil.which("npx") is None, reason="node/npx is not installed")
@pytest.mark.skipif(
    not filesystem_cached(),
    reason=f"{FILESYSTEM_PACKAGE} is not in {NPM_CACHE} (see .ci/run for the one-time install)",
)
def test_npm_filesystem_server_attacks_end_scored_and_leave_no_tree(tmp_path: Path) -> None:
    """The seed's server: an ENOENT that echoes the old markers, arguments that cannot be sent,
    a tree 1,500 levels deep, many files and a large one in ``{workdir}``; all gone afterwards."""
    seen: list[str] = []

    def plan(
        question: str, tools: list[ToolInfo], results: list[ChatMessageTool]
    ) -> ToolCall | str:
        if not results:
            return ToolCall(id="dirs", function="list_allowed_directories", arguments={})
        folder = seen[0] if seen else results[0].text.splitlines()[-1].strip()
        if not seen:
            seen.append(folder)
        deep = folder + "/d" * DEPTH
        moves = [
            ToolCall(id="echo", function="read_file", arguments={"path": f"{folder}/{ECHOED}"}),
            *hostile("read_file", "path")[1:],
            ToolCall(id="deep", function="create_directory", arguments={"path": deep}),
            ToolCall(
                id="big",
                function="write_file",
                arguments={"path": f"{folder}/big.txt", "content": "9" * 200_000},
            ),
            *(
                ToolCall(
                    id=f"many-{n}",
                    function="write_file",
                    arguments={"path": f"{folder}/d/d/file-{n}.txt", "content": str(n)},
                )
                for n in range(4)
            ),
        ]
        step = len(results) - 1
        return moves[step] if step < len(moves) else WRONG

    sample = only_sample(run({"mcp": filesystem_config(tmp_path)}, plan, turn_limit=15))
    assert_scored_wrong(sample)
    errors = tool_errors(sample)
    assert any(ECHOED in e for e in errors), errors  # the echo reached the model, nothing more
    assert sum("arguments were refused" in e for e in errors) == 3, errors
    created = [m.text for m in sample.messages if isinstance(m, ChatMessageTool) and not m.error]
    assert any("Successfully created directory" in text for text in created), created
    assert seen and not os.path.lexists(seen[0])  # the 1,500-level tree is gone


def descendants() -> list[str]:
    """Command lines of this process's live descendants."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    family, found = {os.getpid()}, True
    while found:
        found = False
        for pid, parent in parents.items():
            if parent in family and pid not in family:
                family.add(pid)
                found = True
    lines = []
    for pid in family - {os.getpid()}:
        try:
            lines.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode())
        except OSError:
            continue
    return lines


def mounts_under(folder: Path) -> list[str]:
    table = Path("/proc/self/mountinfo").read_text().splitlines()
    return [line for line in table if str(folder) in line]


def test_a_time_limit_mid_program_leaves_no_image_process_or_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server is stopped at the sample's time limit while its programs run: its runtime
    image (a mounted tmpfs of ~326 MB as root), its sandboxes and the sample's folder are gone
    when the eval returns."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # the sample's {workdir} goes here
    config = tmp_path / "server.json"
    environment = {"PYTHONPATH": str(ROOT), "TMPDIR": str(scratch)}  # and the server's image
    block = {"command": sys.executable, "args": ["-m", "gsm8k.mcp_tools"], "env": environment}
    config.write_text(json.dumps(block), encoding="utf-8")
    sleep = ToolCall(
        id="sleep", function="python", arguments={"code": "import time\ntime.sleep(5)"}
    )
    before = descendants()

    sample = only_sample(run({"mcp": str(config)}, scripted([sleep] * 12), time_limit=15))
    assert sample.limit is not None and sample.limit.type == "time"
    assert_scored_wrong(sample)
    assert sample.metadata is not None and "mcp_server_failure" not in sample.metadata
    assert mounts_under(scratch) == []
    assert os.listdir(scratch) == []
    assert [line for line in descendants() if line not in before] == []


def test_a_time_limit_before_the_first_reply_is_a_scored_failure_not_an_engine_error() -> None:
    """Inspect's placeholder output (no choices) read like an engine's error and the sample was
    left unscored: a model slow enough to reach the limit took itself out of the accuracy."""

    async def slow(*_args: Any) -> ModelOutput:
        await anyio.sleep(60)
        raise AssertionError("the time limit should have ended the sample")

    task = gsm8k(dataset=str(MINI_DATA), fewshot=0, mcp="none")
    log = run_eval(task, get_model("mockllm/slow", custom_outputs=slow), limit=1, time_limit=2)
    assert log.status == "success", log.error
    sample = only_sample(log)
    assert sample.limit is not None and sample.limit.type == "time"
    assert_scored_wrong(sample)
    assert score(sample).reason == "no_response"


def test_a_shared_http_server_gives_each_session_its_program_budget() -> None:
    """Two samples at once on one gsm8k-mcp --http: each may run at most the budget's programs
    (20, as with tools=python), and its further calls run nothing and say why."""
    program = ToolCall(id="p", function="python", arguments={"code": "print(2 + 3)"})
    with serving_http() as (_process, url):
        task = gsm8k(dataset=str(MINI_DATA), fewshot=0, mcp=url)
        log = run_eval(
            task, tool_model(scripted([program] * 22)), limit=2, max_samples=2, turn_limit=30
        )
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == 2
    for sample in log.samples:
        assert_scored_wrong(sample)
        results = [m for m in sample.messages if isinstance(m, ChatMessageTool)]
        ran = [m for m in results if not m.error]
        assert len(ran) == DEFAULT_BUDGET.runs, [m.text for m in ran]
        assert all(m.text.endswith("Result: 5") for m in ran)
        refused = [m.error.message if m.error else m.text for m in results[DEFAULT_BUDGET.runs :]]
        assert len(refused) == 2, refused
        assert all("budget for this question is spent" in text for text in refused), refused


@pytest.mark.skipif(shutil.which("npx") is None, reason="node/npx is not installed")
@pytest.mark.skipif(
    not filesystem_cached(),
    reason=f"{FILESYSTEM_PACKAGE} is not in {NPM_CACHE} (see .ci/run for the one-time install)",
)
def test_a_time_limit_leaves_no_npm_server_process(tmp_path: Path) -> None:
    """npx, npm and node of the filesystem server are all stopped when a time limit ends the
    sample while the model is still thinking."""
    before = descendants()

    async def respond(messages: list[Any], *_args: Any) -> ModelOutput:
        if not any(isinstance(m, ChatMessageTool) for m in messages):
            output = ModelOutput.for_tool_call("fs", "list_allowed_directories", {})
        else:
            await anyio.sleep(120)  # the time limit strikes here
            output = ModelOutput.from_content("fs", WRONG)
        output.usage = ModelUsage(input_tokens=100, output_tokens=20, total_tokens=120)
        return output

    task = gsm8k(dataset=str(MINI_DATA), fewshot=0, mcp=filesystem_config(tmp_path))
    model = get_model("mockllm/fs", custom_outputs=respond)
    log = run_eval(task, model, limit=1, time_limit=20)
    assert log.status == "success", log.error
    sample = only_sample(log)
    assert sample.limit is not None and sample.limit.type == "time"
    assert_scored_wrong(sample)
    assert [line for line in descendants() if line not in before] == []
