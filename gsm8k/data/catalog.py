"""Which GSM8K sources there are and where each lies: the names the task's ``dataset`` parameter
takes, and a user's source resolved to a named dataset or an existing path, before anything is read.

Sources, as the task's ``dataset`` parameter names them:
* ``gsm8k`` (the default): openai/grade-school-math's test and train files shipped in the package
  (:mod:`gsm8k.data.bundled`);
* ``openai/gsm8k`` (config ``main``, the same records), ``gsm8k-socratic`` (config ``socratic``)
  and ``gsm8k-platinum`` (``madrylab/gsm8k-platinum``, test only) on the hub, pinned
  (``HUB_DATASETS``);
* a local copy of those beside ``$GSM8K_DATA_DIR`` when there is one (``LOCAL_COPIES``): its
  ``test.jsonl``, its ``test_socratic.jsonl``, and ``../gsm8k-platinum/test.jsonl``;
* a directory in the openai/grade-school-math layout (``test.jsonl``, ``train.jsonl``, and any other
  ``<split>.jsonl``), or a single JSONL file of records.
:mod:`gsm8k.data.splits` reads the records.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from gsm8k.data.bundled import BUNDLED_SOURCE, DATA_DIR_ENV


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
