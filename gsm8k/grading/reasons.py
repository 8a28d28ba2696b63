"""Why a score is abnormal, as ``Score.reason`` records it (shown by ``inspect view``).

Inspect's own reasons are used where one fits (``no_response``, ``invalid_response_format``,
``refusal``, ``scoring_failed``); the others are this task's, for what Inspect has no term for.
Failures of the model under test, and grading failures on its output, are scored (counted
wrong); failures that are not the model's (the sandbox, the inference engine) are unscored:
``Score.unscored()`` keeps the sample and its reason in the log, and Inspect leaves it out of
every metric and records how many were left out (``unscored_samples`` beside each metric).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the grading core needs no Inspect at run time
    from inspect_ai.model import ModelOutput

NO_RESPONSE = "no_response"
"""Inspect's: the completion is empty (or holds reasoning only)."""
INVALID_RESPONSE_FORMAT = "invalid_response_format"
"""Inspect's: the requested format was not followed (no ``ANSWER:`` line, no program block)."""
REFUSAL = "refusal"
"""Inspect's: the provider stopped the completion with its content filter."""
SCORING_FAILED = "scoring_failed"
"""Inspect's: the scorer could not grade this sample. Counted wrong, not unscored: the text or
result the grader failed on is the model's, and a model must not be able to take its own outputs
out of the accuracy by breaking the grader."""
TRUNCATED = "truncated"
"""The completion was cut off at the token or context limit."""
PROGRAM_FAILED = "program_failed"
"""The model's program ran and failed: raised, timed out, ran out of memory, gave no result."""
SANDBOX_UNAVAILABLE = "sandbox_unavailable"
"""The sandbox could not start or run the program: the machine's failure (unscored)."""
ENGINE_ERROR = "engine_error"
"""The inference engine returned an error instead of a completion (unscored)."""
MCP_SERVER_FAILED = "mcp_server_failed"
"""The MCP server (``-T mcp=``) did not start, stopped answering or offered too many tools
(unscored)."""

MODEL_FAILURES = frozenset(
    {NO_RESPONSE, INVALID_RESPONSE_FORMAT, REFUSAL, TRUNCATED, PROGRAM_FAILED, SCORING_FAILED}
)
"""Reasons charged to the model under test: the sample is scored, and counts as wrong unless
the answer is right anyway (a correct answer without the ``ANSWER:`` line)."""
NOT_THE_MODELS_FAULT = frozenset({SANDBOX_UNAVAILABLE, ENGINE_ERROR, MCP_SERVER_FAILED})
"""Reasons for unscored samples: left out of the accuracy, never counted wrong."""

GUARD_KEY = "generate_guard"
"""Sample metadata key set when the task's generate guard ended a sample on purpose (an empty
reply, a flood of tool calls): its output is then a scored failure, not an engine error."""

MCP_FAILURE_KEY = "mcp_server_failure"
"""Sample metadata key set when the MCP server failed the sample (did not start, stopped
answering, offered too many tools): the sample is unscored with ``MCP_SERVER_FAILED``."""

TRUNCATION_STOP_REASONS = frozenset({"max_tokens", "model_length"})
"""Stop reasons meaning the model was cut off before it finished."""
_MODEL_STOPS = TRUNCATION_STOP_REASONS | {"content_filter"}


def is_blank(text: str) -> bool:
    """Whether ``text`` shows nothing: only whitespace and invisible format characters
    (zero-width spaces, joiners, byte-order marks), which ``str.strip`` keeps."""
    return not any(char.isprintable() and not char.isspace() for char in text)


def engine_error(output: ModelOutput) -> str | None:
    """The engine's error message when ``output`` is an error rather than a completion.

    An output with no choices, or with an error, no text and no stop that belongs to the model
    (token limit, context limit, content filter), came from a failed engine.
    """
    if not output.choices:
        return output.error or "the engine returned no completion"
    if output.error and output.stop_reason not in _MODEL_STOPS and is_blank(output.completion):
        return output.error
    return None
