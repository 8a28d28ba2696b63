"""A server's death, and what a server says about itself, read through real server processes.

A server that dies during or because of the model's calls is the model's outcome: the model
reads that it exited, the sample goes on to its answer and is graded, the log says how it died.
Only a server seen gone with no call in flight, then met by a call, leaves the sample unscored.
Liveness comes from the transport and the process, never from what a server answers (its ping
included). One eval runs every case of the hand-written server (tests/mcp_servers/deaths.py),
one sample each; the npm filesystem server is killed the way a model killed it (its heap).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from inspect_ai.log import EvalSample
from inspect_ai.model import ChatMessage, ChatMessageTool, ModelOutput, ModelUsage, get_model
from inspect_ai.tool import ToolInfo

from gsm8k.compare.mcp_pair import sample_use
from gsm8k.compare.mcp_report import side
from gsm8k.compare.runs import load_runs
from gsm8k.grading.reasons import MCP_SERVER_FAILED
from gsm8k.mcp_tools import liveness
from gsm8k.mcp_tools.agent import FAILURE_KEY
from gsm8k.mcp_tools.liveness import DIED_KEY
from gsm8k.mcp_tools.relay import ERROR_HEAD_LINES, ERROR_LINE_BYTES, ERROR_TAIL_LINES
from gsm8k.task import gsm8k
from tests.mcp_support import tool_model
from tests.scripted import last_user_text, run_eval
from tests.test_mcp_containment import filesystem_config
from tests.test_mcp_eval import FILESYSTEM_PACKAGE, NPM_CACHE, filesystem_cached, score

pytestmark = pytest.mark.slow

DEATHS = Path(__file__).parent / "mcp_servers" / "deaths.py"
WRONG = "ANSWER: 7"
AFTER_CALL = 8.0
"""The grace after a call, shortened for the test (the server killed from outside waits it
out)."""
CASES = ("crash", "crash-after", "killed-then-called", "killed-quietly", "lying", "shout")
"""One question each; the question names the case the scripted model plays."""

Step = Callable[[list[ChatMessageTool]], Awaitable[tuple[str, dict[str, Any]] | str]]


def case_data(tmp_path: Path) -> str:
    folder = tmp_path / "cases"
    folder.mkdir()
    rows = [
        {"question": f"Case {case}: what is 2 + 3?", "answer": "2 + 3 = 5\n#### 5"}
        for case in CASES
    ]
    text = "".join(json.dumps(row) + "\n" for row in rows)
    (folder / "test.jsonl").write_text(text, encoding="utf-8")
    (folder / "train.jsonl").write_text(text, encoding="utf-8")
    return str(folder)


def pid_of(result: ChatMessageTool) -> int:
    return int(result.text.rsplit("pid ", 1)[1].rstrip(")"))


async def kill(result: ChatMessageTool) -> None:
    """The server killed from outside while the model thinks, well after its last call (the
    eval's other samples run on meanwhile)."""
    await anyio.sleep(AFTER_CALL + 0.5)
    os.kill(pid_of(result), signal.SIGKILL)
    await anyio.sleep(5.0)  # time for the harness to see it, on a busy machine


def plays(case: str) -> Step:
    """The model's moves for ``case``: a tool call (name, arguments) or its final text."""

    async def step(results: list[ChatMessageTool]) -> tuple[str, dict[str, Any]] | str:
        done = len(results)
        query = {"query": "eggs"}
        if case == "crash":
            return [("crash", query), ("lookup", query)][done] if done < 2 else WRONG
        if case == "crash-after":  # it answers, then dies of the work: the next call meets it
            return [("crash_after", query), ("lookup", query)][done] if done < 2 else WRONG
        if case in ("killed-then-called", "killed-quietly"):
            if done == 1:
                await kill(results[0])
                if case == "killed-quietly":
                    return WRONG
            return [("lookup", query), ("lookup", query)][done] if done < 2 else WRONG
        if case == "lying":
            return [("closed_error", query), ("lookup", query)][done] if done < 2 else WRONG
        return ("shout", query) if done == 0 else WRONG

    return step


def scripted(respond: Callable[[str], Step]) -> Any:
    async def generate(messages: list[ChatMessage], tools: list[ToolInfo], *_: Any) -> ModelOutput:
        question = last_user_text(messages).rsplit("Question:", 1)[-1]
        results = [m for m in messages if isinstance(m, ChatMessageTool)]
        move = await respond(question)(results)
        if isinstance(move, str):
            output = ModelOutput.from_content(model="deaths", content=move)
        else:
            name, arguments = move
            output = ModelOutput.for_tool_call("deaths", name, arguments, f"c{len(results)}")
        output.usage = ModelUsage(input_tokens=100, output_tokens=20, total_tokens=120)
        return output

    return get_model("mockllm/deaths", custom_outputs=generate, memoize=False)


def errors(sample: EvalSample) -> list[str]:
    return [
        m.error.message if m.error else ""
        for m in sample.messages
        if isinstance(m, ChatMessageTool)
    ]


def scored_wrong(sample: EvalSample) -> bool:
    value = score(sample).value
    return isinstance(value, dict) and value["accuracy"] == 0.0


def server_lines(sample: EvalSample) -> list[str]:
    """What the sample's log holds of the server's error output (one logger event a line; the
    relay's own lines among them)."""
    return [event.message.message for event in sample.events if event.event == "logger"]


def test_deaths_are_read_from_the_transport_and_timed_against_the_models_calls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(liveness, "AFTER_CALL_SECONDS", AFTER_CALL)
    config = tmp_path / "deaths.json"
    config.write_text(json.dumps({"command": sys.executable, "args": [str(DEATHS)]}), "utf-8")
    task = gsm8k(dataset=case_data(tmp_path), fewshot=0, mcp=str(config))
    model = scripted(lambda question: plays(question.split("Case ", 1)[1].split(":")[0]))
    log = run_eval(task, model, max_samples=len(CASES), log_dir=str(tmp_path / "logs"))
    assert log.status == "success", log.error
    samples = {str(s.input).split("Case ", 1)[1].split(":")[0]: s for s in log.samples or []}
    assert sorted(samples) == sorted(CASES)

    # Killed by its call: the model reads it, later calls are not run, the sample is graded.
    for case in ("crash", "crash-after"):
        sample = samples[case]
        assert scored_wrong(sample), (case, score(sample))
        assert FAILURE_KEY not in (sample.metadata or {})
        died = (sample.metadata or {})[DIED_KEY]
        assert died.startswith("the MCP server exited during or just after a call to "), died
        said = errors(sample)
        # Seen when it happened, or by the call that met it: either way the model reads it.
        assert "the MCP server exited" in said[-1], said
        assert "no more calls can be made to it" in said[-1], said
        assert any("status 134" in line for line in server_lines(sample)), server_lines(sample)
    assert "crash failed: the MCP server exited" in errors(samples["crash"])[0]
    assert errors(samples["crash"])[1].startswith("lookup was not run: the MCP server exited")
    assert "a call to crash:" in (samples["crash"].metadata or {})[DIED_KEY]
    assert "heap limit" in " ".join(server_lines(samples["crash"]))  # its last word, logged

    # Gone between calls, then called: the server's failure, unscored.
    failed = samples["killed-then-called"]
    value = score(failed).value
    assert isinstance(value, float) and math.isnan(value)
    assert score(failed).reason == MCP_SERVER_FAILED
    assert "stopped answering" in (failed.metadata or {})[FAILURE_KEY]
    # Gone between calls with no call after: the answer stands, the death is in the log.
    quiet = samples["killed-quietly"]
    assert scored_wrong(quiet)
    assert "between calls, and no call met it" in (quiet.metadata or {})[DIED_KEY]

    # A live server answering the call and every ping with "Connection closed" is not gone.
    lying = samples["lying"]
    assert scored_wrong(lying)
    assert not {FAILURE_KEY, DIED_KEY} & set(lying.metadata or {})
    assert "Connection closed" in errors(lying)[0]
    assert errors(lying)[1] == ""  # the next call ran

    # 100,000 lines and 16 MiB without a newline: the log holds a bounded head and tail.
    shout = samples["shout"]
    assert scored_wrong(shout)
    lines = server_lines(shout)
    assert ERROR_TAIL_LINES < len(lines) <= ERROR_HEAD_LINES + ERROR_TAIL_LINES + 2, len(lines)
    assert max(len(line) for line in lines) < ERROR_LINE_BYTES + 100
    assert any("lines (" in line and "left out here" in line for line in lines), lines[:3]

    # The report counts the graded samples whose server died apart from the others.
    [run] = load_runs(str(tmp_path / "logs"))
    use = sample_use(run)
    assert sorted(use) == sorted((s.id, 1) for s in log.samples or [] if s.id != failed.id)
    assert sum(u.server_died for u in use.values()) == 3  # crash, crash-after, killed-quietly
    assert side(run, use, str(tmp_path)).server_died == 3


HEAP = "--max-old-space-size=48"
"""A small heap for node, so that a few hundred reads of one file exhaust it in seconds (its
default heap fell to 6,000 reads of a 250 kB file, at minutes of CPU)."""


@pytest.mark.skipif(shutil.which("npx") is None, reason="node/npx is not installed")
@pytest.mark.skipif(
    not filesystem_cached(),
    reason=f"{FILESYSTEM_PACKAGE} is not in {NPM_CACHE} (see .ci/run for the one-time install)",
)
def test_a_model_that_exhausts_the_npm_servers_heap_is_graded(tmp_path: Path) -> None:
    """One 250 kB file named 400 times in ``read_multiple_files``: node's heap runs out and it
    exits mid-call. The model reads that, its next call is not run, its answer is graded."""
    config = Path(filesystem_config(tmp_path))
    block = json.loads(config.read_text("utf-8"))
    block["env"]["NODE_OPTIONS"] = HEAP
    config.write_text(json.dumps(block), "utf-8")
    folder: list[str] = []

    def plan(question: str, tools: list[ToolInfo], results: list[ChatMessageTool]) -> Any:
        from inspect_ai.tool import ToolCall

        if not results:
            return ToolCall(id="dirs", function="list_allowed_directories", arguments={})
        if not folder:
            folder.append(results[0].text.splitlines()[-1].strip())
        path = f"{folder[0]}/big.txt"
        moves = [
            ToolCall(
                id="w", function="write_file", arguments={"path": path, "content": "9" * 250_000}
            ),
            ToolCall(id="r", function="read_multiple_files", arguments={"paths": [path] * 400}),
            ToolCall(id="again", function="list_allowed_directories", arguments={}),
        ]
        return moves[len(results) - 1] if len(results) <= len(moves) else WRONG

    task = gsm8k(
        dataset=str(Path(__file__).parent / "fixtures" / "mini"), fewshot=0, mcp=str(config)
    )
    log = run_eval(task, tool_model(plan), limit=1)
    assert log.status == "success", log.error
    [sample] = log.samples or []
    assert scored_wrong(sample), score(sample)
    assert FAILURE_KEY not in (sample.metadata or {})
    assert "read_multiple_files" in (sample.metadata or {})[DIED_KEY]
    said = errors(sample)
    assert said[1] == "" and "read_multiple_files failed: the MCP server exited" in said[2], said
    assert "was not run" in said[3], said
    assert any("exited by itself" in line for line in server_lines(sample)), server_lines(sample)
