"""A relay between the MCP client and a stdio server that bounds what the server writes.

    python -I -S relay.py [--max-bytes N] -- COMMAND ARGS...

The MCP SDK's stdio client holds a whole line (one JSON-RPC message) in memory before parsing
it (375 MB of result took the eval process to 1.96 GB), and Inspect's client logs every line of
the server's error output as an event of the sample, reading a line at a time (300,000 lines
grew the evaluator by about 500 MB, 400 MB without a newline by 2.4 GB). This relay starts the
server as its child and reads both of its outputs in chunks. A line of output longer than the
cap is never held whole: it is dropped chunk by chunk, and when it is a JSON-RPC response whose
id can be read from its first or last bytes (the Python SDK writes the id first, the TypeScript
SDK last), an error response for that id goes to the client instead, so that the call ends at
once as a tool error naming the cap. Of the error output, the first :data:`ERROR_HEAD_LINES`
lines pass at once, each cut at :data:`ERROR_LINE_BYTES`; of the rest only the last
:data:`ERROR_TAIL_LINES` are kept, written after a line counting what was left out when the
error output ends; a server that exits by itself with a failure gets a line naming its status.

The server inherits the relay's input (the client's requests reach it directly), working folder
and environment, and stays in the relay's process group (the client's group kill reaches both);
SIGTERM, SIGINT and SIGHUP to the relay are passed on to it. When the server closes its output,
the relay closes its own (the client sees the connection close); when the server exits, the
relay exits with its status (by the same signal when a signal ended it). The file imports only
the standard library's smallest modules and runs with ``-I -S``: it starts in about 20 ms.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import select
import signal
import sys
from collections import deque
from collections.abc import Sequence

DEFAULT_MAX_BYTES = 16 * 1024 * 1024
"""The longest message passed on: the model reads at most 16 KiB of a result's text, and 16 MiB
still passes a result of a few megabytes (clipped before the model reads it) while bounding what
one message costs the evaluator (parsing takes several times its size)."""
CHUNK_BYTES = 64 * 1024
"""How much of the server's output is read at once."""
HEAD_BYTES = 4096
TAIL_BYTES = 1024
"""What is kept of a dropped line's start and end, to find its id."""
REQUEST_BYTES = 1024 * 1024
"""The most of the client's first request read when the server could not be started."""
ERROR_LINE_BYTES = 2000
"""A line of the server's error output is cut here (a line costs the evaluator a log event)."""
ERROR_HEAD_LINES = ERROR_TAIL_LINES = 100
"""Lines of the server's error output passed on at once, and kept for its end: a server's own
account of a crash (node's heap report, a Python traceback) is at the end."""
INTERNAL_ERROR = -32603
FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
PROG = "gsm8k-mcp-relay"

_ID = rb'(-?\d+|"(?:[^"\\]|\\.){0,256}")'
_VERSION = rb'"jsonrpc"\s*:\s*"2\.0"\s*,\s*'
_RESPONSE_HEAD = re.compile(
    rb"\s*\{\s*(?:"
    + _VERSION
    + rb")?(?:\"id\"\s*:\s*"
    + _ID
    + rb"\s*,\s*)?(?:"
    + _VERSION
    + rb')?"(?:result|error)"\s*:'
)
"""A response's leading keys, its id among them where the sender put it first."""
_TAIL_ID = re.compile(rb'"id"\s*:\s*' + _ID + rb'\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$')
"""An id as the message's last key (one closing brace after it: the top level)."""
_REQUEST_ID = re.compile(rb'"id"\s*:\s*' + _ID)


def message_id(head: bytes, tail: bytes) -> bytes | None:
    """The JSON-RPC id (as written) of the response whose line starts with ``head`` and ends
    with ``tail``; ``None`` when the line is not a response or its id cannot be read (a request
    or notification from the server is dropped without a reply: no client call waits on it)."""
    found = _RESPONSE_HEAD.match(head)
    if found is None:
        return None
    if found.group(1) is not None:
        return found.group(1)
    at_end = _TAIL_ID.search(tail)
    return at_end.group(1) if at_end else None


def error_response(message_id: bytes, text: str) -> bytes:
    """A JSON-RPC error response line for ``message_id``."""
    quoted = text.replace("\\", "\\\\").replace('"', '\\"')
    head = b'{"jsonrpc":"2.0","id":' + message_id + b',"error":{"code":'
    return head + str(INTERNAL_ERROR).encode() + b',"message":"' + quoted.encode() + b'"}}\n'


class LineCap:
    """Lines in, the same lines out, each over ``max_bytes`` (newline not counted) replaced
    by an error response for its id, or dropped; never more than ``max_bytes`` plus one chunk
    held."""

    def __init__(self, max_bytes: int, warn: bool = True) -> None:
        self.max_bytes = max_bytes
        self.warn = warn
        self.pending = bytearray()
        self.dropping = False
        self.head = b""
        self.tail = bytearray()
        self.dropped = 0

    def feed(self, data: bytes) -> bytes:
        """What to write to the client for ``data``, the server's next output."""
        out = bytearray()
        view = memoryview(data)
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            piece = view[start : len(data) if end < 0 else end]
            if self.dropping:
                self._drop(piece)
            elif len(self.pending) + len(piece) > self.max_bytes:
                # Over the cap: from here on only the line's first and last bytes are kept.
                self.dropping = True
                self.head = bytes(self.pending[:HEAD_BYTES] + piece[:HEAD_BYTES])[:HEAD_BYTES]
                self.tail = self.pending[-TAIL_BYTES:]
                self.dropped = len(self.pending)
                self.pending = bytearray()
                self._drop(piece)
            else:
                self.pending += piece
            if end < 0:
                break
            if self.dropping:
                out += self._replacement(complete=True)
            else:
                out += self.pending + b"\n"
                self.pending = bytearray()
            start = end + 1
        return bytes(out)

    def finish(self) -> bytes:
        """What to write when the server's output ends (mid-line or not)."""
        if self.dropping:
            return self._replacement(complete=False)
        # An unterminated last line goes on as it is: the client decides what it is worth.
        rest, self.pending = bytes(self.pending), bytearray()
        return rest

    def _drop(self, piece: memoryview) -> None:
        self.dropped += len(piece)
        self.tail += piece[-TAIL_BYTES:]
        del self.tail[:-TAIL_BYTES]

    def _replacement(self, complete: bool) -> bytes:
        size = f"{self.dropped:,} bytes" if complete else f"over {self.dropped:,} bytes (cut off)"
        found = message_id(self.head, bytes(self.tail).rstrip(b"\r"))
        self.dropping, self.head, self.tail, self.dropped = False, b"", bytearray(), 0
        limit = f"{self.max_bytes:,} bytes"
        if found is None:
            if self.warn:
                _say(
                    f"dropped a message of {size} from the server, over the {limit} allowed in "
                    "one message (not a response to a call: nothing answered)"
                )
            return b""
        return error_response(
            found,
            f"the server's reply was {size}, over the {limit} the evaluation harness accepts "
            "in one message; it was dropped unread. Ask for less at a time.",
        )


class ErrorCap:
    """The server's error output in, at most :data:`ERROR_HEAD_LINES` lines out at once and the
    last :data:`ERROR_TAIL_LINES` at its end, each line at most :data:`ERROR_LINE_BYTES`."""

    def __init__(self, head: int = ERROR_HEAD_LINES, tail: int = ERROR_TAIL_LINES) -> None:
        self.head = head
        self.line = bytearray()
        self.cut = 0
        self.passed = 0
        self.kept: deque[tuple[bytes, int]] = deque()
        self.tail = tail
        self.left_lines = 0
        self.left_bytes = 0

    def feed(self, data: bytes) -> bytes:
        """What to write to the relay's error output for ``data``, the server's next."""
        out = bytearray()
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            stop = len(data) if end < 0 else end
            take = min(ERROR_LINE_BYTES - len(self.line), stop - start)
            self.line += data[start : start + take]
            self.cut += stop - start - take
            if end < 0:
                break
            out += self._ended()
            start = end + 1
        return bytes(out)

    def finish(self) -> bytes:
        """What to write when the server's error output ends: the tail kept, after a count of
        what was left out."""
        out = self._ended() if self.line or self.cut else b""
        if self.left_lines:
            out += (
                f"{PROG}: {self.left_lines:,} lines ({self.left_bytes:,} bytes) of the "
                f"server's error output left out here; its last {len(self.kept)} follow\n"
            ).encode()
        out += b"".join(line for line, _size in self.kept)
        self.kept.clear()
        return out

    def _ended(self) -> bytes:
        line = bytes(self.line)
        if self.cut:
            line += f" [{self.cut:,} more bytes of this line left out]".encode()
        size = len(self.line) + self.cut + 1
        self.line, self.cut = bytearray(), 0
        if self.passed < self.head:
            self.passed += 1
            return line + b"\n"
        self.kept.append((line + b"\n", size))
        if len(self.kept) > self.tail:
            _line, dropped = self.kept.popleft()
            self.left_lines += 1
            self.left_bytes += dropped
        return b""


class Relay:
    """The server's process and the loop that carries its output to the client."""

    def __init__(self, command: Sequence[str], max_bytes: int) -> None:
        self.command = list(command)
        self.cap = LineCap(max_bytes)
        self.errors = ErrorCap()
        self.pid = 0
        self.status: int | None = None
        self.signalled = False

    def run(self) -> int:
        """Start the server, carry its output until it ends, and return its exit code (negative
        for a signal, as :mod:`subprocess` reports it)."""
        wake_read, wake_write = os.pipe()
        os.set_blocking(wake_read, False)
        os.set_blocking(wake_write, False)
        signal.set_wakeup_fd(wake_write)
        for number in FORWARDED:
            signal.signal(number, self._forward)
        # Handled (not ignored), so that the wakeup pipe hears of the server's exit.
        signal.signal(signal.SIGCHLD, _ignore)
        output, server_output = os.pipe()
        errors, server_errors = os.pipe()
        try:
            self.pid = os.posix_spawnp(
                self.command[0],
                self.command,
                os.environ,
                file_actions=[
                    (os.POSIX_SPAWN_DUP2, server_output, 1),
                    (os.POSIX_SPAWN_DUP2, server_errors, 2),
                ],
                # As the client would have started it: Python ignores these two itself.
                setsigdef=(signal.SIGPIPE, signal.SIGXFSZ),
            )
        except OSError as error:
            os.close(errors)
            os.close(server_errors)
            return self._not_started(error)
        os.close(server_output)
        os.close(server_errors)
        self._carry(output, errors, wake_read)
        while self.status is None:
            self.status = self._wait(block=True)
        if self.status != 0 and not self.signalled:
            ended = f"status {self.status}" if self.status > 0 else f"signal {-self.status}"
            _say(f"the server exited by itself, with {ended}")
        return self.status

    def _carry(self, output: int, errors: int, wake: int) -> None:
        reading = {output, errors}
        while reading:
            # Once the server has exited, only what is already there is read: a process it
            # left behind may hold its outputs open.
            timeout = None if self.status is None else 0.0
            ready, _, _ = select.select([*reading, wake], [], [], timeout)
            if wake in ready:
                _drain(wake)
                self.status = self._wait(block=False)
                continue
            if not ready:
                break
            for fd in ready:
                if not self._pass(fd == output, os.read(fd, CHUNK_BYTES)):
                    reading.discard(fd)
                    _close(fd, fd == output)
        for fd in reading:
            self._pass(fd == output, b"")
            _close(fd, fd == output)

    def _pass(self, is_output: bool, data: bytes) -> bool:
        """Pass on ``data`` from the server's output or error output (``b""``: its end);
        whether to read on."""
        try:
            if is_output:
                _write_all(1, self.cap.feed(data) if data else self.cap.finish())
            else:
                _write_all(2, self.errors.feed(data) if data else self.errors.finish())
        except OSError:
            # The client is gone (the server's next write fails as it would have), or nothing
            # reads the error output any more (nothing of it to keep).
            return not is_output and bool(data)
        return bool(data)

    def _wait(self, block: bool) -> int | None:
        if self.status is not None:
            return self.status
        pid, status = os.waitpid(self.pid, 0 if block else os.WNOHANG)
        return os.waitstatus_to_exitcode(status) if pid else None

    def _forward(self, number: int, frame: object) -> None:
        # A signal sent to the whole group reaches the server twice (directly and from here);
        # a second SIGTERM during its handler is harmless to gsm8k-mcp (removing its image is
        # idempotent), and the relay cannot tell a group signal from one sent to it alone.
        if self.pid and self.status is None:
            self.signalled = True
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, number)

    def _not_started(self, error: OSError) -> int:
        """Say why the server did not start, on error output and as the answer to the client's
        first request (its ``initialize``), so that the client's error names it too."""
        why = f"cannot start {self.command[0]!r}: {error.strerror or error}"
        _say(why)
        first = os.read(0, REQUEST_BYTES).split(b"\n", 1)[0]
        found = _REQUEST_ID.search(first)
        if found is not None:
            with contextlib.suppress(BrokenPipeError):
                _write_all(1, error_response(found.group(1), why))
        return 127 if error.errno == errno.ENOENT else 126


def _ignore(number: int, frame: object) -> None:
    pass


def _say(text: str) -> None:
    print(f"{PROG}: {text}", file=sys.stderr, flush=True)


def _close(fd: int, is_output: bool) -> None:
    os.close(fd)
    if is_output:
        # The client sees the server's output close now, whether or not the server has
        # exited; fd 1 stays open on the null device for the interpreter's own exit.
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 512):
            pass
    except BlockingIOError:
        pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def exit_as(code: int) -> None:
    """Exit with ``code``; a negative code by that signal, as the server did."""
    if code >= 0:
        sys.exit(code)
    if -code not in (signal.SIGKILL, signal.SIGSTOP):
        signal.signal(-code, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [-code])
    os.kill(os.getpid(), -code)
    sys.exit(128 - code)


def main(argv: Sequence[str] | None = None) -> None:
    words = list(sys.argv[1:] if argv is None else argv)
    max_bytes = DEFAULT_MAX_BYTES
    if words[:1] == ["--max-bytes"] and len(words) > 1 and words[1].isdigit():
        max_bytes = int(words[1])
        words = words[2:]
    if words[:1] != ["--"] or len(words) < 2 or max_bytes < 1:
        print(f"usage: {PROG} [--max-bytes N] -- COMMAND ARGS...", file=sys.stderr)
        sys.exit(2)
    exit_as(Relay(words[1:], max_bytes).run())


if __name__ == "__main__":
    main()
