"""The container runner's limits belong to the container: processes are bounded by the compose
file's pids cgroup, never by RLIMIT_NPROC on the user id every container shares.

No Docker engine new enough for Inspect runs here, so the container's code path runs through
Inspect's ``local`` sandbox (the trusted opt-in), which execs the same command line; the compose
file is checked as configuration.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

from gsm8k.execution.container import COMPOSE_FILE
from gsm8k.execution.runner import DEFAULT_LIMITS, bootstrap_arguments
from gsm8k.task import gsm8k
from tests.scripted import run_eval, scripted_model

THREADS = DEFAULT_LIMITS.processes + 4
PROGRAM = (
    "import resource, threading\n"
    "barrier = threading.Barrier({threads} + 1)\n"
    "workers = [threading.Thread(target=barrier.wait) for _ in range({threads})]\n"
    "for worker in workers:\n"
    "    worker.start()\n"
    "barrier.wait()\n"
    "print(resource.getrlimit(resource.RLIMIT_NPROC))\n"
    "def solution():\n"
    "    return 18\n"
)


def test_the_container_command_sets_no_process_rlimit() -> None:
    settings = json.loads(bootstrap_arguments(DEFAULT_LIMITS, 1, None, process_rlimit=False)[-1])
    assert settings["processes"] is None
    local = json.loads(bootstrap_arguments(DEFAULT_LIMITS, 5, 1_900_000_001)[-1])
    assert local["processes"] == DEFAULT_LIMITS.processes  # a uid of the sandbox's own


def test_the_compose_file_bounds_the_containers_processes() -> None:
    service = yaml.safe_load(COMPOSE_FILE.read_text())["services"]["default"]
    assert DEFAULT_LIMITS.processes < service["pids_limit"] <= 256
    assert "nproc" not in service.get("ulimits", {})


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="resource limits are POSIX")
def test_a_program_in_the_container_path_runs_more_threads_than_the_old_rlimit(
    mini_data: Path, tmp_path: Path
) -> None:
    program = PROGRAM.format(threads=THREADS)
    task = gsm8k(
        dataset=str(mini_data), fewshot=0, mode="pal", sandbox="local", trust_model_code=True
    )
    model = scripted_model(lambda prompt: f"```python\n{program}```")
    log = run_eval(task, model, log_dir=str(tmp_path), limit=1)
    assert log.status == "success", log.error
    [sample] = log.samples
    score = sample.scores["pal_grader"]
    assert score.metadata["status"] == "ok", score.explanation
    limit = score.metadata["stdout"].strip().splitlines()[-1]
    assert limit != str((DEFAULT_LIMITS.processes, DEFAULT_LIMITS.processes)), limit
