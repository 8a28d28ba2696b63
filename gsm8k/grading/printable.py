"""Text from files a user did not write, made safe to print on a terminal.

Model names, sample ids, template and log file names come from other people's runs and
repositories: an ESC or BEL byte in one would reach the terminal raw and could move the cursor,
rewrite what was printed, or retitle the window. Every command of this project passes what it
prints through :func:`printable`, which writes each control character as a visible escape
(``\\x1b``) and leaves all other text, non-ASCII letters included, as it is.
"""

from __future__ import annotations

import re
import sys
from typing import TextIO

# C0 and C1 control characters and DEL, and the Unicode controls that reorder or hide text
# (bidirectional overrides and isolates, zero-width joiners are left alone: they do no harm).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NEWLINE_OR_TAB = re.compile("[\n\t]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object, lines: bool = False) -> str:
    """``text`` with every control character written as an escape.

    Args:
        text: Anything; it is turned into ``str`` first.
        lines: Keep line breaks and tabs (a Markdown report); otherwise they are escaped too, so
            a one-line message stays one line.
    """
    shown = _CONTROL.sub(_escape, str(text))
    if not lines:
        shown = _NEWLINE_OR_TAB.sub(_escape, shown)
    return shown


def say(program: str, message: object, stream: TextIO | None = None) -> None:
    """Print ``program: message`` as one escaped line on stderr (or ``stream``)."""
    print(f"{program}: {printable(message)}", file=stream or sys.stderr)
