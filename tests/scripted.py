"""Scripted models for end-to-end tests: replies decided by the prompt, usage preset."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Model,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.tool import ToolChoice, ToolInfo

Reply = str | tuple[str, str]
"""A completion, or (completion, stop_reason)."""

Responder = Callable[[list[ChatMessage], list[ToolInfo]], ModelOutput]


def mock_model(respond: Responder, name: str = "scripted") -> Model:
    """A mockllm model driven by ``respond(messages, tools)``.

    Usage is set on every output so that Inspect never downloads a tokenizer to count tokens.
    """

    def generate(
        messages: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        output = respond(messages, tools)
        output.usage = ModelUsage(input_tokens=100, output_tokens=20, total_tokens=120)
        return output

    return get_model(f"mockllm/{name}", custom_outputs=generate, memoize=False)


def scripted_model(
    replies: Mapping[str, Reply] | Callable[[str], Reply], name: str = "scripted"
) -> Model:
    """A model whose reply depends on the last user message's text.

    ``replies`` maps a fragment of the question to the completion (the first fragment found
    after the prompt's last "Question:" wins), or is a function of the prompt.
    """

    def respond(messages: list[ChatMessage], tools: list[ToolInfo]) -> ModelOutput:
        prompt = last_user_text(messages)
        reply = replies(prompt) if callable(replies) else _lookup(replies, prompt)
        text, stop_reason = (reply, "stop") if isinstance(reply, str) else reply
        return ModelOutput.from_content(model=name, content=text, stop_reason=stop_reason)  # type: ignore[arg-type]

    return mock_model(respond, name)


def last_user_text(messages: list[ChatMessage]) -> str:
    return next(m.text for m in reversed(messages) if m.role == "user")


def _lookup(replies: Mapping[str, Reply], prompt: str) -> Reply:
    for fragment, reply in replies.items():
        if fragment in prompt.rsplit("Question:", 1)[-1]:
            return reply
    raise AssertionError(f"no scripted reply for prompt ending {prompt[-200:]!r}")


def run_eval(task: Any, model: Model, **kwargs: Any) -> Any:
    """Run one task through Inspect quietly and return its log."""
    from inspect_ai import eval as inspect_eval

    kwargs.setdefault("display", "none")
    kwargs.setdefault("log_dir", None)
    # The tests read a log once its run has ended. The sample buffer Inspect keeps beside a log
    # while it runs (for `inspect view` to follow a run live) cost 40% of a scripted eval's CPU
    # (600 samples: 21.6 CPU-s with it, 12.5 without); a test of that buffer asks for it.
    kwargs.setdefault("log_realtime", False)
    logs = inspect_eval(task, model=model, **kwargs)
    assert len(logs) == 1
    return logs[0]
