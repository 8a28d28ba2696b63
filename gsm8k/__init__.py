"""GSM8K for Inspect AI: exact grading, offline data, self-consistency and model comparison.

Subsystems: ``gsm8k.grading`` (the grader, usable on its own: importing it loads neither the
task nor Inspect), ``gsm8k.prompting``, ``gsm8k.data``, ``gsm8k.metrics``, ``gsm8k.settings``,
``gsm8k.execution``, ``gsm8k.local`` and ``gsm8k.compare``; the task is ``gsm8k.task.gsm8k``,
also importable as ``from gsm8k import gsm8k``.
"""

from typing import Any

from gsm8k import _moved

_moved.install()

__all__ = ["gsm8k"]


def __getattr__(name: str) -> Any:
    # The task is loaded on first use, so that `import gsm8k.grading` stays free of Inspect.
    if name == "gsm8k":
        from gsm8k.task import gsm8k

        return gsm8k
    raise AttributeError(f"module 'gsm8k' has no attribute {name!r}")
