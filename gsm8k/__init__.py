"""GSM8K for Inspect AI: exact grading, offline data, self-consistency and model comparison.

Subsystems: ``gsm8k.grading`` (the grader, usable on its own), ``gsm8k.prompting``,
``gsm8k.data``, ``gsm8k.metrics``, ``gsm8k.settings``, ``gsm8k.execution``, ``gsm8k.local`` and
``gsm8k.compare``; the task is ``gsm8k.task.gsm8k``.
"""

from gsm8k import _moved

_moved.install()

from gsm8k.task import gsm8k  # noqa: E402  (old module paths resolve before the task imports)

__all__ = ["gsm8k"]
