"""Whether a limit ended the sample being scored (Inspect records it; the scorer is not told).

A sample that reaches its time, turn, token, message, cost or working limit is ended by Inspect
and scored on what the model wrote by then. When the limit struck before the model's first reply
came back, the output is still Inspect's empty placeholder (no choices), which reads exactly
like an engine that returned an error: it would be left unscored, and a model slow enough to
reach the limit would take its own sample out of the accuracy. So the scorers ask this first: a
limit makes the sample the model's scored failure, whatever its output looks like.
"""

from __future__ import annotations

from inspect_ai.event import SampleLimitEvent
from inspect_ai.log import transcript

MODEL_LIMITS = frozenset({"time", "working", "turn", "token", "message", "cost"})
"""Limits a sample reaches by the model's own conduct (an operator's interrupt is not one)."""


def limit_reached() -> str | None:
    """The type of the limit that ended the current sample, or ``None`` (also outside one)."""
    try:
        events = transcript().events
    except Exception:  # no sample running (a scorer called directly)
        return None
    for event in reversed(events):
        if isinstance(event, SampleLimitEvent) and event.type in MODEL_LIMITS:
            return str(event.type)
    return None
