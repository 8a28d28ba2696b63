"""How long ``gsm8k-mcp`` takes to start and list its tools, one server per sample as
``-T mcp=gsm8k-mcp`` starts them: N servers at once (Inspect's default concurrency is 10),
optionally with both cores kept busy.

    python -m benchmarks.mcp_startup --servers 1
    python -m benchmarks.mcp_startup --servers 10 --busy 2
    python -m benchmarks.mcp_startup --servers 10 --floor
    python -m benchmarks.mcp_startup --servers 1 --checkout /tmp/before

Each server is started through Inspect's own MCP client (as a sample does, behind the same
relay) and timed from the start until its tools are listed; ``--busy K`` runs K ``yes
>/dev/null`` loops for the duration (ended by their process ids). ``--floor`` starts a bare MCP
SDK server instead (``MCPServer`` with one tool): the least a Python MCP server costs.
``--checkout DIR`` starts ``gsm8k-mcp`` as the code in DIR has it (``python -m gsm8k.mcp_tools``
with DIR on its ``PYTHONPATH``). Prints one line per server, the median and maximum, and the
load average; and the CPU time per server (user and system of the server and its relay, read
from ``/proc`` once every server has listed its tools and before any is stopped; the busy
loops are not below this process), which a busy machine blurs less than the wall time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

from gsm8k.mcp_tools.config import ServerSpec, parse_spec

FLOOR = """\
from mcp.server.mcpserver import MCPServer

server = MCPServer("floor")


@server.tool()
def calculator(expression: str) -> str:
    \"\"\"Echo the expression.\"\"\"
    return expression


server.run("stdio")
"""


def floor_spec(folder: Path) -> ServerSpec:
    path = folder / "floor.py"
    path.write_text(FLOOR, encoding="utf-8")
    return ServerSpec("floor", "stdio", command=sys.executable, args=[str(path)])


def checkout_spec(checkout: Path) -> ServerSpec:
    """``python -m gsm8k.mcp_tools`` run in ``checkout`` (``-m`` puts the working directory
    first on the path, so the folder matters as much as ``PYTHONPATH``)."""
    folder = str(checkout.resolve())
    return ServerSpec(
        "gsm8k-mcp",
        "stdio",
        command=sys.executable,
        args=["-m", "gsm8k.mcp_tools"],
        env={"PYTHONPATH": folder},
        cwd=folder,
    )


def descendants_cpu() -> float:
    """User and system seconds of every live process below this one (``/proc``)."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        ticks[int(entry.name)] = int(fields[11]) + int(fields[12])
    mine, total = {os.getpid()}, 0
    for pid in sorted(parents):  # children have higher ids, except after a wrap
        if parents[pid] in mine:
            mine.add(pid)
            total += ticks[pid]
    return total / os.sysconf("SC_CLK_TCK")


async def start_once(spec: ServerSpec, listed: list[int], measured: anyio.Event) -> float:
    with tempfile.TemporaryDirectory(prefix="gsm8k-mcp-bench-") as workdir:
        began = time.monotonic()
        server = spec.server(workdir)
        async with server:
            await server.tools()
            seconds = time.monotonic() - began
            listed.append(1)
            await measured.wait()  # kept running until every server's CPU is read
            return seconds


async def start_all(spec: ServerSpec, servers: int) -> tuple[list[float], float]:
    """Seconds to tools listed per server, and their CPU seconds in all by then."""
    seconds: list[float] = [0.0] * servers
    listed: list[int] = []
    measured = anyio.Event()
    cpu = 0.0

    async def one(index: int) -> None:
        seconds[index] = await start_once(spec, listed, measured)

    async with anyio.create_task_group() as group:
        for index in range(servers):
            group.start_soon(one, index)
        while len(listed) < servers:
            await anyio.sleep(0.05)
        cpu = descendants_cpu()
        measured.set()
    return seconds, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=10, help="servers started at once")
    parser.add_argument("--busy", type=int, default=0, help="`yes` loops kept running")
    parser.add_argument("--command", default="gsm8k-mcp", help="the server, as -T mcp= names it")
    parser.add_argument("--floor", action="store_true", help="a bare MCP SDK server instead")
    parser.add_argument("--checkout", type=Path, help="gsm8k-mcp from this checkout's code")
    args = parser.parse_args()
    loops = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(args.busy)]
    try:
        with tempfile.TemporaryDirectory(prefix="gsm8k-mcp-floor-") as folder:
            if args.floor:
                spec = floor_spec(Path(folder))
            elif args.checkout:
                spec = checkout_spec(args.checkout)
            else:
                named = parse_spec(args.command)
                assert named is not None, "--command none starts no server"
                spec = named
            seconds, cpu = anyio.run(start_all, spec, args.servers)
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    for index, value in enumerate(seconds):
        print(f"server {index}: {value:.2f} s")
    median = statistics.median(seconds)
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(
        f"{spec.describe()}: {args.servers} at once, {args.busy} busy loops: median "
        f"{median:.2f} s, max {max(seconds):.2f} s, CPU {cpu / args.servers:.2f} s per server "
        f"(load average {load})"
    )


if __name__ == "__main__":
    main()
