"""Reading ``gsm8k-grade``'s own input and grading it a line at a time.

Each line is one JSON object (``id``, ``completion``, optional ``target``, ``question``,
``truncated``, ``stop_reason``, ``program``); a line that cannot be graded becomes a
:class:`Failed` naming why, and never stops the others. A missing target is looked up in the
dataset by test index (:class:`TargetLookup`). The command itself is :mod:`gsm8k.grading.cli`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gsm8k.grading.imports.jsonlines import Line, parse_line
from gsm8k.grading.imports.rows import GOLD_DELIMITER
from gsm8k.grading.numbers import normalize, parse_gold
from gsm8k.grading.reasons import TRUNCATION_STOP_REASONS
from gsm8k.grading.verdict import Graded, grade_completion


@dataclass(frozen=True)
class Failed:
    """An input line that could not be graded, and why."""

    line: int
    id: str | None
    error: str

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "id": self.id, "error": self.error}


class TargetLookup:
    """Gold answers by sample id or test index, loaded from the dataset on first use.

    A dataset that fails to load is reported once (:attr:`error`) and every lookup then misses,
    so lines that carry their own target are still graded.
    """

    def __init__(self, source: str | None, split: str) -> None:
        self.source, self.split = source, split
        self._targets: dict[str, str] | None = None
        self._questions: dict[str, str] = {}
        self.error: str | None = None

    def __call__(self, sample_id: str) -> str | None:
        if self._targets is None:
            self._targets = {}
            try:
                self._targets = self._load()
            except Exception as error:  # reported once; lines with their own target go on
                self.error = str(error) or type(error).__name__
        return self._targets.get(sample_id)

    def question(self, sample_id: str) -> str | None:
        """The question of a sample whose target was looked up (``None`` when unknown)."""
        return self._questions.get(sample_id)

    def _load(self) -> dict[str, str]:
        from gsm8k.data.bundled import BUNDLED_SOURCE, DATA_DIR_ENV, bundled_split

        records: Sequence[dict[str, Any]]
        source = self.source or os.environ.get(DATA_DIR_ENV) or BUNDLED_SOURCE
        if source == BUNDLED_SOURCE and self.split in ("test", "train"):
            # The package's own copy: read without the task's loader, which imports Inspect
            # (seconds, where one row is graded in a fraction of one).
            bundled = bundled_split(self.split)
            records = bundled.records

            def where(index: int) -> str:
                return f"{bundled.location} line {bundled.line_numbers[index]}"
        else:
            from gsm8k.data.splits import load_split

            # The error names what the user set: --dataset, or GSM8K_DATA_DIR in its absence.
            from_env = self.source is None and bool(os.environ.get(DATA_DIR_ENV))
            parameter = DATA_DIR_ENV if from_env else "--dataset"
            loaded = load_split(source, self.split, parameter=parameter)
            records, where = loaded.records, loaded.where
        targets: dict[str, str] = {}
        for index, record in enumerate(records):
            final = str(record.get("answer", "")).rsplit(GOLD_DELIMITER, 1)[-1]
            try:
                target = normalize(parse_gold(final))
            except ValueError as error:
                raise ValueError(f"{where(index)}: gold {final.strip()!r}: {error}") from error
            targets[str(index)] = target
            # Ids written by releases before 1.1 (``test-17``) still resolve.
            targets[f"{self.split}-{index}"] = target
            question = record.get("question")
            if isinstance(question, str):
                self._questions[str(index)] = self._questions[f"{self.split}-{index}"] = question
        return targets


ProgramGrader = Callable[[dict[str, Any], str, str], Graded]
"""Runs a row's program and grades its result (``--run-programs``): row, target, id."""


def grade_line(
    line: Line,
    lookup: TargetLookup,
    programs: ProgramGrader | None = None,
) -> Graded | Failed:
    """Grade one input line; anything wrong with it becomes a :class:`Failed` naming why."""
    number = line.number
    row, unreadable = parse_line(line)
    if unreadable:
        return Failed(number, None, unreadable)
    problem = _row_problem(row, programs is not None)
    raw_id = row.get("id") if isinstance(row, dict) else None
    sample_id = (
        str(raw_id) if isinstance(raw_id, (str, int)) and not isinstance(raw_id, bool) else None
    )
    if problem:
        return Failed(number, sample_id, problem)
    assert sample_id is not None  # checked by _row_problem
    target = str(row["target"]) if "target" in row else lookup(sample_id)
    if target is None:
        reason = (
            "the dataset could not be loaded (its error is on stderr, once)"
            if lookup.error
            else f"id {sample_id!r} is not a sample id or index of the {lookup.split} split"
        )
        return Failed(
            number, sample_id, f"no 'target', and {reason}; add a target or pass --dataset"
        )
    try:
        if programs is not None:
            return programs(row, target, sample_id)
        truncated = row.get("truncated", False) or row.get("stop_reason") in TRUNCATION_STOP_REASONS
        question = row.get("question") if "target" in row else lookup.question(sample_id)
        return grade_completion(row["completion"], target, sample_id, truncated, question)
    except ValueError as error:  # the target is not a number
        return Failed(number, sample_id, str(error)[:1000])
    except Exception as error:  # one line must never stop the others from being graded
        return Failed(number, sample_id, f"cannot grade: {type(error).__name__}: {error}"[:1000])


def _row_problem(row: Any, programs: bool = False) -> str | None:
    if not isinstance(row, dict):
        return "expected a JSON object"
    if not isinstance(row.get("id"), (str, int)) or isinstance(row.get("id"), bool):
        return "'id' must be a string or a whole number"
    if programs and "program" in row:
        if not isinstance(row["program"], str):
            return "'program' must be a string"
    elif not isinstance(row.get("completion"), str):
        return "'completion' must be a string" + (" (or give a 'program')" if programs else "")
    if "target" in row and (
        not isinstance(row["target"], (str, int, float)) or isinstance(row["target"], bool)
    ):
        return "'target' must be a string or a number"
    if "question" in row and not isinstance(row["question"], (str, type(None))):
        return "'question' must be a string"
    if "truncated" in row and not isinstance(row["truncated"], bool):
        return "'truncated' must be true or false"
    if "stop_reason" in row and not isinstance(row["stop_reason"], (str, type(None))):
        return '\'stop_reason\' must be a string such as "stop" or "max_tokens"'
    return None


def program_grader(trust_model_code: bool) -> ProgramGrader:
    """The ``--run-programs`` grader, isolated as ``mode=pal`` is.

    Raises:
        PrerequisiteError: when bubblewrap cannot run here and ``trust_model_code`` is false.
    """
    from gsm8k.execution.isolation import choose_isolation
    from gsm8k.execution.posthoc import grade_program

    isolation = choose_isolation(trust_model_code)

    def grade_row(row: dict[str, Any], target: str, sample_id: str) -> Graded:
        return grade_program(
            target, row.get("program"), row.get("completion"), sample_id, isolation
        )

    return grade_row
