"""Errors a user can act on, shown by Inspect's CLI as one message instead of a traceback."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from inspect_ai._util.error import PrerequisiteError
from inspect_ai.util import display_type

from gsm8k.grading.printable import printable


class TaskInputError(PrerequisiteError, ValueError):
    """A parameter or data file the task cannot run with; the message names it and what to do.

    A ``ValueError`` for callers that catch those, and a ``PrerequisiteError``, which Inspect's
    CLI prints as one message without a traceback.
    """


@contextmanager
def one_line_errors() -> Iterator[None]:
    """Re-raise a ``ValueError`` raised inside (a bad parameter, a malformed data line) as a
    :class:`TaskInputError` with the same message, its control characters escaped (it names
    files and values the user did not write).

    Under ``INSPECT_DISPLAY=none`` Inspect prints nothing of an error raised while a task is
    built and only exits 1: the message is then written to stderr here, so it reaches the user
    under every display.
    """
    try:
        yield
    except PrerequisiteError as error:
        message = printable(str(error))
        _show_where_inspect_will_not(message)
        if message == str(error):
            raise
        raise TaskInputError(message) from error
    except ValueError as error:
        message = printable(str(error))
        _show_where_inspect_will_not(message)
        raise TaskInputError(message) from error


def _show_where_inspect_will_not(message: str) -> None:
    if display_type() == "none":
        print(f"error: {printable(message)}", file=sys.stderr, flush=True)
