"""Re-grading other harnesses' files: real lm-eval 0.4.13 and inspect_evals 0.26.0 outputs.

The fixtures were written by those packages themselves (``benchmarks/regrade_fixtures.py``; see
``tests/fixtures/regrade/README.md``): seven GSM8K test questions answered by one scripted model, so
both files hold the same completions, graded by each harness's own rule; the last was cut off at
the token limit, which only the Inspect log records.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gsm8k.grading import imports
from gsm8k.grading.cli import EXIT_ALL_GRADED, EXIT_SOME_FAILED, EXIT_USAGE, main
from gsm8k.grading.imports.regrade import Regraded, headline, regrade_row
from gsm8k.grading.imports.rows import ImportedRow, final_answer

FIXTURES = Path(__file__).parent / "fixtures" / "regrade"
(LM_EVAL,) = (FIXTURES / "lm_eval").glob("samples_gsm8k_local_*.jsonl")
(LM_EVAL_RESULTS,) = (FIXTURES / "lm_eval").glob("results_*.json")
INSPECT_EVALS = FIXTURES / "inspect_evals" / "gsm8k_inspect_evals.eval"

# By test index: what this grader decides, and why the others differ on 0 and 4.
OURS = {0: True, 1: True, 2: True, 3: True, 4: False, 5: False, 6: True}
LAST_NUMBER_READ = {0: "2", 4: "20"}  # "ANSWER: 18 … 2 more questions"; "60 cups for all 20"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict], str]:
    code = main(args, stdin=io.BytesIO(b""))
    captured = capsys.readouterr()
    return code, [json.loads(line) for line in captured.out.splitlines()], captured.err


def test_recognises_each_format(tmp_path: Path) -> None:
    own = tmp_path / "mine.jsonl"
    own.write_text(json.dumps({"id": 1, "completion": "ANSWER: 3", "target": "3"}) + "\n")
    assert imports.detect(LM_EVAL) == "lm-eval"
    assert imports.detect(INSPECT_EVALS) == "inspect"
    assert imports.detect(own) == "jsonl"


def test_lm_eval_rows_carry_the_filters_verdicts() -> None:
    lenient = imports.read(LM_EVAL, "lm-eval")
    assert lenient.original == "lm-eval gsm8k_local flexible-extract"
    assert lenient.choices == ["strict-match", "flexible-extract"]
    assert [row.id for row in lenient.rows] == [str(i) for i in range(7)]
    assert [row.target for row in lenient.rows] == ["18", "3", "70000", "540", "20", "64", "260"]
    assert lenient.rows[0].question is not None and "Janet" in lenient.rows[0].question
    assert [row.original_correct for row in lenient.rows] == [
        False, True, True, True, True, False, True,
    ]  # fmt: skip
    assert lenient.rows[0].original_answer == "2" and lenient.rows[4].original_answer == "20"
    strict = imports.read(LM_EVAL, "lm-eval", "strict-match")
    assert [row.original_correct for row in strict.rows] == [False, True] + [False] * 5
    assert [row.completion for row in strict.rows] == [row.completion for row in lenient.rows]


def test_lm_eval_headline_before_is_the_one_lm_eval_reported() -> None:
    reported = json.loads(LM_EVAL_RESULTS.read_text())["results"]["gsm8k_local"]
    for name in ("flexible-extract", "strict-match"):
        rows = imports.read(LM_EVAL, "lm-eval", name).rows
        before = sum(row.original_correct for row in rows) / len(rows)
        assert before == pytest.approx(reported[f"exact_match,{name}"])


def test_unknown_filter_or_scorer_is_named() -> None:
    with pytest.raises(ValueError, match=r"no filter 'maj@8'.*strict-match, flexible-extract"):
        imports.read(LM_EVAL, "lm-eval", "maj@8")
    with pytest.raises(ValueError, match=r"no scorer 'exact'.*match"):
        imports.read(INSPECT_EVALS, "inspect", "exact")


def test_inspect_evals_rows_carry_match_verdicts() -> None:
    imported = imports.read(INSPECT_EVALS, "inspect")
    assert imported.original == "inspect_evals/gsm8k match"
    by_target = {row.target: row for row in imported.rows}
    assert set(by_target) == {"18", "3", "70000", "540", "20", "64", "260"}
    assert not by_target["18"].original_correct and by_target["18"].original_answer == "2"
    assert by_target["20"].original_correct and by_target["20"].original_answer == "20"
    assert all(row.id.startswith("gsm8k_") and row.epoch == 1 for row in imported.rows)
    assert all(row.question for row in imported.rows)
    assert [row.target for row in imported.rows if row.truncated] == ["260"]


def test_gsm8k_grade_on_a_real_lm_eval_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, rows, err = run([str(LM_EVAL)], capsys)
    assert code == EXIT_ALL_GRADED
    assert [row["correct"] for row in rows] == [OURS[i] for i in range(7)]
    assert [row["changed"] for row in rows] == [True, False, False, False, True, False, False]
    assert rows[0]["answer"] == "18" and rows[0]["original_answer"] == "2"
    assert rows[4]["answer"] == "60" and rows[4]["original_answer"] == "20"
    assert rows[0]["place"] == "line 8"  # the flexible-extract lines follow the strict ones
    assert "before (lm-eval gsm8k_local flexible-extract): 71.4% (95% CI 35.9%–91.8%)" in err
    assert "after (gsm8k_grader): 71.4%" in err
    assert "correct only before: 1, only after: 1; exact McNemar p = 1" in err


def test_gsm8k_grade_against_the_strict_filter(capsys: pytest.CaptureFixture[str]) -> None:
    code, rows, err = run([str(LM_EVAL), "--original", "strict-match"], capsys)
    assert code == EXIT_ALL_GRADED
    assert sum(row["original_correct"] for row in rows) == 1
    assert "before (lm-eval gsm8k_local strict-match): 14.3%" in err
    assert "difference after − before: +57.1 points" in err
    assert "only before: 0, only after: 4; exact McNemar p = 0.125" in err


def test_gsm8k_grade_on_a_real_inspect_evals_log(capsys: pytest.CaptureFixture[str]) -> None:
    code, rows, err = run([str(INSPECT_EVALS)], capsys)
    assert code == EXIT_ALL_GRADED
    assert len(rows) == 7
    by_target = {row["target"]: row for row in rows}
    assert by_target["18"]["correct"] and not by_target["18"]["original_correct"]
    assert not by_target["20"]["correct"] and by_target["20"]["original_correct"]
    # Cut off at the token limit: its last number is no delivered answer (match takes it).
    cut = by_target["260"]
    assert cut["truncated"] and cut["answer"] is None and cut["original_correct"]
    assert sum(row["changed"] for row in rows) == 3
    assert "before (inspect_evals/gsm8k match): 71.4%" in err
    assert "after (gsm8k_grader): 57.1%" in err
    assert "only before: 2, only after: 1" in err


@pytest.mark.parametrize("path", [LM_EVAL, INSPECT_EVALS], ids=["lm-eval", "inspect_evals"])
def test_the_summaries_shown_in_grading_md_are_what_gsm8k_grade_prints(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, err = run([str(path)], capsys)
    page = (Path(__file__).parents[1] / "docs" / "grading.md").read_text(encoding="utf-8")
    assert "\n".join(err.strip().splitlines()[-4:]) in page


def test_a_broken_line_is_reported_and_the_rest_graded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "samples_gsm8k_2025-01-01T00-00-00.jsonl"
    lines = LM_EVAL.read_text().splitlines()
    path.write_text("\n".join([*lines[:7], "{not json", *lines[7:]]) + "\n")
    code, rows, err = run([str(path), "--format", "lm-eval"], capsys)
    assert code == EXIT_SOME_FAILED
    assert [row["error"] for row in rows if "error" in row] == [
        "not valid JSON (Expecting property name enclosed in double quotes, column 2)"
    ]
    assert sum("correct" in row for row in rows) == 7
    assert f"{path}: line 8: not valid JSON" in err


def test_a_file_that_is_not_what_format_says_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "run.eval"
    path.write_text("not a zip")
    code, rows, err = run([str(path)], capsys)
    assert code == EXIT_USAGE and rows == []
    assert err.startswith(f"gsm8k-grade: {path}: not a readable Inspect log")
    code, _, err = run([str(LM_EVAL_RESULTS)], capsys)
    assert code == EXIT_USAGE and "an lm-eval results summary" in err and "--log_samples" in err
    code, _, err = run(["-", "--format", "lm-eval"], capsys)
    assert code == EXIT_USAGE and "reads a file" in err


@pytest.mark.parametrize(
    ("target", "final"),
    [
        pytest.param(
            "She makes 9 * 2 = $<<9*2=18>>18.\n#### 18", "18", id="lm-eval-whole-solution"
        ),
        pytest.param("1,080", "1080", id="thousands-comma"),
        pytest.param("#### 18.00", "18", id="canonical-form"),
        pytest.param("NONE", "NONE", id="gsm-plus-none-kept-for-the-grader"),
    ],
)
def test_final_answer_of_a_target(target: str, final: str) -> None:
    assert final_answer(target) == final


def row(sample: str, epoch: int, before: bool, completion: str) -> ImportedRow:
    return ImportedRow(
        f"sample {sample}", sample, epoch, completion, "18", None, False, before, None
    )


def test_several_epochs_are_paired_by_question_without_mcnemar() -> None:
    rows = [
        row("a", 1, True, "ANSWER: 18"),
        row("a", 2, False, "ANSWER: 18"),
        row("b", 1, True, "ANSWER: 17"),
        row("b", 2, True, "ANSWER: 18"),
    ]
    regraded = [r for r in map(regrade_row, rows) if isinstance(r, Regraded)]
    result = headline(regraded)
    assert (result.questions, result.completions) == (2, 4)
    assert result.before == pytest.approx(0.75) and result.after == pytest.approx(0.75)
    assert result.mcnemar_p is None
    assert (result.only_before, result.only_after) == (1, 1)


def test_a_target_the_grader_cannot_read_is_a_problem_not_a_verdict() -> None:
    bad = ImportedRow("line 1", "0", 1, "ANSWER: 3", "three", None, False, True, None)
    problem = regrade_row(bad)
    assert not isinstance(problem, Regraded) and "not a number" in problem.error


def inspect_cli() -> Path:
    return Path(sys.executable).parent / "inspect"


@pytest.mark.slow  # a process or a large input: seconds each
@pytest.mark.skipif(not inspect_cli().exists(), reason="the inspect command is not installed")
def test_inspect_score_with_the_registered_grader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``inspect score LOG --scorer gsm8k/gsm8k_grader`` on the real inspect_evals log gives the
    verdicts gsm8k-grade gives, and the re-scored log re-grades against either scorer."""
    scored = tmp_path / "rescored.eval"
    root = Path(__file__).parents[1]
    environment = os.environ | {
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])
    }
    command = [
        str(inspect_cli()), "score", str(INSPECT_EVALS), "--scorer", "gsm8k/gsm8k_grader",
        "--action", "append", "--output-file", str(scored),
    ]  # fmt: skip
    done = subprocess.run(command, env=environment, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    from inspect_ai.log import read_eval_log

    log = read_eval_log(str(scored))
    assert log.results is not None
    assert [score.name for score in log.results.scores][:2] == ["match", "gsm8k_grader"]
    verdicts = {s.target: s.scores["gsm8k_grader"].value["accuracy"] for s in log.samples or []}
    assert verdicts == {
        "18": 1.0,
        "3": 1.0,
        "70000": 1.0,
        "540": 1.0,
        "20": 0.0,
        "64": 0.0,
        "260": 0.0,
    }
    code, rows, err = run([str(scored), "--original", "gsm8k_grader"], capsys)
    assert code == EXIT_ALL_GRADED and not any(r["changed"] for r in rows)
    assert "before (inspect_evals/gsm8k gsm8k_grader): 57.1%" in err


def test_a_log_scored_by_this_grader_is_read_at_its_headline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A dict-valued scorer has one results score per key (``accuracy``, ...): the original
    verdict is still found under the scorer's name."""
    from inspect_ai import score
    from inspect_ai.log import read_eval_log, write_eval_log

    from gsm8k.grading.scorer import gsm8k_grader

    rescored = score(read_eval_log(str(INSPECT_EVALS)), gsm8k_grader(), action="overwrite")
    assert rescored.results is not None
    assert {s.name for s in rescored.results.scores} >= {"accuracy", "strict_accuracy"}
    path = tmp_path / "own.eval"
    write_eval_log(rescored, str(path))
    capsys.readouterr()  # Inspect's own results panel, printed by score()
    code, rows, err = run([str(path)], capsys)
    assert code == EXIT_ALL_GRADED and not any(row["changed"] for row in rows)
    assert "before (inspect_evals/gsm8k gsm8k_grader): 57.1%" in err
    # The grader carries match(numeric=True)'s verdict: the same as inspect_evals' own match.
    code, carried, err = run([str(path), "--original", "match"], capsys)
    recorded = imports.read(INSPECT_EVALS, "inspect").rows
    assert [row["original_correct"] for row in carried] == [r.original_correct for r in recorded]
    assert [row["original_answer"] for row in carried] == [r.original_answer for r in recorded]


@pytest.mark.bench
def test_peer_flexible_extract_reproduces_the_real_lm_eval_verdicts() -> None:
    """benchmarks.peer_graders' lm-eval column gives the verdicts lm-eval itself recorded."""
    pytest.importorskip("lm_eval")
    from benchmarks.peer_graders import lm_eval_flexible_extract

    accepts = lm_eval_flexible_extract()
    rows = imports.read(LM_EVAL, "lm-eval", "flexible-extract").rows
    assert [accepts(r.completion, r.target) for r in rows] == [r.original_correct for r in rows]


def test_peer_match_reproduces_the_real_inspect_evals_verdicts() -> None:
    """benchmarks.peer_graders' match column gives the verdicts inspect_evals' run recorded."""
    from benchmarks.peer_graders import inspect_match

    accepts = inspect_match()
    rows = imports.read(INSPECT_EVALS, "inspect").rows
    assert [accepts(r.completion, r.target) for r in rows] == [r.original_correct for r in rows]
