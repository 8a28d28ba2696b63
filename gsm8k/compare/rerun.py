"""The command that runs a log's samples again, for samples ``inspect eval-retry`` does not.

``eval-retry`` re-runs samples that failed with an error. A sample the engine or the sandbox
failed is not an error: it is unscored (``Score.unscored()``, with its reason), so that it is
never counted wrong, and a retry keeps it as it is. Running it again is an ``inspect eval`` of
the same task, model and options with ``--sample-id``, into the same folder; the reports then
take each sample from the newest log that completed it.

Both commands run verbatim in a new shell (:mod:`gsm8k.settings.commands`): a run that read a local
GSM8K or GSM-family copy through ``$GSM8K_DATA_DIR`` / ``$GSM8K_FAMILY_DIR`` gets the variable set
on the command (:func:`data_environment`), from the files its log says it read.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog

import gsm8k
from gsm8k.data.bundled import DATA_DIR_ENV
from gsm8k.data.catalog import is_named_source
from gsm8k.data.family.sources import FAMILY_DIR_ENV, is_variant
from gsm8k.data.fresh.samples import FRESH_SOURCE, TEMPLATES_ENV
from gsm8k.settings.commands import (
    absolute_location,
    command_line,
    inspect_program,
    shell_quote,
)

PACKAGE_DIR = Path(gsm8k.__file__).resolve().parent
REGISTRY_PREFIX = "gsm8k/"
"""This package's tasks by entry point (``gsm8k/gsm8k``): a task file's absolute path does not
load on Python 3.11 (``Non-relative patterns are unsupported``)."""
ENTRY_POINT_TASKS = frozenset({"gsm8k", "gsm8k_memorization"})
"""Tasks the entry point registers under their own name (the family tasks run as ``gsm8k``)."""


def rerun_prefix(log: EvalLog) -> str:
    """``[GSM8K_DATA_DIR=...] inspect eval TASK --model M -T ... -M ... --<generation option>
    ...`` as ``log`` ran, without ``--sample-id`` and ``--log-dir``. Options whose value is not a
    number, a string or a list of strings are left out (none of this task's are of another
    kind)."""
    spec = log.eval
    metadata = spec.metadata or {}
    words = [inspect_program(), "eval", _task(log), "--model", spec.model]
    passed = dict(spec.task_args_passed or {})
    family = _family_dataset(log)
    if family is not None:  # family_set.py@gsm_plus is the task with -T dataset=gsm-plus
        passed["dataset"] = family
    for name, value in passed.items():
        if name in ("dataset", "fewshot_dataset") and isinstance(value, str):
            value = _absolute_source(value, metadata.get(name))
        if name == "templates" and isinstance(metadata.get("templates"), str):
            value = metadata["templates"]  # the folder read, absolute: the command runs anywhere
        words += ["-T", f"{name}={_cli_value(value)}"]
    for name, value in (spec.model_args or {}).items():
        if value is not None:
            words += ["-M", f"{name}={_cli_value(value)}"]
    if spec.model_base_url:
        words += ["--model-base-url", spec.model_base_url]
    config = log.plan.config if log.plan else spec.model_generate_config
    for name, value in config.model_dump(exclude_none=True).items():
        if _plain(value):
            words += [f"--{name.replace('_', '-')}", _cli_value(value)]
    epochs = spec.config.epochs
    if epochs and epochs > 1:
        words += ["--epochs", str(epochs)]
    return command_line(words, data_environment(log))


def sample_selection(log: EvalLog) -> str:
    """``--limit N`` (or ``--limit A-B``) and ``--sample-id a,b`` as the log's run chose its
    samples, ready to add to :func:`rerun_prefix` to run the same samples again (empty when it
    ran them all)."""
    config = log.eval.config
    words: list[str] = []
    limit = config.limit
    if isinstance(limit, int):
        words += ["--limit", str(limit)]
    elif isinstance(limit, (tuple, list)) and len(limit) == 2:
        words += ["--limit", f"{limit[0] + 1}-{limit[1]}"]  # Inspect stores 10-20 as (9, 20)
    sample_id = config.sample_id
    if sample_id is not None:
        ids = sample_id if isinstance(sample_id, list) else [sample_id]
        words += ["--sample-id", ",".join(str(i) for i in ids)]
    return " ".join(shell_quote(word) for word in words)


def rerun_command(prefix: str, sample_ids: list[Any], folder: str) -> str:
    """``prefix`` for ``sample_ids``, writing into ``folder`` beside the logs it completes."""
    ids = ",".join(str(sample_id) for sample_id in sample_ids)
    where = shlex.quote(absolute_location(folder))
    return f"{prefix} --sample-id {shlex.quote(ids)} --log-dir {where}"


def retry_command(log: str, folder: str, environment: dict[str, str] | None = None) -> str:
    """``inspect eval-retry`` on ``log``, writing beside it (without ``--log-dir`` the retry
    would go to ./logs, away from the logs it completes), with the data ``environment`` the
    run read its files through: eval-retry loads the task again."""
    words = [inspect_program(), "eval-retry", absolute_location(log)]
    return command_line([*words, "--log-dir", absolute_location(folder)], environment)


def data_environment(log: EvalLog) -> dict[str, str]:
    """``GSM8K_DATA_DIR`` / ``GSM8K_FAMILY_DIR`` as the run must have had them: set when its
    evaluated set or its exemplars came from a local copy that no ``-T`` path named (the
    default dataset, or a name such as ``gsm8k-socratic`` or ``gsm-symbolic-p2`` read from the
    copy beside the variable)."""
    spec = log.eval
    metadata = spec.metadata or {}
    passed = spec.task_args_passed or {}
    dataset = passed.get("dataset")
    environment: dict[str, str] = {}
    root = _gsm8k_copy(metadata, passed)
    if root is not None:
        environment[DATA_DIR_ENV] = root
    if isinstance(dataset, str) and is_variant(dataset):
        location = _local(metadata.get("dataset"))
        if location is not None:
            environment[FAMILY_DIR_ENV] = str(location.parent.parent)
    if dataset == FRESH_SOURCE and "templates" not in passed and metadata.get("templates"):
        environment[TEMPLATES_ENV] = str(metadata["templates"])
    return environment


def _gsm8k_copy(metadata: dict[str, Any], passed: dict[str, Any]) -> str | None:
    """The folder ``$GSM8K_DATA_DIR`` named, when the run depended on it."""
    dataset = passed.get("dataset")
    by_name = dataset is None or (isinstance(dataset, str) and _is_name(dataset))
    if not by_name:
        return None
    exemplars = _local(metadata.get("fewshot_dataset"))
    family = bool(dataset) and (is_variant(str(dataset)) or dataset == FRESH_SOURCE)
    variant_folder = _local(metadata.get("dataset")) if family else None
    fewshot_by_name = passed.get("fewshot_dataset") is None or _is_name(
        str(passed.get("fewshot_dataset"))
    )
    if (
        exemplars is not None
        and fewshot_by_name
        and exemplars.name.startswith("train")
        and (variant_folder is None or exemplars.parent != variant_folder.parent)
    ):
        return str(exemplars.parent)
    if dataset == FRESH_SOURCE:  # its GSM8K originals, where a local copy supplied them
        originals = _local(metadata.get("originals"))
        return str(originals.parent) if originals is not None else None
    evaluated = _local(metadata.get("dataset"))
    if evaluated is not None and not family:
        return str(evaluated.parent)
    return None


def _family_dataset(log: EvalLog) -> str | None:
    """The dataset a ``family_set.py`` task of this package runs, ``None`` for any other task."""
    from gsm8k.family_set import FAMILY_SET_TASKS  # the family tasks load the whole task

    spec = log.eval
    name = (spec.task_registry_name or spec.task).rsplit("/", 1)[-1]
    if spec.task_file is None or Path(spec.task_file).name != "family_set.py":
        return None
    if name not in FAMILY_SET_TASKS:
        return None
    dataset = FAMILY_SET_TASKS[name] or spec.task_args.get("dataset")
    return str(dataset) if dataset else None


def _task(log: EvalLog) -> str:
    """The task as ``inspect eval`` takes it in any folder: this package's by entry point, any
    other by its file (as recorded) and name."""
    spec = log.eval
    # The registered name: the log's task name also says the variant and preset (gsm-plus).
    name = (spec.task_registry_name or spec.task).rsplit("/", 1)[-1]
    if spec.task_file:
        # A relative path is relative to a folder the log does not record: taken as this
        # package's when the package holds a file of that name.
        file = Path(spec.task_file)
        resolved = (file if file.is_absolute() else PACKAGE_DIR.parent / file).resolve()
        if resolved.is_relative_to(PACKAGE_DIR) and resolved.is_file():
            # The package's tasks (the family tasks too) run as the entry point's task.
            return f"{REGISTRY_PREFIX}{name if name in ENTRY_POINT_TASKS else 'gsm8k'}"
        return f"{spec.task_file}@{name}"
    return spec.task


def _absolute_source(value: str, location: Any) -> str:
    """A relative ``dataset`` path as the absolute path the log recorded reading, so that the
    command works from any folder; names and absolute paths are kept."""
    path = Path(value)
    recorded = _local(location)
    if _is_name(value) or path.is_absolute() or recorded is None:
        return value
    parts = tuple(part for part in path.parts if part not in (".", ""))
    for candidate in (recorded, recorded.parent):
        if parts and candidate.parts[-len(parts) :] == parts:
            return str(candidate)
    return value


def _is_name(source: str) -> bool:
    return is_named_source(source) or is_variant(source) or source == FRESH_SOURCE


def _local(location: Any) -> Path | None:
    """A recorded location that is a local file (not ``hf://...``)."""
    if not isinstance(location, str) or not location or "://" in location:
        return None
    path = Path(location)
    return path if path.is_absolute() else None


def _plain(value: Any) -> bool:
    if isinstance(value, list):
        return all(isinstance(item, str) for item in value)
    return isinstance(value, (int, float, str)) and not isinstance(value, bool)


def _cli_value(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(str(item) for item in value)
    return str(value)
