"""Screening a model's tool-call arguments before anything else touches them.

The arguments are the model's: any JSON-like value it (or a provider) can produce. Several
consumers on the way to a tool cannot take every such value, and each failure used to abort the
whole eval rather than the call: pydantic builds Inspect's ``ToolEvent`` up to a fixed depth
(an argument nested ~600 deep raised ``recursion_depth_exceeded``), the MCP stdio client encodes
each request as UTF-8 (a lone surrogate raised in its writer and closed the connection from the
client's side), Python's ``int`` to text conversion stops at 4,300 digits, and a value that shares
containers (a provider's aliased nodes) expands combinatorially when written out. So the task's
tool loop screens every call first: a call whose arguments cannot be sent as they are is not run,
its arguments are dropped from the record (the log must still be written), and the model reads
why as that call's error, like any malformed call. A screened call is the model's failure, never
the server's or the harness's.
"""

from __future__ import annotations

import json
from typing import Any

from inspect_ai.model import ChatMessageAssistant, ContentReasoning, ContentText
from inspect_ai.tool import ToolCall

MAX_DEPTH = 32
"""Containers nested deeper than this are refused (a GSM8K tool takes flat strings; pydantic
stops near 255 and Inspect's own check at 100)."""
MAX_BYTES = 256 * 1024
"""Arguments larger than this as UTF-8 JSON are refused (a program for one question is a few
KiB; a server reads each request as one line)."""
MAX_ITEMS = 100_000
"""Values visited (shared containers counted each time) before the arguments are refused: a
walk, and the JSON written out, stay bounded whatever the structure."""


def argument_problem(arguments: Any) -> str | None:
    """Why ``arguments`` cannot be sent to a tool as they are, or ``None`` when they can.

    Iterative (an explicit stack), so measuring an adversarially deep value cannot exhaust the
    interpreter's stack; never raises.
    """
    stack: list[tuple[Any, int]] = [(arguments, 1)]
    visited = 0
    size = 0
    while stack:
        value, depth = stack.pop()
        visited += 1
        if visited > MAX_ITEMS:
            return f"they hold more than {MAX_ITEMS:,} values"
        if isinstance(value, dict | list | tuple):
            if depth > MAX_DEPTH:
                return f"they are nested more than {MAX_DEPTH} levels deep"
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(key, str):
                    size += len(key)
                stack.append((item, depth + 1))
        elif isinstance(value, str):
            size += len(value)
        if size > MAX_BYTES:
            return f"they are larger than {MAX_BYTES:,} bytes"
    try:
        encoded = json.dumps(arguments, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (TypeError, ValueError, RecursionError, UnicodeError) as error:
        return f"they cannot be encoded as UTF-8 JSON ({type(error).__name__}: {str(error)[:120]})"
    if len(encoded) > MAX_BYTES:
        return f"they are larger than {MAX_BYTES:,} bytes ({len(encoded):,})"
    return None


def screen_call(call: ToolCall) -> bool:
    """Refuse ``call`` in place when its arguments cannot be sent: they are dropped and the
    reason becomes the call's parse error, which Inspect returns to the model without running
    the tool. Returns whether the call was refused.

    In place, because the model's reply (and the transcript event that holds it) refers to this
    very object: what is left must be something the log can hold.
    """
    # The call's id and name are logged too, and a log cannot hold a lone surrogate.
    call.id, call.function = _storable(call.id), _storable(call.function)
    if call.parse_error:
        return False  # already refused by Inspect's own parser; its arguments are empty
    problem = argument_problem(call.arguments)
    if problem is None:
        return False
    call.arguments = {}
    call.parse_error = (
        f"Tool call to {call.function!r} not run: its arguments were refused because {problem}."
    )
    return True


def make_storable(message: ChatMessageAssistant) -> None:
    """Replace lone surrogates in a reply's text in place: a reply the loop goes on from is
    sent back to the model and hashed into the log as the next request's input, and neither
    can hold one (the final reply is logged as it is)."""
    if isinstance(message.content, str):
        message.content = _storable(message.content)
        return
    for part in message.content:
        if isinstance(part, ContentText):
            part.text = _storable(part.text)
        elif isinstance(part, ContentReasoning):  # sent back and hashed like the text
            part.reasoning = _storable(part.reasoning)
            if part.summary is not None:
                part.summary = _storable(part.summary)


def _storable(text: str) -> str:
    """``text`` with anything UTF-8 cannot hold (lone surrogates) replaced."""
    return text.encode("utf-8", "replace").decode("utf-8")
