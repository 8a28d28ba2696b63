"""The command that runs a log's samples again, for samples ``inspect eval-retry`` does not.

``eval-retry`` re-runs samples that failed with an error. A sample the engine or the sandbox
failed is not an error: it is unscored (``Score.unscored()``, with its reason), so that it is
never counted wrong, and a retry keeps it as it is. Running it again is an ``inspect eval`` of
the same task, model and options with ``--sample-id``, into the same folder; the reports then
take each sample from the newest log that completed it.
"""

from __future__ import annotations

import shlex
from typing import Any

from inspect_ai.log import EvalLog


def rerun_prefix(log: EvalLog) -> str:
    """``inspect eval TASK --model M -T ... -M ... --<generation option> ...`` as ``log`` ran,
    without ``--sample-id`` and ``--log-dir``. Options whose value is not a number, a string or
    a list of strings are left out (none of this task's are of another kind)."""
    spec = log.eval
    name = spec.task_registry_name or spec.task  # the task's own name names the variant too
    task = f"{spec.task_file}@{name.rsplit('/', 1)[-1]}" if spec.task_file else name
    words = ["inspect", "eval", task, "--model", spec.model]
    for name, value in (spec.task_args_passed or {}).items():
        words += ["-T", f"{name}={_cli_value(value)}"]
    for name, value in (spec.model_args or {}).items():
        if value is not None:
            words += ["-M", f"{name}={_cli_value(value)}"]
    config = log.plan.config if log.plan else spec.model_generate_config
    for name, value in config.model_dump(exclude_none=True).items():
        if _plain(value):
            words += [f"--{name.replace('_', '-')}", _cli_value(value)]
    epochs = spec.config.epochs
    if epochs and epochs > 1:
        words += ["--epochs", str(epochs)]
    return shlex.join(words)


def rerun_command(prefix: str, sample_ids: list[Any], folder: str) -> str:
    """``prefix`` for ``sample_ids``, writing into ``folder`` beside the logs it completes."""
    ids = ",".join(str(sample_id) for sample_id in sample_ids)
    return f"{prefix} --sample-id {shlex.quote(ids)} --log-dir {shlex.quote(folder)}"


def _plain(value: Any) -> bool:
    if isinstance(value, list):
        return all(isinstance(item, str) for item in value)
    return isinstance(value, (int, float, str)) and not isinstance(value, bool)


def _cli_value(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(str(item) for item in value)
    return str(value)
