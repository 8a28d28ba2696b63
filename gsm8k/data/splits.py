"""Where GSM8K records come from: the copy inside the package, the Hugging Face hub (pinned, cache
first), or local JSONL files.

Sources, as the task's ``dataset`` parameter names them:
* ``gsm8k`` (the default): openai/grade-school-math's test and train files shipped in the package
  (:mod:`gsm8k.data.bundled`), checked against their sha256; no network, no data folder;
* ``openai/gsm8k`` (config ``main``, the same records), ``gsm8k-socratic`` (config ``socratic``)
  and ``gsm8k-platinum`` (``madrylab/gsm8k-platinum``, test only) on the hub, pinned;
* a local copy of those beside ``$GSM8K_DATA_DIR`` when there is one (``LOCAL_COPIES``): its
  ``test.jsonl``, its ``test_socratic.jsonl``, and ``../gsm8k-platinum/test.jsonl``;
* a directory in the openai/grade-school-math layout (``test.jsonl``, ``train.jsonl``, and any other
  ``<split>.jsonl``), or a single JSONL file of records.
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
from gsm8k.data.jsonl import read_jsonl, read_jsonl_with_lines

# Read here before gsm8k.data.jsonl and gsm8k.data.bundled held them.
__all__ = ["DATA_DIR_ENV", "read_jsonl", "read_jsonl_with_lines"]

GOLD_DELIMITER = "####"
"""GSM8K's answers end with this mark and the final number (openai/grade-school-math)."""

HUB_PROBE_TIMEOUT_SECONDS = 3.0


@dataclass(frozen=True)
class HubDataset:
    """A dataset on the Hugging Face hub, pinned to a revision."""

    repo_id: str
    config: str
    revision: str
    splits: tuple[str, ...]
    exemplar_source: str
    """The named source whose train split supplies few-shot exemplars."""


GSM8K_REVISION = "cc7b047b6e5bb11b4f1af84efc572db110a51b3c"

HUB_GSM8K = "openai/gsm8k"
"""The ``dataset`` name of GSM8K on the hub: the bundled copy's records, downloaded."""

HUB_DATASETS: dict[str, HubDataset] = {
    # The revision inspect_evals' gsm8k pins (inspect-evals 0.26.0), so both read the same files.
    HUB_GSM8K: HubDataset("openai/gsm8k", "main", GSM8K_REVISION, ("train", "test"), HUB_GSM8K),
    "gsm8k-socratic": HubDataset(
        "openai/gsm8k",
        "socratic",
        GSM8K_REVISION,
        ("train", "test"),
        "gsm8k-socratic",
    ),
    # Platinum has no published pin; the commit `main` resolved to is recorded in every log.
    # Its examples come from GSM8K's train split, the bundled one.
    "gsm8k-platinum": HubDataset(
        "madrylab/gsm8k-platinum", "main", "main", ("test",), BUNDLED_SOURCE
    ),
}
DEFAULT_SOURCE = BUNDLED_SOURCE
"""The bundled copy: a run needs neither network nor a data folder."""


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


def default_source() -> str:
    """``$GSM8K_DATA_DIR`` when set, else the bundled ``gsm8k``."""
    return os.environ.get(DATA_DIR_ENV) or DEFAULT_SOURCE


def from_start_directory(value: str) -> Path:
    """A path given in an environment variable, relative ones taken from the directory the
    command was started in.

    Inspect changes the working directory to the task file's folder while it loads a task, so
    the shell's ``$PWD`` is tried before the current directory.
    """
    path = Path(value).expanduser()
    if path.is_absolute():
        return path
    bases = [Path(os.environ["PWD"])] if os.environ.get("PWD") else []
    candidates = [base / path for base in [*bases, Path.cwd()]]
    return next((c for c in candidates if c.exists()), candidates[0]).resolve()


def data_dir() -> Path | None:
    """The GSM8K copy named by ``$GSM8K_DATA_DIR``, if the variable is set."""
    value = os.environ.get(DATA_DIR_ENV)
    return from_start_directory(value) if value else None


LOCAL_COPIES: dict[str, str] = {
    "gsm8k": "{split}.jsonl",
    "gsm8k-socratic": "{split}_socratic.jsonl",
    "gsm8k-platinum": "../gsm8k-platinum/{split}.jsonl",
}
"""Where each hub dataset's split lies relative to ``$GSM8K_DATA_DIR`` (the openai/grade-school-math
layout, and GSM8K-Platinum in a folder beside it)."""


def local_copy(source: str, split: str) -> Path | None:
    """The file of a hub dataset's split in a local copy beside ``$GSM8K_DATA_DIR``, if there."""
    root = data_dir()
    if root is None or source not in LOCAL_COPIES:
        return None
    file = (root / LOCAL_COPIES[source].format(split=split)).resolve()
    return file if file.is_file() else None


def is_hub_source(source: str) -> bool:
    """Whether ``source`` names a hub dataset (``openai/gsm8k``, ``gsm8k-socratic``, ...)."""
    return source in HUB_DATASETS


def is_named_source(source: str) -> bool:
    """Whether ``source`` is a GSM8K-format dataset's name (bundled or hub), not a local path."""
    return source == BUNDLED_SOURCE or source in HUB_DATASETS


def known_names() -> str:
    """The GSM8K-format dataset names, for messages."""
    return ", ".join([BUNDLED_SOURCE, *HUB_DATASETS])


def _candidates(source: str) -> list[Path]:
    """``source`` as given and, when relative, from the shell's ``$PWD``: ``inspect eval
    path/task.py`` imports the task with the task file's folder as working directory."""
    path, pwd = Path(source).expanduser(), os.environ.get("PWD")
    return [path] if path.is_absolute() or not pwd else [path, Path(pwd) / path]


def resolve_path(source: str) -> Path | None:
    """An existing path for ``source``, relative paths taken from where the command was run."""
    return next((c.resolve() for c in _candidates(source) if c.exists()), None)


def validate_source(source: str, parameter: str) -> Path | None:
    """Check that a source names a known hub dataset or an existing path, before any loading.

    Returns:
        The resolved path of a local source, ``None`` for a hub dataset.

    Raises:
        ValueError: naming ``parameter`` and what to pass instead.
    """
    if is_named_source(source):
        return None
    path = resolve_path(source)
    if path is None:
        looked = ", ".join(dict.fromkeys(str(c.resolve()) for c in _candidates(source)))
        from_env = source == os.environ.get(DATA_DIR_ENV) and parameter == "dataset"
        given = (
            f"{DATA_DIR_ENV}={source!r} (the default dataset)"
            if from_env
            else f"{parameter}={source!r}"
        )
        raise ValueError(
            f"{given} is neither a known dataset ({known_names()}, or a GSM family "
            f"name such as gsm-symbolic, gsm-plus, mgsm) nor an existing path (looked in "
            f"{looked}). Pass one of those names, a directory "
            "holding test.jsonl/train.jsonl, or a .jsonl file."
        )
    if path.is_dir() and not any(path.glob("*.jsonl")):
        raise ValueError(
            f"{parameter}={source!r} is a directory without any .jsonl file; expected the "
            "openai/grade-school-math layout (test.jsonl, train.jsonl)."
        )
    return path


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
