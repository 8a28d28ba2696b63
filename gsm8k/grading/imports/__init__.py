"""Other harnesses' GSM8K results, read as they are, for re-grading with this grader.

``gsm8k-grade FILE`` recognises an lm-evaluation-harness ``--log_samples`` file (``lm_eval``)
and an Inspect log (``inspect_log``); ``regrade`` grades their rows and sets the headline before
and after.
"""

from __future__ import annotations

import json
from pathlib import Path

from gsm8k.grading.imports import inspect_log, lm_eval
from gsm8k.grading.imports.rows import Imported, ImportedRow, ImportProblem

FORMATS = ("auto", "jsonl", lm_eval.HARNESS, inspect_log.HARNESS)
"""``--format`` choices: ``jsonl`` is gsm8k-grade's own input (one completion a line)."""


def detect(path: Path) -> str:
    """Which format a file is in, from its name and, for JSON lines, its first record."""
    if path.suffix in inspect_log.SUFFIXES:
        return inspect_log.HARNESS
    try:
        with path.open(encoding="utf-8-sig") as stream:
            first = next((line for line in stream if line.strip()), "")
        return lm_eval.HARNESS if lm_eval.looks_like(json.loads(first)) else "jsonl"
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError):
        return "jsonl"  # gsm8k-grade's own reader reports what is wrong, line by line


def read(path: Path, format: str, original: str | None = None) -> Imported:
    """The rows of an lm-eval samples file or an Inspect log.

    Raises:
        ValueError: when the file cannot be read as ``format``, or ``original`` is not in it.
    """
    reader = lm_eval.read if format == lm_eval.HARNESS else inspect_log.read
    return reader(path, original)


__all__ = ["FORMATS", "ImportProblem", "Imported", "ImportedRow", "detect", "read"]
