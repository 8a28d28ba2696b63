"""Errors a user can act on, shown by Inspect's CLI as one message instead of a traceback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from inspect_ai._util.error import PrerequisiteError


class TaskInputError(PrerequisiteError, ValueError):
    """A parameter or data file the task cannot run with; the message names it and what to do.

    A ``ValueError`` for callers that catch those, and a ``PrerequisiteError``, which Inspect's
    CLI prints as one message without a traceback.
    """


@contextmanager
def one_line_errors() -> Iterator[None]:
    """Re-raise a ``ValueError`` raised inside (a bad parameter, a malformed data line) as a
    :class:`TaskInputError` with the same message."""
    try:
        yield
    except PrerequisiteError:
        raise
    except ValueError as error:
        raise TaskInputError(str(error)) from error
