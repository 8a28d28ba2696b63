"""The task's arguments as a run's log shows them: an unknown name refused before anything runs,
and the values that ran recorded in place of the signature's unset defaults.

Inspect 0.3.285 only warns about a ``-T`` name the task function does not take and then runs
with the defaults; a task function that also takes ``**kwargs`` receives such names, so the task
can refuse them. ``inspect view``'s CONFIG panel shows ``eval.task_args``: the signature's
defaults merged with what was passed, so an unset ``fewshot`` shows as ``null`` although the run
showed five examples. :class:`RecordedTask` records the resolved values there instead.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping
from typing import Any

from inspect_ai import Task
from inspect_ai._eval.task.constants import TASK_ALL_PARAMS_ATTR
from inspect_ai._util.registry import REGISTRY_PARAMS

from gsm8k.settings.errors import TaskInputError


def refuse_unknown(unknown: Mapping[str, Any], known: Collection[str], task: str) -> None:
    """Stop a run given a parameter the task does not have, naming the closest real one.

    Raises:
        TaskInputError: one line naming each unknown parameter and what was probably meant.
    """
    if not unknown:
        return
    parts = []
    for name, value in unknown.items():
        close = difflib.get_close_matches(name, list(known), n=1)
        hint = f"did you mean {close[0]}?" if close else f"it takes {', '.join(known)}"
        parts.append(f"-T {name}={value}: {task} has no parameter {name!r}; {hint}")
    raise TaskInputError(f"{'; '.join(parts)} (nothing was run).")


class RecordedTask(Task):
    """A task whose log records the values the run used as its arguments.

    Inspect's ``@task`` decorator sets the task's full arguments (defaults applied) on the
    task after the task function returns; they become the log's ``eval.task_args``. The
    arguments named in ``resolved`` take the values the task resolved them to as they are set
    (an unset ``fewshot`` the default or a preset's count, a data directory its absolute path).
    What the user passed (``eval.task_args_passed``, which ``eval-retry`` replays) is unchanged.
    """

    def __init__(self, *, resolved: Mapping[str, Any], **task: Any) -> None:
        self._resolved = dict(resolved)
        super().__init__(**task)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == TASK_ALL_PARAMS_ATTR and isinstance(value, dict):
            value = value | getattr(self, "_resolved", {})
        if name == REGISTRY_PARAMS and isinstance(value, dict):
            refuse_empty(value)
        super().__setattr__(name, value)


NOT_EMPTY = ("mcp",)
"""Parameters whose empty value must not pass for the default: Inspect reads ``-T mcp=`` as
``None``, which would silently run the task without the experiment the user asked for."""


def refuse_empty(passed: Mapping[str, Any]) -> None:
    """Refuse a parameter of :data:`NOT_EMPTY` passed with no value (``-T mcp=``).

    Raises:
        TaskInputError: naming the parameter and what to give instead.
    """
    for name in NOT_EMPTY:
        if name in passed and passed[name] is None:
            raise TaskInputError(
                f"-T {name}= is empty: name an MCP server (a command line, an http(s) URL or a "
                ".json/.yaml file), or none for the same agent loop without a server; leave "
                f"{name} out for the plain task (nothing was run)."
            )
