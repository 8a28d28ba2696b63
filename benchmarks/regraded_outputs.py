"""Published GSM8K outputs of real models, re-graded: the README's "Re-graded published outputs".

    pip install -e '.[bench]'     # lm-eval, for its flexible-extract column
    python -m benchmarks.regraded_outputs [COMPLETIONS_DIR]

Reads the labelled completions (the directory given, else ``$GSM8K_COMPLETIONS_DIR``, else
``../shared/data/completions``; rows ``{"id", "model", "test_index", "target", "completion",
"label"}``, see :mod:`benchmarks.grading_agreement`) and prints a markdown table: per model, the
accuracy its source published (where it did), the source's own verdicts on these rows (the
``label``), Inspect's ``match(numeric=True)``, lm-eval's ``gsm8k`` flexible-extract and this
project's grader, each with its 95% Wilson interval, and this grader's paired difference from the
two peers with its 95% paired interval. The peers run through their own code
(:mod:`benchmarks.peer_graders`); the statistics are ``gsm8k-compare``'s. Questions are passed to
this grader when the GSM8K test file is found (``$GSM8K_DATA_DIR``, or ``../gsm8k/`` beside the
completions).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.grading_agreement import run_grader
from benchmarks.labelled_completions import Row, default_completions, load_completions
from benchmarks.peer_graders import inspect_match, lm_eval_flexible_extract
from gsm8k.compare.stats import paired_interval, wilson_interval
from gsm8k.data.bundled import DATA_DIR_ENV
from gsm8k.grading.verdict import grade

COMPLETIONS_ENV = "GSM8K_COMPLETIONS_DIR"

SOURCES = {
    "grade-school-math-gpt3": "openai/grade-school-math (MIT)",
    "tora": "microsoft/ToRA (MIT)",
    "zeroeval": "yuchenlin/ZeroEval (Apache-2.0)",
}
"""Where each completions file's outputs were published, and under which license (the files:
``example_model_solutions.jsonl``; ``src/outputs/llm-agents/*/gsm8k/``; ``result_dirs/gsm/``)."""

REPORTED: dict[str, tuple[float, str]] = {
    # microsoft/ToRA README, model table (GSM8k column), greedy, all 1,319 questions.
    "llm-agents/tora-70b-v1.0": (84.3, "ToRA README"),
    "llm-agents/tora-code-34b-v1.0": (80.7, "ToRA README"),
    # yuchenlin/ZeroEval result_dirs/gsm.summary.md ("Acc", greedy, 1,319 questions), read at
    # commit 028b70ca.
    "openai/gpt-4o-2024-08-06": (96.21, "ZeroEval summary"),
    "anthropic/claude-3-5-sonnet-20240620": (95.6, "ZeroEval summary"),
    "google/gemini-1.5-pro": (93.4, "ZeroEval summary"),
    "meta-llama/Meta-Llama-3.1-8B-Instruct": (84.0, "ZeroEval summary"),
    "Qwen/Qwen2-7B-Instruct": (80.06, "ZeroEval summary"),
    "mistralai/Mixtral-8x7B-Instruct-v0.1": (70.13, "ZeroEval summary"),
    "google/gemma-2-2b-it": (51.63, "ZeroEval summary"),
}
"""Accuracy each source published for the model, in percent, and where. Cobbe et al. (2021)
give the GPT-3 figures only as plots, so those rows have none."""


@dataclass(frozen=True)
class ModelResult:
    model: str
    source: str
    rows: int
    labels: list[bool]
    match: list[bool]
    flexible: list[bool]
    ours: list[bool]


def completions_dir(argument: str | None) -> Path:
    """The folder given, else ``$GSM8K_COMPLETIONS_DIR``, else the shared default."""
    chosen = argument or os.environ.get(COMPLETIONS_ENV)
    return Path(chosen) if chosen else default_completions()


def questions_beside(directory: Path) -> list[str] | None:
    """The GSM8K test questions by index: ``$GSM8K_DATA_DIR/test.jsonl``, else
    ``../gsm8k/test.jsonl`` beside the rows; ``None`` when neither exists."""
    data_dir = os.environ.get(DATA_DIR_ENV)
    candidates = [Path(data_dir)] if data_dir else []
    for folder in [*candidates, directory.parent / "gsm8k"]:
        path = folder / "test.jsonl"
        if path.exists():
            return [json.loads(line)["question"] for line in path.read_text("utf-8").splitlines()]
    return None


def our_verdicts(rows: Sequence[Row], questions: list[str] | None) -> list[bool]:
    def question(row: Row) -> str | None:
        index = row.get("test_index")
        return questions[index] if questions and isinstance(index, int) else None

    return [grade(r["completion"], r["target"], question(r)).correct for r in rows]


def regrade(rows: Sequence[Row], questions: list[str] | None) -> list[ModelResult]:
    """Every model's verdicts by the source, the two peers and this grader, in file order."""
    match = run_grader("match(numeric=True)", inspect_match(), rows).accepted
    flexible = run_grader("lm-eval flexible-extract", lm_eval_flexible_extract(), rows).accepted
    ours = our_verdicts(rows, questions)
    groups: dict[tuple[str, str], list[int]] = {}
    for index, row in enumerate(rows):
        groups.setdefault((row["source"], row["model"]), []).append(index)
    return [
        ModelResult(
            model=model,
            source=source,
            rows=len(indices),
            labels=[rows[i]["label"] for i in indices],
            match=[match[i] for i in indices],
            flexible=[flexible[i] for i in indices],
            ours=[ours[i] for i in indices],
        )
        for (source, model), indices in groups.items()
    ]


def accuracy(verdicts: list[bool]) -> str:
    low, high = wilson_interval(sum(verdicts), len(verdicts))
    return f"{sum(verdicts) / len(verdicts):.1%} ({low:.1%}–{high:.1%})".replace("%", "")


def difference(ours: list[bool], peer: list[bool]) -> str:
    value, low, high = paired_interval([float(x) for x in ours], [float(x) for x in peer])
    return f"{value * 100:+.1f} ({low * 100:+.1f}, {high * 100:+.1f})"


def short_name(model: str) -> str:
    return model.split(" (")[0].rsplit("/", 1)[-1]


HEADER = (
    "| model | rows | published | source's verdicts | match(numeric=True) "
    "| lm-eval flexible-extract | gsm8k_grader | grader − flexible | grader − match |\n"
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|"
)


def table(results: Sequence[ModelResult]) -> str:
    """The markdown table: accuracy in percent with 95% intervals; differences in points."""
    lines = [HEADER]
    for result in results:
        published = REPORTED.get(result.model)
        lines.append(
            f"| {short_name(result.model)} "
            f"| {result.rows:,} | {f'{published[0]:g}' if published else '—'} "
            f"| {accuracy(result.labels)} | {accuracy(result.match)} "
            f"| {accuracy(result.flexible)} | **{accuracy(result.ours)}** "
            f"| {difference(result.ours, result.flexible)} "
            f"| {difference(result.ours, result.match)} |"
        )
    sources = dict.fromkeys(SOURCES.get(r.source, r.source) for r in results)
    lines += ["", f"Outputs published by {'; '.join(sources)}."]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "completions", nargs="?", help=f"labelled completions folder (default: ${COMPLETIONS_ENV})"
    )
    args = parser.parse_args(argv)
    directory = completions_dir(args.completions)
    try:
        rows = load_completions(directory)
    except (OSError, ValueError) as error:
        print(
            f"regraded_outputs: {error}; set {COMPLETIONS_ENV} or pass the folder", file=sys.stderr
        )
        return 2
    print(table(regrade(rows, questions_beside(directory))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
