"""Commands this project prints for the user to paste: written so that they run verbatim in a new
shell, with no virtualenv activated and none of the variables the first run had.

A printed command names this environment's ``inspect`` by its path, states the environment
variables the run depended on (``GSM8K_DATA_DIR=... inspect eval ...``), and gives folders as
absolute paths, since the new shell may start elsewhere.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path


def inspect_program() -> str:
    """This environment's ``inspect``, which works whether or not the virtualenv is active (a
    bare ``inspect`` is found only on an activated virtualenv's PATH)."""
    program = Path(sys.executable).parent / "inspect"
    if program.is_file():
        return shlex.quote(str(program))
    return f"{shlex.quote(sys.executable)} -m inspect_ai"


def shell_quote(text: str) -> str:
    """Quoted for bash and zsh; text with a newline or tab uses ``$'...'`` so it survives a
    copy and paste."""
    if not any(char in text for char in "\n\t"):
        return shlex.quote(text)
    escaped = text.replace("\\", "\\\\").replace("'", "\\'")
    return "$'" + escaped.replace("\n", "\\n").replace("\t", "\\t") + "'"


def absolute_location(location: str) -> str:
    """A log folder or file as a new shell started elsewhere finds it: local paths made
    absolute (``file://`` unwrapped), URIs such as ``s3://bucket/logs`` kept as given."""
    if "://" in location and not location.startswith("file://"):
        return location
    return str(Path(location.removeprefix("file://")).expanduser().resolve())


def command_line(words: Sequence[str], environment: Mapping[str, str] | None = None) -> str:
    """``NAME=value ... word word``: each word quoted for the shell, the program first word
    (already quoted by :func:`inspect_program`) kept as it is."""
    assignments = [f"{name}={shell_quote(value)}" for name, value in (environment or {}).items()]
    program, *rest = words
    return " ".join([*assignments, program, *(shell_quote(word) for word in rest)])
