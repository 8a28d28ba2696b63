"""JSON lines as GSM8K and its family ship them: one object a line, errors name file and line."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Read a JSONL file of objects; blank lines are allowed, anything else is an error.

    Raises:
        ValueError: naming the file and line of the first line that is not a JSON object or
            not UTF-8.
    """
    return read_jsonl_with_lines(path)[0]


def read_jsonl_with_lines(path: Path) -> tuple[list[dict[str, Any]], list[int]]:
    """:func:`read_jsonl`, with the line number of each record."""
    with path.open("rb") as lines:
        return parse_jsonl_lines(lines, str(path))


def parse_jsonl_lines(lines: Iterable[bytes], where: str) -> tuple[list[dict[str, Any]], list[int]]:
    """The objects of raw JSONL lines and the line each came from; ``where`` names the file in
    errors."""
    records: list[dict[str, Any]] = []
    line_numbers: list[int] = []
    offset = 0
    # Bytes, decoded line by line, so that text that is not UTF-8 is named by its line.
    for number, raw in enumerate(lines, start=1):
        try:
            line = raw.decode("utf-8-sig" if number == 1 else "utf-8")  # a BOM is harmless
        except UnicodeDecodeError as error:
            raise ValueError(
                f"{where}:{number}: not UTF-8 (byte {raw[error.start]:#04x} at byte offset "
                f"{offset + error.start}); save the file as UTF-8 (JSON lines are UTF-8)."
            ) from error
        offset += len(raw)
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"{where}:{number}: not valid JSON ({error.msg}).") from error
        if not isinstance(record, dict):
            raise ValueError(
                f"{where}:{number}: expected a JSON object, got {type(record).__name__}."
            )
        records.append(record)
        line_numbers.append(number)
    return records, line_numbers
