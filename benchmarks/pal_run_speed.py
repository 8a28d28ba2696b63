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
from pathlib import Path
from typing import Any

from inspect_ai.model import ModelOutput, ModelUsage, get_model

from benchmarks.run_speed import timed_eval
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
        # Wall time, not CPU: this process's rusage does not count the programs inside
        # bubblewrap's PID namespace.
        timing = timed_eval(task, instant_model(answers, mode), args.limit)
        seconds, accuracy = timing.wall, timing.accuracy
        print(
            f"mode={mode}: {samples} samples in {seconds:.1f} s "
            f"({seconds / samples * 1000:.1f} ms/sample), accuracy {accuracy:.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
