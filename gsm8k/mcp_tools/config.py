"""The MCP server a user names with ``-T mcp=...``, read into Inspect's MCP server objects.

Three ways to name one, as people already write them:

- a command line: ``npx -y @modelcontextprotocol/server-filesystem {workdir}``;
- an HTTP URL of a streamable-HTTP server: ``http://127.0.0.1:8765/mcp``;
- a ``.json``/``.yaml`` file holding one server in Claude Desktop's shape
  (``{"mcpServers": {"name": {"command", "args", "env"}}}``), mcpbr's (``mcp_server: {name,
  command, args, env}`` with its ``agent_prompt``, ``timeout_seconds``, ``max_iterations`` and
  ``max_concurrent``) or the bare block (``{"command", "args", "env"}`` or ``{"url"}``).

``{workdir}`` in a command's arguments, environment or ``cwd`` is a fresh empty folder per sample;
``${NAME}`` in an ``env`` value is the evaluator's own variable (mcpbr's syntax), read when the
server starts. ``none`` is the same agent loop and limits with no server: the baseline of a
with/without pair; ``none:FILE`` is that baseline with FILE's prompt and limits (mcpbr runs both
sides from one file). A server named here runs as the user who runs the eval, with that user's
files and network, and gets the part of the evaluator's environment a server needs
(:func:`server_environment`), never its API keys.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from inspect_ai.tool import MCPServer, mcp_server_http, mcp_server_stdio

WORKDIR = "{workdir}"
NO_SERVER = "none"
BASELINE_PREFIX = f"{NO_SERVER}:"
"""``none:FILE``: the baseline with FILE's prompt and limits."""
PROBLEM_SLOT = "{problem_statement}"
"""Where mcpbr's ``agent_prompt`` puts the question."""
CONFIG_SUFFIXES = (".json", ".yaml", ".yml")
Transport = Literal["stdio", "http"]
_PLAIN = re.compile(r"[\w@%+=:,./{}-]+")
"""Command-line words shown as they are; any other is quoted as a shell would need."""
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")

INHERITED_NAMES = frozenset(
    {
        *("PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LANGUAGE", "TZ"),
        *("TMPDIR", "TEMP", "TMP", "VIRTUAL_ENV", "NVM_DIR", "NODE_PATH", "COREPACK_HOME"),
        *("SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"),
        "NODE_EXTRA_CA_CERTS",
    }
)
"""Variables a stdio server gets from the evaluator: where programs, home, temporary files and
certificates are, and the locale."""
INHERITED_PREFIXES = ("LC_", "XDG_", "npm_config_", "NPM_CONFIG_", "PIP_", "UV_")
"""Prefixes of settings a server's launcher reads: npm's (cache, registry, its own auth), pip's
and uv's (index, cache), the XDG folders and the locale."""
PROXY_NAMES = ("http_proxy", "https_proxy", "no_proxy", "all_proxy", "ftp_proxy")
"""Proxy settings, in either case, so that ``npx``/``uvx`` reach their registries."""
RELAY = Path(__file__).with_name("relay.py")
"""The relay every stdio server runs behind (:mod:`gsm8k.mcp_tools.relay`), started as a file with
``-I -S``: the standard library only, whatever the server's environment says about Python."""
MAX_MESSAGE_VARIABLE = "GSM8K_MCP_MAX_MESSAGE_BYTES"
"""The evaluator's variable that sets the relay's cap on one message (default
:data:`gsm8k.mcp_tools.relay.DEFAULT_MAX_BYTES`)."""


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
    executable: str | None = None
    """Where the command was found when it is not on ``PATH`` (started from there; the log
    still names the command as written)."""

    @property
    def uses_workdir(self) -> bool:
        texts = [*self.args, *self.env.values(), self.cwd or ""]
        return any(WORKDIR in text for text in texts)

    def server(self, workdir: str) -> MCPServer:
        """Inspect's client for this server, with ``{workdir}`` replaced by ``workdir``."""
        if self.transport == "http":
            return mcp_server_http(name=self.name, url=self.url)
        command = [
            self.executable or self.command,
            *(a.replace(WORKDIR, workdir) for a in self.args),
        ]
        if sys.platform != "win32":
            # The relay caps one message's size before the MCP client reads it whole; the server
            # starts under it with the same environment and folder.
            command = [sys.executable, *relay_options(), "--", *command]
        return mcp_server_stdio(
            name=self.name,
            command=command[0],
            args=command[1:],
            env=server_environment()
            | {
                key: expand(value, key).replace(WORKDIR, workdir) for key, value in self.env.items()
            },
            cwd=self.cwd.replace(WORKDIR, workdir) if self.cwd else None,
        )

    def describe(self) -> str:
        """How the log and reports name the server: its command line or URL."""
        if self.transport == "http":
            return self.url
        return command_line([self.command, *self.args])


def relay_options(environ: dict[str, str] | None = None) -> list[str]:
    """The interpreter's options and the relay's before ``--`` and the server's command.

    Raises:
        ValueError: when :data:`MAX_MESSAGE_VARIABLE` is set to anything but a positive whole
            number of bytes.
    """
    options = ["-I", "-S", str(RELAY)]
    value = (os.environ if environ is None else environ).get(MAX_MESSAGE_VARIABLE)
    if value is None:
        return options
    if not value.strip().isdigit() or int(value) < 1:
        raise ValueError(
            f"{MAX_MESSAGE_VARIABLE}={value!r}: give the most bytes one message from an MCP "
            "server may have, a positive whole number."
        )
    return [*options, "--max-bytes", str(int(value))]


def server_environment(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The evaluator's variables a stdio server gets: :data:`INHERITED_NAMES`, the settings
    under :data:`INHERITED_PREFIXES` and the proxies. Anything else (API keys, cloud
    credentials, tokens) stays with the evaluator; a server that needs one names it in its
    ``env`` (``KEY: ${KEY}``)."""
    source = os.environ if environ is None else environ
    return {
        name: value
        for name, value in source.items()
        if name in INHERITED_NAMES
        or name.startswith(INHERITED_PREFIXES)
        or name.lower() in PROXY_NAMES
    }


def expand(value: str, name: str) -> str:
    """``value`` with each ``${VAR}`` replaced by the evaluator's variable.

    Raises:
        ValueError: naming the variable that is not set.
    """

    def variable(found: re.Match[str]) -> str:
        held = os.environ.get(found.group(1))
        if held is None:
            raise ValueError(
                f"env {name}: ${{{found.group(1)}}} is not set in your environment; export it "
                "or write the value in the server file."
            )
        return held

    return _VARIABLE.sub(variable, value)


def command_line(words: list[str]) -> str:
    """``words`` as a shell would take them back, ``{workdir}`` left readable (unquoted)."""
    return " ".join(word if _PLAIN.fullmatch(word) else shlex.quote(word) for word in words)


@dataclass(frozen=True)
class McpChoice:
    """What ``-T mcp=`` asks for: the server (``None`` for ``none``) and, from an mcpbr file,
    the prompt and the limits that go with it."""

    spec: ServerSpec | None
    prompt: str | None = None
    """mcpbr's ``agent_prompt``: the user message, the question in its ``{problem_statement}``."""
    turns: int | None = None
    """``max_iterations``: model replies per sample."""
    time_limit: int | None = None
    """``timeout_seconds``: seconds per sample."""
    max_concurrent: int | None = None
    """``max_concurrent``: samples (model connections) at once."""


MCPBR_LIMITS = {"timeout_seconds": "time_limit", "max_iterations": "turns"}
MCPBR_HONOURED = frozenset({"mcp_server", "agent_prompt", "max_concurrent", *MCPBR_LIMITS})
MCPBR_ELSEWHERE = {
    "model": "choose the model with --model",
    "provider": "choose the model with --model",
    "agent_harness": "this task runs its own tool loop",
    "dataset": "choose the data with -T dataset=",
    "sample_size": "choose how many questions with --limit",
    "use_prebuilt_images": "a server runs on this machine, not in a SWE-bench image",
    "cybergym_level": "this is GSM8K",
}
"""mcpbr keys this task cannot honour from the file, and where the same choice is made here."""
BENCHMARK = "gsm8k"


def parse_spec(text: str | None) -> ServerSpec | None:
    """The server ``-T mcp=`` names; ``None`` for ``none`` (the loop without a server)."""
    return parse_choice(text).spec


def parse_choice(text: str | None) -> McpChoice:
    """What ``-T mcp=`` names: a server, ``none``, or ``none:FILE``.

    Raises:
        ValueError: naming ``mcp=`` and what is wrong (an empty value, an unreadable or
            ill-formed file, a file naming no server or several, an mcpbr key it cannot honour).
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(
            f"mcp={'' if text is None else text!r}: name an MCP server: a command line, an "
            f"http(s) URL, a .json/.yaml file, or {NO_SERVER} for the same agent loop without a "
            "server (leave mcp out for the task without the agent loop)."
        )
    value = text.strip()
    if value == NO_SERVER:
        return McpChoice(None)
    if value.startswith(BASELINE_PREFIX):
        path = value[len(BASELINE_PREFIX) :].strip()
        if not path.endswith(CONFIG_SUFFIXES):
            raise ValueError(
                f"mcp={value}: after {BASELINE_PREFIX} name the .json/.yaml server file whose "
                "prompt and limits the baseline shares."
            )
        choice = from_file(Path(path).expanduser())
        return McpChoice(
            None, choice.prompt, choice.turns, choice.time_limit, choice.max_concurrent
        )
    if value.startswith(("http://", "https://")):
        return McpChoice(ServerSpec(name=value, transport="http", url=value))
    if value.endswith(CONFIG_SUFFIXES):
        return from_file(Path(value).expanduser())
    try:
        words = shlex.split(value)
    except ValueError as error:
        raise ValueError(f"mcp={value!r}: cannot split the command line ({error}).") from error
    return McpChoice(ServerSpec(name=value, transport="stdio", command=words[0], args=words[1:]))


def from_file(path: Path) -> McpChoice:
    """The one server a Claude Desktop, mcpbr or bare JSON/YAML file describes, with an mcpbr
    file's prompt and limits.

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
    except ImportError as error:
        raise ValueError(
            f"{where}: reading YAML needs PyYAML: pip install pyyaml (this package's mcp extra)."
        ) from error
    except Exception as error:  # json and yaml raise their own types; both are the file's fault
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ValueError(f"{where}: not valid {path.suffix[1:].upper()}: {first}") from error
    if isinstance(data, dict) and "mcp_server" in data:
        return _mcpbr(data, where)
    name, block = _server_block(data, where)
    return McpChoice(from_block(block, name, where))


def _mcpbr(data: dict[str, Any], where: str) -> McpChoice:
    """An mcpbr config: its server, and the keys that map onto this task's prompt and limits."""
    for key in data:
        if key in MCPBR_HONOURED or (key == "benchmark" and data[key] == BENCHMARK):
            continue
        why = MCPBR_ELSEWHERE.get(key, "it is not an mcpbr setting this task knows")
        if key == "benchmark":
            why = f"this task is {BENCHMARK}"
        raise ValueError(
            f"{where}: {key}: {data[key]!r} cannot be honoured here ({why}); remove it from the "
            "file."
        )
    block = data["mcp_server"]
    name = block.get("name") if isinstance(block, dict) else None
    if name is not None and not isinstance(name, str):
        raise ValueError(f"{where}: mcp_server.name must be a string.")
    server = from_block(
        {key: value for key, value in block.items() if key != "name"}
        if isinstance(block, dict)
        else block,
        name,
        where,
    )
    prompt = data.get("agent_prompt")
    if prompt is not None and (not isinstance(prompt, str) or PROBLEM_SLOT not in prompt):
        raise ValueError(
            f"{where}: agent_prompt must be text with a {PROBLEM_SLOT} slot for the question."
        )
    limits = {}
    for key in (*MCPBR_LIMITS, "max_concurrent"):
        value = data.get(key)
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or value < 1
        ):
            raise ValueError(f"{where}: {key} must be a whole number of at least 1, not {value!r}.")
        limits[key] = value
    return McpChoice(
        server,
        prompt=prompt,
        turns=limits["max_iterations"],
        time_limit=limits["timeout_seconds"],
        max_concurrent=limits["max_concurrent"],
    )


def _server_block(data: Any, where: str) -> tuple[str | None, dict[str, Any]]:
    """The server's own block and name from Claude Desktop's or the bare shape."""
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
