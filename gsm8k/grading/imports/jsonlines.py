"""JSON lines read one at a time, so that no line of any file can stop the others or exhaust memory.

``gsm8k-grade``'s own input and lm-eval's samples files are both read here. Each line is read
with a bounded ``readline`` and parsed on its own; what makes a line unreadable (too long, not
UTF-8, not JSON, nested too deeply, an integer too long for Python to convert) becomes that
line's error, naming what to do, and the next line is read.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

MAX_RECORD_BYTES = 8 * 1024 * 1024
"""The longest line, the largest ``.eval`` member and the largest ``.json`` log read: 8 MiB.
The longest real completions (a 128k-token reasoning run) are about 0.5 MB. Parsing is what
costs memory, up to 22 bytes per byte of text (a line of ``[]``): 8 MiB of it takes about
180 MB, which keeps a whole run under 512 MB with Inspect loaded."""
_CHUNK = 1024 * 1024
"""How much of an over-long line is read at a time while skipping it."""


@dataclass(frozen=True)
class Line:
    """One line of a file: its number (from 1), the byte offset it starts at, and either its
    bytes without the line ending or, for a line over the limit, ``None`` and its length."""

    number: int
    offset: int
    raw: bytes | None
    size: int


def read_lines(stream: IO[bytes], limit: int = MAX_RECORD_BYTES) -> Iterator[Line]:
    """Every line of ``stream``, split on ``\\n`` only (a U+2028 or a lone ``\\r`` inside a JSON
    string does not split a record the way ``str.splitlines`` would). A line longer than
    ``limit`` bytes is skipped in chunks, never held whole."""
    number, offset = 0, 0
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        number += 1
        size = len(raw)
        if size > limit and not raw.endswith(b"\n"):
            while not raw.endswith(b"\n"):
                raw = stream.readline(_CHUNK)
                if not raw:
                    break
                size += len(raw)
            yield Line(number, offset, None, size)
        else:
            yield Line(number, offset, raw.rstrip(b"\r\n"), size)
        offset += size


def too_long(size: int, limit: int = MAX_RECORD_BYTES) -> str:
    return (
        f"a line of {size:,} bytes, more than the {limit:,} read (the longest real completions "
        "are under 1 MB); split or shorten it"
    )


def parse_line(line: Line) -> tuple[Any, str | None]:
    """The line's JSON value, or ``(None, error)`` saying why it cannot be read."""
    if line.raw is None:
        return None, too_long(line.size)
    raw = line.raw
    try:
        text = raw.decode("utf-8-sig" if line.number == 1 else "utf-8")  # a BOM is harmless
    except UnicodeDecodeError as error:
        return None, (
            f"not UTF-8 (byte {raw[error.start]:#04x} at byte offset {line.offset + error.start} "
            "of the file); re-encode the file as UTF-8"
        )
    if not text.strip():
        return None, "empty line"
    return parse_json(text)


def parse_json(text: str) -> tuple[Any, str | None]:
    """``text`` parsed as JSON, or ``(None, error)``: never an exception."""
    # A line of many small containers would set off the cyclic collector again and again, each
    # time walking every object Inspect has loaded (35 s for 39 lines of 1 MB of ``[]``);
    # parsing makes no cycles, so it runs without it.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return json.loads(text, parse_int=_whole_number), None
    except json.JSONDecodeError as error:
        return None, f"not valid JSON ({error.msg}, column {error.colno})"
    except RecursionError:
        return None, "not valid JSON here: nested too deeply"
    except _TooManyDigits as error:
        return None, f"not readable JSON: {error}"
    finally:
        if collecting:
            gc.enable()


class _TooManyDigits(ValueError):
    pass


def _whole_number(digits: str) -> int:
    # Python refuses to convert more than 4,300 digits by default (a guard against quadratic
    # time), with a message that names an interpreter setting rather than the place.
    limit, count = sys.get_int_max_str_digits(), len(digits.lstrip("-"))
    if limit and count > limit:
        raise _TooManyDigits(f"an integer of {count:,} digits (at most {limit:,} are read)")
    return int(digits)
