"""The grader against labelled completions: the hand-written corpus in benchmarks/data (see
build_grading_corpus.py) and, when GSM8K_DATA_DIR is set, real models' completions beside it."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from benchmarks.grading_agreement import (
    grader_verdicts,
    match_verdicts,
    run_grader,
    tally,
    worse_than_match,
)
from benchmarks.labelled_completions import (
    CORRECTIONS,
    audited_labels,
    load_completions,
    load_corrections,
    unfinished,
)
from benchmarks.peer_graders import gsm8k_grader, inspect_match, lm_eval_flexible_extract
from tests.conftest import REAL_DATA_DIR

DATA = Path(__file__).parents[1] / "benchmarks" / "data"


@pytest.fixture(scope="module")
def rows() -> list[dict[str, object]]:
    return [
        json.loads(line)
        for name in ("grading_corpus.jsonl", "smollm2_completions.jsonl")
        for line in (DATA / name).read_text().splitlines()
    ]


def test_corpus_file_is_what_the_builder_writes() -> None:
    from benchmarks.build_grading_corpus import rows as build_rows

    built = [json.dumps(row) for row in build_rows()]
    assert (DATA / "grading_corpus.jsonl").read_text().splitlines() == built


def test_grader_agrees_with_every_label(rows: list[dict[str, object]]) -> None:
    verdicts = grader_verdicts(rows)  # type: ignore[arg-type]
    misgraded = [
        row["id"] for row, verdict in zip(rows, verdicts, strict=True) if verdict != row["label"]
    ]
    assert misgraded == []


def test_grader_is_never_worse_than_match_on_any_style(rows: list[dict[str, object]]) -> None:
    ours, theirs = grader_verdicts(rows), match_verdicts(rows)  # type: ignore[arg-type]
    errors: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row, mine, match_verdict in zip(rows, ours, theirs, strict=True):
        errors[str(row["style"])][0] += mine != row["label"]
        errors[str(row["style"])][1] += match_verdict != row["label"]
    assert {style: e for style, e in errors.items() if e[0] > e[1]} == {}
    # And match really does misgrade this corpus, so the comparison means something.
    assert sum(e[1] for e in errors.values()) > 100


# Real completions from other projects' models (../shared/data/completions beside GSM8K_DATA_DIR).
# The goal is at most 0.1% misgraded on every source against the audited labels (5, 2 and 9 of
# 5,276, 2,638 and 9,101 completions); each bound is what the grader achieves now, and only ever
# goes down.
MAX_MISGRADED = {"grade-school-math-gpt3": 0, "tora": 1, "zeroeval": 0}


@pytest.fixture(scope="module")
def real_rows() -> tuple[list[dict[str, Any]], list[bool]]:
    if not REAL_DATA_DIR:
        pytest.skip("GSM8K_DATA_DIR is not set; the labelled completions sit beside it")
    directory = Path(REAL_DATA_DIR).parent / "completions"
    if not directory.is_dir():
        pytest.skip(f"no labelled completions at {directory}")
    rows = load_completions(directory)
    return rows, audited_labels(rows, load_corrections(CORRECTIONS, rows))


@pytest.mark.slow
def test_misgrade_rate_per_source_against_audited_labels(
    real_rows: tuple[list[dict[str, Any]], list[bool]],
) -> None:
    rows, labels = real_rows
    misgraded: dict[str, list[str]] = defaultdict(list)
    counts: dict[str, int] = defaultdict(int)
    for row, label, verdict in zip(rows, labels, grader_verdicts(rows), strict=True):
        counts[row["source"]] += 1
        if verdict != label:
            misgraded[row["source"]].append(row["id"])
    assert counts == {"grade-school-math-gpt3": 5276, "tora": 2638, "zeroeval": 9101}
    over = {source: ids for source, ids in misgraded.items() if len(ids) > MAX_MISGRADED[source]}
    assert over == {}


def test_no_false_accepts_on_unfinished_outputs(
    real_rows: tuple[list[dict[str, Any]], list[bool]],
) -> None:
    rows, labels = real_rows
    unfinished_rows = [
        (row, label) for row, label in zip(rows, labels, strict=True) if unfinished(row)
    ]
    accepted = [
        row["id"]
        for (row, label), verdict in zip(
            unfinished_rows, grader_verdicts([row for row, _ in unfinished_rows]), strict=True
        )
        if verdict and not label
    ]
    # The corpus holds such outputs (GPT-3 runs cut at the length limit), so this checks something.
    assert len(unfinished_rows) >= 10
    assert accepted == []


@pytest.mark.parametrize(
    ("correction", "problem"),
    [
        ({"id": "b", "label": False, "reason": "states 7"}, None),
        ({"id": "z", "label": False, "reason": "states 7"}, "not in the completions"),
        ({"id": "b", "label": False, "reason": " "}, "needs a reason"),
        ({"id": "b", "label": True, "reason": "states 7"}, "repeats the raw label"),
    ],
)
def test_label_corrections_are_checked_against_the_rows(
    tmp_path: Path, correction: dict[str, Any], problem: str | None
) -> None:
    rows = [{"id": "a", "label": False}, {"id": "b", "label": True}]
    path = tmp_path / "corrections.jsonl"
    path.write_text(json.dumps(correction) + "\n")
    if problem is None:
        corrections = load_corrections(path, rows)
        assert audited_labels(rows, corrections) == [False, False]
    else:
        with pytest.raises(ValueError, match=problem):
            load_corrections(path, rows)


@pytest.mark.slow
def test_never_worse_than_match_on_any_model(
    real_rows: tuple[list[dict[str, Any]], list[bool]],
) -> None:
    rows, labels = real_rows
    ours = run_grader("gsm8k_grader", gsm8k_grader, rows)
    theirs = run_grader("match(numeric=True)", inspect_match(), rows)
    assert worse_than_match(rows, ours, theirs, labels) == []


def test_a_grader_that_raises_is_an_error_row_not_a_stopped_run() -> None:
    def fragile(completion: str, target: str) -> bool:
        if "boom" in completion:
            raise RuntimeError("peer failed")
        return completion == target

    rows = [{"completion": "18", "target": "18"}, {"completion": "boom", "target": "18"}]
    verdicts = run_grader("fragile", fragile, rows)
    assert verdicts.accepted == [True, False]
    assert verdicts.errors == [False, True]
    assert tally(verdicts, [True, True], range(2)).cell() == "50.00% (0 / 1, 1 err)"


@pytest.mark.parametrize(
    ("completion", "accepted"),
    [
        ("The answer is $1,450,000.", True),
        # Inspect reads the last number: the trailing chatter's 2, not the answer line.
        ("ANSWER: 1450000\n\nLet me know if you have 2 more questions!", False),
        ("The answer is $\\boxed{1450000}$.", False),
    ],
)
def test_inspect_match_is_run_as_inspect_runs_it(completion: str, accepted: bool) -> None:
    assert inspect_match()(completion, "1450000") is accepted


@pytest.mark.bench
@pytest.mark.parametrize(
    ("completion", "accepted"),
    [
        ("So she makes 9 * 2 = $18.", True),
        # lm-eval compares strings after its regexes: 18.00 is not 18.
        ("So she makes 9 * 2 = $18.00", False),
        # The last match of its number pattern is "$." from the closing "}$.".
        ("She makes $\\boxed{18}$.", False),
    ],
)
def test_lm_eval_flexible_extract_as_its_task_defines_it(completion: str, accepted: bool) -> None:
    pytest.importorskip("lm_eval", reason="lm-eval comes with the bench extra")
    assert lm_eval_flexible_extract()(completion, "18") is accepted
