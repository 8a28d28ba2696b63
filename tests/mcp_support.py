"""Helpers for the MCP tests: a model that calls a server's tools, and server configs."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
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
    """``gsm8k-mcp`` over stdio, as ``python -m gsm8k.mcp``."""
    return python_server_config(tmp_path, ["-m", "gsm8k.mcp"], name="gsm8k-mcp")
