"""Where model-written code runs: refusal without isolation, the trusted opt-in, the result
channel's checks, output caps, and the docker sandbox's settings."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai import Task
from inspect_ai._util.error import PrerequisiteError
from inspect_ai.dataset import Sample
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageTool,
    ModelOutput,
)
from inspect_ai.solver import generate, use_tools
from inspect_ai.tool import ToolCall, ToolInfo

from gsm8k.execution.cgroup import memory_limit_kind
from gsm8k.execution.container import COMPOSE_FILE, compose_sandbox
from gsm8k.execution.result_line import plain_number, read_result_line
from gsm8k.execution.runner import OUTPUT_CAP_BYTES, Limits, run_program
from gsm8k.execution.tools import ProgramBudget, python_runner
from gsm8k.task import gsm8k
from tests.scripted import mock_model, run_eval, scripted_model

REPO = Path(__file__).parent.parent
FAST = Limits(timeout_seconds=4.0, cpu_seconds=2)


@pytest.fixture
def no_bwrap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """This machine as one without bubblewrap: nothing on PATH provides it."""
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))


@pytest.mark.parametrize(
    "settings", [{"mode": "pal"}, {"tools": "python"}], ids=["pal", "python-tool"]
)
def test_without_isolation_code_modes_refuse_to_run(
    no_bwrap: None, mini_data: Path, settings: dict[str, Any]
) -> None:
    with pytest.raises(PrerequisiteError) as refused:
        gsm8k(dataset=str(mini_data), fewshot=0, **settings)
    message = str(refused.value.message)
    assert "bubblewrap (bwrap) is not installed" in message
    assert "-T sandbox=docker" in message and "-T trust_model_code=true" in message


def test_without_isolation_cot_and_the_calculator_still_run(
    no_bwrap: None, mini_data: Path
) -> None:
    task = gsm8k(dataset=str(mini_data), fewshot=0, tools="calculator")
    assert task.metadata is not None and task.metadata["code_isolation"] is None


@pytest.mark.slow
def test_the_trusted_opt_in_runs_and_is_recorded_in_the_log(
    no_bwrap: None, mini_data: Path, tmp_path: Path
) -> None:
    log = run_eval(
        gsm8k(dataset=str(mini_data), fewshot=0, mode="pal", trust_model_code=True),
        scripted_model(lambda prompt: "```python\ndef solution():\n    return 18\n```"),
        log_dir=str(tmp_path),
        limit=1,
    )
    assert log.status == "success"
    assert log.eval.metadata["trust_model_code"] is True
    assert log.eval.metadata["code_isolation"] == "local process, trusted (trust_model_code=true)"
    [sample] = log.samples
    assert sample.scores["pal_grader"].value["accuracy"] == 1.0


def test_the_opt_in_must_be_a_boolean(mini_data: Path) -> None:
    with pytest.raises(ValueError, match="trust_model_code='false': pass true or false"):
        gsm8k(dataset=str(mini_data), fewshot=0, mode="pal", trust_model_code="false")  # type: ignore[arg-type]


@pytest.mark.slow
def test_the_cli_refusal_is_one_message_without_a_traceback(tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    inspect = Path(sys.executable).parent / "inspect"
    if not inspect.exists():
        pytest.skip("the inspect CLI is not installed beside this interpreter")
    shown = subprocess.run(
        [str(inspect), "eval", "gsm8k/task.py", "-T", "mode=pal", "-T", "fewshot=0",
         "-T", "dataset=tests/fixtures/mini", "--model", "mockllm/model", "--limit", "1",
         "--log-dir", str(tmp_path / "logs")],
        cwd=REPO,
        env={**os.environ, "PATH": str(empty), "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    output = shown.stdout + shown.stderr
    assert "trust_model_code=true" in output and "sandbox=docker" in output
    assert "Traceback" not in output


@pytest.mark.parametrize("sandbox", ["local", "some-plugin"])
@pytest.mark.parametrize(
    "settings", [{"mode": "pal"}, {"tools": "python"}], ids=["pal", "python-tool"]
)
def test_a_sandbox_that_is_not_a_container_needs_the_opt_in(
    mini_data: Path, sandbox: str, settings: dict[str, Any]
) -> None:
    with pytest.raises(PrerequisiteError) as refused:
        gsm8k(dataset=str(mini_data), fewshot=0, sandbox=sandbox, **settings)
    message = str(refused.value.message)
    assert f"-T sandbox={sandbox} does not isolate it" in message
    assert "-T sandbox=docker" in message and "-T trust_model_code=true" in message


def test_the_local_sandbox_with_the_opt_in_is_recorded_as_trusted(mini_data: Path) -> None:
    task = gsm8k(
        dataset=str(mini_data), fewshot=0, mode="pal", sandbox="local", trust_model_code=True
    )
    assert task.metadata is not None
    assert task.metadata["code_isolation"] == (
        "inspect sandbox: local, not isolated, trusted (trust_model_code=true)"
    )
    assert task.metadata["trust_model_code"] is True


@pytest.mark.parametrize("sandbox", ["docker", "k8s"])
def test_container_sandboxes_need_no_opt_in(mini_data: Path, sandbox: str) -> None:
    task = gsm8k(dataset=str(mini_data), fewshot=0, mode="pal", sandbox=sandbox)
    assert task.metadata is not None
    assert task.metadata["code_isolation"] == f"inspect sandbox: {sandbox}"


def test_cot_without_code_may_use_any_sandbox(mini_data: Path) -> None:
    gsm8k(dataset=str(mini_data), fewshot=0, sandbox="local")


def test_the_bwrap_run_records_its_isolation(mini_data: Path) -> None:
    task = gsm8k(dataset=str(mini_data), fewshot=0, mode="pal")
    assert task.metadata is not None
    assert (task.metadata["code_isolation"], task.metadata["trust_model_code"]) == ("bwrap", False)


@pytest.mark.parametrize(
    ("line", "status", "value", "reason"),
    [
        pytest.param(b'{"status": "ok", "value": "18", "error": null}\n', "ok", "18", None, id="plain"),
        pytest.param(b'{"status": "ok", "value": "0.00005", "error": null}\n', "ok", "0.00005", None, id="small-decimal"),
        pytest.param(b'{"status": "ok", "value": "5e-05", "error": null}\n', "no_result", None, "not a plain decimal", id="scientific-refused"),
        pytest.param(b'{"status": "ok", "value": "3E+16", "error": null}\n', "no_result", None, "not a plain decimal", id="exponent-refused"),
        pytest.param(b'{"status": "ok", "value": "NaN", "error": null}\n', "no_result", None, "not a plain decimal", id="nan-refused"),
        pytest.param(b'{"status": "ok", "value": "1,450,000", "error": null}\n', "ok", "1450000", None, id="thousands-commas"),
        pytest.param(b'{"status": "ok", "value": "18 apples", "error": null}\n', "no_result", None, "not a plain decimal", id="units-refused"),
        pytest.param(b'{"status": "ok", "value": "' + b"9" * 4301 + b'", "error": null}\n', "no_result", None, "more than 4300 digits", id="huge-number"),
        pytest.param(b'{"status": "ok", "value": "18", "error": null}\n' * 2, "invalid_result", None, "more than one line", id="duplicate-line"),
        pytest.param(b'{"status": "ok", "value": "18", "error": null}', "invalid_result", None, "no line end", id="truncated"),
        pytest.param(b'{"status": "ok", "value": "\xff", "error": null}\n', "invalid_result", None, "not UTF-8", id="non-utf8"),
        pytest.param(b'{"status": "ok", "value": 18, "error": null}\n', "invalid_result", None, "no value", id="value-not-text"),
        pytest.param(b'{"status": "timeout", "value": null, "error": null}\n', "invalid_result", None, "unknown status", id="status-only-the-runner-may-set"),
        pytest.param(b'{"status": "ok", "value": "18"}\n', "invalid_result", None, "expected fields", id="missing-field"),
        pytest.param(b"[1, 2]\n", "invalid_result", None, "expected fields", id="not-an-object"),
        pytest.param(b"@@gsm8k-result@@{}\n", "invalid_result", None, "not JSON", id="old-marker"),
        pytest.param(b'{"status": "error", "value": null, "error": "bad \\ud800 text"}\n', "error", None, "bad ? text", id="lone-surrogate-in-error"),
    ],
)  # fmt: skip
def test_the_result_channel_accepts_one_well_formed_line(
    line: bytes, status: str, value: str | None, reason: str | None
) -> None:
    got_status, got_value, error = read_result_line(line)
    assert (got_status, got_value) == (status, value)
    if reason is not None:
        assert error is not None and reason in error


@pytest.mark.parametrize(
    ("program", "value", "reason"),
    [
        pytest.param("ans = 5e-05", "0.00005", None, id="float-scientific-read-exactly"),
        pytest.param("ans = 3e+16", "30000000000000000", None, id="large-float-read-exactly"),
        pytest.param("from decimal import Decimal\nans = Decimal('1E+2')", "100", None, id="decimal-exponent"),
        pytest.param("from fractions import Fraction\nans = Fraction(37, 2)", "18.500000000000000000000000000000", None, id="fraction"),
        pytest.param("ans = float('nan')", None, "not a finite number", id="nan"),
        pytest.param("ans = float('-inf')", None, "not a finite number", id="infinity"),
        pytest.param("from decimal import Decimal\nans = Decimal('Infinity')", None, "not a finite number", id="decimal-infinity"),
        pytest.param("ans = 10 ** 5000", None, "more than 4300 digits", id="huge-int"),
        pytest.param("from decimal import Decimal\nans = Decimal('1E+100000')", None, "more than 4300 digits", id="huge-decimal"),
        pytest.param("ans = '5e-05'", None, "not a plain decimal", id="scientific-text"),
        pytest.param("ans = 3 + 4j", None, "complex", id="complex"),
    ],
)  # fmt: skip
def test_results_are_read_exactly_or_refused_with_a_reason(
    program: str, value: str | None, reason: str | None
) -> None:
    result = run_program(program, FAST)
    assert result.value == value, result
    if reason is not None:
        assert result.status == "no_result" and reason in (result.error or "")


def test_plain_number_keeps_a_leading_dollar_and_sign() -> None:
    assert plain_number(" $1,080 ") == ("1080", None)
    assert plain_number("-3.50") == ("-3.50", None)


def test_output_is_kept_up_to_a_cap_and_decoded_with_replacement() -> None:
    result = run_program(
        "import sys\nsys.stdout.buffer.write(b'\\xff' + b'y' * 200_000)\n"
        "sys.stderr.buffer.write(b'\\xc3\\x28')\nans = 1\n",
        FAST,
    )
    assert result.status == "ok" and result.value == "1"
    assert result.stdout.startswith("\ufffd") and len(result.stdout) == OUTPUT_CAP_BYTES
    assert result.dropped_bytes == 200_001 - OUTPUT_CAP_BYTES
    assert "\ufffd" in result.stderr


@pytest.mark.parametrize(
    "program",
    ["import time\ntime.sleep(60)\n", "open('left-behind.txt', 'w').write('x')\nans = 1\n"],
    ids=["timeout", "normal"],
)
def test_the_trusted_process_scratch_directory_is_always_removed(program: str) -> None:
    before = set(Path(tempfile.gettempdir()).glob("gsm8k-program-*"))
    result = run_program(program + "import os\nprint(os.getcwd())\n", FAST, isolation="process")
    assert result.status in ("ok", "timeout")
    assert set(Path(tempfile.gettempdir()).glob("gsm8k-program-*")) <= before


def test_the_sandbox_sees_only_the_runtime_and_its_scratch_directory() -> None:
    result = run_program(
        "import json, os, sys, sysconfig\n"
        "print(json.dumps([sorted(os.listdir('/')), os.getcwd(), sorted(os.environ),\n"
        "                  [os.getpid(), os.getppid(), os.path.exists('/proc')],\n"
        "                  os.listdir(os.path.join(sysconfig.get_paths()['stdlib'], 'site-packages'))]))\n"
        "ans = 1\n",
        FAST,
    )
    assert result.status == "ok", result
    roots, cwd, environment, processes, site_packages = json.loads(result.stdout)
    runtime_top = Path(sys.base_prefix).parts[1]  # e.g. /usr, or /root for a pyenv build
    assert set(roots) <= {
        "bin",
        "dev",
        "lib",
        "lib32",
        "lib64",
        "sbin",
        "scratch",
        "usr",
        "opt",  # /opt/packages: numpy and sympy, read-only
        runtime_top,
    }
    assert cwd == "/scratch"
    assert environment == [
        "HOME", "LANG", "MKL_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "PATH",
        "PWD", "TMPDIR",
    ]  # fmt: skip
    # bubblewrap's init and the program, in a PID namespace of their own; no /proc to list others
    assert processes == [2, 1, False]
    assert site_packages == []  # installed packages are not part of the sandbox


def test_only_the_size_capped_scratch_directory_is_writable() -> None:
    result = run_program(
        "import os\nwritable = []\n"
        "for folder in ('/', '/dev', '/dev/shm', '/usr', '/proc', '/scratch'):\n"
        "    try:\n"
        "        open(os.path.join(folder, 'probe'), 'w').close()\n"
        "        writable.append(folder)\n"
        "    except OSError:\n"
        "        pass\n"
        "print(writable)\n"
        "try:\n"
        "    for n in range(64):\n"
        "        open(f'/scratch/fill-{n}', 'wb').write(b'x' * 1000000)\n"
        "except OSError as error:\n"
        "    print(n, error.errno)\n"
        "ans = 1\n",
        FAST,
    )
    writable, filled = result.stdout.splitlines()
    assert writable == "['/scratch']"
    assert filled in ("16 28", "15 28")  # ENOSPC once the 16 MiB tmpfs is full


def test_docker_compose_settings() -> None:
    """The container for -T sandbox=docker: no network, read-only, limited, non-root, no data."""
    assert compose_sandbox("docker") == ("docker", str(COMPOSE_FILE))
    assert compose_sandbox("local") == "local" and compose_sandbox(None) is None
    service = yaml.safe_load(COMPOSE_FILE.read_text())["services"]["default"]
    assert service["network_mode"] == "none"
    assert service["read_only"] is True
    assert any(mount.startswith("/tmp:") for mount in service["tmpfs"])
    assert service["mem_limit"] and service["cpus"] <= 2 and service["pids_limit"] <= 256
    assert service["cap_drop"] == ["ALL"] and "no-new-privileges:true" in service["security_opt"]
    assert not str(service["user"]).startswith(("0", "root"))
    assert "volumes" not in service, "nothing from the host is mounted into the container"
    dockerfile = (COMPOSE_FILE.parent / "Dockerfile").read_text()
    assert "COPY" not in dockerfile and "ADD" not in dockerfile and "USER 10001" in dockerfile
    assert (COMPOSE_FILE.parent / ".dockerignore").read_text().split() == ["*", "!Dockerfile"]


def _docker_works() -> bool:
    if shutil.which("docker") is None:
        return False
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.skipif(not _docker_works(), reason="no Docker engine here (`docker info` fails)")
def test_pal_runs_in_the_docker_sandbox(mini_data: Path, tmp_path: Path) -> None:
    replies = {
        "Janet": "```python\ndef solution():\n    return (16 - 3 - 4) * 2\n```",
        "robe": "```python\nimport socket\ndef solution():\n"
        "    socket.create_connection(('1.1.1.1', 53), timeout=2)\n    return 3\n```",
    }
    log = run_eval(
        gsm8k(dataset=str(mini_data), fewshot=0, mode="pal", sandbox="docker"),
        scripted_model(replies),
        log_dir=str(tmp_path),
        limit=2,
    )
    assert log.status == "success", log.error
    scores = {s.id: s.scores["pal_grader"] for s in log.samples or []}
    assert scores[0].value["accuracy"] == 1.0
    assert scores[1].metadata["status"] == "error"  # no network in the container


def test_a_sandbox_that_cannot_start_is_that_samples_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("gsm8k.execution.runner.find_bwrap", lambda: "/nonexistent/bwrap")
    result = run_program("ans = 1", FAST)
    # started directly, Popen fails: the machine's failure, unscored; started by the shell that
    # enters the cgroup, the shell says so and the program ends without a result
    assert (
        result.status == "sandbox_unavailable"
        and "could not start the program's process" in (result.error or "")
    ) or (result.status == "crashed" and "/nonexistent/bwrap: not found" in result.stderr)


def _many_calls_model(code: str, calls: int) -> Any:
    """One assistant message with ``calls`` python_runner calls, then a final answer."""

    def respond(messages: list[ChatMessage], tools: list[ToolInfo]) -> ModelOutput:
        if any(isinstance(m, ChatMessageTool) for m in messages):
            return ModelOutput.from_content("scripted", "ANSWER: 1")
        calls_made = [
            ToolCall(id=f"call-{n}", function="python_runner", arguments={"code": code})
            for n in range(calls)
        ]
        message = ChatMessageAssistant(content="", model="scripted", tool_calls=calls_made)
        return ModelOutput(model="scripted", choices=[ChatCompletionChoice(message=message)])

    return mock_model(respond, "scripted")


def _tool_replies(
    limits: Limits, budget: ProgramBudget, code: str, calls: int, log_dir: Path
) -> list[str]:
    task = Task(
        dataset=[Sample(input="What is 1?", target="1")],
        solver=[use_tools([python_runner(limits, budget=budget)]), generate()],
    )
    log = run_eval(task, _many_calls_model(code, calls), log_dir=str(log_dir))
    assert log.status == "success"
    [sample] = log.samples
    return [
        m.text if m.error is None else m.error.message
        for m in sample.messages
        if isinstance(m, ChatMessageTool)
    ]


def test_the_python_tool_runs_at_most_the_budgets_programs_per_sample(tmp_path: Path) -> None:
    replies = _tool_replies(FAST, ProgramBudget(runs=3, seconds=1000), "ans = 1", 8, tmp_path)
    assert len(replies) == 8
    assert sum(r.endswith("Result: 1") for r in replies) == 3
    assert sum("budget for this question is spent" in r for r in replies) == 5


def test_the_python_tool_budget_counts_sandbox_seconds(tmp_path: Path) -> None:
    # the wall clock, not the CPU limit, ends each run: every run uses at least its 1.5 s
    limits = Limits(timeout_seconds=1.5, cpu_seconds=3)
    replies = _tool_replies(
        limits, ProgramBudget(runs=100, seconds=4), "while True:\n    pass", 8, tmp_path
    )
    ran = [r for r in replies if "budget for this question is spent" not in r]
    # each run reserves its whole 1.5 s limit first, so 4 s cover at most two runs
    assert 1 <= len(ran) <= 2 and all("Error (" in r for r in ran)
    assert len(replies) - len(ran) >= 6


SHARED_MEMORY_FLOOD = """import ctypes
libc = ctypes.CDLL(None)
libc.shmat.restype = ctypes.c_void_p
libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
size = 32 * 2**20
for _ in range(64):  # detached segments cost no address space, so RLIMIT_AS never sees them
    segment = libc.shmget(0, size, 0o1000 | 0o600)
    address = libc.shmat(segment, None, 0)
    ctypes.memset(address, 1, size)
    libc.shmdt(ctypes.c_void_p(address))
ans = 18
"""
FORKED_MEMORY = """import os, time
children = []
for _ in range(5):  # each child stays under the per-process limit; together they are 5 times it
    pid = os.fork()
    if pid == 0:
        block = bytearray(80 * 2**20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        time.sleep(3)
        os._exit(0)
    children.append(pid)
for pid in children:
    os.waitpid(pid, 0)
ans = 18
"""
CGROUP_LIMITS = Limits(timeout_seconds=30.0, cpu_seconds=20, memory_mb=128)


@pytest.mark.skipif(
    memory_limit_kind() != "cgroup", reason="cgroups cannot be created on this machine"
)
@pytest.mark.parametrize(
    "program", [SHARED_MEMORY_FLOOD, FORKED_MEMORY], ids=["shared-memory", "forked-processes"]
)
def test_one_memory_limit_covers_the_whole_sandbox(program: str) -> None:
    result = run_program(program, CGROUP_LIMITS)
    assert (result.status, result.value) == ("memory", None), result
    assert "memory limit of 128 MB (all its processes)" in str(result.error)
    assert run_program("ans = 18", CGROUP_LIMITS).value == "18"


def test_the_log_records_which_memory_limit_applied(mini_data: Path) -> None:
    task = gsm8k(dataset=str(mini_data), fewshot=0, mode="pal")
    assert task.metadata is not None
    assert task.metadata["memory_limit"] == memory_limit_kind()
    assert gsm8k(dataset=str(mini_data), fewshot=0).metadata["memory_limit"] is None  # type: ignore[index]


KEYRING_NOTE = """
import ctypes
libc = ctypes.CDLL(None)
libc.syscall.restype = ctypes.c_long
note = b"the answer to this question is 42"
libc.syscall(248, b"user", b"note", note, len(note), ctypes.c_int(-4))  # add_key, user keyring
ans = 1
"""
KEYRING_READ = """
import ctypes
libc = ctypes.CDLL(None)
libc.syscall.restype = ctypes.c_long
key = libc.syscall(250, 10, ctypes.c_int(-4), b"user", b"note", 0)  # keyctl(KEYCTL_SEARCH)
buffer = ctypes.create_string_buffer(200)
if key > 0:
    libc.syscall(250, 11, ctypes.c_long(key), buffer, 200)  # keyctl(KEYCTL_READ)
print(buffer.value.decode() or "nothing")
ans = 1
"""


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="system call numbers are x86_64's")
def test_a_program_cannot_leave_a_note_for_a_later_sample_in_the_kernel_keyring() -> None:
    # Each sandbox runs under a user id never used before, so the per-user keyring is new.
    for _ in range(3):
        assert run_program(KEYRING_NOTE, FAST).status == "ok"
        reader = run_program(KEYRING_READ, FAST)
        assert reader.status == "ok"
        assert "the answer to this question" not in reader.stdout, reader.stdout
