"""Grade completions produced elsewhere: ``gsm8k-grade FILE`` and :func:`grade_completion`.

Input: JSON lines ``{"id": str, "completion": str, "target": str}``; ``target`` may be left out,
then ``id`` is looked up in the dataset as a sample id (``test-17``) or a test index (``17``).
An optional ``"truncated": true`` marks a completion cut off at the token limit.
Output: one JSON line per input line, in the same order; a summary goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from gsm8k.scorer import grade


@dataclass(frozen=True)
class Graded:
    """The verdict on one completion."""

    id: str
    correct: bool
    answer: str | None
    target: str
    rule: str
    format_followed: bool
    truncated: bool

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def grade_completion(completion: str, target: str, id: str = "", truncated: bool = False) -> Graded:
    """Grade one completion against a gold answer, exactly as the task's ``gsm8k_grader`` does.

    Raises:
        ValueError: when ``target`` is not a number.
    """
    extraction, correct = grade(completion, target, truncated)
    return Graded(
        id=id,
        correct=correct,
        answer=extraction.answer,
        target=target,
        rule=extraction.rule,
        format_followed=extraction.format_followed,
        truncated=truncated,
    )


class TargetLookup:
    """Gold answers by sample id or test index, loaded from the dataset on first use."""

    def __init__(self, source: str | None, split: str) -> None:
        self.source, self.split = source, split
        self._targets: dict[str, str] | None = None

    def __call__(self, sample_id: str) -> str | None:
        if self._targets is None:
            from gsm8k.data import default_source, load_split
            from gsm8k.task import records_to_samples

            samples = records_to_samples(load_split(self.source or default_source(), self.split))
            self._targets = {}
            for index, sample in enumerate(samples):
                self._targets[str(sample.id)] = str(sample.target)
                # Ids written by releases before 1.1 (``test-17``) still resolve.
                self._targets[f"{self.split}-{index}"] = str(sample.target)
        return self._targets.get(sample_id)


def parse_lines(lines: Iterable[str], name: str) -> list[dict[str, Any]]:
    """Parse and check every input line first, so a bad file produces no partial output.

    Raises:
        ValueError: listing each malformed line as ``NAME:LINE: problem``.
    """
    rows, problems = [], []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            problems.append(f"{name}:{number}: empty line")
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            problems.append(f"{name}:{number}: not valid JSON ({error.msg})")
            continue
        problem = _row_problem(row)
        if problem:
            problems.append(f"{name}:{number}: {problem}")
            continue
        rows.append({**row, "_line": number})
    if problems:
        raise ValueError("\n".join(problems))
    return rows


def _row_problem(row: Any) -> str | None:
    if not isinstance(row, dict):
        return "expected a JSON object"
    if not isinstance(row.get("id"), (str, int)) or isinstance(row.get("id"), bool):
        return "'id' must be a string"
    if not isinstance(row.get("completion"), str):
        return "'completion' must be a string"
    if "target" in row and not isinstance(row["target"], (str, int, float)):
        return "'target' must be a string"
    if "truncated" in row and not isinstance(row["truncated"], bool):
        return "'truncated' must be true or false"
    return None


def grade_rows(rows: list[dict[str, Any]], lookup: TargetLookup, name: str) -> list[Graded]:
    """Grade parsed rows; a row whose target cannot be found or parsed is an error naming it."""
    graded = []
    for row in rows:
        sample_id = str(row["id"])
        target = str(row["target"]) if "target" in row else lookup(sample_id)
        if target is None:
            raise ValueError(
                f"{name}:{row['_line']}: no 'target' and id {sample_id!r} is not a sample id or "
                f"index of the {lookup.split} split; add a target or pass --dataset."
            )
        try:
            graded.append(
                grade_completion(row["completion"], target, sample_id, row.get("truncated", False))
            )
        except ValueError as error:
            raise ValueError(f"{name}:{row['_line']}: {error}") from error
    return graded


def summary(graded: Sequence[Graded]) -> str:
    total = len(graded)
    if total == 0:
        return "graded 0 completions"

    def rate(count: int) -> str:
        return f"{count}/{total} ({count / total:.1%})"

    correct = sum(g.correct for g in graded)
    strict = sum(g.correct and g.format_followed for g in graded)
    followed = sum(g.format_followed for g in graded)
    missing = sum(g.answer is None for g in graded)
    return (
        f"graded {total} completions: accuracy {rate(correct)}, strict accuracy {rate(strict)}, "
        f"format followed {rate(followed)}, no answer {rate(missing)}"
    )


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gsm8k-grade", description=__doc__.split("\n")[0])
    parser.add_argument("file", help="JSONL file of completions, or - for standard input")
    parser.add_argument(
        "--dataset",
        default=None,
        help="where to look up missing targets (default: $GSM8K_DATA_DIR, else gsm8k from the hub)",
    )
    parser.add_argument("--split", default="test", help="split to look up ids in (default: test)")
    args = parser.parse_args(argv)
    name = "<stdin>" if args.file == "-" else args.file
    try:
        if args.file == "-":
            lines = (stdin or sys.stdin).read().splitlines()
        else:
            lines = Path(args.file).read_text(encoding="utf-8").splitlines()
        graded = grade_rows(parse_lines(lines, name), TargetLookup(args.dataset, args.split), name)
    except (OSError, ValueError, RuntimeError) as error:
        print(f"gsm8k-grade: {error}", file=sys.stderr)
        return 2
    out = sys.stdout
    for result in graded:
        out.write(json.dumps(result.to_json()) + "\n")
    print(summary(graded), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
