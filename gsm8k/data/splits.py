"""GSM8K records read from a source :mod:`gsm8k.data.catalog` names: the copy inside the package
(checked against its sha256), the Hugging Face hub (pinned, cache first), or local JSONL files.

Hub files come from the local Hugging Face cache when present; else the hub is probed briefly
(Inspect's ``hf_dataset`` with a pinned revision skips the cache and retries for about 30 s).
"""

from __future__ import annotations

import hashlib
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from inspect_ai._util.error import PrerequisiteError

from gsm8k.data.bundled import BUNDLED_SOURCE, DATA_DIR_ENV, BundledDataError, bundled_split
from gsm8k.data.catalog import (
    DEFAULT_SOURCE,
    GSM8K_REVISION,
    HUB_DATASETS,
    HUB_GSM8K,
    LOCAL_COPIES,
    HubDataset,
    data_dir,
    default_source,
    from_start_directory,
    is_hub_source,
    is_named_source,
    known_names,
    local_copy,
    resolve_path,
    validate_source,
)
from gsm8k.data.jsonl import read_jsonl, read_jsonl_with_lines

# Read here before gsm8k.data.jsonl, gsm8k.data.bundled and gsm8k.data.catalog held them: code
# written against earlier releases imports them from this module.
__all__ = [
    "DATA_DIR_ENV",
    "DEFAULT_SOURCE",
    "GSM8K_REVISION",
    "HUB_DATASETS",
    "HUB_GSM8K",
    "LOCAL_COPIES",
    "HubDataset",
    "data_dir",
    "default_source",
    "from_start_directory",
    "is_hub_source",
    "is_named_source",
    "known_names",
    "local_copy",
    "read_jsonl",
    "read_jsonl_with_lines",
    "resolve_path",
    "validate_source",
]

GOLD_DELIMITER = "####"
"""GSM8K's answers end with this mark and the final number (openai/grade-school-math)."""

HUB_PROBE_TIMEOUT_SECONDS = 3.0


class DatasetUnavailableError(PrerequisiteError, RuntimeError):
    """The hub cannot be reached and the requested files are not in the local cache.

    A ``PrerequisiteError``: Inspect's CLI prints it as one message, without a traceback.
    """


@dataclass(frozen=True)
class LoadedSplit:
    """Raw records of one split and where exactly they came from (recorded in the log)."""

    records: list[dict[str, Any]]
    location: str
    """Human-readable origin: ``bundled://openai/grade-school-math@<commit>/.../test.jsonl``,
    ``hf://openai/gsm8k@<sha>/main/test`` or an absolute file path."""
    revision: str | None
    """Hub commit the files came from, or ``None`` for bundled and local files."""
    sha256: str | None
    """Checksum of a bundled or local file, or ``None`` for hub files."""
    split: str
    line_numbers: list[int] | None = None
    """For a local file, the line each record was read from (blank lines are allowed)."""

    def where(self, index: int) -> str:
        """The file (and line, for local files) record ``index`` came from."""
        if self.line_numbers is None:
            return self.location
        return f"{self.location}:{self.line_numbers[index]}"


def load_split(source: str, split: str, parameter: str = "dataset") -> LoadedSplit:
    """Load the raw records of ``split`` from ``source`` (the bundled ``gsm8k``, a hub name, a
    directory or a JSONL file).

    A single JSONL file is its own split whatever ``split`` says.

    Raises:
        ValueError: the source or split does not exist, or a line is not a JSON object.
        DatasetUnavailableError: the hub is needed, unreachable, and nothing is cached.
        BundledDataError: the package's copy does not match its published checksum.
    """
    path = validate_source(source, parameter)
    if path is None:
        copy = local_copy(source, split)
        if copy is not None:
            return _load_file(copy, split)
        if source == BUNDLED_SOURCE:
            return load_bundled(split)
        return _load_hub_split(HUB_DATASETS[source], split, parameter, source)
    if path.is_dir():
        file = path / f"{split}.jsonl"
        if not file.is_file():
            available = sorted(p.stem for p in path.glob("*.jsonl"))
            raise ValueError(
                f"{parameter}={source!r} has no {split}.jsonl; "
                f"splits there: {', '.join(available)}."
            )
        path = file
    return _load_file(path, split if path.stem == split else path.stem)


class BundledCopyError(PrerequisiteError, BundledDataError):
    """A damaged bundled copy, as the task reports it: one message in Inspect's CLI."""


def load_bundled(split: str) -> LoadedSplit:
    """The bundled copy's ``split`` (``test`` or ``train``), verified; each caller gets its own
    list of records (the file is read once per process)."""
    try:
        bundled = bundled_split(split)
    except BundledDataError as error:
        raise BundledCopyError(str(error)) from error
    return LoadedSplit(
        records=[dict(record) for record in bundled.records],
        location=bundled.location,
        revision=None,
        sha256=bundled.sha256,
        split=split,
        line_numbers=list(bundled.line_numbers),
    )


def _load_file(path: Path, split: str) -> LoadedSplit:
    records, line_numbers = read_jsonl_with_lines(path)
    return LoadedSplit(
        records=records,
        location=str(path.resolve()),
        revision=None,
        sha256=hashlib.sha256(path.read_bytes()).hexdigest(),
        split=split,
        line_numbers=line_numbers,
    )


def _load_hub_split(
    hub: HubDataset, split: str, parameter: str, source: str = HUB_GSM8K
) -> LoadedSplit:
    if split not in hub.splits:
        raise ValueError(
            f"{parameter}: {hub.repo_id} ({hub.config}) has no split {split!r}; "
            f"available: {', '.join(hub.splits)}."
        )
    return load_hub_files(
        hub.repo_id,
        hub.revision,
        f"{hub.config}/{split}-*.parquet",
        split,
        hub.config,
        _expected_copy(source, split)
        + offline_recipe(parameter, hub.repo_id)
        + (_bundled_alternative(parameter) if source == HUB_GSM8K else ""),
    )


def _bundled_alternative(parameter: str) -> str:
    """The same records without the hub: the copy inside the package."""
    name = (
        f"{parameter} {BUNDLED_SOURCE}"
        if parameter.startswith("--")
        else (f"-T {parameter}={BUNDLED_SOURCE}")
    )
    return f" The same records ship with the package: {name}."


def _expected_copy(source: str, split: str) -> str:
    """Where a local copy of the named split was looked for, as the start of a hint."""
    root = data_dir()
    if root is None or source not in LOCAL_COPIES:
        return ""
    expected = (root / LOCAL_COPIES[source].format(split=split)).resolve()
    return f"No local copy at {expected} (beside {DATA_DIR_ENV}={root}). "


def offline_recipe(parameter: str = "dataset", repo_id: str = "openai/gsm8k") -> str:
    """How to run offline, for a caller that takes its dataset as ``parameter``: a task
    parameter (``-T dataset=PATH``) or a command-line option such as ``--dataset``.

    For the few-shot examples (``fewshot_dataset``) the recipe names that source: the user may
    well have given ``-T dataset=`` already (a GSM8K-Platinum copy has no train split).
    """
    option = f"{parameter} PATH" if parameter.startswith("--") else f"-T {parameter}=PATH"
    if parameter == "fewshot_dataset":
        return (
            f"The few-shot examples come from the train split of {repo_id}. To run offline, "
            f"pass a local copy of it: {option} (a directory with train.jsonl from "
            f"openai/grade-school-math), or set {DATA_DIR_ENV}=PATH to such a GSM8K copy; "
            "-T fewshot=0 needs no examples."
        )
    return (
        f"To run offline, pass a local copy: {option} (a directory with test.jsonl and "
        f"train.jsonl from openai/grade-school-math), or set {DATA_DIR_ENV}=PATH."
    )


def load_hub_files(
    repo_id: str,
    revision: str,
    pattern: str,
    split: str,
    config: str,
    offline_hint: str | None = None,
) -> LoadedSplit:
    """Records of the hub files matching ``pattern`` (``.parquet`` or ``.jsonl``), cache first.

    Raises:
        DatasetUnavailableError: the files are not cached and the hub cannot be reached.
        ValueError: the pinned revision has no file matching ``pattern``.
    """
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import LocalEntryNotFoundError

    try:
        folder = snapshot_download(
            repo_id,
            repo_type="dataset",
            revision=revision,
            allow_patterns=[pattern],
            local_files_only=True,
        )
        files = sorted(Path(folder).glob(pattern))
    except LocalEntryNotFoundError:
        files = []
    if not files:
        _require_hub(repo_id, revision, config, offline_hint)
        folder = snapshot_download(
            repo_id, repo_type="dataset", revision=revision, allow_patterns=[pattern]
        )
        files = sorted(Path(folder).glob(pattern))
    if not files:
        raise ValueError(f"{repo_id}@{revision} has no files matching {pattern}.")
    commit = Path(folder).name  # snapshot folders are named after the resolved commit
    records: list[dict[str, Any]] = []
    for file in files:
        records.extend(_read_parquet([file]) if file.suffix == ".parquet" else read_jsonl(file))
    return LoadedSplit(
        records=records,
        location="/".join(part for part in (f"hf://{repo_id}@{commit}", config, split) if part),
        revision=commit,
        sha256=None,
        split=split,
    )


def _read_parquet(files: list[Path]) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    records: list[dict[str, Any]] = []
    for file in files:
        records.extend(pq.read_table(file).to_pylist())
    return records


def _require_hub(repo_id: str, revision: str, config: str, offline_hint: str | None = None) -> None:
    """Fail within seconds, with the offline recipe, when the hub cannot be used."""
    offline_hint = offline_hint or offline_recipe()
    if _truthy(os.environ.get("HF_HUB_OFFLINE")) or _truthy(os.environ.get("HF_DATASETS_OFFLINE")):
        raise DatasetUnavailableError(
            f"{repo_id}@{revision} ({config}) is not in the local Hugging Face cache "
            "and "
            f"offline mode is on. {offline_hint}"
        )
    from huggingface_hub import constants

    endpoint = urlparse(constants.ENDPOINT)
    host = endpoint.hostname or "huggingface.co"
    port = endpoint.port or (443 if endpoint.scheme == "https" else 80)
    try:
        socket.create_connection((host, port), timeout=HUB_PROBE_TIMEOUT_SECONDS).close()
    except OSError as error:
        raise DatasetUnavailableError(
            f"Cannot reach the Hugging Face hub at {constants.ENDPOINT} ({error}) and "
            f"{repo_id}@{revision} ({config}) is not cached. {offline_hint}"
        ) from error


def _truthy(value: str | None) -> bool:
    return value is not None and value.strip().lower() in {"1", "true", "yes", "on"}
