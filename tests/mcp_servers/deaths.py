"""A stdio MCP server written by hand (no SDK), for the tests of how a server's death is read:
``python deaths.py``.

Written without the SDK so that it can say what the SDK never would: it answers every ``ping``
with the SDK's own error for a closed connection (-32000, "Connection closed") while it lives.
Its tools, each taking a ``query``: ``lookup`` answers with its process id; ``crash`` writes a
last word to its error output and exits with status 134 while the call is in flight (as node
does when its heap is exhausted); ``crash_after`` answers, then exits the same way at once
(its answer written first, so that the model's next call meets a dead server however busy the
machine);
``closed_error`` answers the call with that same -32000 error; ``shout`` writes 100,000 lines
and then 16 MiB with no newline to its error output before it answers.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

CLOSED = {"code": -32000, "message": "Connection closed"}
TOOLS = ("lookup", "crash", "crash_after", "closed_error", "shout")


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
    sys.stdout.flush()


def die() -> None:
    sys.stderr.write("FATAL ERROR: Reached heap limit Allocation failed\n")
    sys.stderr.flush()
    os._exit(134)


def text(content: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": content}], "isError": False}


def call(name: str) -> dict[str, Any]:
    if name == "crash":
        die()
    if name == "closed_error":
        return {"error": CLOSED}
    if name == "shout":
        sys.stderr.write("".join(f"line {n}\n" for n in range(100_000)))
        sys.stderr.write("x" * (16 * 1024 * 1024) + "\n")
        sys.stderr.flush()
    return {"result": text(f"nothing found (pid {os.getpid()})")}


def answer(request: dict[str, Any]) -> dict[str, Any]:
    method = request.get("method")
    if method == "initialize":
        version = request.get("params", {}).get("protocolVersion", "2025-06-18")
        info = {"name": "deaths", "version": "1"}
        capabilities = {"tools": {}}
        result = {"protocolVersion": version, "capabilities": capabilities, "serverInfo": info}
        return {"result": result}
    if method == "ping":
        return {"error": CLOSED}
    if method == "tools/list":
        schema = {"type": "object", "properties": {"query": {"type": "string"}}}
        listed = [{"name": n, "description": f"{n}.", "inputSchema": schema} for n in TOOLS]
        return {"result": {"tools": listed}}
    if method == "tools/call":
        return call(str(request.get("params", {}).get("name")))
    return {"error": {"code": -32601, "message": f"no method {method}"}}


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        if "id" in request and "method" in request:
            send({"id": request["id"], **answer(request)})
            if request.get("method") == "tools/call" and request["params"]["name"] == "crash_after":
                die()  # after its answer: a timer here would race the next call


if __name__ == "__main__":
    main()
