"""``gsm8k-compare --mcp`` on a scripted pair whose answers are set here: every figure of the
report checked against a hand count, and pairs that differ in more than the server refused."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log
from inspect_ai.model import ChatMessageTool
from inspect_ai.tool import ToolCall, ToolInfo

from gsm8k.compare.cli import main
from gsm8k.task import gsm8k
from tests.conftest import MINI_DATA
from tests.mcp_support import (
    FAULTY,
    ROOT,
    Plan,
    call,
    python_server_config,
    tool_model,
)
from tests.scripted import run_eval

pytestmark = pytest.mark.slow

QUESTIONS = ["Janet", "robe", "house costs", "diver", "pencils", "factory"]
WITH_SERVER = ["18", "3", "1450000", "-9", None, "2880000"]
"""The answer written with the server, per question (``None``: no answer at all)."""
WITHOUT = ["18", "4", "1450001", "-10", "123456", None]


def reply(answer: str | None) -> str:
    return f"So the result is clear.\nANSWER: {answer}" if answer else "I am not sure."


def index(question: str) -> int:
    return next(i for i, fragment in enumerate(QUESTIONS) if fragment in question)


def with_server_plan(
    question: str, tools: list[ToolInfo], results: list[ChatMessageTool]
) -> ToolCall | str:
    number = index(question)
    if number == 0 and not results:
        return call("calculator", expression="1/0")  # one call that fails
    if len(results) < (2 if number == 0 else 1):
        return call("calculator", expression="1 + 1")
    return reply(WITH_SERVER[number])


def without_plan(question: str, tools: list[ToolInfo], results: list[ChatMessageTool]) -> str:
    return reply(WITHOUT[index(question)])


def run_side(logs: Path, mcp: str | None, plan: Plan, fewshot: int = 0) -> Path:
    """One run of a pair into ``logs``; returns its log file."""
    chosen = {} if mcp is None else {"mcp": mcp}  # None: the plain task, no mcp at all
    task = gsm8k(dataset=str(MINI_DATA), fewshot=fewshot, **chosen)
    log: EvalLog = run_eval(task, tool_model(plan), log_dir=str(logs))
    assert log.status == "success", log.error
    return Path(log.location)


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scripted pair, with the shipped server (one for the run) and with ``mcp=none``: the
    logs folder, read (never written) by every test that takes it."""
    logs = tmp_path_factory.mktemp("pair") / "logs"
    run_side(logs, "gsm8k-mcp", with_server_plan)
    run_side(logs, "none", without_plan)
    return logs


def with_baseline(
    pair: Path, tmp_path: Path, baseline: str | None = "none", fewshot: int = 0
) -> Path:
    """The pair's with-server log beside a baseline run as given, in a folder of its own."""
    logs = tmp_path / "logs"
    logs.mkdir()
    [with_log] = [log for log in pair.iterdir() if _server(log) == "gsm8k-mcp"]
    shutil.copy(with_log, logs / with_log.name)
    run_side(logs, baseline, without_plan, fewshot)
    return logs


def _server(log: Path) -> object:
    return (read_eval_log(str(log), header_only=True).eval.metadata or {}).get("mcp_server")


def wilson(correct: int, total: int) -> tuple[float, float]:
    z = 1.959963984540054
    p = correct / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return centre - half, centre + half


def test_every_figure_of_the_report_matches_a_hand_count(
    pair: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = pair
    output = tmp_path / "mcp.json"
    assert main([str(logs), "--mcp", "--json", str(output)]) == 0
    report = json.loads(output.read_text(encoding="utf-8"))
    text = capsys.readouterr().out
    with_side, without_side = report["with_server"], report["without_server"]

    # With: right on 0, 1, 2, 5; 4 has no answer. Without: right on 0, 3, 4; 5 has no answer.
    assert with_side["accuracy"] == pytest.approx(4 / 6)
    assert without_side["accuracy"] == pytest.approx(3 / 6)
    assert (with_side["ci_low"], with_side["ci_high"]) == pytest.approx(wilson(4, 6))
    assert (without_side["ci_low"], without_side["ci_high"]) == pytest.approx(wilson(3, 6))
    assert with_side["extraction_failure"] == pytest.approx(1 / 6)
    assert without_side["extraction_failure"] == pytest.approx(1 / 6)
    assert report["solved_only_with_server"] == [1, 2, 5]
    assert report["solved_only_without_server"] == [3, 4]
    assert report["difference"] == pytest.approx(1 / 6)
    assert report["mcnemar_p"] == pytest.approx(1.0)  # 3 against 2 discordant: 2 * P(X >= 3)
    assert report["common_samples"] == 6

    # Tool calls: one per question, two on question 0 (the first, 1/0, fails): 7 calls, 1 error.
    assert with_side["tool_calls_per_sample"] == pytest.approx(7 / 6)
    assert with_side["tool_error_rate"] == pytest.approx(1 / 7)
    assert without_side["tool_calls_per_sample"] == 0
    assert without_side["tool_error_rate"] is None

    # Tokens: 120 per reply (the scripted usage); 13 replies with the server, 6 without.
    assert with_side["tokens_per_sample"] == pytest.approx(13 * 120 / 6)
    assert with_side["tokens_per_correct"] == pytest.approx(13 * 120 / 4)
    assert without_side["tokens_per_sample"] == pytest.approx(120)
    assert without_side["tokens_per_correct"] == pytest.approx(6 * 120 / 3)

    # Wall time: each sample's own total time, as the logs hold it; the server's start-up (from
    # each sample's metadata) apart from the solving time.
    for side, count, correct in ((with_side, 0, 4), (without_side, 1, 3)):
        logs_found = sorted(list_eval_logs(str(logs)), key=lambda info: info.mtime or 0)
        log = read_eval_log(logs_found[count])
        total = sum(sample.total_time or 0.0 for sample in log.samples or [])
        starts = [(sample.metadata or {}).get("mcp_start_seconds") for sample in log.samples or []]
        started = sum(start or 0.0 for start in starts)
        assert side["seconds_per_sample"] == pytest.approx(total / 6)
        assert side["solving_seconds_per_sample"] == pytest.approx((total - started) / 6)
        assert side["solving_seconds_per_correct"] == pytest.approx((total - started) / correct)
        # The run's own wall time: its log's start to end, not the sum of its samples'.
        began, ended = (
            datetime.fromisoformat(t) for t in (log.stats.started_at, log.stats.completed_at)
        )
        assert side["run_seconds"] == pytest.approx((ended - began).total_seconds(), abs=1e-3)
        if count == 0:
            assert all(start is not None and start > 0 for start in starts)
            assert side["start_seconds_per_sample"] == pytest.approx(started / 6)
        else:
            assert starts == [None] * 6 and side["start_seconds_per_sample"] is None

    # Input and output tokens: 100 and 20 per reply (the scripted usage).
    assert with_side["input_tokens_per_sample"] == pytest.approx(13 * 100 / 6)
    assert with_side["output_tokens_per_sample"] == pytest.approx(13 * 20 / 6)
    assert with_side["cost_per_sample"] is None  # no --prices

    # Smallest detectable: (z(.975) + z(.8)) * sqrt((5 / 6) / 6), capped at the whole range.
    assert report["smallest_detectable_difference"] == pytest.approx(
        min(1.0, (1.959963984540054 + 0.8416212335729143) * math.sqrt(5 / 6 / 6))
    )
    assert report["verdict"] == "no effect detectable at this n"
    assert report["server"] == "gsm8k-mcp"

    assert "**Verdict: no effect detectable at this n.**" in text
    assert "| accuracy (95% CI) | 66.7% (" in text
    assert "| tool calls / sample | 1.17 | 0.00 |" in text
    assert "| tool error rate | 14.3% | - |" in text
    assert "| tokens / correct answer | 390 | 240 |" in text
    assert "| tokens / sample (input + output) | 260 (217 + 43) | 120 (100 + 20) |" in text
    assert "| server start-up / sample |" in text and "| cost / sample |" not in text
    assert re.search(r"\| run, wall time \| [\d.]+ s \| [\d.]+ s \|", text), text
    assert "no tool call" not in text
    assert "Solved only with the server: 3 (1–2, 5). Solved only without it: 2 (3–4)." in text


def test_a_pair_that_differs_in_more_than_the_server_is_refused(
    pair: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = with_baseline(pair, tmp_path, fewshot=1)
    assert main([str(logs), "--mcp"]) == 3
    error = capsys.readouterr().err
    assert "differ in more than the server" in error
    assert "`fewshot`" in error


def test_a_plain_run_as_the_baseline_is_refused_naming_mcp_none(
    pair: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = with_baseline(pair, tmp_path, baseline=None)
    assert main([str(logs), "--mcp"]) == 3
    error = capsys.readouterr().err
    assert "it was run without -T mcp" in error and "Run the baseline with -T mcp=none" in error


def test_one_run_alone_is_not_a_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    logs = tmp_path / "logs"
    task = gsm8k(dataset=str(MINI_DATA), fewshot=0, mcp="none")
    run_eval(task, tool_model(without_plan), log_dir=str(logs), limit=1)
    assert main([str(logs), "--mcp"]) == 2
    assert "found 0 with a server and 1 without" in capsys.readouterr().err


def test_samples_the_server_failed_are_listed_with_the_command_that_runs_them_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The server passes the check before the run, then fails to start for the first sample
    only: that sample is unscored, left out of the pair, and named with its rerun command."""
    config = python_server_config(tmp_path, [str(FAULTY), "start-fails"], name="flaky")
    block = json.loads(Path(config).read_text(encoding="utf-8"))
    block["env"]["FLAKY_MARKER"] = str(tmp_path / "started")
    block["env"]["FLAKY_FAIL"] = "2"
    Path(config).write_text(json.dumps(block), encoding="utf-8")

    def lookup(
        question: str, tools: list[ToolInfo], results: list[ChatMessageTool]
    ) -> ToolCall | str:
        return call("lookup", query="x") if not results else reply(WITH_SERVER[index(question)])

    logs = tmp_path / "logs"
    for mcp, plan in ((config, lookup), ("none", without_plan)):
        task = gsm8k(dataset=str(MINI_DATA), fewshot=0, mcp=mcp)
        log = run_eval(task, tool_model(plan), log_dir=str(logs), limit=2, max_samples=1)
        assert log.status == "success", log.error
    output = tmp_path / "mcp.json"
    assert main([str(logs), "--mcp", "--json", str(output)]) == 0
    report = json.loads(output.read_text(encoding="utf-8"))
    assert report["with_server"]["unscored"] == [0]
    assert report["without_server"]["unscored"] == []
    assert report["common_samples"] == 1
    assert "--sample-id 0 --log-dir" in report["with_server"]["rerun"]
    text = capsys.readouterr().out
    assert (
        "Unscored with the server (the server or the engine failed them, not the model): 1 (0)."
        in text
    )
    assert report["with_server"]["rerun"] in text


def test_outputs_the_mcp_report_does_not_write_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path), "--mcp", "--png", str(tmp_path / "x.png")]) == 2
    assert "--mcp writes its report on stdout and to --json only" in capsys.readouterr().err


def test_prices_give_the_cost_per_sample_and_per_correct_answer(
    pair: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = pair
    output = tmp_path / "mcp.json"
    assert main([str(logs), "--mcp", "--prices", "2,10", "--json", str(output)]) == 0
    report = json.loads(output.read_text(encoding="utf-8"))
    # With: 13 replies of 100 input and 20 output tokens over 6 samples, 4 right.
    cost = (13 * 100 * 2 + 13 * 20 * 10) / 1_000_000
    assert report["with_server"]["cost_per_sample"] == pytest.approx(cost / 6)
    assert report["with_server"]["cost_per_correct"] == pytest.approx(cost / 4)
    assert report["without_server"]["cost_per_correct"] == pytest.approx(
        (6 * 100 * 2 + 6 * 20 * 10) / 1_000_000 / 3
    )
    assert report["prices_per_million_tokens"] == {"input": 2.0, "output": 10.0}
    assert "| cost / correct answer | $0.001300 | $0.000800 |" in capsys.readouterr().out


@pytest.mark.parametrize("prices", ["2", "a,b", "-1,2", "1,2,3"])
def test_prices_in_another_form_are_refused(
    prices: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["nowhere", "--mcp", f"--prices={prices}"]) == 2
    assert "--prices" in capsys.readouterr().err


def test_a_side_that_never_called_a_tool_is_said_to_measure_the_offer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "logs"
    for mcp in ("gsm8k-mcp", "none"):
        task = gsm8k(dataset=str(MINI_DATA), fewshot=0, mcp=mcp)
        log = run_eval(task, tool_model(without_plan), log_dir=str(logs), limit=2)
        assert log.status == "success", log.error
    assert main([str(logs), "--mcp"]) == 0
    text = capsys.readouterr().out
    assert "**The model made no tool call with the server** (2 samples)" in text
    assert "measures offering the tools" in text


def test_the_keyless_demo_pair_runs_end_to_end_from_the_command_line(tmp_path: Path) -> None:
    """``plumbing-demo/tool-caller`` with ``gsm8k-mcp`` and with ``mcp=none``, as the docs run it:
    real tool traffic, both runs scored, and the report names the server (exit 0)."""
    logs = tmp_path / "logs"
    inspect = Path(sys.executable).parent / "inspect"
    environment = os.environ | {"PYTHONPATH": str(ROOT)}
    for mcp in ("gsm8k-mcp", "none"):
        done = subprocess.run(
            [
                str(inspect), "eval", "gsm8k/task.py", "--model", "plumbing-demo/tool-caller",
                "-T", f"dataset={MINI_DATA}", "-T", "fewshot=0", "-T", f"mcp={mcp}",
                "--limit", "3", "--log-dir", str(logs), "--display", "plain",
            ],
            cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        if mcp == "gsm8k-mcp":  # the check before the run says what it did, in one line
            assert re.search(
                r"^gsm8k: mcp=gsm8k-mcp \(one server for the run\): checking the server starts "
                r"and lists its tools… 2 tools listed in [\d.]+ s$",
                done.stderr,
                re.MULTILINE,
            ), done.stderr[-2000:]
    done = subprocess.run(
        [str(Path(sys.executable).parent / "gsm8k-compare"), str(logs), "--mcp"],
        capture_output=True, text=True, timeout=600, env=environment,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "# Does `gsm8k-mcp` help `plumbing-demo/tool-caller` on GSM8K?" in done.stdout
    assert "no tool call" not in done.stdout
    assert "| samples scored | 3 | 3 |" in done.stdout
