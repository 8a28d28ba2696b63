"""Short, readable forms of settings, paths and sample-id sets for reports."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

HASH = re.compile(r"[0-9a-f]{32,}")
SHOWN_HASH_DIGITS = 12


def display_value(value: Any) -> str:
    """A setting as reports show it: ``-`` for unset, long hex digests cut to 12 characters."""
    if value is None:
        return "-"
    if isinstance(value, str):
        return value[:SHOWN_HASH_DIGITS] if HASH.fullmatch(value) else value
    if isinstance(value, bool | int | float):
        return str(value)
    return json.dumps(value, sort_keys=True, default=str)


def shown_values(values: Sequence[Any]) -> list[str]:
    """``display_value`` of each value, paths shortened against each other."""
    texts = [display_value(value) for value in values]
    short = shorten_paths(texts)
    return [short[text] for text in texts]


WINDOWS_PATH = re.compile(r"[A-Za-z]:\\")
MAX_SHOWN = 60
"""Characters of one setting's value shown in labels and warnings (the JSON report has all)."""


def is_path_like(text: str) -> bool:
    """A file path or URL; a JSON list or object (``["\\nQuestion:"]``) is not, whatever it
    holds."""
    if text.startswith(("[", "{")):
        return False
    return "/" in text or bool(WINDOWS_PATH.match(text))


def clipped(text: str, limit: int = MAX_SHOWN) -> str:
    """``text`` cut in the middle to ``limit`` characters, so both ends stay readable."""
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    return f"{text[:head]}…{text[len(text) - (limit - 1 - head) :]}"


def shorten_paths(values: Iterable[str]) -> dict[str, str]:
    """Each path-like value as its shortest trailing part that still tells it from the others.

    ``/a/x/test.jsonl`` and ``/b/y/test.jsonl`` become ``x/test.jsonl`` and ``y/test.jsonl``;
    a value that is not a path is kept as it is.
    """
    distinct = sorted(set(values))
    paths = [v for v in distinct if is_path_like(v)]
    parts = {v: [p for p in re.split(r"[/\\]+", v) if p] for v in paths}
    shortened = {v: v for v in distinct}
    for value in paths:
        for count in range(1, len(parts[value]) + 1):
            tail = parts[value][-count:]
            if all(parts[other][-count:] != tail for other in paths if other != value):
                shortened[value] = "/".join(tail) if count < len(parts[value]) else value
                break
    return shortened


def short_path(path: str, base: str | Path) -> str:
    """``path`` relative to ``base`` when it lies under it, else as given (file URLs unwrapped)."""
    plain = path.removeprefix("file://")
    try:
        relative = str(Path(plain).resolve().relative_to(Path(base).resolve()))
    except (ValueError, OSError):
        return plain
    # ``base`` is the log file itself when one file was given: name it, not ".".
    return relative if relative != "." else plain


def id_ranges(ids: Sequence[int | str], limit: int = 12) -> str:
    """Sample ids in order with runs of consecutive integers joined (``0–4, 9, 12–39``); past
    ``limit`` pieces the remaining ids are counted, not listed."""
    pieces: list[tuple[str, int]] = []
    index = 0
    while index < len(ids):
        start, end_index = ids[index], index
        while (
            end_index + 1 < len(ids)
            and isinstance(ids[end_index], int)
            and isinstance(ids[end_index + 1], int)
            and ids[end_index + 1] == int(ids[end_index]) + 1
        ):
            end_index += 1
        text = str(start) if end_index == index else f"{start}–{ids[end_index]}"
        pieces.append((text, end_index - index + 1))
        index = end_index + 1
    shown = ", ".join(text for text, _ in pieces[:limit])
    hidden = sum(count for _, count in pieces[limit:])
    return f"{shown} and {hidden} more" if hidden else shown
