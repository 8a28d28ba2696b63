"""How long ``gsm8k-mcp`` takes to start and list its tools, one server per sample as
``-T mcp=gsm8k-mcp`` starts them: N servers at once (Inspect's default concurrency is 10),
optionally with both cores kept busy.

    python -m benchmarks.mcp_startup --servers 1
    python -m benchmarks.mcp_startup --servers 10 --busy 2

Each server is started through Inspect's own MCP client (as a sample does) and timed from the
start until its tools are listed; ``--busy K`` runs K ``yes >/dev/null`` loops for the duration
(ended by their process ids). Prints one line per server and the median and maximum.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time

import anyio

from gsm8k.mcp_tools.config import parse_spec


async def start_once(command: str) -> float:
    spec = parse_spec(command)
    assert spec is not None
    with tempfile.TemporaryDirectory(prefix="gsm8k-mcp-bench-") as workdir:
        began = time.monotonic()
        server = spec.server(workdir)
        async with server:
            await server.tools()
            return time.monotonic() - began


async def start_all(command: str, servers: int) -> list[float]:
    seconds: list[float] = [0.0] * servers

    async def one(index: int) -> None:
        seconds[index] = await start_once(command)

    async with anyio.create_task_group() as group:
        for index in range(servers):
            group.start_soon(one, index)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=10, help="servers started at once")
    parser.add_argument("--busy", type=int, default=0, help="`yes` loops kept running")
    parser.add_argument("--command", default="gsm8k-mcp", help="the server, as -T mcp= names it")
    args = parser.parse_args()
    loops = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(args.busy)]
    try:
        seconds = anyio.run(start_all, args.command, args.servers)
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    for index, value in enumerate(seconds):
        print(f"server {index}: {value:.2f} s")
    median = statistics.median(seconds)
    print(
        f"{args.servers} at once, {args.busy} busy loops: median {median:.2f} s, "
        f"max {max(seconds):.2f} s"
    )


if __name__ == "__main__":
    main()
