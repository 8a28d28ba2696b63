"""The report files a command is asked to write, checked before any log is read: a report that
took minutes to build over a remote store should not end in a traceback over a typo'd folder."""

from __future__ import annotations

from pathlib import Path

PLOT_SUFFIXES = (".png", ".pdf", ".svg")
"""Formats the plots are written in (matplotlib's, chosen by the file's suffix)."""


def output_problem(option: str, path: Path | None) -> str | None:
    """Why ``path``, given as ``option``, cannot be written, or None when it can (or is unset)."""
    if path is None:
        return None
    if option == "--png" and path.suffix.lower() not in PLOT_SUFFIXES:
        return f"{option} {path}: the plot is written as {', '.join(PLOT_SUFFIXES)}; name one"
    if path.is_dir():
        return f"{option} {path}: is a folder; name a file in it"
    folder = path.parent
    if not folder.is_dir():
        return f"{option} {path}: no folder {folder}; create it or name another path"
    return None


def first_output_problem(outputs: dict[str, Path | None]) -> str | None:
    """The first problem among ``{option: path}``, for a one-line error."""
    for option, path in outputs.items():
        problem = output_problem(option, path)
        if problem:
            return problem
    return None
