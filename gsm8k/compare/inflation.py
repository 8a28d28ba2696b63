"""How much a ``.eval`` log inflates to, checked before Inspect reads it.

A ``.eval`` log is a zip archive, and Inspect's reader inflates a member whole, whatever size
the archive records for it: a 1.6 MB log whose ``header.json`` inflates to 1.5 GB took a report
past 3 GB. Reports read logs from other people's runs, so each member Inspect is about to read
is first inflated here, in chunks and only counted, no further than :data:`MAX_MEMBER_BYTES`;
a log with a larger member is skipped with a line saying so, like any unreadable log.
"""

from __future__ import annotations

import copy
import zipfile
from typing import IO, Any

from inspect_ai._util.file import file, filesystem

MAX_MEMBER_BYTES = 64 * 1024 * 1024
"""The most one member Inspect reads whole (the header, the sample summaries, a sample) may
inflate to: a full GSM8K test run's summaries inflate to a few MB, and Inspect holds a member
several times over while it parses it."""
MAX_READ_BYTES = 256 * 1024 * 1024
"""The most the members a report reads may inflate to together, and the largest ``.json`` log
read (a ``.json`` log is parsed whole)."""
_CHUNK = 1024 * 1024
SUMMARY_MEMBERS = ("header.json", "summaries.json", "reductions.json")
SUMMARY_FOLDERS = ("_journal/",)
SAMPLE_FOLDER = "samples/"


def oversized_member(location: str, samples: bool = False) -> str | None:
    """Why the ``.eval`` log at ``location`` must not be given to Inspect's reader (a member
    that inflates past :data:`MAX_MEMBER_BYTES`), or ``None``.

    Args:
        location: A log's path or URI; logs that are not ``.eval`` files are not checked.
        samples: Also check the sample members (for a report that reads whole samples).
    """
    if location.endswith(".json"):
        return _oversized_json(location)
    if not location.endswith(".eval"):
        return None
    try:
        with file(location, "rb") as handle:
            return _oversized(handle, samples)
    except (OSError, zipfile.BadZipFile, EOFError, ValueError):
        return None  # not a readable zip: Inspect's reader says so in its own words


def _oversized(handle: IO[bytes], samples: bool) -> str | None:
    import zipfile_zstd  # noqa: F401  (Inspect writes zstd members; this teaches zipfile them)

    total = 0
    with zipfile.ZipFile(handle) as archive:
        for info in archive.infolist():
            name = info.filename
            read = name in SUMMARY_MEMBERS or name.startswith(SUMMARY_FOLDERS)
            if not (read or (samples and name.startswith(SAMPLE_FOLDER))):
                continue
            size = info.file_size if info.file_size > MAX_MEMBER_BYTES else _inflated(archive, info)
            if size > MAX_MEMBER_BYTES:
                return (
                    f"its member {name} inflates to more than {MAX_MEMBER_BYTES // 2**20} MiB, "
                    "more than a log of this task holds; not read"
                )
            total += size
            if total > MAX_READ_BYTES:
                return (
                    f"its members inflate to more than {MAX_READ_BYTES // 2**20} MiB together, "
                    "more than a log of this task holds; not read"
                )
    return None


def _oversized_json(location: str) -> str | None:
    try:
        size = filesystem(location).info(location).size
    except Exception:  # unreadable: Inspect's reader says so in its own words
        return None
    if size is not None and size > MAX_READ_BYTES:
        return (
            f"a .json log of {size:,} bytes, more than the {MAX_READ_BYTES // 2**20} MiB read "
            f"whole; convert it to .eval: inspect log convert {location} --to eval --output-dir DIR"
        )
    return None


def _inflated(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> int:
    """Bytes the member inflates to, counted no further than just past the bound: the size the
    archive records is the attacker's to choose, so it is not trusted."""
    unbounded: Any = copy.copy(info)
    unbounded.file_size = MAX_MEMBER_BYTES + 1
    unbounded.CRC = None  # a CRC over the recorded size would fail; Inspect checks its own
    size = 0
    try:
        with archive.open(unbounded) as member:
            while size <= MAX_MEMBER_BYTES and (chunk := member.read(_CHUNK)):
                size += len(chunk)
    except Exception:  # corrupt, unknown compression, zlib or zstd errors: Inspect's reader says so
        return 0
    return size
