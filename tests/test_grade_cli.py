from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from gsm8k.grading.cli import EXIT_ALL_GRADED, EXIT_SOME_FAILED, EXIT_USAGE, grade_completion, main


def run(
    args: list[str], capsys: pytest.CaptureFixture[str], stdin: bytes | str = b""
) -> tuple[int, list[dict], str]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    code = main(args, stdin=io.BytesIO(data))
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    return code, rows, captured.err


def test_grades_each_line_in_order_with_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        {"id": "a", "completion": "ANSWER: 18", "target": "18"},
        {"id": "b", "completion": "The answer is 7.", "target": "8"},
        {"id": "c", "completion": "I cannot answer.", "target": "1,450,000"},
    ]
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    code, rows, err = run([str(path)], capsys)
    assert code == EXIT_ALL_GRADED == 0
    assert [row["id"] for row in rows] == ["a", "b", "c"]
    assert [row["line"] for row in rows] == [1, 2, 3]
    assert [row["correct"] for row in rows] == [True, False, False]
    assert (
        rows[0]["answer"] == "18"
        and rows[0]["rule"] == "answer_line"
        and rows[0]["format_followed"]
    )
    assert (
        rows[1]["answer"] == "7"
        and rows[1]["rule"] == "answer_is"
        and not rows[1]["format_followed"]
    )
    assert rows[2]["answer"] is None and rows[2]["rule"] == "none"
    assert not any("error" in row for row in rows)
    assert "accuracy 1/3 (33.3%)" in err and "no answer 1/3" in err
    assert "could not be graded" not in err


def test_reads_stdin_and_looks_up_missing_targets(
    mini_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = "\n".join(
        [
            json.dumps({"id": "test-0", "completion": "ANSWER: 18"}),
            json.dumps({"id": "2", "completion": "ANSWER: 1,450,000"}),
            json.dumps({"id": "test-4", "completion": "ANSWER: 123459"}),
        ]
    )
    code, rows, _ = run(["-", "--dataset", str(mini_data)], capsys, stdin)
    assert code == 0
    assert [row["correct"] for row in rows] == [True, True, False]
    assert [row["target"] for row in rows] == ["18", "1450000", "123456"]


GOOD = json.dumps({"id": "ok", "completion": "ANSWER: 1", "target": "1"})


@pytest.mark.parametrize(
    ("line", "row_id", "message"),
    [
        pytest.param("{not json", None, "not valid JSON", id="bad-json"),
        pytest.param("", None, "empty line", id="empty-line"),
        pytest.param(json.dumps({"id": "x"}), "x", "'completion' must be a string", id="missing-completion"),
        pytest.param(json.dumps({"completion": "x"}), None, "'id' must be a string", id="missing-id"),
        pytest.param(json.dumps({"id": True, "completion": "x"}), None, "'id' must be a string", id="boolean-id"),
        pytest.param(json.dumps([1]), None, "expected a JSON object", id="not-an-object"),
        pytest.param(json.dumps({"id": "x", "completion": "c", "target": "abc"}), "x", "gold answer 'abc' is not a number", id="bad-target"),
        pytest.param(json.dumps({"id": "x", "completion": "c", "target": None}), "x", "'target' must be a string", id="null-target"),
        pytest.param(json.dumps({"id": 7, "completion": "c", "target": 1e400}), "7", "gold answer 'inf' is not a number", id="infinite-target"),
        pytest.param(json.dumps({"id": "x", "completion": "c", "target": "1", "truncated": "yes"}), "x", "'truncated' must be true or false", id="truncated-not-boolean"),
        pytest.param("[" * 100_000, None, "not valid JSON", id="deeply-nested-json"),
        pytest.param('{"id": 1' + "0" * 5000 + ', "completion": "1"}', None, "not readable JSON: an integer of 5,001 digits (at most 4,300 are read)", id="5000-digit-integer-id"),
        pytest.param(json.dumps({"id": 1.5, "completion": "c"}), None, "'id' must be a string or a whole number", id="fractional-id"),
    ],
)  # fmt: skip
def test_a_bad_line_is_reported_and_the_others_are_graded(
    line: str, row_id: str | None, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, rows, err = run(["-"], capsys, "\n".join([GOOD, line, GOOD]) + "\n")
    assert code == EXIT_SOME_FAILED == 1
    assert [row["line"] for row in rows] == [1, 2, 3]
    assert rows[0]["correct"] and rows[2]["correct"]
    assert set(rows[1]) == {"line", "id", "error"}
    assert rows[1]["id"] == row_id
    assert message in rows[1]["error"]
    assert f"<stdin>:2: {message}" in err
    assert "graded 2 completions" in err and "1 line could not be graded" in err


def test_an_exception_while_grading_becomes_that_line_s_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import gsm8k.grading.cli_rows

    def fragile(completion: str, target: str, *args: object) -> object:
        if "boom" in completion:
            raise RuntimeError("extraction failed")
        return original(completion, target, *args)  # type: ignore[arg-type]

    original = gsm8k.grading.cli_rows.grade_completion
    monkeypatch.setattr(gsm8k.grading.cli_rows, "grade_completion", fragile)
    bad = json.dumps({"id": "b", "completion": "boom", "target": "1"})
    code, rows, _ = run(["-"], capsys, f"{GOOD}\n{bad}\n{GOOD}\n")
    assert code == EXIT_SOME_FAILED
    assert rows[1] == {
        "line": 2,
        "id": "b",
        "error": "cannot grade: RuntimeError: extraction failed",
    }
    assert rows[0]["correct"] and rows[2]["correct"]


def test_text_that_is_not_utf8_names_the_line_and_byte_offset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    latin1 = '{"id": "x", "completion": "ANSWER: 5 \xe9l\xe8ves", "target": "5"}'.encode("latin-1")
    path = tmp_path / "answers.jsonl"
    path.write_bytes(GOOD.encode() + b"\n" + latin1 + b"\n" + GOOD.encode() + b"\n")
    code, rows, err = run([str(path)], capsys)
    offset = len(GOOD) + 1 + latin1.index(b"\xe9")
    assert code == EXIT_SOME_FAILED
    assert rows[1]["line"] == 2 and f"byte offset {offset}" in rows[1]["error"]
    assert f"{path}:2: not UTF-8 (byte 0xe9 at byte offset {offset}" in err
    assert rows[0]["correct"] and rows[2]["correct"]


def test_lines_split_only_on_newlines(capsys: pytest.CaptureFixture[str]) -> None:
    # U+2028 and a lone carriage return are line breaks to str.splitlines, not to JSON lines.
    raw = '{"id": "a", "completion": "Work\u2028ANSWER: 3", "target": "3"}\r\n' + GOOD
    code, rows, _ = run(["-"], capsys, raw.encode())
    assert code == 0 and [row["correct"] for row in rows] == [True, True]


def test_a_byte_order_mark_is_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, rows, _ = run(["-"], capsys, b"\xef\xbb\xbf" + GOOD.encode() + b"\n" + GOOD.encode())
    assert code == 0 and [row["correct"] for row in rows] == [True, True]


def test_every_line_failing_still_writes_each_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, rows, err = run(["-"], capsys, "\n".join(["{"] * 25) + "\n")
    assert code == EXIT_SOME_FAILED
    assert [row["line"] for row in rows] == list(range(1, 26))
    assert "… and 15 more lines" in err and "25 lines could not be graded" in err


def test_unknown_id_without_target_names_the_line(
    mini_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = json.dumps({"id": "test-99", "completion": "1"}) + "\n" + GOOD
    code, rows, err = run(["-", "--dataset", str(mini_data)], capsys, stdin)
    assert code == EXIT_SOME_FAILED
    assert "<stdin>:1: no 'target', and id 'test-99' is not a sample id" in err
    assert rows[1]["correct"]


def test_a_dataset_that_cannot_load_fails_only_lines_without_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = json.dumps({"id": "3", "completion": "1"}) + "\n" + GOOD
    code, rows, err = run(["-", "--dataset", str(tmp_path / "missing")], capsys, stdin)
    assert code == EXIT_SOME_FAILED
    assert "the dataset could not be loaded" in rows[0]["error"] and rows[1]["correct"]
    assert "gsm8k-grade: --dataset: --dataset=" in err
    assert "-T dataset" not in err


def test_missing_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, rows, err = run([str(tmp_path / "nope.jsonl")], capsys)
    assert code == EXIT_USAGE == 2
    assert rows == [] and "cannot read" in err and "nope.jsonl" in err


def test_help_is_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["--help"])
    help_text = capsys.readouterr().out
    assert exit.value.code == 0
    for markup in ("``", ":func:", ":class:", ":attr:"):
        assert markup not in help_text
    assert "exit status" in help_text and "--dataset" in help_text


def test_python_function_matches_the_scorer() -> None:
    graded = grade_completion("**ANSWER:** $1,234.00", "1234", id="q1")
    assert graded.correct and graded.answer == "1234" and graded.format_followed


def test_offline_hint_names_the_grade_option(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    stdin = json.dumps({"id": "3", "completion": "ANSWER: 1"}) + "\n" + GOOD
    code, rows, err = run(["-", "--dataset", "openai/gsm8k"], capsys, stdin)
    assert code == EXIT_SOME_FAILED and rows[1]["correct"]
    assert "--dataset PATH" in err and "-T dataset" not in err
    assert "--dataset gsm8k" in err  # the same records, inside the package
    assert "its error is on stderr" in rows[0]["error"]


@pytest.mark.parametrize(
    ("fields", "truncated"),
    [
        pytest.param({"stop_reason": "max_tokens"}, True, id="max-tokens"),
        pytest.param({"stop_reason": "model_length"}, True, id="model-length"),
        pytest.param({"stop_reason": "stop"}, False, id="stop"),
        pytest.param({"stop_reason": None}, False, id="null"),
        pytest.param({"truncated": True, "stop_reason": "stop"}, True, id="truncated-flag-wins"),
        pytest.param({}, False, id="neither"),
    ],
)
def test_stop_reason_marks_truncation_as_the_eval_does(
    fields: dict, truncated: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    # Cut off while thinking: no answer when truncated, the thinking's number otherwise.
    thinking = "<|im_start|>think Okay, 16 - 7 = 9, so 9 * 2 = 18 and \\boxed{18}."
    row = {"id": "t", "completion": thinking, "target": "18", **fields}
    code, rows, _ = run(["-"], capsys, json.dumps(row) + "\n")
    assert code == EXIT_ALL_GRADED
    assert rows[0]["truncated"] is truncated
    assert rows[0]["answer"] == (None if truncated else "18")


def test_a_stop_reason_that_is_not_text_names_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    row = {"id": "t", "completion": "ANSWER: 18", "target": "18", "stop_reason": 3}
    code, rows, err = run(["-"], capsys, json.dumps(row) + "\n")
    assert code == EXIT_SOME_FAILED and "stop_reason" in rows[0]["error"] and ":1:" in err


def test_a_default_dataset_that_cannot_load_names_the_variable_not_an_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GSM8K_DATA_DIR", str(tmp_path / "missing"))
    stdin = (
        json.dumps({"id": "3", "completion": "1"})
        + "\n"
        + json.dumps({"id": "4", "completion": "2"})
    )
    code, rows, err = run(["-"], capsys, stdin)
    assert code == EXIT_SOME_FAILED
    first = err.splitlines()[0]
    assert first.startswith(
        "gsm8k-grade: the default dataset (no --dataset given): GSM8K_DATA_DIR="
    )
    assert "--dataset=" not in err
    # The loading error is said once, not on every line that needed it.
    assert err.count("is neither a known dataset") == 1
    assert all("its error is on stderr" in row["error"] for row in rows)
