"""The MCP experiment as a new user meets it: the check before any sample (a missing command, a
dead URL, an empty ``-T mcp=``, a missing extra, a server that never starts), the start timeout
and start-up times, the environment a server gets, mcpbr's own config files, and a run in which
no sample was scored. Tests that start a server or a command line are marked ``slow``."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from inspect_ai.model import ChatMessage, ChatMessageTool, ChatMessageUser, ModelOutput
from inspect_ai.tool import ToolCall, ToolInfo

from gsm8k.mcp_tools import agent, config, startup
from gsm8k.mcp_tools.config import McpChoice, ServerSpec, parse_choice, server_environment
from gsm8k.mcp_tools.outcome import empty_run, from_command_line
from gsm8k.settings.errors import TaskInputError
from gsm8k.task import gsm8k
from tests.conftest import MINI_DATA
from tests.mcp_support import ROOT, call, faulty_server, python_server_config, tool_model
from tests.scripted import mock_model, run_eval


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # closed again when the probe is


def refusal(**parameters: Any) -> str:
    with pytest.raises(TaskInputError) as raised:
        gsm8k(dataset=str(MINI_DATA), fewshot=0, **parameters)
    message = str(raised.value)
    assert "\n" not in message
    return message


# --- refused before anything runs -------------------------------------------------------------


def test_an_empty_mcp_is_refused_not_run_as_the_plain_task() -> None:
    """``-T mcp=`` reaches the task as ``None`` (Inspect reads the empty value as YAML)."""
    message = refusal(mcp=None)
    assert "-T mcp= is empty" in message and "none" in message


def test_a_command_that_is_nowhere_is_refused_naming_it() -> None:
    message = refusal(mcp="gsm8k-no-such-mcp-server --flag")
    assert "'gsm8k-no-such-mcp-server' was not found on PATH" in message
    assert "nothing was run" in message


def test_a_url_that_does_not_answer_is_refused_naming_it() -> None:
    url = f"http://127.0.0.1:{closed_port()}/mcp"
    message = refusal(mcp=url)
    assert f"{url} did not answer" in message and "check that the server is running" in message


def test_a_missing_mcp_extra_is_one_line_saying_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)  # import mcp now raises ImportError
    message = refusal(mcp="gsm8k-mcp")
    assert "the MCP client is not installed" in message
    assert "pip install mcp==2.3.0 pyyaml" in message
    assert "[" not in message  # rich would read a bracket as markup and drop it


@pytest.mark.parametrize("value", [0, -5, "soon", True])
def test_a_start_timeout_that_is_not_a_positive_number_is_refused(value: object) -> None:
    assert "mcp_start_timeout=" in refusal(mcp="none", mcp_start_timeout=value)


def test_a_start_timeout_without_a_server_is_refused() -> None:
    assert "goes with mcp=" in refusal(mcp_start_timeout=60)


def test_the_command_is_found_beside_the_interpreter_when_not_on_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A virtual environment's ``gsm8k-mcp`` works without activating the environment."""
    monkeypatch.setenv("PATH", "/nonexistent")
    spec = parse_choice("gsm8k-mcp").spec
    assert spec is not None
    found = startup.resolve_command(spec)
    assert found.executable == str(Path(sys.executable).parent / "gsm8k-mcp")
    assert (found.name, found.describe()) == ("gsm8k-mcp", "gsm8k-mcp")


# --- the environment a stdio server gets ------------------------------------------------------


EVALUATOR = {
    "PATH": "/usr/bin",
    "HOME": "/home/me",
    "npm_config_cache": "/home/me/.npm-alt",
    "NPM_CONFIG_REGISTRY": "https://npm.example/",
    "PIP_INDEX_URL": "https://pypi.example/simple",
    "HTTPS_PROXY": "http://proxy:3128",
    "no_proxy": "localhost",
    "XDG_CACHE_HOME": "/home/me/.cache",
    "LC_ALL": "C.UTF-8",
    "SSL_CERT_FILE": "/etc/ssl/cert.pem",
    "OPENAI_API_KEY": "sk-secret",
    "ANTHROPIC_API_KEY": "sk-ant-secret",
    "AWS_SECRET_ACCESS_KEY": "secret",
    "HF_TOKEN": "hf_secret",
    "GITHUB_TOKEN": "ghp_secret",
}


def test_a_server_gets_paths_proxies_and_package_settings_not_keys() -> None:
    given = server_environment(EVALUATOR)
    secrets = {"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AWS_SECRET_ACCESS_KEY", "HF_TOKEN"}
    assert set(given) == set(EVALUATOR) - secrets - {"GITHUB_TOKEN"}


def _stdio_env(server: Any) -> dict[str, str]:
    cells = server._client.__closure__
    held = next(c.cell_contents for c in cells if hasattr(c.cell_contents, "args"))
    return dict(held.env)


def test_the_servers_own_env_is_added_and_named_variables_are_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name, value in EVALUATOR.items():
        monkeypatch.setenv(name, value)
    path = tmp_path / "mcpbr.yaml"
    path.write_text(
        "mcp_server:\n  command: srv\n  env: {KEY: '${OPENAI_API_KEY}', DIR: '{workdir}/d'}\n",
        encoding="utf-8",
    )
    spec = parse_choice(str(path)).spec
    assert spec is not None
    env = _stdio_env(spec.server("/tmp/w"))
    assert env["KEY"] == "sk-secret"  # named in the file: passed
    assert env["DIR"] == "/tmp/w/d"
    assert env["npm_config_cache"] == "/home/me/.npm-alt"
    assert "ANTHROPIC_API_KEY" not in env  # not named: kept back


def test_a_variable_the_file_names_but_the_shell_lacks_is_refused_before_the_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("GSM8K_TEST_UNSET", raising=False)
    path = tmp_path / "server.json"
    path.write_text(
        json.dumps({"command": sys.executable, "env": {"TOKEN": "${GSM8K_TEST_UNSET}"}}),
        encoding="utf-8",
    )
    message = refusal(mcp=str(path))
    assert "${GSM8K_TEST_UNSET} is not set in your environment" in message


# --- mcpbr's config files ---------------------------------------------------------------------


MCPBR = """\
mcp_server:
  name: math
  command: gsm8k-mcp
  args: []
agent_prompt: |
  Solve this with the tools you have.

  {problem_statement}

  End with ANSWER: N.
timeout_seconds: 240
max_iterations: 6
max_concurrent: 3
benchmark: gsm8k
"""


def test_an_mcpbr_file_sets_the_prompt_and_the_matching_limits(tmp_path: Path) -> None:
    path = tmp_path / "mcpbr.yaml"
    path.write_text(MCPBR, encoding="utf-8")
    choice = parse_choice(str(path))
    assert choice.spec is not None and choice.spec.name == "math"
    assert choice.prompt is not None and "{problem_statement}" in choice.prompt
    assert (choice.time_limit, choice.turns, choice.max_concurrent) == (240, 6, 3)
    baseline = parse_choice(f"none:{path}")
    assert baseline == McpChoice(None, choice.prompt, 6, 240, 3)


def test_the_task_takes_the_mcpbr_limits_and_records_the_prompt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(agent, "preflight", lambda spec, seconds, tools: spec)
    # The file names the bare gsm8k-mcp: one server for the run, not built by this test.
    monkeypatch.setattr(
        agent, "preflight_shared", lambda spec, seconds, tools: SimpleNamespace(spec=spec)
    )
    path = tmp_path / "mcpbr.yaml"
    path.write_text(MCPBR, encoding="utf-8")
    for mcp in (str(path), f"none:{path}"):
        task = gsm8k(dataset=str(MINI_DATA), fewshot=0, mcp=mcp)
        assert (task.time_limit, task.turn_limit) == (240, 6)
        assert task.config.max_connections == 3
        assert task.metadata is not None
        assert task.metadata["mcp_agent_prompt"].startswith("Solve this with the tools")


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        pytest.param("model: sonnet\n", "model: 'sonnet' cannot be honoured here", id="model"),
        pytest.param("sample_size: 10\n", "with --limit", id="sample-size"),
        pytest.param("provider: anthropic\n", "provider", id="provider"),
        pytest.param("benchmark: swe-bench\n", "this task is gsm8k", id="another-benchmark"),
        pytest.param("use_prebuilt_images: true\n", "use_prebuilt_images", id="docker-images"),
        pytest.param("colour: blue\n", "not an mcpbr setting", id="unknown-key"),
        pytest.param("max_iterations: 0\n", "at least 1", id="zero-iterations"),
        pytest.param("timeout_seconds: soon\n", "whole number", id="timeout-not-a-number"),
        pytest.param("agent_prompt: 'Solve it.'\n", "{problem_statement} slot", id="no-slot"),
    ],
)
def test_an_mcpbr_key_it_cannot_honour_is_refused_in_one_line(
    tmp_path: Path, extra: str, said: str
) -> None:
    path = tmp_path / "mcpbr.yaml"
    path.write_text("mcp_server: {command: gsm8k-mcp}\n" + extra, encoding="utf-8")
    with pytest.raises(ValueError) as raised:
        parse_choice(str(path))
    assert said in str(raised.value)
    assert str(path) in str(raised.value) and "\n" not in str(raised.value)


def test_none_with_a_file_that_is_not_a_server_file_is_refused() -> None:
    with pytest.raises(ValueError, match=r"after none: name the \.json/\.yaml"):
        parse_choice("none:prompt.txt")


# --- starting servers (slow) ------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("mode", "seconds", "said"),
    [
        pytest.param("exit-at-start", 60, "did not start and list its tools:", id="exits"),
        pytest.param("malformed", 5, "within 5 s; give it longer", id="malformed-json-rpc"),
        pytest.param("many-tools", 60, "offers 300 tools", id="hundreds-of-tools"),
    ],
)
def test_a_server_that_cannot_serve_a_sample_is_refused_before_any_runs(
    tmp_path: Path, mode: str, seconds: int, said: str
) -> None:
    message = refusal(mcp=faulty_server(tmp_path, mode), mcp_start_timeout=seconds)
    assert said in message and "nothing was run" in message


def _cli(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """``inspect eval gsm8k/task.py ...`` as a user types it, on the small data set."""
    command = [
        str(Path(sys.executable).parent / "inspect"),
        "eval",
        "gsm8k/task.py",
        "--model",
        "plumbing-demo/tool-caller",
        "--log-dir",
        str(tmp_path / "logs"),
        "--display",
        "plain",
        "-T",
        f"dataset={MINI_DATA}",
        "-T",
        "fewshot=0",
        *arguments,
    ]
    environment = os.environ | {"PYTHONPATH": str(ROOT), "COLUMNS": "1000"}
    return subprocess.run(
        command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        pytest.param(["-T", "mcp="], "-T mcp= is empty", id="empty"),
        pytest.param(["-T", "mcp=nosuchcommand"], "'nosuchcommand' was not found", id="no-command"),
        pytest.param(
            ["-T", f"mcp=http://127.0.0.1:{closed_port()}/mcp"], "did not answer", id="dead-url"
        ),
    ],
)
def test_the_command_line_refuses_in_one_line_with_a_failing_status(
    tmp_path: Path, arguments: list[str], said: str
) -> None:
    done = _cli(tmp_path, *arguments)
    assert done.returncode != 0
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and said in lines[0], lines
    assert not (tmp_path / "logs").exists()  # nothing ran


@pytest.mark.slow
def test_a_run_with_no_scored_sample_says_so_and_fails(tmp_path: Path) -> None:
    """The server passes the check, then every sample's own start fails: all unscored."""
    server = python_server_config(
        tmp_path, [str(ROOT / "tests" / "mcp_servers" / "faulty.py"), "start-fails"], "flaky"
    )
    block = json.loads(Path(server).read_text(encoding="utf-8"))
    block["env"] |= {"FLAKY_MARKER": str(tmp_path / "started"), "FLAKY_FAIL": "2+"}
    Path(server).write_text(json.dumps(block), encoding="utf-8")
    done = _cli(tmp_path, "-T", f"mcp={server}", "--limit", "2")
    assert done.returncode == 1, done.stderr[-2000:]
    assert "none of the 2 samples was scored, so this run measures nothing" in done.stderr

    def lookup(question: str, tools: list[ToolInfo], results: list[ChatMessageTool]) -> str:
        return "ANSWER: 1"

    for marker in tmp_path.glob("started.*"):
        marker.unlink()
    task = gsm8k(dataset=str(MINI_DATA), fewshot=0, mcp=server)
    log = run_eval(task, tool_model(lookup), limit=2)  # from Python: nothing raised
    line = empty_run(log)
    assert line is not None and "MCP server" in line


@pytest.mark.slow
def test_the_agent_prompt_is_what_the_model_reads_on_both_sides(tmp_path: Path) -> None:
    path = tmp_path / "mcpbr.json"
    server = json.loads(Path(faulty_server(tmp_path, "says-answer")).read_text(encoding="utf-8"))
    path.write_text(
        json.dumps(
            {
                "mcp_server": server,
                "agent_prompt": "Use the tools.\n{problem_statement}\nANSWER: N at the end.",
            }
        ),
        encoding="utf-8",
    )
    seen: list[str] = []

    def respond(messages: list[ChatMessage], tools: list[ToolInfo]) -> ModelOutput:
        seen.append(next(m.text for m in messages if isinstance(m, ChatMessageUser)))
        return ModelOutput.from_content(model="scripted", content="ANSWER: 18")

    for mcp in (str(path), f"none:{path}"):
        task = gsm8k(dataset=str(MINI_DATA), fewshot=0, mcp=mcp)
        log = run_eval(task, mock_model(respond), limit=1)
        assert log.status == "success"
        assert (log.eval.metadata or {})["mcp_agent_prompt"].startswith("Use the tools.")
    assert len(seen) == 2 and seen[0] == seen[1]
    assert seen[0].startswith("Use the tools.\n") and "Janet" in seen[0]
    assert seen[0].endswith("\nANSWER: N at the end.")


@pytest.mark.slow
def test_each_sample_records_its_server_start_apart(tmp_path: Path) -> None:
    def plan(
        question: str, tools: list[ToolInfo], results: list[ChatMessageTool]
    ) -> ToolCall | str:
        return call("lookup", query="x") if not results else "ANSWER: 18"

    task = gsm8k(dataset=str(MINI_DATA), fewshot=0, mcp=faulty_server(tmp_path, "says-answer"))
    log = run_eval(task, tool_model(plan), limit=2)
    assert log.samples is not None
    for sample in log.samples:
        started = sample.metadata[startup.START_KEY]
        waited = sample.metadata[startup.START_WAIT_KEY]
        assert 0 <= waited <= started < (sample.total_time or 0)
    assert (log.eval.metadata or {})["mcp_start_timeout"] == startup.DEFAULT_START_SECONDS


@pytest.mark.parametrize(
    ("program", "exits"),
    [
        pytest.param("/venv/bin/inspect", True, id="inspect"),
        pytest.param("/venv/bin/gsm8k-local", True, id="gsm8k-local"),
        pytest.param("/site-packages/inspect_ai/__main__.py", True, id="python-m-inspect_ai"),
        pytest.param("/src/gsm8k/local/run.py", True, id="python-m-gsm8k.local.run"),
        pytest.param("/venv/bin/pytest", False, id="pytest"),
        pytest.param("", False, id="notebook"),
        pytest.param("my_script.py", False, id="a-script"),
    ],
)
def test_only_a_command_line_exits_after_an_empty_run(program: str, exits: bool) -> None:
    assert from_command_line(program) is exits


def test_the_start_turns_allow_inspects_default_concurrency() -> None:
    assert startup.start_slots_count() >= 10


def test_parse_spec_still_reads_a_server(tmp_path: Path) -> None:
    spec = config.parse_spec("gsm8k-mcp --http")
    assert spec == ServerSpec(
        name="gsm8k-mcp --http", transport="stdio", command="gsm8k-mcp", args=["--http"]
    )
