"""The scale recipe end to end, as commands, with wall times: one ``inspect eval-set`` over two
models x three datasets into one log store, interrupted and resumed, then one ``gsm8k-family``
and one ``gsm8k-compare`` over that store.

    python -m benchmarks.scale_recipe                 # a local folder (a temporary one)
    python -m benchmarks.scale_recipe --store logs/set
    python -m benchmarks.scale_recipe --s3            # an S3 server (moto) on 127.0.0.1

The two models are scripted (zero latency, no network): an OpenAI-compatible server on 127.0.0.1
(:mod:`benchmarks.scripted_server`) answers from a table, reached through Inspect's
``openai-api/scripted/<model>`` provider as a served local model would be. Model B is wrong on
one question. The data are the test fixtures (GSM8K, GSM-Symbolic P2 and GSM-Plus mini, a few
questions each). In the first attempt the server drops every request of model B for one
question, as a provider outage would; the same command run again resumes, running only what did
not finish.
Every step is run as the command a user would type, and printed before it runs.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.scripted_server import ScriptedServer

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "family"
FAMILY_SET = "gsm8k/family_set.py"
TASKS = ("gsm8k_original", "gsm_symbolic_p2", "gsm_plus_mini")
MODELS = ("openai-api/scripted/model-a", "openai-api/scripted/model-b")
ANSWERS = {
    "Janet": "18",
    "robe": "3",
    "house": "1450000",
    "diver": "-10",
    "pencils": "123456",
    "factory": "2880000",
}
OUTAGE_ON = ("model-b", "robe")
"""The model and question whose requests are dropped in the first attempt. One model's outage
stops three of the six tasks: each stopped task prints its traceback, whose source lines
Inspect's display highlights (about 5 CPU-s each), so the other model's runs finish."""


class ScriptedModels:
    """Both models' replies: model B is wrong on the robe question; an outage drops that one."""

    def __init__(self) -> None:
        self.outage = True

    def __call__(self, model: str, prompt: str) -> str | None:
        question = prompt.rsplit("Question:", 1)[-1]
        if self.outage and model == OUTAGE_ON[0] and OUTAGE_ON[1] in question:
            return None
        answer = next((a for key, a in ANSWERS.items() if key in question), "0")
        if model == "model-b" and "robe" in question:
            answer = "4"
        return f"Worked it out.\nANSWER: {answer}"


@dataclass
class Step:
    command: list[str]
    exit_code: int
    seconds: float
    stdout: str
    stderr: str


@dataclass
class RecipeResult:
    steps: list[Step] = field(default_factory=list)
    family: dict[str, Any] = field(default_factory=dict)
    compare: dict[str, Any] = field(default_factory=dict)


def eval_set_command(store: str) -> list[str]:
    return [
        str(Path(sys.executable).with_name("inspect")),
        "eval-set",
        *(f"{FAMILY_SET}@{name}" for name in TASKS),
        "--model",
        ",".join(MODELS),
        "--log-dir",
        store,
        "-T",
        "fewshot=0",
        "--retry-attempts",
        "0",  # the outage ends the attempt; re-running the command is the retry
        "--max-retries",
        "0",
        "--display",
        "plain",
    ]


def report_commands(store: str, out: Path) -> list[list[str]]:
    python = [sys.executable, "-m"]
    return [
        [
            *python,
            "gsm8k.compare.family",
            store,
            "--model",
            MODELS[0],
            "--json",
            str(out / "family.json"),
        ],
        [
            *python,
            "gsm8k.compare.cli",
            store,
            "--variant",
            "gsm8k",
            "--json",
            str(out / "compare.json"),
        ],
    ]


def run_step(command: list[str], env: dict[str, str], echo: bool) -> Step:
    if echo:
        print(f"$ {shlex.join(_shown(command))}", flush=True)
    started = time.perf_counter()
    finished = subprocess.run(
        command, env=env, cwd=ROOT, capture_output=True, text=True, check=False
    )
    step = Step(
        command,
        finished.returncode,
        time.perf_counter() - started,
        finished.stdout,
        finished.stderr,
    )
    if echo:
        print(f"[exit {step.exit_code}, {step.seconds:.2f} s]", flush=True)
    return step


def run_recipe(store: str, out: Path, env: dict[str, str], echo: bool = False) -> RecipeResult:
    """The whole recipe; ``env`` adds to this process's environment (data, S3 credentials)."""
    result = RecipeResult()
    models = ScriptedModels()
    with ScriptedServer(models) as server:
        environment = os.environ | env | server.environment()
        environment.pop("GSM8K_FAMILY_DIR", None)  # variants beside GSM8K_DATA_DIR's copy
        for outage in (True, False):
            models.outage = outage
            result.steps.append(run_step(eval_set_command(store), environment, echo))
    for command in report_commands(store, out):
        result.steps.append(run_step(command, os.environ | env, echo))
        if echo:
            sys.stdout.write(result.steps[-1].stdout + "\n")
    result.family = _read_json(out / "family.json")
    result.compare = _read_json(out / "compare.json")
    return result


def _read_json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text()) if path.is_file() else {}


def _shown(command: list[str]) -> list[str]:
    """The command as a user types it (``inspect``, ``gsm8k-family``), not this process's paths."""
    names = {"gsm8k.compare.family": "gsm8k-family", "gsm8k.compare.cli": "gsm8k-compare"}
    if command[0] == sys.executable and command[1] == "-m":
        return [names.get(command[2], command[2]), *command[3:-2]]
    return [Path(command[0]).name, *command[1:]]


def s3_store() -> tuple[Any, str, dict[str, str]]:
    """A moto S3 server on 127.0.0.1 with an empty bucket: (server, store URI, environment)."""
    import boto3
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    env = {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ENDPOINT_URL": f"http://{host}:{port}",
    }
    bucket = f"gsm8k-{uuid.uuid4().hex[:8]}"
    boto3.client(
        "s3",
        endpoint_url=env["AWS_ENDPOINT_URL"],
        region_name=env["AWS_DEFAULT_REGION"],
        aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"],
    ).create_bucket(Bucket=bucket)
    return server, f"s3://{bucket}/family-set", env


def run_arguments(argv: list[str] | None = None) -> tuple[int, RecipeResult]:
    """The command line's recipe: its exit status (0 when the outage stopped the first attempt
    and every later step passed) and what each step did."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--store", help="log store (default: a temporary folder)")
    parser.add_argument("--s3", action="store_true", help="use an S3 server on 127.0.0.1")
    parser.add_argument(
        "--out", help="folder for family.json and compare.json (default: a temporary one)"
    )
    args = parser.parse_args(argv)
    env = {"GSM8K_DATA_DIR": str(FIXTURES / "gsm8k")}
    with tempfile.TemporaryDirectory() as folder:
        out = Path(args.out or folder)
        server = None
        if args.s3:
            server, store, s3_env = s3_store()
            env |= s3_env
        else:
            store = args.store or str(Path(folder) / "family-set")
        print(f"store: {store}\n")
        try:
            result = run_recipe(store, out, env, echo=True)
        finally:
            if server is not None:
                server.stop()
    first, second, family, compare = (step.seconds for step in result.steps)
    print(
        f"wall: eval-set {first:.2f} s interrupted + {second:.2f} s resumed, "
        f"gsm8k-family {family:.2f} s, gsm8k-compare {compare:.2f} s"
    )
    print(f"load average (1, 5, 15 min): {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    codes = [step.exit_code for step in result.steps]
    return (0 if codes[1:] == [0, 0, 0] and codes[0] != 0 else 1), result


def main() -> int:
    return run_arguments()[0]


if __name__ == "__main__":
    raise SystemExit(main())
