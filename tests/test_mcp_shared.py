"""``-T mcp=gsm8k-mcp`` served by one server for the run (in the evaluator's process): which
server names share it, what the check before the run says, that the server's own module loads
without Inspect, and one eval whose samples all attack the shared server at once while each
spends its own program budget. The eval is module-scoped: its log serves every assertion."""

from __future__ import annotations

import io
import subprocess
import sys
from typing import Any

import pytest
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import ChatMessageTool
from inspect_ai.tool import ToolCall

from gsm8k.execution.budget import ProgramBudget
from gsm8k.mcp_tools import agent, shared, startup
from gsm8k.mcp_tools.config import ServerSpec, parse_spec
from gsm8k.mcp_tools.fairness import FairRunner
from gsm8k.task import gsm8k
from tests.conftest import MINI_DATA
from tests.mcp_support import ROOT, tool_model
from tests.scripted import run_eval
from tests.test_mcp_containment import (
    ECHOED,
    assert_scored_wrong,
    scripted,
    shipped_attacks,
    tool_errors,
)


def spec(text: str) -> ServerSpec:
    found = parse_spec(text)
    assert found is not None
    return found


@pytest.mark.parametrize(
    ("named", "shares"),
    [
        pytest.param("gsm8k-mcp", True, id="the-command"),
        pytest.param("gsm8k-mcp --trust-model-code", True, id="trusted-programs"),
        pytest.param("python -m gsm8k.mcp_tools", False, id="as-a-module: one per sample"),
        pytest.param("/opt/venv/bin/gsm8k-mcp", False, id="a-path: maybe another version"),
        pytest.param("gsm8k-mcp --http", False, id="another-flag"),
        pytest.param("npx -y @modelcontextprotocol/server-filesystem {workdir}", False, id="npm"),
        pytest.param("http://127.0.0.1:8765/mcp", False, id="a-url"),
    ],
)
def test_only_the_bare_command_is_shared_by_the_run(named: str, shares: bool) -> None:
    assert shared.shareable(spec(named)) is shares


def test_a_server_file_naming_gsm8k_mcp_with_its_own_env_is_started_per_sample() -> None:
    with_env = ServerSpec("math", "stdio", command="gsm8k-mcp", env={"TMPDIR": "/tmp/x"})
    assert not shared.shareable(with_env)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_check_says_what_it_does_and_how_long_it_took_in_one_line() -> None:
    piped = io.StringIO()
    startup.Announcement("mcp=gsm8k-mcp", "one server for the run", piped).done(2)
    [line] = piped.getvalue().splitlines()
    assert line.startswith(
        "gsm8k: mcp=gsm8k-mcp (one server for the run): checking the server starts and lists "
        "its tools… 2 tools listed in "
    )
    assert line.endswith(" s")
    failed = io.StringIO()
    startup.Announcement("mcp=x", stream=failed).failed()
    assert failed.getvalue() == ""  # the refusal is the only line


def test_on_a_terminal_the_check_shows_at_once_and_is_erased_when_it_fails() -> None:
    terminal = Terminal()
    note = startup.Announcement("mcp=x", stream=terminal)
    assert terminal.getvalue().endswith("checking the server starts and lists its tools…")
    note.failed()
    assert terminal.getvalue().endswith("\r\x1b[K")


def test_the_servers_module_loads_without_inspect() -> None:
    """A process per sample imports what it serves with: Inspect costs seconds of CPU."""
    script = (
        "import sys\nimport gsm8k.mcp_tools.server\n"
        "print(sorted(m for m in sys.modules if m.startswith('inspect_ai')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "[]"


# --- one eval through the shared server (slow) -------------------------------------------------

BUDGET = ProgramBudget(runs=3, seconds=60.0)
FIVE = ToolCall(id="five", function="python", arguments={"code": "print(2 + 3)"})
ADD = ToolCall(id="add", function="calculator", arguments={"expression": "(16 - 3 - 4) * 2"})


@pytest.fixture(scope="module")
def shared_log(tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    """Every sample of the mini set at once on one gsm8k-mcp: the containment attacks (the
    echoing program counts against the budget), then three programs against a budget of three
    runs, then a wrong answer."""
    with pytest.MonkeyPatch.context() as patch:
        running = shared.SharedServer(spec("gsm8k-mcp"), FairRunner(budget=BUDGET))
        patch.setitem(shared.SharedServer._running, False, running)
        task = gsm8k(dataset=str(MINI_DATA), fewshot=0, mcp="gsm8k-mcp")
        plan = scripted([ADD, *shipped_attacks(), FIVE, FIVE, FIVE])
        log: EvalLog = run_eval(
            task,
            tool_model(plan),
            max_samples=6,
            turn_limit=30,
            log_dir=str(tmp_path_factory.mktemp("logs")),
        )
    assert log.status == "success", log.error
    return log


def samples(log: EvalLog) -> list[EvalSample]:
    assert log.samples is not None and len(log.samples) == 6
    return log.samples


@pytest.mark.slow
def test_the_run_records_one_shared_server(shared_log: EvalLog) -> None:
    metadata: dict[str, Any] = shared_log.eval.metadata or {}
    assert (metadata["mcp_server"], metadata["mcp_shared"]) == ("gsm8k-mcp", True)
    for sample in samples(shared_log):
        # A connection, not a process: no turn to wait for, its start recorded all the same.
        assert sample.metadata[startup.START_WAIT_KEY] < 1.0
        assert 0 < sample.metadata[startup.START_KEY] < (sample.total_time or 0)


@pytest.mark.slow
def test_attacks_on_the_shared_server_leave_every_sample_scored(shared_log: EvalLog) -> None:
    for sample in samples(shared_log):
        assert sample.error is None
        assert_scored_wrong(sample)
        assert agent.FAILURE_KEY not in (sample.metadata or {})
        errors = tool_errors(sample)
        assert sum(ECHOED in e for e in errors) == 2, errors  # the echoes reached the model
        assert sum("arguments were refused" in e for e in errors) == 6, errors


@pytest.mark.slow
def test_each_sample_has_a_session_and_a_budget_of_its_own(shared_log: EvalLog) -> None:
    """Six samples on one server, each runs exactly its budget's programs: no sample spent
    another's, and none was refused for what another ran."""
    for sample in samples(shared_log):
        results = [m for m in sample.messages if isinstance(m, ChatMessageTool)]
        assert results[0].text == "18"  # the calculator, through the shared server
        five = [m for m in results if m.tool_call_id == "five"]
        assert [m.text.endswith("Result: 5") for m in five] == [True, True, False]
        spent = five[2].error.message if five[2].error else five[2].text
        assert "budget for this question is spent (3 programs" in spent
