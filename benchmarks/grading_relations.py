"""Metamorphic relations that check the grader over real completions.

    python -m benchmarks.grading_relations                      # ../shared/data/completions
    python -m benchmarks.grading_relations --bundled            # benchmarks/data's corpus
    python -m benchmarks.grading_relations --all-phrasings --failures failures.md

From each labelled completion whose delivered answer is known (the grader's verdict agrees with
the audited label and the final answer statement, found without the grader, holds the value
the grader read), every relation rewrites or extends that statement and says what the grader
must then read: no answer, the same value, or the new value the rewrite states
(``relation_phrasings.py``, ``relation_restatements.py``). A relation's pass rate is the share
of rewrites the grader reads as the relation says. One phrasing per relation and completion,
rotated by the completion's index, unless ``--all-phrasings``. The catalogue with its pass
rates is docs/grading-relations.md.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import Any

from benchmarks.answer_statements import find_statement, question_numbers
from benchmarks.grading_agreement import (
    CORRECTIONS,
    attach_questions,
    audited_labels,
    default_completions,
    load_completions,
    load_corrections,
)
from benchmarks.relation_open_answers import OPEN_ANSWERS
from benchmarks.relation_phrasings import ADDITIONS, Case, Expect, Relation
from benchmarks.relation_restatements import RESTATEMENTS
from gsm8k.grading import grade
from gsm8k.grading.golds import UNANSWERABLE

RELATIONS: tuple[Relation, ...] = (*ADDITIONS, *OPEN_ANSWERS, *RESTATEMENTS)
BUNDLED = Path(__file__).parent / "data" / "grading_corpus.jsonl"

Row = dict[str, Any]


@dataclass(frozen=True)
class Outcome:
    """One rewrite graded: what the relation expects and what the grader read.

    The grader's ``NONE`` (the model states that the question cannot be answered, GSM-Plus's
    convention) is no numeric answer, as the relations mean it."""

    relation: str
    phrasing: str
    row_id: str
    index: int
    expected: str | None
    got: str | None
    rewrite: str
    original: str

    @property
    def passed(self) -> bool:
        got = None if self.got == UNANSWERABLE else self.got
        if self.expected is None or got is None:
            return self.expected == got
        return abs(Decimal(self.expected) - Decimal(got)) < Decimal("1e-6")


def alternative(value: Decimal, avoid: set[Decimal], index: int) -> Decimal:
    """The other value a rewrite states: near ``value`` as a slip would be, and not a number of
    the question (where it would read as a restated quantity), varied with the row."""
    steps = (Decimal(2), value, Decimal(10), Decimal(5), Decimal(1), Decimal(7))
    for turn in range(len(steps)):
        candidate = value + steps[(index + turn) % len(steps)]
        if candidate != value and candidate not in avoid:
            return candidate
    return value + 13


def usable_cases(rows: Sequence[Row], labels: Sequence[bool]) -> list[tuple[int, Row, Case]]:
    """Rows whose delivered answer is known: the grader agrees with the label and read the
    value that the final statement holds."""
    cases = []
    for index, (row, label) in enumerate(zip(rows, labels, strict=True)):
        statement = find_statement(row["completion"])
        if statement is None:
            continue
        verdict = grade(row["completion"], row["target"], question=row.get("question"))
        if verdict.correct != label or verdict.value is None or verdict.value != statement.value:
            continue
        avoid = question_numbers(row.get("question")) | {Decimal(0)}
        case = Case(
            row["completion"],
            statement,
            row.get("question"),
            alternative(statement.value, avoid, index),
        )
        cases.append((index, row, case))
    return cases


def expected_value(relation: Relation, case: Case) -> str | None:
    if relation.expect is Expect.NONE:
        return None
    return case.d if relation.expect is Expect.SAME else case.a


def apply(
    cases: Sequence[tuple[int, Row, Case]],
    relations: Sequence[Relation] = RELATIONS,
    all_phrasings: bool = False,
) -> list[Outcome]:
    """Every relation on every case: one phrasing each (the first that fits, starting at the
    case's index, so the phrasings share the rows), or all of them."""
    outcomes = []
    for index, row, case in cases:
        for relation in relations:
            count = len(relation.phrasings)
            order = [relation.phrasings[(index + turn) % count] for turn in range(count)]
            for label, build in order:
                rewrite = build(case)
                if rewrite is None:
                    continue
                verdict = grade(
                    rewrite, row["target"], question=case.question, truncated=relation.truncated
                )
                outcome = Outcome(
                    relation.name,
                    label,
                    str(row["id"]),
                    index,
                    expected_value(relation, case),
                    verdict.answer,
                    rewrite,
                    case.completion,
                )
                # Only failures are shown: a passing rewrite's text is not kept (200,000 of them).
                outcomes.append(outcome if not outcome.passed else replace(outcome, rewrite=""))
                if not all_phrasings:
                    break
    return outcomes


def pass_rates(outcomes: Sequence[Outcome]) -> dict[str, tuple[int, int]]:
    """Relation → (passed, rows)."""
    rates: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for outcome in outcomes:
        rates[outcome.relation][0] += outcome.passed
        rates[outcome.relation][1] += 1
    return {name: (passed, rows) for name, (passed, rows) in rates.items()}


def table(outcomes: Sequence[Outcome], relations: Sequence[Relation] = RELATIONS) -> str:
    rates = pass_rates(outcomes)
    used: dict[str, set[str]] = defaultdict(set)
    for outcome in outcomes:
        used[outcome.relation].add(outcome.phrasing)
    lines = [
        "| relation | expects | phrasings | rows | passed | pass rate |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for relation in relations:
        passed, rows = rates.get(relation.name, (0, 0))
        rate = f"{passed / rows:.2%}" if rows else "–"
        lines.append(
            f"| `{relation.name}` | {relation.expect.value} | {len(used[relation.name])} "
            f"| {rows:,} | {passed:,} | {rate} |"
        )
    return "\n".join(lines)


def _tail(text: str, width: int = 220) -> str:
    return ("…" + text[-width:] if len(text) > width else text).replace("\n", "⏎")


def _changed(original: str, rewrite: str, width: int = 220) -> str:
    """The rewrite from a little before where it departs from the original."""
    common = 0
    for a, b in zip(original, rewrite, strict=False):
        if a != b:
            break
        common += 1
    start = max(0, common - 60)
    return ("…" if start else "") + rewrite[start : start + width].replace("\n", "⏎")


def failures(outcomes: Sequence[Outcome], per_relation: int = 10) -> str:
    """Up to ``per_relation`` failing rewrites of each relation: phrasing counts, then examples."""
    lines = []
    failed = [o for o in outcomes if not o.passed]
    by_relation: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in failed:
        by_relation[outcome.relation].append(outcome)
    for relation, items in by_relation.items():
        counts = Counter(o.phrasing for o in items)
        lines += [f"### `{relation}`: {len(items)} failed", ""]
        lines.append("By phrasing: " + "; ".join(f"`{p}` {n}" for p, n in counts.most_common()))
        lines.append("")
        for outcome in _spread(items, per_relation):
            lines += [
                f"- `{outcome.row_id}` ({outcome.phrasing}): expected "
                f"`{outcome.expected or 'no answer'}`, got `{outcome.got or 'no answer'}`",
                f"  - tail: `{_tail(outcome.original)}`",
                f"  - rewrite: `{_changed(outcome.original, outcome.rewrite)}`",
            ]
        lines.append("")
    return "\n".join(lines)


def _spread(items: Sequence[Outcome], limit: int) -> list[Outcome]:
    """Examples that cover every failing phrasing before repeating one."""
    by_phrasing: dict[str, list[Outcome]] = defaultdict(list)
    for item in items:
        by_phrasing[item.phrasing].append(item)
    picked: list[Outcome] = []
    while len(picked) < min(limit, len(items)):
        for group in by_phrasing.values():
            if group and len(picked) < limit:
                picked.append(group.pop(0))
    return picked


def bundled_rows(path: Path = BUNDLED) -> list[Row]:
    """The hand-written corpus's rows that state an answer (its labels say which are right)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--completions", type=Path, nargs="+", help="labelled completions")
    parser.add_argument("--bundled", action="store_true", help="benchmarks/data's hand corpus")
    parser.add_argument("--all-phrasings", action="store_true", help="every phrasing per row")
    parser.add_argument(
        "--relations", nargs="+", choices=[r.name for r in RELATIONS], help="only these"
    )
    parser.add_argument(
        "--every", type=int, default=1, help="every Nth completion only (a quicker sample)"
    )
    parser.add_argument("--failures", type=Path, help="write the table and failing examples")
    parser.add_argument("--examples", type=int, default=10, help="failing examples per relation")
    args = parser.parse_args(argv)
    if args.bundled:
        rows = bundled_rows()
        labels = [bool(row["label"]) for row in rows]
    else:
        rows = load_completions(*(args.completions or [default_completions()]))
        attach_questions(rows)
        labels = audited_labels(rows, load_corrections(CORRECTIONS, rows))
    started = time.process_time()
    cases = usable_cases(rows[:: args.every], labels[:: args.every])
    relations = [r for r in RELATIONS if not args.relations or r.name in args.relations]
    outcomes = apply(cases, relations, all_phrasings=args.all_phrasings)
    seconds = time.process_time() - started
    summary = (
        f"{len(cases):,} usable completions of {len(rows):,}; {len(outcomes):,} rewrites graded "
        f"in {seconds:.1f} CPU s ({(len(cases) + len(outcomes)) / seconds:,.0f} gradings/s)"
    )
    print(table(outcomes, relations))
    print(f"\n{summary}")
    if args.failures:
        args.failures.parent.mkdir(parents=True, exist_ok=True)
        args.failures.write_text(
            f"{table(outcomes, relations)}\n\n{summary}\n\n{failures(outcomes, args.examples)}",
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
