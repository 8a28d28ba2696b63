"""The labelled real completions the grading benchmarks read, and the audit of their labels.

Input rows (``*.jsonl`` or ``*.jsonl.gz`` in each directory, one file per source): ``{"id", "model",
"test_index", "target", "completion", "label"}``. By default they are ``../shared/data/completions``
(beside ``$GSM8K_DATA_DIR`` when set) and the reasoning-model completions that
``build_reasoning_completions.py`` rebuilds into ``benchmarks/data/reasoning/.cache``. A row gets
the question it answers (:func:`attach_questions`), as the task's scorer gives the grader one.
Labels are read against the audit in ``benchmarks/data/label_corrections.jsonl`` (rows whose label
was read and found wrong, each with its reason).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.build_reasoning_completions import BUILD_COMMAND, OUT

DATA = Path(__file__).parent / "data"
CORRECTIONS = DATA / "label_corrections.jsonl"
GPT3_SOURCE = "grade-school-math-gpt3"


def default_completions() -> Path:
    """``$GSM8K_DATA_DIR/../completions`` when set, else ``../shared/data/completions``."""
    data_dir = os.environ.get("GSM8K_DATA_DIR")
    if data_dir:
        return Path(data_dir).parent / "completions"
    return Path(__file__).parents[1].parent / "shared" / "data" / "completions"


Row = dict[str, Any]

REASONING = OUT.parent
"""Where the reasoning-model completions are rebuilt (git-ignored)."""


def reasoning_completions() -> list[Path]:
    """:data:`REASONING` when built; otherwise says in one line how to build it."""
    if OUT.exists():
        return [REASONING]
    print(
        f"s1-mgsm reasoning completions not built, skipped; build: {BUILD_COMMAND}", file=sys.stderr
    )
    return []


def attach_questions(rows: Sequence[Row], data: Path | None = None) -> int:
    """Give each row without a ``question`` the one it answers; returns how many got one.

    GSM8K rows: the test question at ``test_index``; rows with an MGSM ``language``: line
    ``test_index`` of ``mgsm/mgsm_<language>.tsv`` (MGSM line k is GSM8K test record k).
    """
    data = data or default_completions().parent
    gsm8k = data / "gsm8k" / "test.jsonl"
    if not gsm8k.exists():
        print(f"{gsm8k}: not found, rows are graded without their questions", file=sys.stderr)
        return 0
    questions = {"": [json.loads(line)["question"] for line in gsm8k.open(encoding="utf-8")]}
    for path in sorted((data / "mgsm").glob("mgsm_*.tsv")):
        lines = path.read_text(encoding="utf-8").splitlines()
        questions[path.stem.removeprefix("mgsm_")] = [line.split("\t")[0] for line in lines]
    given = 0
    for row in rows:
        index = row.get("test_index")
        table = questions.get(str(row.get("language") or ""), questions[""])
        if "question" not in row and isinstance(index, int) and 0 <= index < len(table):
            row["question"] = table[index]
        given += "question" in row
    return given


def load_completions(*directories: Path) -> list[Row]:
    """Every row of every ``*.jsonl`` in ``directory``, with ``source`` set to the file's stem.

    Raises:
        ValueError: naming the file and line of a row that lacks a field or repeats an id.
    """
    files = []
    for directory in directories:
        found = sorted([*directory.glob("*.jsonl"), *directory.glob("*.jsonl.gz")])
        if not found:
            raise ValueError(f"{directory}: no *.jsonl files of labelled completions")
        files += found
    rows: list[Row] = []
    seen: set[str] = set()
    for path in files:
        content = (
            gzip.decompress(path.read_bytes()).decode("utf-8")
            if path.suffix == ".gz"
            else path.read_text(encoding="utf-8")
        )
        for number, line in enumerate(content.splitlines(), start=1):
            try:
                row = json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"{path}:{number}: not valid JSON ({error.msg})") from error
            missing = {"id", "model", "target", "completion", "label"} - set(row)
            if missing or not isinstance(row["label"], bool):
                raise ValueError(f"{path}:{number}: needs id, model, target, completion, label")
            if row["id"] in seen:
                raise ValueError(f"{path}:{number}: id {row['id']!r} appears twice")
            seen.add(row["id"])
            rows.append({**row, "source": path.name.split(".")[0]})
    return rows


def load_corrections(path: Path, rows: Sequence[Row]) -> dict[str, Row]:
    """The audited labels: id → ``{"id", "label", "reason"}``.

    Raises:
        ValueError: when a correction names an unknown id, gives no reason, or does not change
            the label (a stale correction would otherwise hide silently).
    """
    raw = {row["id"]: row["label"] for row in rows}
    corrections: dict[str, Row] = {}
    if not path.exists():
        return corrections
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        correction = json.loads(line)
        where = f"{path}:{number}"
        if correction.get("id") not in raw:
            raise ValueError(f"{where}: id {correction.get('id')!r} is not in the completions")
        if not isinstance(correction.get("reason"), str) or not correction["reason"].strip():
            raise ValueError(f"{where}: every correction needs a reason")
        if correction.get("label") is raw[correction["id"]] or correction["id"] in corrections:
            raise ValueError(f"{where}: repeats the raw label or an earlier correction")
        corrections[correction["id"]] = correction
    return corrections


def audited_labels(rows: Sequence[Row], corrections: dict[str, Row]) -> list[bool]:
    return [corrections[r["id"]]["label"] if r["id"] in corrections else r["label"] for r in rows]


_THINK_OPEN = re.compile(r"<think(?:ing)?>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</think(?:ing)?>", re.IGNORECASE)
_A_LINE = re.compile(r"\s*A:\s*\S")


def unfinished(row: Row) -> bool:
    """Whether the output stops before a final answer could have been given.

    A reasoning block opened and never closed; a JSON answer object (the format the zero-shot
    JSON prompts ask for) whose ``"answer"`` field never follows ``"reasoning"``; and a solution
    from the GPT-3 source, whose finetuning format always ends in an ``A: <answer>`` line, that
    stops without one (cut at the length limit, often in a loop of repeated digits).
    """
    completion = str(row["completion"])
    if len(_THINK_OPEN.findall(completion)) > len(_THINK_CLOSE.findall(completion)):
        return True
    reasoning = completion.find('"reasoning"')
    if reasoning >= 0 and '"answer"' not in completion[reasoning:]:
        return True
    lines = completion.strip().splitlines() or [""]
    return row["source"] == GPT3_SOURCE and not _A_LINE.match(lines[-1])
