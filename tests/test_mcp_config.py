"""How ``-T mcp=`` reads a server (command line, URL, Claude Desktop / mcpbr / bare files) and
what it refuses, before anything starts."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from gsm8k.mcp_tools import agent
from gsm8k.mcp_tools.agent import DEFAULT_TIME_LIMIT, DEFAULT_TURNS
from gsm8k.mcp_tools.config import ServerSpec, parse_spec
from gsm8k.settings.errors import TaskInputError
from gsm8k.task import gsm8k
from tests.conftest import MINI_DATA

SEED = "npx -y @modelcontextprotocol/server-filesystem {workdir}"


def test_a_command_line_is_split_like_a_shell_and_keeps_workdir() -> None:
    spec = parse_spec(SEED)
    assert spec == ServerSpec(
        name=SEED,
        transport="stdio",
        command="npx",
        args=["-y", "@modelcontextprotocol/server-filesystem", "{workdir}"],
    )
    assert spec.uses_workdir


def test_each_sample_gets_its_workdir_in_args_env_and_cwd(tmp_path: Path) -> None:
    config = tmp_path / "server.json"
    block = {"command": "srv", "args": ["--root={workdir}"], "env": {"DATA": "{workdir}/d"}}
    config.write_text(json.dumps(block | {"cwd": "{workdir}"}), encoding="utf-8")
    spec = parse_spec(str(config))
    assert spec is not None
    server = spec.server("/tmp/sample-7")
    parameters = server._client.__closure__  # type: ignore[attr-defined]
    assert parameters is not None
    held = next(c.cell_contents for c in parameters if hasattr(c.cell_contents, "args"))
    # The server runs behind the relay that caps a message's size (gsm8k/mcp_tools/relay.py).
    assert held.command == sys.executable
    assert held.args[held.args.index("--") + 1 :] == ["srv", "--root=/tmp/sample-7"]
    assert held.env["DATA"] == "/tmp/sample-7/d"
    assert str(held.cwd) == "/tmp/sample-7"


def test_an_http_url_is_a_streamable_http_server() -> None:
    spec = parse_spec("http://127.0.0.1:8765/mcp")
    assert spec is not None and spec.transport == "http"
    assert spec.describe() == "http://127.0.0.1:8765/mcp"


def test_none_is_the_loop_without_a_server() -> None:
    assert parse_spec("none") is None


@pytest.mark.parametrize(
    ("name", "text"),
    [
        pytest.param(
            "claude.json",
            json.dumps(
                {
                    "mcpServers": {
                        "filesystem": {
                            "command": "npx",
                            "args": ["-y", "@modelcontextprotocol/server-filesystem", "{workdir}"],
                            "env": {"LOG": "1"},
                        }
                    }
                }
            ),
            id="claude-desktop-json",
        ),
        pytest.param(
            "mcpbr.yaml",
            "mcp_server: {command: npx, args: [-y, '@modelcontextprotocol/server-filesystem', "
            "'{workdir}'], env: {LOG: 1}}\nbenchmark: gsm8k\n",
            id="mcpbr-yaml",
        ),
        pytest.param(
            "bare.yml",
            "command: npx\nargs: [-y, '@modelcontextprotocol/server-filesystem', '{workdir}']\n"
            "env: {LOG: '1'}\n",
            id="bare-block",
        ),
    ],
)
def test_server_files_in_each_shape_read_the_same(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    spec = parse_spec(str(path))
    assert spec is not None
    assert (spec.command, spec.args, spec.env) == (
        "npx",
        ["-y", "@modelcontextprotocol/server-filesystem", "{workdir}"],
        {"LOG": "1"},
    )
    assert spec.describe() == SEED


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        pytest.param("a.json", "{not json", "not valid JSON", id="malformed-json"),
        pytest.param("a.yaml", "command: [unclosed", "not valid YAML", id="malformed-yaml"),
        pytest.param(
            "a.json",
            json.dumps({"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}),
            "exactly one server (it holds: a, b)",
            id="several-servers",
        ),
        pytest.param("a.json", json.dumps({"args": ["x"]}), "needs a command", id="no-command"),
        pytest.param(
            "a.json",
            json.dumps({"command": "x", "args": "x"}),
            "args must be a list",
            id="args-not-a-list",
        ),
        pytest.param("a.json", json.dumps({"url": "ftp://x"}), "http(s) URL", id="bad-url"),
        pytest.param("a.json", "[1, 2]", "expected a mapping", id="not-a-mapping"),
    ],
)
def test_a_bad_server_file_is_one_line_naming_it(
    tmp_path: Path, name: str, text: str, said: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match="mcp=") as raised:
        parse_spec(str(path))
    assert said in str(raised.value)
    assert str(path) in str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_missing_file_says_it_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read the file"):
        parse_spec(str(tmp_path / "absent.json"))


@pytest.mark.parametrize(
    ("parameters", "said"),
    [
        pytest.param({"mcp": "  "}, "name an MCP server", id="empty"),
        pytest.param({"mcp": "gsm8k-mcp", "mode": "pal"}, "mode=cot", id="with-pal"),
        pytest.param({"mcp": "gsm8k-mcp", "tools": "calculator"}, "tools=none", id="with-tools"),
        pytest.param(
            {"mcp": "gsm8k-mcp", "preset": "lm-eval-gsm8k"}, "own prompt", id="with-a-preset"
        ),
    ],
)
def test_the_task_refuses_before_anything_runs(parameters: dict[str, str], said: str) -> None:
    with pytest.raises(TaskInputError, match=said):
        gsm8k(dataset=str(MINI_DATA), **parameters)  # type: ignore[arg-type]


def test_the_task_sets_the_loop_limits_and_records_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(agent, "preflight", lambda spec, seconds, tools: spec)
    task = gsm8k(dataset=str(MINI_DATA), fewshot=0, mcp=SEED)
    assert (task.turn_limit, task.time_limit) == (DEFAULT_TURNS, DEFAULT_TIME_LIMIT)
    assert task.metadata is not None
    assert task.metadata["mcp_server"] == SEED
    assert task.metadata["mcp_runs_as"] == "the evaluating user"
    assert task.display_name is not None and task.display_name.endswith(f"mcp={SEED}")


def test_without_mcp_the_task_is_unchanged() -> None:
    task = gsm8k(dataset=str(MINI_DATA), fewshot=0)
    assert task.turn_limit is None and task.time_limit is None
    assert task.metadata is not None and "mcp_server" not in task.metadata
