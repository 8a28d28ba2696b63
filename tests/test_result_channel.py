"""Whatever bytes a program writes on the result channel, the run goes on and the sample is
scored: deeply nested JSON, unhashable fields, huge lines, bytes that are not UTF-8.

The program shares the bootstrap's interpreter, so it can find the channel (the bootstrap's
``channel`` variable in ``__main__``), write anything there and end before the bootstrap writes
its own line. Each payload runs through the real bubblewrap sandbox, through the container
runner's code path (Inspect's ``local`` sandbox standing in for docker, as the trusted opt-in),
and through whole evals in ``mode=pal`` and with the python tool.
"""

from __future__ import annotations

import base64
import json
import sys
import zlib
from pathlib import Path

import pytest
from inspect_ai.model import ChatMessage, ChatMessageTool, ModelOutput
from inspect_ai.tool import ToolInfo

from gsm8k.execution.result_line import read_result_line
from gsm8k.execution.runner import Limits, run_program
from gsm8k.task import gsm8k
from tests.scripted import last_user_text, mock_model, run_eval, scripted_model

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the OS sandbox needs Linux namespaces"
)

FAST = Limits(timeout_seconds=6.0, cpu_seconds=3)
NESTED = "[" * 5000 + "]" * 5000
PAYLOADS: dict[str, tuple[bytes, str]] = {
    # name: (bytes written on the channel, expected status)
    "nested-status": (b'{"status": ' + NESTED.encode() + b', "value": null, "error": null}\n', "invalid_result"),
    "nested-value": (b'{"status": "ok", "value": ' + NESTED.encode() + b', "error": null}\n', "invalid_result"),
    "nested-object": (b'{"a": ' * 4000 + b"1" + b"}" * 4000 + b"\n", "invalid_result"),
    "list-status": (b'{"status": ["ok"], "value": "18", "error": null}\n', "invalid_result"),
    "object-status": (b'{"status": {"ok": 1}, "value": "18", "error": null}\n', "invalid_result"),
    "object-error": (b'{"status": "error", "value": null, "error": {"x": [1]}}\n', "invalid_result"),
    "nan-error": (b'{"status": "ok", "value": "18", "error": NaN}\n', "invalid_result"),
    "huge-integer-literal": (b'{"status": "ok", "value": "18", "error": ' + b"9" * 6000 + b"}\n", "invalid_result"),
    "huge-line": (b"1" * 2_000_000, "invalid_result"),
    "not-utf8": (b'\xff\xfe{"status": "ok", "value": "18", "error": null}\n', "invalid_result"),
    "nul-bytes": (b"\x00" * 1000 + b"\n", "invalid_result"),
    "lone-surrogate-value": (b'{"status": "ok", "value": "\\ud800", "error": null}\n', "no_result"),
    "empty-line": (b"\n", "invalid_result"),
}  # fmt: skip


def channel_program(payload: bytes) -> str:
    """A program that writes ``payload`` on the result channel and ends before the bootstrap.

    The payload travels compressed: the program stays a few KiB (a tool call's arguments are
    refused past 256 KiB) while what it writes is the full payload."""
    packed = base64.b64encode(zlib.compress(payload, 9)).decode("ascii")
    return (
        "import base64, os, sys, zlib\n"
        "fd = sys.modules['__main__'].channel\n"
        f"data = zlib.decompress(base64.b64decode({packed!r}))\n"
        "while data:\n"
        "    data = data[os.write(fd, data):]\n"
        "os._exit(0)\n"
    )


@pytest.mark.parametrize("name", list(PAYLOADS))
def test_the_reader_returns_a_verdict_for_any_bytes(name: str) -> None:
    payload, expected = PAYLOADS[name]
    kept, dropped = payload[: 16 * 1024], max(0, len(payload) - 16 * 1024)
    status, value, error = read_result_line(kept, dropped)
    assert (status, value) == (expected, None) and error


@pytest.mark.parametrize("name", list(PAYLOADS))
def test_the_bubblewrap_runner_scores_any_channel_bytes(name: str) -> None:
    payload, expected = PAYLOADS[name]
    result = run_program(channel_program(payload), FAST)
    assert (result.status, result.value) == (expected, None), result


def _gsm8k_dir(tmp_path: Path, names: list[str]) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    with (data / "test.jsonl").open("w") as handle:
        for index, name in enumerate(names):
            record = {
                "question": f"Problem [{name}]: a farmer has {index} apples and buys 18 more.",
                "answer": f"{index} + 18 = {index + 18}\n#### {index + 18}",
            }
            handle.write(json.dumps(record) + "\n")
    return data


def _name(prompt: str, names: list[str]) -> str:
    return next(n for n in names if f"[{n}]" in prompt.rsplit("Question:", 1)[-1])


HONEST = "honest"


def _program(name: str, names: list[str]) -> str:
    if name == HONEST:
        return f"def solution():\n    return {names.index(HONEST)} + 18\n"
    return channel_program(PAYLOADS[name][0])


@pytest.mark.slow
@pytest.mark.parametrize("sandbox", [None, "local"], ids=["bwrap", "container-runner"])
def test_a_pal_eval_scores_every_hostile_channel(tmp_path: Path, sandbox: str | None) -> None:
    names = [*PAYLOADS, HONEST]
    data = _gsm8k_dir(tmp_path, names)
    model = scripted_model(
        lambda prompt: f"```python\n{_program(_name(prompt, names), names)}\n```", "hostile"
    )
    task = gsm8k(
        dataset=str(data), fewshot=0, mode="pal", sandbox=sandbox, trust_model_code=bool(sandbox)
    )
    log = run_eval(task, model, log_dir=str(tmp_path / "logs"), max_connections=4)
    assert log.status == "success", log.error
    scores = {_name(s.input, names): s.scores["pal_grader"] for s in log.samples}
    assert scores[HONEST].value["accuracy"] == 1.0, scores[HONEST].explanation
    for name in PAYLOADS:
        assert scores[name].value["accuracy"] == 0.0, name
        assert scores[name].metadata["status"] in ("invalid_result", "no_result"), (
            name,
            scores[name].explanation,
        )


def test_a_tool_eval_scores_every_hostile_channel(tmp_path: Path) -> None:
    names = [*PAYLOADS, HONEST]
    data = _gsm8k_dir(tmp_path, names)

    def respond(messages: list[ChatMessage], tools: list[ToolInfo]) -> ModelOutput:
        name = _name(last_user_text(messages), names)
        results = [m for m in messages if isinstance(m, ChatMessageTool)]
        if not results:
            return ModelOutput.for_tool_call(
                "hostile", "python_runner", {"code": _program(name, names)}
            )
        text = results[-1].text
        value = text.rsplit("Result:", 1)[-1].strip() if "Result:" in text else "-1"
        return ModelOutput.from_content("hostile", f"ANSWER: {value}")

    task = gsm8k(dataset=str(data), fewshot=0, tools="python")
    log = run_eval(task, mock_model(respond, "hostile"), log_dir=str(tmp_path / "logs"))
    assert log.status == "success", log.error
    scores = {_name(s.input, names): s.scores["gsm8k_grader"] for s in log.samples}
    assert scores[HONEST].value["accuracy"] == 1.0
    for name in PAYLOADS:
        assert scores[name].value["accuracy"] == 0.0, name
    tool_results = {
        _name(s.input, names): next(m.text for m in s.messages if isinstance(m, ChatMessageTool))
        for s in log.samples
    }
    for name in PAYLOADS:
        assert (
            "Error (invalid_result)" in tool_results[name]
            or "Error (no_result)" in (tool_results[name])
        ), (name, tool_results[name])
