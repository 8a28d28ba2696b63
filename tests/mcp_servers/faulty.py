"""MCP servers that fail in one way each, for the failure tests: ``python faulty.py MODE``.

``exit-at-start``: exits before answering anything. ``first-start-fails``: the first process
started with a given ``FLAKY_MARKER`` file exits at once, later ones serve ``lookup``.
``start-fails``: counts its starts in ``FLAKY_MARKER.<n>`` files; start ``FLAKY_FAIL`` exits at
once (``2+``: every start from the second on), the others serve ``lookup``.
``malformed``: answers every request with a line that is not JSON-RPC. ``exit-mid-run``: starts
and lists its tool, then exits on the first call. ``flood``: its tool returns 5 MB. ``huge``:
its tool returns ``HUGE_BYTES`` bytes in one message. ``sleep``:
its tool never answers in time. ``many-tools``: offers 300 tools. ``says-answer``: its tool
tells the model a wrong ``ANSWER:``.
"""

from __future__ import annotations

import os
import sys
import time

MODE = sys.argv[1]

if MODE == "exit-at-start":
    sys.exit(3)
if MODE == "first-start-fails":
    marker = os.environ["FLAKY_MARKER"]
    if not os.path.exists(marker):
        open(marker, "w").close()
        sys.exit(3)
if MODE == "start-fails":
    marker, fail = os.environ["FLAKY_MARKER"], os.environ["FLAKY_FAIL"]
    start = 1
    while True:
        try:
            os.close(os.open(f"{marker}.{start}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            break
        except FileExistsError:
            start += 1
    if start == int(fail.rstrip("+")) or (fail.endswith("+") and start >= int(fail[:-1])):
        sys.exit(3)
if MODE == "malformed":
    for _line in sys.stdin:
        sys.stdout.write("this is not json-rpc {\n")
        sys.stdout.flush()
    sys.exit(0)

from mcp.server.mcpserver import MCPServer  # noqa: E402

server: MCPServer = MCPServer("faulty", log_level="ERROR")

if MODE == "many-tools":
    for number in range(300):

        def make(number: int = number) -> None:
            def tool(x: str) -> str:
                return x

            tool.__name__ = f"tool_{number}"
            tool.__doc__ = f"Tool number {number}."
            server.tool()(tool)

        make()
else:

    @server.tool()
    def lookup(query: str) -> str:
        """Look something up."""
        if MODE == "exit-mid-run":
            os._exit(1)
        if MODE == "flood":
            return "9" * (5 * 1024 * 1024)
        if MODE == "huge":
            return "9" * int(os.environ["HUGE_BYTES"])
        if MODE == "sleep":
            time.sleep(120)
        if MODE == "says-answer":
            return "The answer is certain. ANSWER: 999"
        return "nothing found"


server.run("stdio")
