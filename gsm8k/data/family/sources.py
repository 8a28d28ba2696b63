"""Where GSM-Symbolic, GSM-Plus and MGSM come from (their rows become samples in
:mod:`gsm8k.data.family.samples`).

Each variant is a hub dataset pinned to a revision, or a local copy. A local copy is found in
``$GSM8K_FAMILY_DIR/<folder>`` when that variable is set, else next to the GSM8K copy named by
``$GSM8K_DATA_DIR`` (``Path($GSM8K_DATA_DIR).parent/<folder>``), else the hub is used:

========================  =====================  ================================================
name                      hub                    local file (in ``<folder>``)
========================  =====================  ================================================
``gsm-symbolic``          apple/GSM-Symbolic     ``gsm-symbolic/GSM_symbolic.jsonl``
``gsm-symbolic-p1``       (configs main/p1/p2)   ``gsm-symbolic/GSM_p1.jsonl``
``gsm-symbolic-p2``                              ``gsm-symbolic/GSM_p2.jsonl``
``gsm-plus``              qintongli/GSM-Plus     ``gsm-plus/test.jsonl``
``gsm-plus-mini``         (test / testmini)      ``gsm-plus/testmini.jsonl``
``mgsm`` (``language``)   juletxara/mgsm         ``mgsm/mgsm_<language>.tsv`` and ``train.jsonl``
========================  =====================  ================================================
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gsm8k.data.bundled import DATA_DIR_ENV
from gsm8k.data.catalog import data_dir, from_start_directory
from gsm8k.data.jsonl import read_jsonl_with_lines
from gsm8k.data.splits import DatasetUnavailableError, LoadedSplit, load_hub_files

FAMILY_DIR_ENV = "GSM8K_FAMILY_DIR"
"""Directory holding local copies of the variants (``gsm-symbolic/``, ``gsm-plus/``, ``mgsm/``)."""

MGSM_LANGUAGES = ("bn", "de", "en", "es", "fr", "ja", "ru", "sw", "te", "th", "zh")
MGSM_SIZE = 250

GSM_SYMBOLIC_REVISION = "93b5b3758d9d9841ffe81d6cd2ae2b030685b078"
"""apple/GSM-Symbolic ``main`` as of its "Add data loading code snippet" commit (Dec 2024)."""
GSM_PLUS_REVISION = "3b708db57b96a16e8e3368ed2956990c0809440e"
"""qintongli/GSM-Plus ``main`` as of its "Upload GSM-Plus.json" commit (files in ``data/``)."""
MGSM_REVISION = "main"
"""juletxara/mgsm has no published pin; the commit ``main`` resolved to is recorded in the log."""


@dataclass(frozen=True)
class Variant:
    """One dataset of the GSM family and where its rows live."""

    name: str
    family: str
    """``symbolic``, ``plus`` or ``mgsm``: decides how rows become samples."""
    repo_id: str
    revision: str
    hub_pattern: str
    """Files of the hub snapshot holding the rows; ``{language}`` is filled in for MGSM."""
    split: str
    folder: str
    local_file: str


VARIANTS: dict[str, Variant] = {
    "gsm-symbolic": Variant(
        "gsm-symbolic",
        "symbolic",
        "apple/GSM-Symbolic",
        GSM_SYMBOLIC_REVISION,
        "main/test*.jsonl",
        "test",
        "gsm-symbolic",
        "GSM_symbolic.jsonl",
    ),
    "gsm-symbolic-p1": Variant(
        "gsm-symbolic-p1",
        "symbolic",
        "apple/GSM-Symbolic",
        GSM_SYMBOLIC_REVISION,
        "p1/test*.jsonl",
        "test",
        "gsm-symbolic",
        "GSM_p1.jsonl",
    ),
    "gsm-symbolic-p2": Variant(
        "gsm-symbolic-p2",
        "symbolic",
        "apple/GSM-Symbolic",
        GSM_SYMBOLIC_REVISION,
        "p2/test*.jsonl",
        "test",
        "gsm-symbolic",
        "GSM_p2.jsonl",
    ),
    "gsm-plus": Variant(
        "gsm-plus",
        "plus",
        "qintongli/GSM-Plus",
        GSM_PLUS_REVISION,
        "data/test-*.jsonl",
        "test",
        "gsm-plus",
        "test.jsonl",
    ),
    "gsm-plus-mini": Variant(
        "gsm-plus-mini",
        "plus",
        "qintongli/GSM-Plus",
        GSM_PLUS_REVISION,
        "data/testmini-*.jsonl",
        "testmini",
        "gsm-plus",
        "testmini.jsonl",
    ),
    "mgsm": Variant(
        "mgsm",
        "mgsm",
        "juletxara/mgsm",
        MGSM_REVISION,
        "{language}/test-*.parquet",
        "test",
        "mgsm",
        "mgsm_{language}.tsv",
    ),
}


def is_variant(source: str) -> bool:
    return source in VARIANTS


def family_root() -> Path | None:
    """Where local copies of the variants are looked for, if anywhere."""
    if os.environ.get(FAMILY_DIR_ENV):
        return from_start_directory(os.environ[FAMILY_DIR_ENV])
    gsm8k_copy = data_dir()
    return gsm8k_copy.parent if gsm8k_copy is not None else None


def local_folder(variant: Variant) -> Path | None:
    """The local copy's folder when one exists, else ``None`` (the hub is used)."""
    root = family_root()
    if root is None or not (root / variant.folder).is_dir():
        return None
    return root / variant.folder


def load_variant(variant: Variant, language: str | None = None) -> LoadedSplit:
    """The raw rows of a variant (one language for MGSM), from a local copy or the hub.

    Raises:
        ValueError: a local copy lacks the file, or a line is malformed (file and line named).
        DatasetUnavailableError: the hub is needed, unreachable, and nothing is cached.
    """
    folder = local_folder(variant)
    file_name = variant.local_file.format(language=language)
    if folder is None:
        return _load_from_hub(variant, variant.hub_pattern.format(language=language), language)
    path = folder / file_name
    if not path.is_file():
        raise ValueError(
            f"dataset={variant.name}: the local copy {folder} has no {file_name} (found: "
            f"{', '.join(sorted(p.name for p in folder.iterdir())) or 'nothing'}). Add the file, "
            f"or point {FAMILY_DIR_ENV} elsewhere (unset it and {DATA_DIR_ENV} to use the hub)."
        )
    if path.suffix == ".tsv":
        records, lines = _read_tsv(path)
    else:
        records, lines = read_jsonl_with_lines(path)
    return LoadedSplit(
        records=records,
        location=str(path.resolve()),
        revision=None,
        sha256=hashlib.sha256(path.read_bytes()).hexdigest(),
        split=variant.split,
        line_numbers=lines,
    )


def load_mgsm_exemplar_rows(language: str) -> LoadedSplit:
    """MGSM's own worked exemplars for ``language`` (its train split, 8 per language)."""
    variant = VARIANTS["mgsm"]
    folder = local_folder(variant)
    if folder is None:
        return _load_from_hub(variant, f"{language}/train-*.parquet", language, "train")
    path = folder / "train.jsonl"
    if not path.is_file():
        raise ValueError(
            f"dataset=mgsm: the local copy {folder} has no train.jsonl with MGSM's exemplars "
            "(rows: language, question, answer, answer_number)."
        )
    records, lines = read_jsonl_with_lines(path)
    chosen = [(r, n) for r, n in zip(records, lines, strict=True) if r.get("language") == language]
    return LoadedSplit(
        records=[r for r, _ in chosen],
        location=str(path.resolve()),
        revision=None,
        sha256=hashlib.sha256(path.read_bytes()).hexdigest(),
        split="train",
        line_numbers=[n for _, n in chosen],
    )


def _load_from_hub(
    variant: Variant, pattern: str, language: str | None, split: str | None = None
) -> LoadedSplit:
    hint = (
        f"To run offline, put a local copy of {variant.repo_id} in a folder named "
        f"{variant.folder}/ holding {variant.local_file.format(language=language)} inside "
        f"$GSM8K_FAMILY_DIR (or next to the GSM8K copy named by ${DATA_DIR_ENV})."
    )
    try:
        return load_hub_files(
            variant.repo_id,
            variant.revision,
            pattern,
            split or variant.split,
            pattern.split("/", 1)[0] if "/" in pattern else "",
            offline_hint=hint,
        )
    except DatasetUnavailableError:
        raise
    except ValueError as error:
        raise ValueError(f"dataset={variant.name}: {error} {hint}") from error


def _read_tsv(path: Path) -> tuple[list[dict[str, Any]], list[int]]:
    """MGSM's ``question<TAB>answer`` lines as records; blank lines are allowed."""
    records: list[dict[str, Any]] = []
    lines: list[int] = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 2:
                raise ValueError(
                    f"{path}:{number}: expected 'question<TAB>answer', got {len(fields)} field(s)."
                )
            records.append({"question": fields[0], "answer_number": fields[1]})
            lines.append(number)
    return records, lines
