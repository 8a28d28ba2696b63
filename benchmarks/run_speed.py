"""Wall time of a full offline GSM8K run with a zero-latency scripted model, next to inspect_evals.

    GSM8K_DATA_DIR=path/to/grade_school_math/data python benchmarks/run_speed.py [--pairs 5]

Runs the 1,319 test questions through this task as shipped (the exact grader, with match's verdict
in the same scorer entry) and —
when the inspect-evals package is installed — through inspect_evals' gsm8k with its hub loader
pointed at the same local files, in one process, with the same scripted model. The two runs
alternate (A B, B A, A B, …) so that warm-up and a busy machine's drift fall on both alike; each
pair gives a ratio (this task's time over inspect_evals'), and the median ratio is reported with
the machine's load. ``--match-only`` adds this task with ``match`` alone as its scorer (the cost
of the grader's own work), and ``--two-scorers`` the grader followed by ``match(numeric=True)`` as
a scorer of its own (the layout before task version 1.4.0, which doubled Inspect's per-sample
scoring work; the grader now also computes match's verdict inside, 14 µs a sample more). CPU
seconds of the process are shown beside wall seconds: on a shared machine they move less than
wall time.

The scripted model finds the question by looking each line of the prompt up in a dictionary, so
its own cost grows with the prompt's length alone, not with the number of questions or with where
a task puts its examples.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import match

from gsm8k.grading.scorer import gsm8k_grader
from gsm8k.task import gsm8k

SAMPLES = 1319


def answers_by_question(data: Path) -> dict[str, str]:
    rows = [json.loads(line) for line in (data / "test.jsonl").read_text().splitlines()]
    return {r["question"].strip(): r["answer"].rsplit("####", 1)[1].strip() for r in rows}


def find_question(prompt: str, answers: dict[str, str]) -> str | None:
    """The question in ``prompt``: a line that is a question, or one after a ``Label:`` prefix."""
    for line in reversed(prompt.splitlines()):
        line = line.strip()
        if line in answers:
            return line
        label, _, rest = line.partition(": ")
        if rest and len(label) < 20 and rest.strip() in answers:
            return rest.strip()
    return None


def instant_model(answers: dict[str, str]) -> Any:
    """Answers every question correctly, at once, in the requested format."""

    def respond(messages: Any, tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        prompt = next(m.text for m in reversed(messages) if m.role == "user")
        question = find_question(prompt, answers)
        answer = answers[question] if question is not None else "0"
        output = ModelOutput.from_content("instant", f"Done.\nANSWER: {answer}")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model("mockllm/instant", custom_outputs=respond, memoize=False)


@dataclass(frozen=True)
class Timing:
    wall: float
    cpu: float
    accuracy: float


def timed_eval(task: Task, model: Any, limit: int | None) -> Timing:
    """One timed eval whose log goes to a scratch folder, removed after the timing, so that
    neither this script nor code importing this function writes into the user's ``logs/``."""
    with tempfile.TemporaryDirectory(prefix="gsm8k-bench-logs-") as scratch:
        # Every run starts from a collected heap: otherwise a full collection that the previous
        # run's garbage made due (about 0.35 s over this heap) lands in whichever run comes next.
        gc.collect()
        wall, cpu = time.perf_counter(), time.process_time()
        [log] = inspect_eval(
            task,
            model=model,
            limit=limit,
            display="none",
            log_dir=scratch,
            max_connections=32,
            log_samples=False,
            score_display=False,
        )
        timing = Timing(time.perf_counter() - wall, time.process_time() - cpu, _accuracy(log))
    assert log.status == "success", log.error
    return timing


def _accuracy(log: Any) -> float:
    """The headline accuracy: shows that the scripted model answered every question."""
    if not log.results or not log.results.scores:
        return float("nan")
    headline = log.results.headline
    for score in log.results.scores:
        named = headline is None or (score.scorer, score.name) == (headline.scorer, headline.score)
        if named and "accuracy" in score.metrics:
            return float(score.metrics["accuracy"].value)
    return float("nan")


def inspect_evals_task(data: Path) -> Callable[[], Task] | None:
    """inspect_evals' gsm8k reading the same local files instead of the hub, if installed."""
    import importlib

    try:
        theirs = importlib.import_module("inspect_evals.gsm8k.gsm8k")
    except ImportError:
        return None
    from inspect_ai.dataset import json_dataset

    def local_hf_dataset(
        path: str, split: str, sample_fields: Callable[..., Any], **kwargs: Any
    ) -> Any:
        dataset = json_dataset(str(data / f"{split}.jsonl"), sample_fields=sample_fields)
        if kwargs.get("shuffle"):
            dataset.shuffle(seed=kwargs.get("seed"))
        limit = kwargs.get("limit")
        return dataset[:limit] if limit else dataset

    theirs.hf_dataset = local_hf_dataset  # type: ignore[attr-defined]
    return theirs.gsm8k  # type: ignore[no-any-return]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="samples (default: all 1,319)")
    parser.add_argument("--pairs", type=int, default=5, help="alternating pairs of runs")
    parser.add_argument("--match-only", action="store_true", help="also time match alone")
    parser.add_argument(
        "--two-scorers",
        action="store_true",
        help="also time the grader and match(numeric=True) as two scorers (before 1.4.0)",
    )
    args = parser.parse_args()
    data = Path(os.environ.get("GSM8K_DATA_DIR", ""))
    if not (data / "test.jsonl").is_file():
        print("set GSM8K_DATA_DIR to a directory with test.jsonl and train.jsonl", file=sys.stderr)
        return 2
    model = instant_model(answers_by_question(data))
    started = time.perf_counter()
    gsm8k(dataset=str(data), fewshot=5)
    build = time.perf_counter() - started
    first = timed_eval(gsm8k(dataset=str(data), fewshot=5), model, 1)
    print(
        f"task build from local files: {build:.2f} s; build + eval of the first sample: "
        f"{build + first.wall:.2f} s"
    )

    ours_name = "inspect-gsm8k (gsm8k_grader with match)"
    runs: dict[str, Callable[[], Task]] = {ours_name: lambda: gsm8k(dataset=str(data), fewshot=5)}
    theirs = inspect_evals_task(data)
    theirs_name = "inspect_evals gsm8k (match, same files)"
    if theirs is not None:
        runs[theirs_name] = theirs
    else:
        print("(inspect-evals not installed: no comparison)")
    if args.match_only:

        def match_only() -> Task:
            task = gsm8k(dataset=str(data), fewshot=5)
            return Task(dataset=task.dataset, solver=task.solver, scorer=match(numeric=True))

        runs["inspect-gsm8k, match only"] = match_only
    if args.two_scorers:

        def two_scorers() -> Task:
            task = gsm8k(dataset=str(data), fewshot=5)
            return Task(
                dataset=task.dataset,
                solver=task.solver,
                scorer=[gsm8k_grader(), match(numeric=True)],
                headline_metric="gsm8k_grader.accuracy",
            )

        runs["inspect-gsm8k, grader and match as two scorers"] = two_scorers
    timings: dict[str, list[Timing]] = {name: [] for name in runs}
    names = list(runs)
    for pair in range(args.pairs):
        order = names if pair % 2 == 0 else list(reversed(names))
        for name in order:
            task = runs[name]()
            timings[name].append(timed_eval(task, model, args.limit))
        summary = ", ".join(f"{name[:24]}: {timings[name][-1].wall:.2f} s" for name in order)
        print(f"pair {pair + 1} ({summary}); load {os.getloadavg()[0]:.1f}", flush=True)

    samples = args.limit or SAMPLES
    for name, runs_of_name in timings.items():
        wall = statistics.median(t.wall for t in runs_of_name)
        cpu = statistics.median(t.cpu for t in runs_of_name)
        accuracy = runs_of_name[0].accuracy
        print(
            f"{name}: {samples} samples, median {wall:.2f} s wall ({wall / samples * 1000:.2f} "
            f"ms/sample), {cpu:.2f} s CPU, accuracy {accuracy:.3f}"
        )
    if theirs is not None:
        pairs = list(zip(timings[ours_name], timings[theirs_name], strict=True))
        ratios = [a.wall / b.wall for a, b in pairs]
        cpu_ratios = [a.cpu / b.cpu for a, b in pairs]
        print(
            f"ratio inspect-gsm8k / inspect_evals: median {statistics.median(ratios):.3f} wall "
            f"(pairs: {', '.join(f'{r:.3f}' for r in ratios)}), "
            f"{statistics.median(cpu_ratios):.3f} CPU (pairs: "
            f"{', '.join(f'{r:.3f}' for r in cpu_ratios)})"
        )
    print(f"load average (1, 5, 15 min): {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    # The runs' logs are scratch (children inherit the variable): kept out of the user's logs/.
    with tempfile.TemporaryDirectory(prefix="gsm8k-bench-logs-") as scratch:
        os.environ["INSPECT_LOG_DIR"] = scratch
        raise SystemExit(main())
