"""How often each grader disagrees with the truth on labelled real completions.

    pip install -e '.[bench]'                 # lm-eval and Math-Verify, for their rows
    python -m benchmarks.grading_agreement --completions ../shared/data/completions
    python -m benchmarks.grading_agreement --hand  # the hand-written corpus, by answer style

By default the rows are ``../shared/data/completions`` and the reasoning-model completions that
``build_reasoning_completions.py`` rebuilds into ``benchmarks/data/reasoning/.cache`` from the
crosslingual-s1 outputs (s1.1 models on MGSM; not shipped, see that folder's README);
:mod:`benchmarks.labelled_completions` reads them and their label audit. This project's grader is
given each row's question, as the task's scorer is: a row's own ``question``, else the GSM8K test
question at ``test_index`` (the MGSM question in the row's ``language`` for the reasoning set), read
from ``$GSM8K_DATA_DIR`` or ``../shared/data``; without them it grades without questions. Figures
are given against the audited labels and, for comparison, the raw ones. For each grader, per source
and per model: misgraded (the verdict differs from the label), false accepts (accepted, label
false), false rejects (rejected, label true) and errors (the grader raised; counted as a rejection,
as a scorer that fails gives no credit), and the grader's speed.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.labelled_completions import (
    CORRECTIONS,
    DATA,
    Row,
    attach_questions,
    audited_labels,
    default_completions,
    load_completions,
    load_corrections,
    reasoning_completions,
    unfinished,
)
from benchmarks.peer_graders import GRADERS, Grader, inspect_match
from gsm8k.grading.verdict import extract_and_compare, grade_completion


@dataclass(frozen=True)
class Verdicts:
    """One grader's verdicts on every row: accepted, and whether grading raised."""

    grader: str
    accepted: list[bool]
    errors: list[bool]
    seconds: float
    cpu_seconds: float = 0.0


def run_grader(name: str, grader: Grader, rows: Sequence[Row]) -> Verdicts:
    accepted, errors = [], []
    started, cpu_started = time.perf_counter(), time.process_time()
    for row in rows:
        try:
            # This project's grader is given the question, as the task's scorer gives it.
            ours = name == OURS
            verdict = our_verdict(row) if ours else grader(row["completion"], row["target"])
            error = False
        except Exception:  # any failure of a peer's code is an error row, never a stopped run
            verdict, error = False, True
        accepted.append(verdict)
        errors.append(error)
    return Verdicts(
        name, accepted, errors, time.perf_counter() - started, time.process_time() - cpu_started
    )


OURS = "gsm8k_grader"


def our_verdict(row: Row) -> bool:
    """This project's grader on a row that may carry ``truncated`` and ``question``."""
    return grade_completion(
        row["completion"],
        row["target"],
        truncated=bool(row.get("truncated")),
        question=row.get("question"),
    ).correct


def grader_verdicts(rows: Sequence[Row]) -> list[bool]:
    """This project's grader on rows that may carry ``truncated`` and ``question``."""
    return [our_verdict(row) for row in rows]


def match_verdicts(rows: Sequence[Row]) -> list[bool]:
    return run_grader("match(numeric=True)", inspect_match(), rows).accepted


@dataclass(frozen=True)
class Tally:
    rows: int
    false_accepts: int
    false_rejects: int
    errors: int

    @property
    def misgraded(self) -> int:
        return self.false_accepts + self.false_rejects

    def cell(self) -> str:
        rate = self.misgraded / self.rows if self.rows else 0.0
        errors = f", {self.errors} err" if self.errors else ""
        return f"{rate:.2%} ({self.false_accepts} / {self.false_rejects}{errors})"


def tally(verdicts: Verdicts, labels: Sequence[bool], indices: Iterable[int]) -> Tally:
    indices = list(indices)
    return Tally(
        rows=len(indices),
        false_accepts=sum(verdicts.accepted[i] and not labels[i] for i in indices),
        false_rejects=sum(not verdicts.accepted[i] and labels[i] for i in indices),
        errors=sum(verdicts.errors[i] for i in indices),
    )


def table(
    rows: Sequence[Row],
    results: Sequence[Verdicts],
    labels: Sequence[bool],
    key: Callable[[Row], str],
    heading: str,
) -> str:
    """A markdown table: one line per group and a total line; cells are misgraded (FA / FR)."""
    groups: dict[str, list[int]] = defaultdict(list)
    for index, row in enumerate(rows):
        groups[key(row)].append(index)
    lines = [
        f"| {heading} | rows | " + " | ".join(r.grader for r in results) + " |",
        "|---|---:|" + "---:|" * len(results),
    ]
    for group, indices in groups.items():  # in the order rows come: by source, then model
        cells = [tally(r, labels, indices).cell() for r in results]
        lines.append(f"| {group} | {len(indices)} | " + " | ".join(cells) + " |")
    everything = range(len(rows))
    cells = [f"**{tally(r, labels, everything).cell()}**" for r in results]
    lines.append(f"| **all** | {len(rows)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def short_model(row: Row) -> str:
    """``GPT-3 175b_verification`` for ``GPT-3 175b_verification (OpenAI, …)``; no organisation."""
    return re.sub(r"\s*\(.*\)$", "", str(row["model"])).rsplit("/", 1)[-1]


def worse_than_match(
    rows: Sequence[Row], ours: Verdicts, match: Verdicts, labels: Sequence[bool]
) -> list[str]:
    """Models on which this project's grader misgrades more completions than ``match``."""
    by_model: dict[str, list[int]] = defaultdict(list)
    for index, row in enumerate(rows):
        by_model[short_model(row)].append(index)
    return [
        f"{model}: {tally(ours, labels, i).misgraded} vs {tally(match, labels, i).misgraded}"
        for model, i in sorted(by_model.items())
        if tally(ours, labels, i).misgraded > tally(match, labels, i).misgraded
    ]


def cli_seconds(rows: Sequence[Row]) -> tuple[float, float]:
    """Wall and CPU time of ``gsm8k-grade`` on all rows as one file, interpreter start included."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "completions.jsonl"
        path.write_text(
            "".join(
                json.dumps(
                    {
                        "id": r["id"],
                        "completion": r["completion"],
                        "target": r["target"],
                        "question": r.get("question"),
                    }
                )
                + "\n"
                for r in rows
            ),
            encoding="utf-8",
        )
        started, cpu_started = time.perf_counter(), _children_cpu()
        result = subprocess.run(
            [sys.executable, "-m", "gsm8k.grading.cli", str(path)],
            capture_output=True,
            text=True,
            check=True,
        )
        elapsed, cpu = time.perf_counter() - started, _children_cpu() - cpu_started
    if len(result.stdout.splitlines()) != len(rows):
        raise RuntimeError(f"gsm8k-grade wrote {len(result.stdout.splitlines())} lines")
    return elapsed, cpu


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def our_misgrades(rows: Sequence[Row], labels: Sequence[bool]) -> list[Row]:
    """This project's misgrades against the audited labels, with what the grader read."""
    misgrades = []
    for row, label in zip(rows, labels, strict=True):
        extraction, correct = extract_and_compare(
            row["completion"], row["target"], question=row.get("question")
        )
        if correct != label:
            misgrades.append(
                {
                    "id": row["id"],
                    "source": row["source"],
                    "model": row["model"],
                    "target": row["target"],
                    "label": label,
                    "answer": extraction.answer,
                    "rule": extraction.rule,
                    "text": extraction.text,
                    "completion": row["completion"],
                }
            )
    return misgrades


def write_verdicts(
    path: Path, rows: Sequence[Row], corrections: dict[str, Row], results: Sequence[Verdicts]
) -> None:
    """One line per row: id, source, model, raw and audited label, each grader's verdict."""
    audited = audited_labels(rows, corrections)
    with path.open("w", encoding="utf-8") as out:
        for index, row in enumerate(rows):
            verdicts = {
                r.grader: "error" if r.errors[index] else r.accepted[index] for r in results
            }
            line = {
                "id": row["id"],
                "source": row["source"],
                "model": row["model"],
                "label": row["label"],
                "audited": audited[index],
                "verdicts": verdicts,
            }
            out.write(json.dumps(line) + "\n")


def report(
    rows: Sequence[Row],
    corrections: dict[str, Row],
    results: Sequence[Verdicts],
    cli: tuple[float, float] | None,
) -> str:
    audited = audited_labels(rows, corrections)
    raw = [row["label"] for row in rows]
    lines = [
        f"{len(rows)} labelled completions, {sum(audited)} correct by the audited labels "
        f"({len(corrections)} labels corrected in {CORRECTIONS.name}).",
        "Cells: misgraded share (false accepts / false rejects[, errors]).",
        "",
        "Against the audited labels, by source:",
        "",
        table(rows, results, audited, lambda r: r["source"], "source"),
        "",
        "Against the audited labels, by model:",
        "",
        table(rows, results, audited, lambda r: f"{r['source']}: {short_model(r)}", "model"),
        "",
        "Against the raw labels, by source:",
        "",
        table(rows, results, raw, lambda r: r["source"], "source"),
        "",
    ]
    finished = [i for i, row in enumerate(rows) if unfinished(row)]
    lines.append(
        "Unfinished outputs (unclosed reasoning, JSON without an answer, cut-off solutions): "
        f"{len(finished)}"
    )
    for result in results:
        lines.append(
            f"- {result.grader}: {tally(result, audited, finished).false_accepts} accepted"
        )
    lines.append("")
    names = {r.grader: r for r in results}
    if "gsm8k_grader" in names and "match(numeric=True)" in names:
        worse = worse_than_match(rows, names["gsm8k_grader"], names["match(numeric=True)"], audited)
        lines.append(
            "Models where gsm8k_grader misgrades more than match(numeric=True): "
            + ("; ".join(worse) if worse else "none")
        )
        lines.append("")
    lines += [
        "Speed: wall seconds (CPU seconds) for the whole corpus, and completions per CPU second.",
        "",
        "| grader | seconds | completions/s |",
        "|---|---:|---:|",
    ]
    timings = [(f"{r.grader} (in process)", r.seconds, r.cpu_seconds) for r in results]
    if cli is not None:
        timings.append(("gsm8k-grade CLI (process start included)", *cli))
    for name, wall, cpu in timings:
        lines.append(f"| {name} | {wall:.1f} ({cpu:.1f}) | {len(rows) / cpu:,.0f} |")
    return "\n".join(lines)


def hand_corpus_report(rows: Sequence[Row]) -> str:
    """The hand-written corpus: Inspect's ``match`` and this grader, misgrades by answer style."""
    results = [
        run_grader("match(numeric=True)", inspect_match(), rows),
        Verdicts("gsm8k_grader", grader_verdicts(rows), [False] * len(rows), 0.0),
    ]
    labels = [bool(row["label"]) for row in rows]
    return table(rows, results, labels, lambda r: str(r["style"]), "style")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--completions",
        type=Path,
        nargs="+",
        help="directories of labelled completions (default: the shared corpus and, when "
        "rebuilt, benchmarks/data/reasoning/.cache)",
    )
    parser.add_argument("--corrections", type=Path, default=CORRECTIONS)
    parser.add_argument(
        "--graders", nargs="+", choices=list(GRADERS), default=list(GRADERS), metavar="GRADER"
    )
    parser.add_argument("--no-cli", action="store_true", help="skip timing the gsm8k-grade CLI")
    parser.add_argument("--misgrades", type=Path, help="write this grader's misgrades (JSONL)")
    parser.add_argument(
        "--verdicts", type=Path, help="write every grader's verdict per row (JSONL)"
    )
    parser.add_argument(
        "--hand", action="store_true", help="the hand-written corpus in benchmarks/data instead"
    )
    args = parser.parse_args(argv)
    if args.hand:
        rows = [
            json.loads(line)
            for name in ("grading_corpus.jsonl", "smollm2_completions.jsonl")
            for line in (DATA / name).read_text().splitlines()
        ]
        print(hand_corpus_report(rows))
        return 0
    directories = args.completions or [default_completions(), *reasoning_completions()]
    rows = load_completions(*directories)
    attach_questions(rows)
    corrections = load_corrections(args.corrections, rows)
    results = [run_grader(name, GRADERS[name](), rows) for name in args.graders]
    cli = None if args.no_cli else cli_seconds(rows)
    print(report(rows, corrections, results, cli))
    if args.verdicts:
        write_verdicts(args.verdicts, rows, corrections, results)
    if args.misgrades:
        misgrades = our_misgrades(rows, audited_labels(rows, corrections))
        args.misgrades.write_text("".join(json.dumps(m) + "\n" for m in misgrades))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
