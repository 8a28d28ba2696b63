"""lm-evaluation-harness's ``--log_samples`` files (``samples_<task>_<date>.jsonl``), as written.

lm-eval writes one line per question and filter: ``doc_id``, ``doc`` (the dataset record),
``target``, ``resps`` (the raw generations), ``filtered_resps`` (what the filter extracted),
``filter`` and one field per metric (``exact_match``). The raw generation is the same on every
filter's line; the verdict is the filter's. A task run with ``repeats`` records several
generations per question; lm-eval's gsm8k filters score the first (``take_first``), and so is it
read here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gsm8k.grading.imports.jsonlines import parse_line, read_lines
from gsm8k.grading.imports.rows import Imported, ImportedRow, ImportProblem, final_answer

HARNESS = "lm-eval"
PREFERRED_FILTERS = ("flexible-extract", "strict-match")
"""The filter whose verdicts are "the original" unless ``--original`` names another: lm-eval's
lenient gsm8k score, which most published lm-eval GSM8K figures quote."""
METRIC = "exact_match"
SIGNATURE = ("doc_id", "resps", "filtered_resps")
"""Fields every lm-eval samples line has: how such a file is recognised."""


def looks_like(record: Any) -> bool:
    """Whether a parsed JSON line is an lm-eval samples record."""
    return isinstance(record, dict) and all(key in record for key in SIGNATURE)


def read(path: Path, original: str | None = None) -> Imported:
    """Every question in the file, with the verdict of filter ``original`` (default: the
    lenient filter when present, else the first in the file).

    Raises:
        ValueError: when ``original`` names a filter the file does not have, or the file holds
            no lm-eval record.
    """
    # One pass, keeping each filter's rows (text, not the parsed records): memory follows the
    # completions' size, whatever else a line holds.
    by_filter: dict[str, list[ImportedRow | ImportProblem]] = {}
    problems: list[ImportProblem] = []
    with path.open("rb") as stream:
        for line in read_lines(stream):
            if line.raw is not None and not line.raw.strip():
                continue
            record, unreadable = parse_line(line)
            place = f"line {line.number}"
            if unreadable:
                problems.append(ImportProblem(place, None, unreadable))
            elif not looks_like(record):
                problems.append(
                    ImportProblem(
                        place,
                        None,
                        f"not an lm-eval samples record (needs {', '.join(SIGNATURE)})",
                    )
                )
            else:
                name = str(record.get("filter", "none"))
                by_filter.setdefault(name, []).append(_row(line.number, record))
    filters = list(by_filter)
    if not filters:
        raise ValueError(f"{path}: no lm-eval samples record in the file")
    chosen = original or next((f for f in PREFERRED_FILTERS if f in filters), filters[0])
    if chosen not in filters:
        raise ValueError(f"{path}: no filter {chosen!r} in the file; it has {', '.join(filters)}")
    task = _task_name(path)
    imported = Imported(HARNESS, f"lm-eval {task} {chosen}".replace("  ", " "), choices=filters)
    imported.problems = problems
    for row in by_filter[chosen]:
        imported.add(row)
    return imported


def _row(number: int, record: dict[str, Any]) -> ImportedRow | ImportProblem:
    place, doc_id = f"line {number}", str(record["doc_id"])
    responses = record["resps"]
    first = responses[0] if isinstance(responses, list) and responses else None
    completion = first[0] if isinstance(first, list) and first else first
    if not isinstance(completion, str):
        return ImportProblem(place, doc_id, "'resps' holds no generated text")
    target = record.get("target")
    if not isinstance(target, (str, int, float)) or isinstance(target, bool):
        return ImportProblem(place, doc_id, "'target' is missing or not text")
    verdict = record.get(METRIC)
    if not isinstance(verdict, (int, float)) or isinstance(verdict, bool):
        return ImportProblem(place, doc_id, f"no '{METRIC}' verdict on the line")
    doc = record.get("doc")
    question = doc.get("question") if isinstance(doc, dict) else None
    extracted = record["filtered_resps"]
    answer = extracted[0] if isinstance(extracted, list) and extracted else extracted
    return ImportedRow(
        place=place,
        id=doc_id,
        epoch=1,
        completion=completion,
        target=final_answer(str(target)),
        question=question if isinstance(question, str) else None,
        truncated=False,  # lm-eval records no finish reason
        original_correct=verdict == 1,
        original_answer=answer if isinstance(answer, str) else None,
    )


def _task_name(path: Path) -> str:
    """``gsm8k_cot`` from ``samples_gsm8k_cot_2025-01-01T00-00-00.jsonl`` (lm-eval's naming)."""
    stem = path.stem
    if stem.startswith("samples_"):
        return stem.removeprefix("samples_").rsplit("_", 1)[0]
    return ""
