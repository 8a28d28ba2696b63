"""Wall time of a full offline ``mode=pal`` run next to ``mode=cot``, zero-latency scripted models.

    GSM8K_DATA_DIR=path/to/grade_school_math/data python -m benchmarks.pal_run_speed \
        [--limit N] [--modes cot,pal]

Both runs use the 1,319 test questions and 5-shot prompts from the same local files. The ``cot``
model answers ``ANSWER: <gold>`` at once; the ``pal`` model answers with ``def solution(): return
<gold>``, so every program runs in the sandbox (bubblewrap by default) and both runs must score
100%: the difference in wall time is the cost of running 1,319 programs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from gsm8k.task import gsm8k


def golds(data: Path) -> dict[str, str]:
    rows = [json.loads(line) for line in (data / "test.jsonl").read_text().splitlines()]
    return {r["question"].strip(): r["answer"].rsplit("####", 1)[1].strip() for r in rows}


def instant_model(answers: dict[str, str], mode: str) -> Any:
    """Answers every question correctly at once: in text for cot, as a program for pal."""

    def respond(messages: Any, tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        prompt = next(m.text for m in reversed(messages) if m.role == "user")
        question = prompt.rsplit("Question:", 1)[-1].strip()
        gold = answers[question].replace(",", "")
        text = (
            f"```python\ndef solution():\n    return {gold}\n```"
            if mode == "pal"
            else f"Done.\nANSWER: {gold}"
        )
        output = ModelOutput.from_content("instant", text)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model(f"mockllm/instant-{mode}", custom_outputs=respond, memoize=False)


def timed_eval(task: Task, model: Any, limit: int | None) -> tuple[float, float]:
    """Wall seconds and accuracy. (Not CPU time: this process's rusage does not count the
    programs inside bubblewrap's PID namespace.)"""
    started = time.perf_counter()
    [log] = inspect_eval(
        task,
        model=model,
        limit=limit,
        display="none",
        log_dir=None,
        max_connections=32,
        log_samples=False,
        score_display=False,
    )
    seconds = time.perf_counter() - started
    assert log.status == "success", log.error
    assert log.results is not None
    accuracy = log.results.scores[0].metrics["accuracy"].value
    return seconds, accuracy


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--modes", default="cot,pal", help="runs in this order, e.g. pal,cot")
    args = parser.parse_args()
    data = Path(os.environ.get("GSM8K_DATA_DIR", ""))
    if not (data / "test.jsonl").is_file():
        print("set GSM8K_DATA_DIR to a directory with test.jsonl and train.jsonl", file=sys.stderr)
        return 2
    answers = golds(data)
    samples = args.limit or len(answers)
    for mode in args.modes.split(","):
        task = gsm8k(dataset=str(data), fewshot=5, mode=mode)  # type: ignore[arg-type]
        seconds, accuracy = timed_eval(task, instant_model(answers, mode), args.limit)
        print(
            f"mode={mode}: {samples} samples in {seconds:.1f} s "
            f"({seconds / samples * 1000:.1f} ms/sample), accuracy {accuracy:.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
