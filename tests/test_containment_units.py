"""The containment pieces on their own, without a server: the tool-argument screen, the
``{workdir}`` remover, the fair program slots, the sweep of runtime images left by dead
servers, and the connection check that alone may call a server gone."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import anyio
import pytest
from inspect_ai.model import ChatMessageAssistant
from inspect_ai.tool import ToolCall

from gsm8k.execution import image
from gsm8k.execution.arguments import (
    MAX_BYTES,
    MAX_DEPTH,
    argument_problem,
    make_storable,
    screen_call,
)
from gsm8k.execution.tools import ProgramBudget
from gsm8k.mcp_tools import liveness
from gsm8k.mcp_tools.fairness import BudgetSpent, FairRunner
from gsm8k.mcp_tools.liveness import Watch, ping_failure, transport_failure
from gsm8k.mcp_tools.workdir import remove_tree


def nested(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        pytest.param({"expression": "(16 - 3 - 4) * 2"}, None, id="ordinary"),
        pytest.param({"code": "print('Connection closed')"}, None, id="echo-is-fine"),
        pytest.param({"x": nested(MAX_DEPTH - 1)}, None, id="deep-within-limit"),
        pytest.param({"x": nested(600)}, "nested more than", id="deep-600"),
        pytest.param({"x": nested(100_000)}, "nested more than", id="deep-100000"),
        pytest.param({"x": "1 + \ud800"}, "UTF-8", id="lone-surrogate"),
        pytest.param({"\udfff": "1"}, "UTF-8", id="lone-surrogate-key"),
        pytest.param({"x": "9" * (MAX_BYTES + 1)}, "larger than", id="huge-string"),
        pytest.param({"x": ["ab"] * 90_000}, "larger than", id="huge-list"),
        pytest.param({"x": 10**5000}, "cannot be encoded", id="int-past-4300-digits"),
        pytest.param({"x": float("nan")}, "cannot be encoded", id="nan"),
        pytest.param({"x": {1, 2}}, "cannot be encoded", id="not-json"),
    ],
)
def test_argument_screen(arguments: dict[str, Any], said: str | None) -> None:
    problem = argument_problem(arguments)
    assert (problem is None) if said is None else (said in (problem or "")), problem


def test_aliased_containers_cannot_expand_without_bound() -> None:
    """Thirty levels of a list holding itself twice: 2**30 values when written out."""
    value: Any = ["x"]
    for _ in range(30):
        value = [value, value]
    assert "more than" in (argument_problem({"x": value}) or "")


def test_a_refused_call_keeps_nothing_of_its_arguments() -> None:
    call = ToolCall(id="1", function="calculator", arguments={"expression": nested(700)})
    assert screen_call(call)
    assert call.arguments == {}
    assert call.parse_error and "nested more than" in call.parse_error
    fine = ToolCall(id="2", function="calculator", arguments={"expression": "1 + 1"})
    assert not screen_call(fine) and fine.parse_error is None


def test_lone_surrogates_in_a_calls_id_name_and_text_are_replaced() -> None:
    call = ToolCall(id="a\ud800", function="calc\udfff", arguments={"expression": "1"})
    assert not screen_call(call)
    assert (call.id, call.function) == ("a?", "calc?")
    reply = ChatMessageAssistant(content="see \ud800", tool_calls=[call])
    make_storable(reply)
    assert reply.content == "see ?"


def deep_tree(root: Path, levels: int, name: str = "d") -> None:
    """``levels`` nested folders under ``root``, made relative to each (past PATH_MAX)."""
    descriptor = os.open(root, os.O_RDONLY)
    try:
        for _ in range(levels):
            os.mkdir(name, dir_fd=descriptor)
            inner = os.open(name, os.O_RDONLY, dir_fd=descriptor)
            os.close(descriptor)
            descriptor = inner
        with open(os.open("leaf.txt", os.O_WRONLY | os.O_CREAT, dir_fd=descriptor), "w") as leaf:
            leaf.write("x")
    finally:
        os.close(descriptor)


@pytest.mark.parametrize(
    ("levels", "name"),
    [
        pytest.param(1_500, "d", id="1500-levels"),
        pytest.param(3_000, "d" * 40, id="past-PATH_MAX"),
    ],
)
def test_workdir_removal_has_no_depth_limit(tmp_path: Path, levels: int, name: str) -> None:
    workdir = tmp_path / "work"
    workdir.mkdir()
    deep_tree(workdir, levels, name)
    remove_tree(str(workdir))
    assert not workdir.exists()


def test_workdir_removal_takes_locked_folders_and_never_follows_links(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("mine", encoding="utf-8")
    workdir = tmp_path / "work"
    locked = workdir / "a" / "locked"
    locked.mkdir(parents=True)
    (locked / "file.txt").write_text("x", encoding="utf-8")
    for n in range(2_000):
        (workdir / "a" / f"f{n}").write_text("x", encoding="utf-8")
    (workdir / "a" / "link-out").symlink_to(outside)
    (workdir / "file-link").symlink_to(outside / "keep.txt")
    locked.chmod(0)
    (workdir / "a").chmod(stat.S_IRUSR | stat.S_IXUSR)  # read-only
    remove_tree(str(workdir))
    assert not workdir.exists()
    assert (outside / "keep.txt").read_text(encoding="utf-8") == "mine"


def test_a_missing_workdir_is_no_error(tmp_path: Path) -> None:
    remove_tree(str(tmp_path / "never-made"))


class Session:
    """A session key, as the server has one per client session."""


def test_a_freed_slot_goes_to_the_session_with_fewest_programs_running() -> None:
    """Two sessions queue 16 programs each on 2 slots; a third session's one program, queued
    last, runs as soon as the first slot frees, before the others' next ones."""
    order: list[str] = []

    async def scenario() -> None:
        runner = FairRunner(slots=2, budget=ProgramBudget(runs=100, seconds=10_000))
        hogs, light = (Session(), Session()), Session()
        gates = [anyio.Event() for _ in range(64)]
        started = anyio.Event()

        async def program(session: Session, label: str, gate: anyio.Event) -> None:
            async with runner.program(session, 1.0):
                order.append(label)
                if len(order) == 2:
                    started.set()
                await gate.wait()

        async with anyio.create_task_group() as group:
            for n in range(16):
                for h, hog in enumerate(hogs):
                    group.start_soon(program, hog, f"hog{h}", gates[2 * n + h])
            await started.wait()
            await anyio.sleep(0)
            group.start_soon(program, light, "light", gates[63])
            await wait_until(lambda: len(runner._waiting) == 3)
            gates[0].set()  # the first hog program ends
            await wait_until(lambda: len(order) == 3)
            for gate in gates:
                gate.set()

    anyio.run(scenario)
    assert order[:3] == ["hog0", "hog1", "light"]
    assert sorted(order) == sorted(["hog0"] * 16 + ["hog1"] * 16 + ["light"])


async def wait_until(condition: Any) -> None:
    while not condition():
        await anyio.sleep(0)


def test_each_session_has_its_own_program_budget() -> None:
    async def scenario() -> list[str]:
        runner = FairRunner(slots=2, budget=ProgramBudget(runs=3, seconds=60))
        first, second = Session(), Session()
        outcomes = []
        for session in (first, first, first, first, second):
            try:
                async with runner.program(session, 6.0):
                    outcomes.append("ran")
            except BudgetSpent as error:
                outcomes.append(str(error))
        return outcomes

    outcomes = anyio.run(scenario)
    assert outcomes[:3] == ["ran"] * 3 and outcomes[4] == "ran"
    assert "budget for this question is spent (3 programs" in outcomes[3]


def test_a_cancelled_wait_gives_its_place_back() -> None:
    async def scenario() -> int:
        runner = FairRunner(slots=1, budget=ProgramBudget(runs=10, seconds=1_000))
        hold = anyio.Event()

        async def holder() -> None:
            async with runner.program(Session(), 1.0):
                await hold.wait()

        async with anyio.create_task_group() as group:
            group.start_soon(holder)
            await anyio.sleep(0)
            with anyio.move_on_after(0.01):
                async with runner.program(Session(), 1.0):
                    raise AssertionError("the slot is held")
            hold.set()
        async with runner.program(Session(), 1.0):
            return runner._free

    assert anyio.run(scenario) == 0  # one slot, held by the last program; nothing leaked


def test_orphaned_images_are_swept_and_live_ones_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(image.tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(image, "SHARED_MEMORY", tmp_path / "shm")
    dead = os.fork()
    if dead == 0:
        os._exit(0)
    os.waitpid(dead, 0)
    orphan = tmp_path / f"{image.IMAGE_PREFIX}{dead}-abc"
    live = tmp_path / f"{image.IMAGE_PREFIX}{os.getpid()}-abc"
    for folder in (orphan, live):
        (folder / "usr").mkdir(parents=True)
    image.sweep_orphaned_images()
    assert not orphan.exists() and live.exists()


class ClosedSession:
    async def send_ping(self) -> None:
        raise anyio.ClosedResourceError


class AnsweringSession:
    def __init__(self, error: Exception | None = None) -> None:
        self.error = error

    async def send_ping(self) -> None:
        if self.error is not None:
            raise self.error


def test_only_a_closed_connection_says_the_server_is_gone() -> None:
    assert anyio.run(ping_failure, ClosedSession()) is not None
    assert anyio.run(ping_failure, AnsweringSession()) is None
    assert anyio.run(ping_failure, AnsweringSession(RuntimeError("Connection closed"))) is None
    assert transport_failure(ConnectionResetError("Connection closed")) is None  # not raised
    # in the MCP client's transport: whoever wrote the text, it is no evidence
    assert anyio.run(ping_failure, SlowSession()) is None  # slow is not gone


class SlowSession:
    async def send_ping(self) -> None:
        raise TimeoutError


class ClosedByServer(Exception):
    """What the MCP SDK raises for an error response: the code is the server's to choose."""

    def __init__(self) -> None:
        super().__init__("Connection closed")
        self.error = type("ErrorData", (), {"code": -32000, "message": "Connection closed"})()


def test_a_ping_answered_with_the_closed_connection_code_is_not_a_death() -> None:
    assert anyio.run(ping_failure, AnsweringSession(ClosedByServer())) is None


class Dispatcher:
    def __init__(self) -> None:
        self._closed = False


class ClientSession:
    """A client session whose transport the test closes (the SDK's dispatcher flag)."""

    def __init__(self) -> None:
        self._dispatcher = Dispatcher()

    async def send_ping(self) -> None:
        raise ClosedByServer()


class Server:
    def __init__(self) -> None:
        self.session = ClientSession()

    def _task_session(self) -> object:
        return type("TaskSession", (), {"_session": self.session})()


def test_a_death_is_the_models_in_a_call_just_after_one_or_after_one_given_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(liveness, "AFTER_CALL_SECONDS", 0.0)
    server = Server()

    def watch_closed_after(*outcomes: str, in_call: bool = False) -> Watch:
        watch = Watch(server)
        server.session._dispatcher._closed = False
        for outcome in outcomes:
            assert watch.begin("t") is None
            watch.end(outcome)
        if in_call:
            assert watch.begin("t") is None
        server.session._dispatcher._closed = True
        return watch

    in_call = watch_closed_after("answered", in_call=True)
    assert anyio.run(in_call.after_failure, RuntimeError("any")) == liveness.Death(
        "its connection closed", True
    )
    between = watch_closed_after("answered")
    death = between.begin("t")
    assert death is not None and not death.models and between.note() is None  # unscored
    quiet = watch_closed_after("answered")
    anyio.run(quiet.run)  # seen while the model thinks; no call meets it
    assert quiet.death is not None and not quiet.death.models
    assert "between calls, and no call met it" in (quiet.note() or "")
    given_up = watch_closed_after("gave-up", "answered")
    given_up_death = given_up.begin("t")
    assert given_up_death is not None and given_up_death.models
    monkeypatch.setattr(liveness, "AFTER_CALL_SECONDS", 60.0)
    recent = watch_closed_after("answered")
    recent_death = recent.begin("t")
    assert recent_death is not None and recent_death.models


def test_after_a_death_that_ended_the_turns_the_model_reads_it_and_answers() -> None:
    """An HTTP connection lost under a call ends the turns with it: the call left without a
    result gets the error, and the model's next calls are refused, not run."""
    from inspect_ai.model import ChatMessageTool, ChatMessageUser, ModelName
    from inspect_ai.solver import TaskState
    from inspect_ai.tool import ToolDef, ToolError

    from gsm8k.mcp_tools.aftermath import without_server

    async def calculator(expression: str) -> str:
        """Compute.

        Args:
            expression: what to compute.
        """
        raise AssertionError("the server is gone: nothing may reach it")

    pending = ToolCall(id="c1", function="calculator", arguments={"expression": "1 + 1"})
    state = TaskState(
        ModelName("mockllm/model"),
        sample_id=1,
        epoch=1,
        input="q",
        messages=[
            ChatMessageUser(content="q"),
            ChatMessageAssistant(content="", tool_calls=[pending]),
        ],
        metadata={liveness.DIED_KEY: "the MCP server exited during a call to calculator: gone"},
    )
    state.tools = [ToolDef(calculator).as_tool()]
    seen: list[str] = []

    async def loop(state: TaskState, generate: Any) -> TaskState:
        try:
            await state.tools[0](expression="2 + 2")
        except ToolError as error:
            seen.append(error.message)
        return state

    after = anyio.run(without_server, state, None, loop)
    [result] = [m for m in after.messages if isinstance(m, ChatMessageTool)]
    assert result.tool_call_id == "c1" and result.error is not None
    assert result.error.message.startswith("calculator failed: the MCP server exited")
    [refused] = seen
    assert refused.startswith("calculator was not run: the MCP server exited")
