"""A relay between the MCP client and a stdio server that caps the size of one message.

    python -I -S relay.py [--max-bytes N] -- COMMAND ARGS...

The MCP SDK's stdio client holds a whole line (one JSON-RPC message) in memory before parsing
it, so a server made to answer with one huge message (a file server reading large files) drives
the evaluator's memory without bound: 375 MB of result took the eval process to 1.96 GB. This
relay starts the server as its child and stands between the server's output and the client.
It reads that output in chunks and passes each line through unchanged; a line longer than the
cap is never held whole: it is dropped chunk by chunk, and when the line is a JSON-RPC response
whose id can be read from its first or last bytes (the Python SDK writes
``{"jsonrpc":"2.0","id":…,"result":…}``, the TypeScript SDK ``{"result":…,"jsonrpc":"2.0",
"id":…}``), an error response for that id goes to the client instead, so that the call ends at
once as a tool error naming the cap.

Everything else is the server's as before: it inherits the relay's input (the client's
requests reach it directly), error output, working folder and environment, and stays in the
relay's process group (the client's group kill reaches both). SIGTERM, SIGINT and SIGHUP to
the relay are passed on to the server. When the server closes its output, the relay closes its
own (the client sees the connection close as before); when the server exits, the relay exits
with its status (by the same signal when a signal ended it).

The file imports only the standard library's smallest modules and runs with ``-I -S`` (no
site-packages, no ``PYTHON*`` variables meant for the server): it starts in about 20 ms.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import select
import signal
import sys
from collections.abc import Sequence

DEFAULT_MAX_BYTES = 16 * 1024 * 1024
"""The longest message passed on. The model reads at most the first 16 KiB of a result's text
(larger results are clipped and images omitted before it sees them), so what a longer message
carries is never read; 16 MiB still passes a result of a few megabytes (a large file read, an
image), clipped as before, while one message costs the evaluator a bounded amount (parsing a
message takes several times its size)."""
CHUNK_BYTES = 64 * 1024
"""How much of the server's output is read at once."""
HEAD_BYTES = 4096
TAIL_BYTES = 1024
"""What is kept of a dropped line's start and end, to find its id."""
REQUEST_BYTES = 1024 * 1024
"""The most of the client's first request read when the server could not be started."""
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
    return (
        b'{"jsonrpc":"2.0","id":'
        + message_id
        + b',"error":{"code":'
        + str(INTERNAL_ERROR).encode()
        + b',"message":"'
        + quoted.encode()
        + b'"}}\n'
    )


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
                print(
                    f"{PROG}: dropped a message of {size} from the server, over the {limit} "
                    "allowed in one message (not a response to a call: nothing answered)",
                    file=sys.stderr,
                    flush=True,
                )
            return b""
        return error_response(
            found,
            f"the server's reply was {size}, over the {limit} the evaluation harness accepts "
            "in one message; it was dropped unread. Ask for less at a time.",
        )


class Relay:
    """The server's process and the loop that carries its output to the client."""

    def __init__(self, command: Sequence[str], max_bytes: int) -> None:
        self.command = list(command)
        self.cap = LineCap(max_bytes)
        self.pid = 0
        self.status: int | None = None

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
        try:
            self.pid = os.posix_spawnp(
                self.command[0],
                self.command,
                os.environ,
                file_actions=[(os.POSIX_SPAWN_DUP2, server_output, 1)],
                # As the client would have started it: Python ignores these two itself.
                setsigdef=(signal.SIGPIPE, signal.SIGXFSZ),
            )
        except OSError as error:
            return self._not_started(error)
        os.close(server_output)
        self._carry(output, wake_read)
        while self.status is None:
            self.status = self._wait(block=True)
        return self.status

    def _carry(self, output: int, wake: int) -> None:
        try:
            while True:
                # Once the server has exited, only what is already there is read: a process it
                # left behind may hold its output open.
                timeout = None if self.status is None else 0.0
                ready, _, _ = select.select([output, wake], [], [], timeout)
                if wake in ready:
                    _drain(wake)
                    self.status = self._wait(block=False)
                    continue
                if output not in ready:
                    break
                data = os.read(output, CHUNK_BYTES)
                if not data:
                    break
                _write_all(1, self.cap.feed(data))
            _write_all(1, self.cap.finish())
        except BrokenPipeError:
            pass  # the client is gone: the server's next write fails as it would have
        finally:
            os.close(output)
            # The client sees the server's output close now, whether or not the server has
            # exited; fd 1 stays open on the null device for the interpreter's own exit.
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.close(null)

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
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, number)

    def _not_started(self, error: OSError) -> int:
        """Say why the server did not start, on error output and as the answer to the client's
        first request (its ``initialize``), so that the client's error names it too."""
        why = f"cannot start {self.command[0]!r}: {error.strerror or error}"
        print(f"{PROG}: {why}", file=sys.stderr, flush=True)
        first = os.read(0, REQUEST_BYTES).split(b"\n", 1)[0]
        found = _REQUEST_ID.search(first)
        if found is not None:
            with contextlib.suppress(BrokenPipeError):
                _write_all(1, error_response(found.group(1), why))
        return 127 if error.errno == errno.ENOENT else 126


def _ignore(number: int, frame: object) -> None:
    pass


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
