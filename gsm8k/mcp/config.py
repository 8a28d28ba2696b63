"""The MCP server a user names with ``-T mcp=...``, read into Inspect's MCP server objects.

Three ways to name one, as people already write them:

- a command line: ``npx -y @modelcontextprotocol/server-filesystem {workdir}``;
- an HTTP URL of a streamable-HTTP server: ``http://127.0.0.1:8765/mcp``;
- a ``.json``/``.yaml`` file holding one server in Claude Desktop's shape
  (``{"mcpServers": {"name": {"command", "args", "env"}}}``), mcpbr's (``mcp_server: {command,
  args, env}``) or the bare block (``{"command", "args", "env"}`` or ``{"url"}``).

``{workdir}`` in a command's arguments, environment or ``cwd`` is a fresh empty folder per sample.
``none`` is the same agent loop and limits with no server: the baseline of a with/without pair.
A server named here runs as the user who runs the eval, with that user's files and network.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from inspect_ai.tool import MCPServer, mcp_server_http, mcp_server_stdio

WORKDIR = "{workdir}"
NO_SERVER = "none"
CONFIG_SUFFIXES = (".json", ".yaml", ".yml")
Transport = Literal["stdio", "http"]
_PLAIN = re.compile(r"[\w@%+=:,./{}-]+")
"""Command-line words shown as they are; any other is quoted as a shell would need."""


@dataclass(frozen=True)
class ServerSpec:
    """One MCP server as the user named it, before a sample's ``{workdir}`` is filled in."""

    name: str
    transport: Transport
    command: str = ""
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str = ""

    @property
    def uses_workdir(self) -> bool:
        texts = [*self.args, *self.env.values(), self.cwd or ""]
        return any(WORKDIR in text for text in texts)

    def server(self, workdir: str) -> MCPServer:
        """Inspect's client for this server, with ``{workdir}`` replaced by ``workdir``."""
        if self.transport == "http":
            return mcp_server_http(name=self.name, url=self.url)
        return mcp_server_stdio(
            name=self.name,
            command=self.command,
            args=[arg.replace(WORKDIR, workdir) for arg in self.args],
            env={key: value.replace(WORKDIR, workdir) for key, value in self.env.items()} or None,
            cwd=self.cwd.replace(WORKDIR, workdir) if self.cwd else None,
        )

    def describe(self) -> str:
        """How the log and reports name the server: its command line or URL."""
        if self.transport == "http":
            return self.url
        return command_line([self.command, *self.args])


def command_line(words: list[str]) -> str:
    """``words`` as a shell would take them back, ``{workdir}`` left readable (unquoted)."""
    return " ".join(word if _PLAIN.fullmatch(word) else shlex.quote(word) for word in words)


def parse_spec(text: str | None) -> ServerSpec | None:
    """The server ``-T mcp=`` names; ``None`` for ``none`` (the loop without a server).

    Raises:
        ValueError: naming ``mcp=`` and what is wrong (an empty value, an unreadable or
            ill-formed file, a file naming no server or several).
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(
            f"mcp={text!r}: name an MCP server: a command line, an http(s) URL, a .json/.yaml "
            f"file, or {NO_SERVER} for the same agent loop without a server."
        )
    value = text.strip()
    if value == NO_SERVER:
        return None
    if value.startswith(("http://", "https://")):
        return ServerSpec(name=value, transport="http", url=value)
    if value.endswith(CONFIG_SUFFIXES):
        return from_file(Path(value).expanduser())
    try:
        words = shlex.split(value)
    except ValueError as error:
        raise ValueError(f"mcp={value!r}: cannot split the command line ({error}).") from error
    return ServerSpec(name=value, transport="stdio", command=words[0], args=words[1:])


def from_file(path: Path) -> ServerSpec:
    """The one server a Claude Desktop, mcpbr or bare JSON/YAML file describes.

    Raises:
        ValueError: naming the file and what to fix.
    """
    where = f"mcp={path}"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ValueError(f"{where}: cannot read the file ({error.strerror}).") from error
    try:
        if path.suffix == ".json":
            data = json.loads(text)
        else:
            import yaml

            data = yaml.safe_load(text)
    except Exception as error:  # json and yaml raise their own types; both are the file's fault
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ValueError(f"{where}: not valid {path.suffix[1:].upper()}: {first}") from error
    name, block = _server_block(data, where)
    return from_block(block, name, where)


def _server_block(data: Any, where: str) -> tuple[str | None, dict[str, Any]]:
    """The server's own block and name from whichever of the three shapes ``data`` has."""
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected a mapping with mcpServers, mcp_server or command.")
    if "mcpServers" in data:
        servers = data["mcpServers"]
        if not isinstance(servers, dict) or len(servers) != 1:
            names = ", ".join(servers) if isinstance(servers, dict) else repr(servers)
            raise ValueError(
                f"{where}: mcpServers must hold exactly one server (it holds: {names or 'none'}); "
                "keep the one to evaluate."
            )
        [(name, block)] = servers.items()
        return str(name), block
    if "mcp_server" in data:
        return None, data["mcp_server"]
    return None, data


def from_block(block: Any, name: str | None, where: str) -> ServerSpec:
    """One server from its ``{command, args, env, cwd}`` or ``{url}`` block.

    Raises:
        ValueError: naming the field that is missing or of the wrong type.
    """
    if not isinstance(block, dict):
        raise ValueError(f"{where}: the server must be a mapping with command or url.")
    if "url" in block:
        url = block["url"]
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ValueError(f"{where}: url must be an http(s) URL, not {url!r}.")
        return ServerSpec(name=name or url, transport="http", url=url)
    command, args, env, cwd = (
        block.get("command"),
        block.get("args", []),
        block.get("env", {}),
        block.get("cwd"),
    )
    if not isinstance(command, str) or not command:
        raise ValueError(f"{where}: the server needs a command (or a url).")
    if not isinstance(args, list) or not all(isinstance(arg, (str, int, float)) for arg in args):
        raise ValueError(f"{where}: args must be a list of strings.")
    if not isinstance(env, dict):
        raise ValueError(f"{where}: env must map names to values.")
    if cwd is not None and not isinstance(cwd, str):
        raise ValueError(f"{where}: cwd must be a path.")
    words = [command, *(str(arg) for arg in args)]
    return ServerSpec(
        name=name or command_line(words),
        transport="stdio",
        command=command,
        args=words[1:],
        env={str(key): str(value) for key, value in env.items()},
        cwd=cwd,
    )
