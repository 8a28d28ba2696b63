"""GSM8K's test and train splits shipped inside the package: the default source, so that a run
needs neither network nor a data folder.

The files are openai/grade-school-math's ``test.jsonl`` and ``train.jsonl`` (MIT), gzip-compressed
byte for byte (``grade_school_math/README.md`` beside this module: provenance, license,
checksums). Each is checked against its published sha256 when first read: a damaged or edited
install is an error, never a silently different test set. A process reads each file once.
"""

from __future__ import annotations

import gzip
import hashlib
import io
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from gsm8k.data.jsonl import parse_jsonl_lines

BUNDLED_SOURCE = "gsm8k"
"""The ``dataset`` name of the bundled copy (the default)."""
DATA_DIR_ENV = "GSM8K_DATA_DIR"
"""A local copy of openai/grade-school-math's ``data/`` folder that replaces the bundled one."""
BUNDLED_DIR = Path(__file__).parent / "grade_school_math"
UPSTREAM_REPOSITORY = "openai/grade-school-math"
UPSTREAM_COMMIT = "3101c7d5072418e28b9008a6636bde82a006892c"
UPSTREAM_FOLDER = "grade_school_math/data"

SHA256: dict[str, str] = {
    # openai/grade-school-math's own files (not the .gz), as its data/ folder holds them.
    "test": "3730d312f6e3440559ace48831e51066acaca737f6eabec99bccb9e4b3c39d14",
    "train": "17f347dc51477c50d4efb83959dbb7c56297aba886e5544ee2aaed3024813465",
}
RECORDS: dict[str, int] = {"test": 1319, "train": 7473}
BUNDLED_SPLITS = tuple(SHA256)


class BundledDataError(RuntimeError):
    """The package's copy of GSM8K is missing or does not match its checksum.

    Not an Inspect error class, so that reading the copy imports nothing of Inspect
    (``gsm8k-grade`` looks targets up here); the task's loader raises it as Inspect's
    ``PrerequisiteError``, which the CLI prints as one message."""


@dataclass(frozen=True)
class BundledSplit:
    """One verified split of the bundled copy."""

    records: tuple[dict[str, Any], ...]
    line_numbers: tuple[int, ...]
    sha256: str
    location: str
    """``bundled://openai/grade-school-math@<commit>/grade_school_math/data/<split>.jsonl``:
    what the package ships, named by where it came from (the checksum says the rest)."""


def bundled_location(split: str) -> str:
    """How logs name a bundled split: its upstream repository, commit and path."""
    return f"bundled://{UPSTREAM_REPOSITORY}@{UPSTREAM_COMMIT}/{UPSTREAM_FOLDER}/{split}.jsonl"


def is_bundled_location(location: object) -> bool:
    """Whether a recorded ``dataset`` location is the bundled copy's."""
    return isinstance(location, str) and location.startswith("bundled://")


def bundled_file(split: str) -> Path:
    """The compressed file of ``split`` inside the installed package."""
    return BUNDLED_DIR / f"{split}.jsonl.gz"


@cache
def bundled_split(split: str) -> BundledSplit:
    """The records of the bundled ``split`` (``test`` or ``train``), checked against their
    published sha256; read once per process.

    Raises:
        ValueError: ``split`` is not one the package ships.
        BundledDataError: the file is missing or its content is not the published file.
    """
    if split not in SHA256:
        raise ValueError(
            f"dataset={BUNDLED_SOURCE!r} (the bundled copy) has the splits "
            f"{', '.join(BUNDLED_SPLITS)}, not {split!r}; GSM8K-Socratic is "
            "-T dataset=gsm8k-socratic, another file is -T dataset=PATH."
        )
    file = bundled_file(split)
    try:
        data = gzip.decompress(file.read_bytes())
    except (OSError, EOFError) as error:
        raise BundledDataError(
            f"{file}: cannot read the bundled GSM8K copy ({error}). {_FIX}"
        ) from error
    digest = hashlib.sha256(data).hexdigest()
    if digest != SHA256[split]:
        raise BundledDataError(
            f"{file}: its content has sha256 {digest}, not openai/grade-school-math's "
            f"{SHA256[split]}. {_FIX}"
        )
    records, lines = parse_jsonl_lines(io.BytesIO(data), str(file))
    return BundledSplit(tuple(records), tuple(lines), digest, bundled_location(split))


_FIX = (
    "Reinstall the package (pip install --force-reinstall inspect-gsm8k, or restore the file "
    "from the repository), or pass -T dataset=openai/gsm8k (the hub) or -T dataset=PATH."
)


def gsm8k_test_record(index: int) -> dict[str, Any]:
    """GSM8K test record ``index`` (``question``, ``answer``) from the bundled copy: the
    original of a variant item, looked up without the network (the split is read once).

    Raises:
        IndexError: ``index`` is not a test index (0 to 1318).
    """
    records = bundled_split("test").records
    if not 0 <= index < len(records):
        raise IndexError(f"GSM8K has test items 0 to {len(records) - 1}, not {index}.")
    return dict(records[index])
