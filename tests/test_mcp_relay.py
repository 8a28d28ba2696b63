"""The relay that bounds what a stdio MCP server writes (gsm8k/mcp_tools/relay.py): its line logic
in process (one message's cap, the error output's head and tail), and its process behaviour
(exit status, signals, process group, start failures, memory) with real children."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gsm8k.mcp_tools.config import MAX_MESSAGE_VARIABLE, RELAY, relay_options
from gsm8k.mcp_tools.relay import (
    CHUNK_BYTES,
    ERROR_HEAD_LINES,
    ERROR_LINE_BYTES,
    ERROR_TAIL_LINES,
    HEAD_BYTES,
    TAIL_BYTES,
    ErrorCap,
    LineCap,
    message_id,
)

CAP = 100


def feed_all(cap: LineCap, data: bytes, size: int) -> bytes:
    """``data`` fed ``size`` bytes at a time, then the end of output."""
    out = b"".join(cap.feed(data[at : at + size]) for at in range(0, len(data), size))
    return out + cap.finish()


def response(message_id: object, text: str) -> bytes:
    """A result line as the Python SDK writes it (id first)."""
    body = {"jsonrpc": "2.0", "id": message_id, "result": {"content": [{"text": text}]}}
    return json.dumps(body, separators=(",", ":")).encode()


def node_response(message_id: object, text: str) -> bytes:
    """A result line as the TypeScript SDK writes it (result first, id last)."""
    body = {"result": {"content": [{"text": text}]}, "jsonrpc": "2.0", "id": message_id}
    return json.dumps(body, separators=(",", ":")).encode()


def errors(out: bytes) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines() if b'"error"' in line]


@pytest.mark.parametrize("size", [1, 7, CAP, CAP + 1, 4096])
def test_lines_at_or_under_the_cap_pass_unchanged_however_they_are_split(size: int) -> None:
    lines = [b"", b"x" * CAP, response(1, "a" * 20), b"\xff\xfe not json", b"y" * (CAP - 1)]
    data = b"\n".join(lines) + b"\n"
    assert feed_all(LineCap(CAP), data, size) == data


@pytest.mark.parametrize("size", [1, 13, CAP - 1, CAP + 1, 10_000])
def test_a_response_over_the_cap_becomes_an_error_for_its_id(size: int) -> None:
    big = response(7, "z" * 5000)
    data = b"before\n" + big + b"\nafter\n"
    out = feed_all(LineCap(CAP), data, size)
    before, error, after = out.splitlines()
    assert (before, after) == (b"before", b"after")
    reply = json.loads(error)
    assert reply["id"] == 7 and reply["jsonrpc"] == "2.0"
    assert reply["error"]["code"] == -32603
    assert f"{len(big):,} bytes" in reply["error"]["message"]
    assert f"over the {CAP:,} bytes" in reply["error"]["message"]


def test_a_line_one_byte_over_the_cap_crossing_chunks_is_dropped() -> None:
    line = response(3, "q" * CAP)[: CAP + 1]
    cap = LineCap(CAP, warn=False)
    first = cap.feed(line[:CAP])
    assert first == b"" and len(cap.pending) == CAP
    assert cap.feed(line[CAP:] + b"\nnext\n").splitlines()[-1] == b"next"
    assert cap.pending == bytearray() and not cap.dropping


@pytest.mark.parametrize("message_id", [12, -4, "abc", 'a"b\\c'])
def test_the_id_is_found_first_or_last_as_either_sdk_writes_it(message_id: object) -> None:
    for line in (response(message_id, "w" * 3000), node_response(message_id, "w" * 3000)):
        [reply] = errors(feed_all(LineCap(CAP), line + b"\n", 512))
        assert reply["id"] == message_id


def test_an_id_inside_the_result_is_not_taken_for_the_messages() -> None:
    body = {"result": {"content": [], "structuredContent": {"id": 99}}, "jsonrpc": "2.0"}
    line = json.dumps(body, separators=(",", ":")).encode() + b"\n"
    assert message_id(line[:HEAD_BYTES], line[-TAIL_BYTES:].rstrip()) is None
    text = response(5, '"id":99}').rstrip(b"}")  # the model's text names an id at the end
    assert message_id(text[:HEAD_BYTES], text[-TAIL_BYTES:]) == b"5"


def test_an_oversized_request_or_notification_is_dropped_without_a_reply() -> None:
    request = {"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": "p" * 500}
    note = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"d": "n" * 500}}
    data = b"\n".join(json.dumps(m).encode() for m in (request, note)) + b"\nok\n"
    assert feed_all(LineCap(CAP, warn=False), data, 64) == b"ok\n"


def test_output_ending_mid_line_over_the_cap_still_answers_the_call() -> None:
    partial = response(9, "e" * 1000)[:600]
    [reply] = errors(feed_all(LineCap(CAP), partial, 50))
    assert reply["id"] == 9
    assert "over 600 bytes (cut off)" in str(reply["error"])


def test_output_ending_mid_line_under_the_cap_goes_on_as_it_is() -> None:
    assert feed_all(LineCap(CAP), b"whole\npart", 3) == b"whole\npart"


def test_memory_held_is_the_cap_plus_the_ends_kept_never_the_line() -> None:
    cap = LineCap(CAP, warn=False)
    for _ in range(1000):
        cap.feed(b"k" * 997)
        assert len(cap.pending) <= CAP and len(cap.tail) <= TAIL_BYTES
        assert len(cap.head) <= HEAD_BYTES
    assert cap.dropped == 997_000


def test_the_cap_is_set_from_the_evaluators_environment() -> None:
    assert relay_options({}) == ["-I", "-S", str(RELAY)]
    given = relay_options({MAX_MESSAGE_VARIABLE: "4096"})
    assert given[-2:] == ["--max-bytes", "4096"]
    for wrong in ("0", "-5", "1e6", "lots"):
        with pytest.raises(ValueError, match=MAX_MESSAGE_VARIABLE):
            relay_options({MAX_MESSAGE_VARIABLE: wrong})


def test_the_error_output_keeps_its_head_and_tail_and_counts_what_it_left_out() -> None:
    lines = [f"line {n}".encode() for n in range(1000)]
    cap = ErrorCap(head=3, tail=2)
    out = feed_all(cap, b"\n".join(lines) + b"\n", 7)  # type: ignore[arg-type]
    left = sum(len(line) + 1 for line in lines[3:-2])
    assert out.splitlines() == [
        *lines[:3],
        f"gsm8k-mcp-relay: 995 lines ({left:,} bytes) of the server's error output left out "
        "here; its last 2 follow".encode(),
        *lines[-2:],
    ]


def test_a_long_error_line_is_cut_and_one_without_a_newline_ends_at_the_end() -> None:
    long = b"e" * (ERROR_LINE_BYTES + 5000)
    cap = ErrorCap()
    out = b"".join(cap.feed(long[at : at + 999]) for at in range(0, len(long), 999))
    out += cap.feed(b"\nshort\nunterminated") + cap.finish()
    first, second, third = out.splitlines()
    assert first == b"e" * ERROR_LINE_BYTES + b" [5,000 more bytes of this line left out]"
    assert (second, third) == (b"short", b"unterminated")
    assert cap.line == bytearray() and cap.cut == 0


# --- the relay as a process -------------------------------------------------------------------


def relay(*command: str, max_bytes: int | None = None) -> list[str]:
    options = [] if max_bytes is None else ["--max-bytes", str(max_bytes)]
    return [sys.executable, "-I", "-S", str(RELAY), *options, "--", *command]


def test_output_passes_and_the_exit_code_is_the_servers() -> None:
    done = subprocess.run(
        relay("sh", "-c", "cat; echo out; echo err >&2; exit 5"),
        input=b"in\n",
        capture_output=True,
        timeout=30,
    )
    status = b"gsm8k-mcp-relay: the server exited by itself, with status 5\n"
    assert (done.returncode, done.stdout, done.stderr) == (5, b"in\nout\n", b"err\n" + status)


def test_a_server_killed_by_a_signal_is_reported_as_that_signal() -> None:
    done = subprocess.run(relay("sh", "-c", "kill -KILL $$"), timeout=30)
    assert done.returncode == -signal.SIGKILL


def test_sigterm_is_forwarded_and_the_relay_waits_for_the_server(tmp_path: Path) -> None:
    marker = tmp_path / "cleaned"
    # The server cleans up for a second on SIGTERM (as gsm8k-mcp removes its image), then exits.
    script = (
        f"trap 'sleep 1; touch {marker}; exit 7' TERM; echo ready; while :; do sleep 0.05; done"
    )
    process = subprocess.Popen(relay("sh", "-c", script), stdout=subprocess.PIPE)
    assert process.stdout is not None
    assert process.stdout.readline() == b"ready\n"
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 7
    assert marker.exists()


def test_the_server_stays_in_the_relays_process_group() -> None:
    process = subprocess.Popen(
        relay("sh", "-c", "ps -o pgid= -p $$; sleep 30"),
        stdout=subprocess.PIPE,
        start_new_session=True,  # as the MCP client starts it
    )
    assert process.stdout is not None
    try:
        assert int(process.stdout.readline()) == process.pid
        os.killpg(process.pid, signal.SIGKILL)  # the client's last resort reaches both
        assert process.wait(timeout=30) == -signal.SIGKILL
    finally:
        if process.poll() is None:
            process.kill()


def test_the_relay_exits_with_the_server_even_when_a_child_holds_its_output() -> None:
    started = time.monotonic()
    process = subprocess.Popen(
        relay("sh", "-c", "sleep 20 & echo bye; exit 3"),
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert process.wait(timeout=15) == 3
        assert process.stdout is not None and process.stdout.read() == b"bye\n"
        assert time.monotonic() - started < 10
    finally:
        os.killpg(process.pid, signal.SIGKILL)


def test_closed_output_reaches_the_client_while_the_server_lives_until_its_input_ends() -> None:
    process = subprocess.Popen(
        relay("sh", "-c", "exec 1>&-; cat >/dev/null; exit 4"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    assert process.stdout.read() == b""  # the connection closes from the server's side
    assert process.poll() is None
    process.stdin.close()  # as the client stops a server: its input closed first
    assert process.wait(timeout=30) == 4


def test_a_command_that_cannot_start_answers_the_clients_first_request() -> None:
    initialize = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}}
    done = subprocess.run(
        relay("gsm8k-no-such-server"),
        input=json.dumps(initialize).encode() + b"\n",
        capture_output=True,
        timeout=30,
    )
    assert done.returncode == 127
    reply = json.loads(done.stdout)
    assert reply["id"] == 0
    assert "cannot start 'gsm8k-no-such-server'" in reply["error"]["message"]
    assert b"cannot start" in done.stderr


def test_the_relays_memory_stays_bounded_by_the_cap() -> None:
    size = 64 * 1024 * 1024
    script = f'printf \'{{"jsonrpc":"2.0","id":1,"result":"\'; head -c {size} /dev/zero'
    script += " | tr '\\0' a; echo '\"}'; echo done"
    # RUSAGE_CHILDREN of a small parent: the largest of the relay and the server's processes.
    probe = (
        "import resource, subprocess, sys\n"
        "out = subprocess.run(sys.argv[1:], capture_output=True).stdout\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, out.splitlines()[-1])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *relay("sh", "-c", script, max_bytes=1024 * 1024)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    peak_kib, last = done.stdout.split(maxsplit=1)
    assert last.strip() == "b'done'"
    assert int(peak_kib) < 40 * 1024, f"{int(peak_kib) // 1024} MiB for a {size >> 20} MiB line"
    assert CHUNK_BYTES < 1024 * 1024


def test_the_servers_error_output_reaches_the_client_bounded_in_lines_bytes_and_memory() -> None:
    """100,000 lines (each was an event in the sample's log) and then 32 MiB with no newline
    (read whole by the client's line reader): a few hundred short lines come through, the
    server's last words among them, and the relay's memory stays small."""
    size = 32 * 1024 * 1024
    script = f"seq 100000 >&2; head -c {size} /dev/zero | tr '\\0' x >&2; echo >&2; echo last >&2"
    probe = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run(sys.argv[1:], capture_output=True)\n"
        "sys.stdout.buffer.write(done.stderr)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *relay("sh", "-c", script)],
        capture_output=True,
        timeout=120,
        check=True,
    )
    *lines, peak_kib = done.stdout.splitlines()
    assert len(lines) == ERROR_HEAD_LINES + 1 + ERROR_TAIL_LINES, len(lines)
    assert lines[:2] == [b"1", b"2"] and lines[-1] == b"last"
    assert all(len(line) < ERROR_LINE_BYTES + 100 for line in lines)
    left = 100_002 - ERROR_HEAD_LINES - ERROR_TAIL_LINES
    assert lines[ERROR_HEAD_LINES].startswith(f"gsm8k-mcp-relay: {left:,} lines (".encode())
    assert lines[-2].startswith(b"x" * ERROR_LINE_BYTES) and b"more bytes" in lines[-2]
    assert int(peak_kib) < 24 * 1024, f"{int(peak_kib) // 1024} MiB"


def test_the_relay_imports_nothing_heavy() -> None:
    code = "import sys, runpy; runpy.run_path(sys.argv[1]); print(sorted(sys.modules))"
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(RELAY)],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert "inspect_ai" not in done.stdout and "'mcp" not in done.stdout
    assert "asyncio" not in done.stdout and "subprocess" not in done.stdout
