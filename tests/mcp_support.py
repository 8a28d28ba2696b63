"""Helpers for the MCP tests: a model that calls a server's tools, and server configs."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageTool, Model, ModelOutput
from inspect_ai.tool import ToolCall, ToolInfo

from tests.scripted import last_user_text, mock_model

ROOT = Path(__file__).resolve().parent.parent
FAULTY = Path(__file__).parent / "mcp_servers" / "faulty.py"

Plan = Callable[[str, list[ToolInfo], list[ChatMessageTool]], ToolCall | str]
"""The model's next move from the question, the tools offered and the results so far: a tool
call, or its final text."""


def tool_model(plan: Plan, name: str = "scripted") -> Model:
    """A mockllm model that calls tools as ``plan`` says, then answers."""

    def respond(messages: list[ChatMessage], tools: list[ToolInfo]) -> ModelOutput:
        question = last_user_text(messages).rsplit("Question:", 1)[-1]
        results = [m for m in messages if isinstance(m, ChatMessageTool)]
        move = plan(question, tools, results)
        if isinstance(move, str):
            return ModelOutput.from_content(model=name, content=move)
        return ModelOutput.for_tool_call(
            model=name, tool_name=move.function, tool_arguments=move.arguments, tool_call_id=move.id
        )

    return mock_model(respond, name)


def call(function: str, **arguments: Any) -> ToolCall:
    return ToolCall(
        id=f"call-{function}-{len(str(arguments))}", function=function, arguments=arguments
    )


def python_server_config(tmp_path: Path, args: list[str], name: str = "server") -> str:
    """A bare JSON server block running this interpreter with ``args`` and this checkout on its
    path (an MCP client passes a server only a minimal environment)."""
    path = tmp_path / f"{name}.json"
    block = {"command": sys.executable, "args": args, "env": {"PYTHONPATH": str(ROOT)}}
    path.write_text(json.dumps(block), encoding="utf-8")
    return str(path)


def faulty_server(tmp_path: Path, mode: str) -> str:
    return python_server_config(tmp_path, [str(FAULTY), mode], name=mode)


def shipped_server(tmp_path: Path) -> str:
    """``gsm8k-mcp`` over stdio, as ``python -m gsm8k.mcp_tools``."""
    return python_server_config(tmp_path, ["-m", "gsm8k.mcp_tools"], name="gsm8k-mcp")


@contextlib.contextmanager
def serving_http(
    env: dict[str, str] | None = None,
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``gsm8k-mcp --http`` on a free loopback port: its process and URL, stopped afterwards."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    environment = os.environ | {"PYTHONPATH": str(ROOT)} | (env or {})
    process = subprocess.Popen(
        [sys.executable, "-m", "gsm8k.mcp_tools", "--http", "--port", str(port)],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert process.poll() is None, f"gsm8k-mcp --http exited ({process.returncode})"
                assert time.monotonic() < deadline, "gsm8k-mcp --http did not listen in 60 s"
                time.sleep(0.2)
        yield process, f"http://127.0.0.1:{port}/mcp"
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
