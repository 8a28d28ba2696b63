"""Other harnesses' GSM8K results, read as they are, for re-grading with this grader.

``gsm8k-grade FILE`` recognises an lm-evaluation-harness ``--log_samples`` file (``lm_eval``)
and an Inspect log (``inspect_log``); ``regrade`` grades their rows and sets the headline before
and after.
"""

from __future__ import annotations

from pathlib import Path

from gsm8k.grading.imports import inspect_log, lm_eval
from gsm8k.grading.imports.jsonlines import parse_line, read_lines
from gsm8k.grading.imports.rows import Imported, ImportedRow, ImportProblem

FORMATS = ("auto", "jsonl", lm_eval.HARNESS, inspect_log.HARNESS)
"""``--format`` choices: ``jsonl`` is gsm8k-grade's own input (one completion a line)."""


DETECT_LINES = 100
"""Lines looked at, at most, for the first that parses: a broken first line does not decide."""


def detect(path: Path) -> str:
    """Which format a file is in: from its name, else from the first line that parses as JSON
    (an lm-eval samples record, or gsm8k-grade's own input). A pipe or a device is not read
    here: it is gsm8k-grade's own input, read once as it streams."""
    if path.suffix in inspect_log.SUFFIXES:
        return inspect_log.HARNESS
    try:
        if not path.is_file():
            return "jsonl"
        with path.open("rb") as stream:
            for index, line in enumerate(read_lines(stream)):
                record, problem = parse_line(line)
                if problem is None:
                    return lm_eval.HARNESS if lm_eval.looks_like(record) else "jsonl"
                if index + 1 >= DETECT_LINES:
                    break
    except OSError:
        pass  # gsm8k-grade's own reader says why the file cannot be read
    return "jsonl"


FORMATS_READ = (
    'gsm8k-grade reads JSON lines (one {"id": 17, "completion": "...", "target": "42"} a line), '
    "an lm-eval --log_samples file (samples_<task>_<date>.jsonl) or an Inspect log (.eval, .json)"
)
"""The formats, named in one line where a file is in none of them."""
SEPARATED_SUFFIXES = (".csv", ".tsv")


def not_lines(path: Path) -> str | None:
    """Why a file cannot be graded at all, in one line naming the formats read: it is empty, or
    it is a table (comma- or tab-separated values) rather than JSON lines. ``None`` otherwise,
    and for what cannot be opened here (the reader then says why)."""
    if path.suffix in inspect_log.SUFFIXES:
        return None
    try:
        if not path.is_file():
            return None
        with path.open("rb") as stream:
            first = stream.readline(64 * 1024)
            if not first:
                return f"{path}: empty, no completions to grade; {FORMATS_READ}"
    except OSError:
        return None
    start = first.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    table = path.suffix.lower() in SEPARATED_SUFFIXES or (
        start not in (b"{", b"[", b"") and (b"," in first or b"\t" in first)
    )
    if table and detect(path) == "jsonl" and not _any_json(path):
        return f"{path}: comma- or tab-separated values, not JSON lines; {FORMATS_READ}"
    return None


def _any_json(path: Path) -> bool:
    """Whether one of the first :data:`DETECT_LINES` lines parses as JSON."""
    with path.open("rb") as stream:
        for index, line in enumerate(read_lines(stream)):
            if parse_line(line)[1] is None:
                return True
            if index + 1 >= DETECT_LINES:
                break
    return False


COMPRESSED = {
    b"\x1f\x8b": ("gzip", "gunzip -c"),
    b"\x28\xb5\x2f\xfd": ("zstd", "zstd -dc"),
    b"\xfd7zXZ": ("xz", "xz -dc"),
    b"BZh": ("bzip2", "bzip2 -dc"),
}
"""Compressed files' first bytes, their name and the command that decompresses to stdout."""


def compressed(path: Path) -> str | None:
    """Why a file that is not an Inspect log cannot be read as lines: it is compressed or a zip
    archive (``None`` when it is neither, or cannot be opened: the reader then says why)."""
    if path.suffix in inspect_log.SUFFIXES:
        return None
    try:
        if not path.is_file():
            return None
        with path.open("rb") as stream:
            start = stream.read(6)
    except OSError:
        return None
    if start.startswith(b"PK\x03\x04"):
        return f"{path}: a zip archive; an Inspect log is read when its name ends in .eval"
    for magic, (name, command) in COMPRESSED.items():
        if start.startswith(magic):
            return (
                f"{path}: {name}-compressed; decompress it and read standard input: "
                f"{command} {path} | gsm8k-grade -"
            )
    return None


def read(path: Path, format: str, original: str | None = None) -> Imported:
    """The rows of an lm-eval samples file or an Inspect log.

    Raises:
        ValueError: when the file cannot be read as ``format``, or ``original`` is not in it.
    """
    reader = lm_eval.read if format == lm_eval.HARNESS else inspect_log.read
    return reader(path, original)


__all__ = [
    "FORMATS",
    "ImportProblem",
    "Imported",
    "ImportedRow",
    "compressed",
    "detect",
    "read",
]
