"""Fingerprints of the logs that a fixed set of task configurations produce with a scripted model.

Used to show that a change which should not alter behaviour (moving modules, renaming) leaves
every log the same: run it before and after and compare the printed digests (or the JSON files).

    GSM8K_DATA_DIR=../shared/data/gsm8k python -m benchmarks.same_logs --out before.json

What is compared per configuration: the task's arguments, metadata, solver plan, scorers,
headline and generation config; per sample the messages sent, the completion, every score's
value, answer, reason, explanation and metadata (less a program's run time); the run's
metrics. Left out: what differs between any two runs (ids, times, temporary paths, versions).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput
from inspect_ai.tool import ToolInfo

from tests.scripted import mock_model

CONFIGURATIONS: dict[str, dict[str, Any]] = {
    "default": {},
    "zero-shot": {"fewshot": 0},
    "seed-7-two-shots": {"fewshot": 2, "fewshot_seed": 7},
    "system-placement": {"placement": "system"},
    "turns-placement": {"placement": "turns"},
    "calculator-annotations": {"calculator_annotations": True},
    "votes-3": {"votes": 3},
    "pal": {"mode": "pal"},
    "calculator-tool": {"tools": "calculator"},
    "python-tool": {"tools": "python"},
    "platinum": {"dataset": "gsm8k-platinum"},
    "symbolic-p2": {"dataset": "gsm-symbolic-p2"},
    "plus-mini": {"dataset": "gsm-plus-mini"},
    "mgsm-de": {"dataset": "mgsm", "language": "de"},
    "lm-eval": {"preset": "lm-eval-gsm8k"},
    "lm-eval-cot": {"preset": "lm-eval-gsm8k-cot"},
    "kojima": {"preset": "kojima-zero-shot-cot"},
    "inspect-evals": {"preset": "inspect-evals"},
}
LIMIT = 4


def reply_for(prompt: str, with_tools: bool) -> str:
    """A reply that depends only on the prompt: varied formats, right and wrong answers."""
    digest = int(hashlib.sha256(prompt.encode()).hexdigest(), 16)
    shape = digest % 5
    number = digest % 97
    if "def solution" in prompt or "solution()" in prompt:
        return f"```python\ndef solution():\n    return {number} + 1\n```"
    return [
        f"Working it out.\nANSWER: {number}",
        f"So the answer is {number}.",
        f"\\boxed{{{number}}}",
        f"The total is {number} dollars.\n#### {number}",
        "I am not sure.",
    ][shape]


def scripted() -> Any:
    def respond(messages: list[ChatMessage], tools: list[ToolInfo]) -> ModelOutput:
        prompt = "\n".join(f"{m.role}: {m.text}" for m in messages)
        return ModelOutput.from_content("scripted", reply_for(prompt, bool(tools)))

    return mock_model(respond)


def fingerprint(log: EvalLog) -> dict[str, Any]:
    """What a run did, without what differs between any two runs."""
    spec = log.eval
    samples = []
    for sample in log.samples or []:
        samples.append(
            {
                "id": sample.id,
                "epoch": sample.epoch,
                "messages": [[m.role, m.text] for m in sample.messages],
                "completion": sample.output.completion,
                "scores": {
                    name: {
                        "value": score.value,
                        "answer": score.answer,
                        "reason": getattr(score, "reason", None),
                        "explanation": score.explanation,
                        # A program's run time is a measurement, not behaviour.
                        "metadata": {
                            k: v for k, v in (score.metadata or {}).items() if k != "seconds"
                        },
                    }
                    for name, score in (sample.scores or {}).items()
                },
            }
        )
    metadata = dict(spec.metadata or {})
    return {
        "status": log.status,
        "task": spec.task,
        "task_args": spec.task_args,
        "metadata": metadata,
        "config": spec.model_generate_config.model_dump(exclude_none=True),
        "scorers": [s.name for s in (log.results.scores if log.results else [])],
        "metrics": {
            s.name: {k: v.value for k, v in s.metrics.items()}
            for s in (log.results.scores if log.results else [])
        },
        "plan": [step.solver for step in log.plan.steps],
        "samples": samples,
        "error": log.error.message if log.error else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="JSON file for the fingerprints")
    args = parser.parse_args(argv)
    if not os.environ.get("GSM8K_DATA_DIR"):
        print("same_logs: set GSM8K_DATA_DIR to a local GSM8K copy", file=sys.stderr)
        return 2
    task_file = str(Path(__file__).resolve().parent.parent / "gsm8k" / "task.py")
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as logs:
        for name, task_args in CONFIGURATIONS.items():
            log = inspect_eval(
                os.path.relpath(task_file),
                task_args=task_args,
                model=scripted(),
                limit=LIMIT,
                log_dir=logs,
                display="none",
            )[0]
            results[name] = fingerprint(log)
            digest = hashlib.sha256(
                json.dumps(results[name], sort_keys=True, default=str).encode()
            ).hexdigest()[:16]
            print(f"{name:24} {log.status:8} {len(log.samples or []):3} samples  {digest}")
    args.out.write_text(json.dumps(results, indent=1, sort_keys=True, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
