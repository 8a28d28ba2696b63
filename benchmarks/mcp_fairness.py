"""How long one sample's quick program waits on a shared ``gsm8k-mcp --http`` while two other
samples flood it with slow programs.

    python -m benchmarks.mcp_fairness [--server-python PATH] [--hogs 2] [--programs 16]

Starts ``gsm8k-mcp --http`` on a free loopback port (with ``--server-python``, default this
interpreter: give another checkout's virtual environment's python to measure that version),
opens one MCP session per
simulated sample, has each of ``--hogs`` sessions send ``--programs`` programs at once that sleep
5 s (within the 6 s program limit), waits a second, and times a third session's
``print(2 + 3)``. Prints that latency, and how many of the hogs' programs ran and were refused.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import time

import anyio
from inspect_ai.tool._mcp._compat import streamablehttp_client
from mcp.client.session import ClientSession

SLOW = "import time\ntime.sleep(5)\nprint(1)"
QUICK = "print(2 + 3)"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def session_calls(url: str, codes: list[str], delay: float = 0.0) -> list[tuple[float, str]]:
    """Open one MCP session, wait ``delay``, send ``codes`` at once; (seconds, text) each."""
    results: list[tuple[float, str]] = []
    async with (
        streamablehttp_client(url, None, 60, 300) as (read, write, *_),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        await anyio.sleep(delay)

        async def one(code: str) -> None:
            started = time.monotonic()
            result = await session.call_tool("python", {"code": code})
            text = " ".join(getattr(c, "text", "") for c in result.content)
            results.append((time.monotonic() - started, text))

        async with anyio.create_task_group() as group:
            for code in codes:
                group.start_soon(one, code)
    return results


async def measure(url: str, hogs: int, programs: int) -> None:
    outcomes: dict[str, list[tuple[float, str]]] = {}

    async def run(name: str, codes: list[str], delay: float) -> None:
        outcomes[name] = await session_calls(url, codes, delay)

    async with anyio.create_task_group() as group:
        for n in range(hogs):
            group.start_soon(run, f"hog{n}", [SLOW] * programs, 0.0)
        group.start_soon(run, "quick", [QUICK], 1.0)
    [(seconds, text)] = outcomes["quick"]
    print(f"quick sample's print(2 + 3): {seconds:.1f} s ({text.strip()[:60]!r})")
    for n in range(hogs):
        hog = outcomes[f"hog{n}"]
        refused = sum("budget" in text for _, text in hog)
        print(f"hog{n}: {len(hog) - refused} programs ran, {refused} refused by the budget")


def main() -> None:
    parser = argparse.ArgumentParser(prog="benchmarks.mcp_fairness")
    parser.add_argument("--server-python", default=sys.executable)
    parser.add_argument("--hogs", type=int, default=2)
    parser.add_argument("--programs", type=int, default=16)
    args = parser.parse_args()
    port = free_port()
    server = subprocess.Popen(
        [args.server_python, "-m", "gsm8k.mcp_tools", "--http", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=tempfile.gettempdir(),  # the package comes from that interpreter's environment
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("gsm8k-mcp --http did not start") from None
                time.sleep(0.2)
        # The first program builds the sandbox image: out of the measurement.
        anyio.run(session_calls, f"http://127.0.0.1:{port}/mcp", [QUICK])
        anyio.run(measure, f"http://127.0.0.1:{port}/mcp", args.hogs, args.programs)
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
