"""Rebuild the re-grading test fixtures with the real lm-evaluation-harness and inspect_evals.

    python3 -m venv /work/venv-bench && /work/venv-bench/bin/pip install -e '.[bench,dev]'
    GSM8K_DATA_DIR=../shared/data/gsm8k /work/venv-bench/bin/python -m benchmarks.regrade_fixtures

Both harnesses answer the first :data:`ROWS` GSM8K test questions with the same scripted model, so
the files differ only in how each harness records and grades them (and in the one completion cut
off at the token limit, which only Inspect records as such):

- lm-eval 0.4.13: its own ``gsm8k`` task (filters, metric, prompt), with the dataset read from the
  local ``test.jsonl`` instead of the hub (the only change to its configuration), zero-shot,
  through ``local-chat-completions`` against :mod:`benchmarks.scripted_server` on 127.0.0.1,
  with ``--log_samples``. Written to ``tests/fixtures/regrade/lm_eval/``.
- inspect_evals 0.26.0: its ``gsm8k`` task with ``fewshot=0``, the dataset read from the same local
  file through the task's own ``record_to_sample`` (its ``hf_dataset`` is replaced by a local
  ``json_dataset``), and ``mockllm/model`` answering with the scripted completions. Written to
  ``tests/fixtures/regrade/inspect_evals/``.

Nothing in the files is edited afterwards.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

from benchmarks.scripted_server import ScriptedServer

FIXTURES = Path(__file__).parents[1] / "tests" / "fixtures" / "regrade"
ROWS = 7
LM_EVAL_TASK = "gsm8k_local"

SCRIPTED: dict[int, str] = {
    # An answer line, then chatter with a number in it: last-number graders read the 2.
    0: "She has 16 - 3 - 4 = 9 eggs left to sell.\n9 * 2 = 18\nANSWER: 18\n\n"
    "Let me know if you have 2 more questions!",
    1: "White fiber: 2 / 2 = 1 bolt.\nTotal: 2 + 1 = 3 bolts.\n#### 3",
    2: "After repairs the house is worth 80,000 * 2.5 = $200,000.\n"
    "He spent 80,000 + 50,000 = $130,000, so the profit is 200,000 - 130,000 = 70,000.\n"
    "ANSWER: $70,000",
    # A boxed answer: match(numeric=True) does not read it.
    3: "He runs 3 * 3 = 9 sprints a week, and 9 * 60 = 540 meters.\n\\boxed{540}",
    # A wrong answer whose last number happens to be the gold.
    4: "The first two meals use 15 + 25 = 40 cups. All 20 chickens need 20 * 3 = 60 cups a day.\n"
    "ANSWER: 60 cups for all 20 chickens",
    5: "16 glasses at $5 each cost 16 * 5 = 80.\nANSWER: 80",
    # Cut off at the token limit while still checking (in the Inspect log only: lm-eval records
    # no finish reason): its last number is no delivered answer.
    6: "Seattle has 20 sheep, Charleston 4 * 20 = 80 and Toulouse 2 * 80 = 160.\n"
    "Together: 20 + 80 + 160 = 260, but let me check whether Toulouse",
}
TRUNCATED = frozenset({6})
"""Questions whose scripted completion stopped at the token limit (``stop_reason`` max_tokens)."""


def test_records(data_dir: Path) -> list[dict[str, Any]]:
    lines = (data_dir / "test.jsonl").read_text(encoding="utf-8").splitlines()[:ROWS]
    return [json.loads(line) for line in lines]


def question_index(records: list[dict[str, Any]], prompt: str) -> int:
    """Which question the prompt asks (the last one in it)."""
    position, index = max((prompt.rfind(r["question"]), i) for i, r in enumerate(records))
    if position < 0:
        raise ValueError(f"no known question in the prompt: {prompt[:200]!r}")
    return index


def reply_for(records: list[dict[str, Any]], prompt: str) -> str:
    """The scripted completion of the question the prompt asks."""
    return SCRIPTED[question_index(records, prompt)]


def lm_eval_task(work: Path, data_file: Path) -> Path:
    """lm-eval's own ``gsm8k.yaml`` with only the dataset moved to a local file."""
    import yaml

    text = resources.files("lm_eval").joinpath("tasks/gsm8k/gsm8k.yaml").read_text()
    config = yaml.safe_load(text)
    config.pop("tag", None)
    config["task"] = LM_EVAL_TASK
    config["dataset_path"] = "json"
    config.pop("dataset_name", None)
    config["dataset_kwargs"] = {"data_files": {"test": str(data_file), "train": str(data_file)}}
    folder = work / "tasks"
    folder.mkdir()
    (folder / f"{LM_EVAL_TASK}.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return folder


def build_lm_eval(records: list[dict[str, Any]], data_file: Path, work: Path) -> Path:
    tasks = lm_eval_task(work, data_file)
    out = work / "lm_eval_out"
    with ScriptedServer(lambda _model, prompt: reply_for(records, prompt)) as server:
        command = [
            str(Path(sys.executable).parent / "lm_eval"),
            "--model", "local-chat-completions",
            "--model_args",
            f"base_url={server.base_url}/chat/completions,model=scripted-model,"
            "num_concurrent=1,max_retries=1,tokenized_requests=False",
            "--tasks", LM_EVAL_TASK,
            "--include_path", str(tasks),
            "--apply_chat_template",
            "--num_fewshot", "0",
            "--log_samples",
            "--output_path", str(out),
        ]  # fmt: skip
        environment = os.environ | {"HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
        subprocess.run(command, check=True, env=environment, cwd=work)
    (samples,) = out.rglob(f"samples_{LM_EVAL_TASK}_*.jsonl")
    target = FIXTURES / "lm_eval"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    shutil.copy(samples, target / samples.name)
    (results,) = out.rglob("results_*.json")  # the headline lm-eval reported for the same run
    shutil.copy(results, target / results.name)
    return target / samples.name


def build_inspect_evals(records: list[dict[str, Any]], data_file: Path, work: Path) -> Path:
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Dataset, json_dataset
    from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

    def local_dataset(*_args: Any, **kwargs: Any) -> Dataset:
        return json_dataset(
            str(data_file),
            sample_fields=kwargs["sample_fields"],
            shuffle=kwargs.get("shuffle", False),
            seed=kwargs.get("seed"),
            limit=kwargs.get("limit"),
        )

    def answer(messages: list[ChatMessage], *_rest: Any) -> ModelOutput:
        index = question_index(records, messages[-1].text)
        stop = "max_tokens" if index in TRUNCATED else "stop"
        output = ModelOutput.from_content("mockllm/model", SCRIPTED[index], stop_reason=stop)
        # With usage given, mockllm counts no tokens itself (that would need a download).
        output.usage = ModelUsage(input_tokens=100, output_tokens=20, total_tokens=120)
        return output

    module: Any = importlib.import_module("inspect_evals.gsm8k.gsm8k")
    module.hf_dataset = local_dataset  # the only change: data from the local file
    model = get_model("mockllm/model", custom_outputs=answer)
    logs = work / "inspect_logs"
    (log,) = inspect_eval(
        module.gsm8k(fewshot=0), model=model, log_dir=str(logs), log_format="eval",
        display="none", max_samples=1,
    )  # fmt: skip
    if log.status != "success":
        raise RuntimeError(f"inspect_evals run ended {log.status}: {log.error}")
    (written,) = logs.glob("*.eval")
    target = FIXTURES / "inspect_evals"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    shutil.copy(written, target / "gsm8k_inspect_evals.eval")
    return target / "gsm8k_inspect_evals.eval"


def main() -> int:
    data_dir = Path(os.environ.get("GSM8K_DATA_DIR", "../shared/data/gsm8k"))
    records = test_records(data_dir)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        data_file = work / "test.jsonl"
        data_file.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        print(build_lm_eval(records, data_file, work))
        print(build_inspect_evals(records, data_file, work))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
