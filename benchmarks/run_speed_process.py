"""A full offline GSM8K run next to inspect_evals', one fresh process per run.

    GSM8K_DATA_DIR=path/to/data python -m benchmarks.run_speed_process [--pairs 10]

The second way of measuring what ``run_speed.py`` measures, closer to how a user runs an eval:
each run is its own Python process (no heap, caches or warm imports shared between runs), and
what is timed is one call of ``inspect_ai.eval()`` on the task function, so building the task
(reading and checking the data, choosing the examples) is inside the timing. Both tasks run the
1,319 test questions with ten examples (``fewshot=10``, inspect_evals' default), the scripted
zero-latency model of ``run_speed.py`` (it finds each question in the prompt and answers its gold),
``max_connections=50``, ``display="none"`` and Inspect's defaults otherwise: samples are logged,
in the default ``.eval`` format, to a scratch folder that is removed afterwards, and the running
metrics are computed as a run goes (``score_display``, on unless ``--no-score-display``).

This task reads its default source (``$GSM8K_DATA_DIR`` when set); inspect_evals' hub loader is
pointed at the same folder's files. Runs alternate (A B, B A, …); each pair gives a ratio (this
task's time over inspect_evals'), reported with its median, its spread and the load average
before each run. CPU seconds of the timed call are reported beside wall seconds: on a shared
machine they move less. ``--breakdown`` also reports, per run, the seconds spent in Inspect's
``eval_results`` (the running metrics and the final ones) and in full garbage collections.
``--profile DIR`` runs each side once under cProfile and writes ``DIR/<side>.prof`` (cProfile
slows a run several times over; read its shares, not its seconds).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

OURS = "inspect-gsm8k"
THEIRS = "inspect_evals"
FEWSHOT = 10
MAX_CONNECTIONS = 50


@dataclass(frozen=True)
class Options:
    limit: int | None = None
    score_display: bool = True
    breakdown: bool = False


def data_folder() -> Path | None:
    """The folder with ``test.jsonl`` and ``train.jsonl`` that both tasks read."""
    folder = Path(os.environ.get("GSM8K_DATA_DIR", ""))
    return folder if (folder / "test.jsonl").is_file() else None


class Breakdown:
    """Seconds (wall and CPU) inside Inspect's ``eval_results`` and in full collections."""

    def __init__(self) -> None:
        self.results_calls = 0
        self.results_wall = 0.0
        self.results_cpu = 0.0
        self.full_collections = 0
        self.collection_wall = 0.0
        self._collection_started = 0.0

    def install(self) -> None:
        import inspect_ai._eval.task.run as task_run

        original = task_run.eval_results  # type: ignore[attr-defined]

        def timed(*args: Any, **kwargs: Any) -> Any:
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                self.results_calls += 1
                self.results_wall += time.perf_counter() - wall
                self.results_cpu += time.process_time() - cpu

        task_run.eval_results = timed  # type: ignore[attr-defined]
        gc.callbacks.append(self._on_collection)

    def _on_collection(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._collection_started = time.perf_counter()
        else:
            self.full_collections += 1
            self.collection_wall += time.perf_counter() - self._collection_started


def one_run(side: str, options: Options, profile: Path | None) -> dict[str, Any]:
    """Time one ``inspect_ai.eval()`` call in this process; imports are done before the clock."""
    from inspect_ai import eval as inspect_eval

    from benchmarks.run_speed import answers_by_question, inspect_evals_task, instant_model
    from gsm8k.task import gsm8k

    data = data_folder()
    assert data is not None
    task: Callable[..., Any] | None = gsm8k if side == OURS else inspect_evals_task(data)
    if task is None:
        raise SystemExit("inspect-evals is not installed: pip install -e '.[bench]'")
    model = instant_model(answers_by_question(data))
    breakdown = Breakdown()
    if options.breakdown:
        breakdown.install()
    with tempfile.TemporaryDirectory(prefix="gsm8k-bench-logs-") as scratch:
        profiler = cProfile.Profile() if profile is not None else None
        wall, cpu = time.perf_counter(), time.process_time()
        if profiler is not None:
            profiler.enable()
        [log] = inspect_eval(
            task,
            task_args={"fewshot": FEWSHOT},
            model=model,
            limit=options.limit,
            display="none",
            log_dir=scratch,
            max_connections=MAX_CONNECTIONS,
            score_display=None if options.score_display else False,
        )
        if profiler is not None:
            profiler.disable()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        if profiler is not None and profile is not None:
            profiler.dump_stats(str(profile))
        log_bytes = sum(path.stat().st_size for path in Path(scratch).rglob("*") if path.is_file())
    if log.status != "success":
        raise SystemExit(f"{side}: the run ended {log.status}: {log.error}")
    from benchmarks.run_speed import _accuracy

    return {
        "wall": wall,
        "cpu": cpu,
        "accuracy": _accuracy(log),
        "samples": log.results.completed_samples if log.results else 0,
        "log_bytes": log_bytes,
        **({"breakdown": vars(breakdown)} if options.breakdown else {}),
    }


def run_in_child(side: str, options: Options, profile: Path | None = None) -> dict[str, Any]:
    """One run in a fresh interpreter; its figures come back as one JSON line."""
    command = [sys.executable, "-m", "benchmarks.run_speed_process", "--child", side]
    command += ["--child-options", json.dumps(asdict(options))]
    if profile is not None:
        command += ["--profile-file", str(profile)]
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=root)
    if done.returncode != 0:
        raise SystemExit(f"{side} run failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def spread(values: list[float]) -> str:
    """Median, quartiles and range of a list, for the report."""
    ordered = sorted(values)
    quartiles = statistics.quantiles(ordered, n=4) if len(ordered) > 1 else [ordered[0]] * 3
    return (
        f"median {statistics.median(ordered):.3f}, quartiles {quartiles[0]:.3f}–"
        f"{quartiles[2]:.3f}, range {ordered[0]:.3f}–{ordered[-1]:.3f}"
    )


def describe(result: dict[str, Any]) -> str:
    text = f"{result['wall']:.2f} s ({result['cpu']:.2f} CPU)"
    if "breakdown" in result:
        part = result["breakdown"]
        text += (
            f" [eval_results {part['results_calls']}x {part['results_wall']:.2f} s "
            f"({part['results_cpu']:.2f} CPU), {part['full_collections']} full gc "
            f"{part['collection_wall']:.2f} s]"
        )
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=10, help="alternating pairs of runs")
    parser.add_argument("--limit", type=int, default=None, help="samples (default: all 1,319)")
    parser.add_argument(
        "--no-score-display",
        action="store_true",
        help="score_display=False: no running metrics (as run_speed.py runs)",
    )
    parser.add_argument(
        "--breakdown", action="store_true", help="time eval_results and full gc per run"
    )
    parser.add_argument("--profile", type=Path, default=None, help="write cProfile files here")
    parser.add_argument("--child", choices=[OURS, THEIRS], help=argparse.SUPPRESS)
    parser.add_argument("--child-options", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--profile-file", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if data_folder() is None:
        print("set GSM8K_DATA_DIR to a directory with test.jsonl and train.jsonl", file=sys.stderr)
        return 2
    if args.child:
        options = Options(**json.loads(args.child_options or "{}"))
        print(json.dumps(one_run(args.child, options, args.profile_file)))
        return 0
    options = Options(args.limit, not args.no_score_display, args.breakdown)
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
        for side in (OURS, THEIRS):
            result = run_in_child(side, options, args.profile / f"{side}.prof")
            print(f"profiled {side}: {result['wall']:.2f} s wall under cProfile")
        return 0

    runs: dict[str, list[dict[str, Any]]] = {OURS: [], THEIRS: []}
    loads: list[float] = []
    for pair in range(args.pairs):
        order = [OURS, THEIRS] if pair % 2 == 0 else [THEIRS, OURS]
        for side in order:
            loads.append(os.getloadavg()[0])
            runs[side].append(run_in_child(side, options))
        ours, theirs = runs[OURS][-1], runs[THEIRS][-1]
        print(
            f"pair {pair + 1}: {OURS} {describe(ours)}, {THEIRS} {describe(theirs)}, ratio "
            f"{ours['wall'] / theirs['wall']:.3f} wall, {ours['cpu'] / theirs['cpu']:.3f} CPU; "
            f"load {loads[-2]:.1f}, {loads[-1]:.1f}",
            flush=True,
        )
    for side, results in runs.items():
        first = results[0]
        print(
            f"{side}: {first['samples']} samples, accuracy {first['accuracy']:.3f}, log "
            f"{first['log_bytes'] / 1e6:.2f} MB; wall s {spread([r['wall'] for r in results])}; "
            f"CPU s {spread([r['cpu'] for r in results])}"
        )
    pairs = list(zip(runs[OURS], runs[THEIRS], strict=True))
    wall_ratios = [a["wall"] / b["wall"] for a, b in pairs]
    cpu_ratios = [a["cpu"] / b["cpu"] for a, b in pairs]
    print(f"ratio {OURS} / {THEIRS}, {len(pairs)} pairs:")
    print(f"  wall: {spread(wall_ratios)} ({', '.join(f'{r:.3f}' for r in wall_ratios)})")
    print(f"  CPU:  {spread(cpu_ratios)} ({', '.join(f'{r:.3f}' for r in cpu_ratios)})")
    print(
        f"load average before each run: {spread(loads)}; now (1, 5, 15 min) "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
