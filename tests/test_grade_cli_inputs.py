"""gsm8k-grade on any file: each bad place is one line naming file and line, valid rows graded.

The full-size hostile files (hundreds of MB to inflate or parse) are built by
``benchmarks/grade_inputs.py``, which measures their peak memory; here the same shapes are built
small enough to run in the fast tier, except the slow tests that grade the full-size ones or start
processes.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import subprocess
import sys
import threading
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from benchmarks import grade_inputs
from gsm8k.grading import imports
from gsm8k.grading.cli import EXIT_SOME_FAILED, EXIT_USAGE, main
from gsm8k.grading.imports.jsonlines import MAX_RECORD_BYTES, Line, parse_line, read_lines
from gsm8k.grading.rules import _BOXED_LIMIT, boxed_spans

ROOT = Path(__file__).resolve().parent.parent
GOOD = json.dumps({"id": "ok", "completion": "ANSWER: 1", "target": "1"}).encode()
LM_EVAL_ROWS = 7
"""Questions in the real lm-eval fixture (two filters: 14 lines), each graded once."""


def run(
    args: list[str], capsys: pytest.CaptureFixture[str], stdin: bytes = b""
) -> tuple[int, list[dict], str]:
    code = main(args, stdin=io.BytesIO(stdin))
    captured = capsys.readouterr()
    return code, [json.loads(line) for line in captured.out.splitlines()], captured.err


@pytest.mark.parametrize(
    "row",
    [
        pytest.param(grade_inputs.ONE_ROW, id="with-its-target"),
        pytest.param(
            {"id": "0", "completion": "16 - 3 - 4 = 9 eggs, 9 * 2 = 18.\nANSWER: 18"},
            id="target-looked-up-in-the-bundled-copy",
        ),
    ],
)
def test_a_plain_jsonl_grade_imports_no_heavy_package(tmp_path: Path, row: dict[str, str]) -> None:
    """Inspect, scipy, pydantic and the rest cost seconds to import: a JSONL file needs none."""
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(row) + "\n")
    environment = {k: v for k, v in os.environ.items() if k != "GSM8K_DATA_DIR"}
    done = subprocess.run(
        [sys.executable, "-c", grade_inputs.HEAVY_PROBE, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["correct"] is True
    assert "heavy: none" in done.stderr.splitlines()


@pytest.mark.slow  # a process or a large input: seconds each
def test_the_heavy_probe_sees_an_inspect_log_import_inspect(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", grade_inputs.HEAVY_PROBE, str(grade_inputs.INSPECT_EVAL)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert "inspect_ai" in done.stderr.split("heavy:")[-1]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        pytest.param(b"[" * 200_000 + b"]" * 200_000, "nested too deeply", id="nested-200000"),
        pytest.param(b'{"id": 1' + b"0" * 5000 + b"}", "of 5,001 digits", id="long-integer"),
        pytest.param(b'{"id": "x", "completion": "\xff"}', "not UTF-8 (byte 0xff", id="stray-byte"),
        pytest.param(b'{"id": "x",\x00 "completion": "1"}', "not valid JSON", id="nul-byte"),
        pytest.param(b'"a string"', "expected a JSON object", id="json-string"),
        pytest.param(b"[1, 2]", "expected a JSON object", id="json-list"),
        pytest.param(b"null", "expected a JSON object", id="json-null"),
        pytest.param(b"\r", "empty line", id="lone-carriage-return"),
    ],
)  # fmt: skip
def test_each_bad_line_of_own_input_is_named_and_the_rest_graded(
    line: bytes, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, rows, err = run(["-"], capsys, b"\r\n".join([GOOD, line, GOOD]) + b"\r\n")
    assert code == EXIT_SOME_FAILED
    assert [row.get("correct") for row in rows] == [True, None, True]
    assert message in rows[1]["error"]
    assert f"gsm8k-grade: <stdin>:2: {rows[1]['error']}" in err.splitlines()


def test_a_line_over_the_limit_is_skipped_without_being_held(
    capsys: pytest.CaptureFixture[str],
) -> None:
    huge = b'{"id": "big", "completion": "' + b"\\boxed{" * (MAX_RECORD_BYTES // 7) + b'"}'
    code, rows, err = run(["-"], capsys, b"\n".join([GOOD, huge, GOOD]))
    assert code == EXIT_SOME_FAILED
    assert [row.get("correct") for row in rows] == [True, None, True]
    assert rows[1]["error"].startswith(f"a line of {len(huge) + 1:,} bytes, more than the")
    assert "<stdin>:2: a line of" in err


def test_read_lines_counts_lines_and_offsets_across_a_skipped_line() -> None:
    stream = io.BytesIO(b"ab\n" + b"x" * 25 + b"\ncd\r\nlast")
    lines = list(read_lines(stream, limit=10))
    assert [(line.number, line.offset, line.raw, line.size) for line in lines] == [
        (1, 0, b"ab", 3),
        (2, 3, None, 26),
        (3, 29, b"cd", 4),
        (4, 33, b"last", 4),
    ]


def test_a_byte_order_mark_is_read_on_the_first_line_only() -> None:
    bom = b"\xef\xbb\xbf"
    assert parse_line(Line(1, 0, bom + b"[1]", 6)) == ([1], None)
    value, error = parse_line(Line(2, 6, bom + b"[1]", 6))
    assert value is None and error and error.startswith("not valid JSON")


def lm_eval_file(tmp_path: Path, bad: list[bytes]) -> Path:
    lines = grade_inputs.lm_eval_lines()
    for place, line in zip((0, 4, 9, 13), bad, strict=False):
        lines.insert(place, line)
    path = tmp_path / grade_inputs.LM_EVAL_NAME
    path.write_bytes(b"\r\n".join(lines) + b"\r\n")
    return path


def test_an_lm_eval_file_with_bad_lines_is_still_recognised_and_graded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A broken first line does not make the file gsm8k-grade's own format (0 rows graded)."""
    path = lm_eval_file(
        tmp_path,
        [
            b"\xff" + b"[" * 200_000,
            b'{"doc_id": 1' + b"0" * 5000 + b"}",
            b'"a string"',
            b"\x00\x00",
        ],
    )
    code, rows, err = run([str(path)], capsys)
    assert code == EXIT_SOME_FAILED
    assert sum("correct" in row for row in rows) == LM_EVAL_ROWS
    errors = {row["place"]: row["error"] for row in rows if "error" in row}
    assert errors == {
        "line 1": "not UTF-8 (byte 0xff at byte offset 0 of the file); re-encode the file as UTF-8",
        "line 5": "not readable JSON: an integer of 5,001 digits (at most 4,300 are read)",
        "line 10": "not an lm-eval samples record (needs doc_id, resps, filtered_resps)",
        "line 14": "not valid JSON (Expecting value, column 1)",
    }
    for place in errors:
        assert f"{path}: {place}: " in err


def test_a_nested_lm_eval_line_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = grade_inputs.nested(tmp_path)
    code, rows, err = run([str(path)], capsys)
    assert code == EXIT_SOME_FAILED
    assert sum("correct" in row for row in rows) == LM_EVAL_ROWS
    assert f"{path}: line 2: not valid JSON here: nested too deeply" in err


def eval_with(tmp_path: Path, members: dict[str, bytes], name: str = "log.eval") -> Path:
    path = tmp_path / name
    path.write_bytes(grade_inputs.INSPECT_EVAL.read_bytes())
    with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    return path


def inspect_rows(rows: list[dict]) -> int:
    return sum("correct" in row for row in rows)


INSPECT_ROWS = 7
"""Samples in the real inspect_evals fixture."""


def peak_while_reading(path: Path) -> tuple[list[str], int]:
    """The problems Inspect-log reading reports, and the most memory it allocated (Inspect's
    modules are imported before measuring)."""
    imports.read(grade_inputs.INSPECT_EVAL, "inspect")
    tracemalloc.start()
    try:
        imported = imports.read(path, "inspect")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(imported.rows) == INSPECT_ROWS
    return [f"{p.place}: {p.error}" for p in imported.problems], peak


def test_an_eval_member_over_the_limit_is_named_and_not_inflated(tmp_path: Path) -> None:
    bomb = b" " * (MAX_RECORD_BYTES + 1)
    path = eval_with(tmp_path, {"samples/bomb_epoch_1.json": bomb})
    problems, peak = peak_while_reading(path)
    assert problems == [
        f"samples/bomb_epoch_1.json: inflates to {len(bomb):,} bytes, more than the "
        f"{MAX_RECORD_BYTES:,} read"
    ]
    assert peak < MAX_RECORD_BYTES // 2  # the member was never inflated


def test_a_member_that_lies_about_its_size_is_read_no_further(tmp_path: Path) -> None:
    path = grade_inputs.lying_eval(tmp_path, inflated=64 * grade_inputs.MB)
    problems, peak = peak_while_reading(path)
    assert len(problems) == 1
    assert problems[0].startswith("samples/bomb_epoch_1.json: cannot be inflated (BadZipFile")
    assert peak < 16 * grade_inputs.MB  # Inspect's own reader inflates all 64 MB


def test_corrupt_and_foreign_eval_members_are_each_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    members = {f"samples/junk{i}_epoch_1.json": b'{"id": 1}' for i in range(300)}
    members["samples/list_epoch_1.json"] = b"[[[]]]"
    members["samples/deep_epoch_1.json"] = b"[" * 100_000
    path = eval_with(tmp_path, members)
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("samples/list_epoch_1.json")
    start = info.header_offset + 30 + len(info.filename)
    data[start : start + 4] = b"\xde\xad\xbe\xef"  # the deflated bytes, not the sizes
    path.write_bytes(bytes(data))
    code, rows, err = run([str(path)], capsys)
    assert code == EXIT_SOME_FAILED
    assert inspect_rows(rows) == INSPECT_ROWS
    errors = {row["place"]: row["error"] for row in rows if "error" in row}
    assert len(errors) == 302
    assert errors["samples/list_epoch_1.json"].startswith("cannot be inflated")
    assert errors["samples/deep_epoch_1.json"] == "not valid JSON here: nested too deeply"
    assert errors["samples/junk0_epoch_1.json"].startswith("not an Inspect sample")
    assert "… and" not in err


def test_a_zip_that_is_not_an_inspect_log_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "other.eval"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("readme.txt", "hello")
    code, rows, err = run([str(path)], capsys)
    assert code == EXIT_USAGE and rows == []
    assert (
        err.strip()
        == f"gsm8k-grade: {path}: not an Inspect log (no header.json or _journal/start.json)"
    )


def test_a_large_json_log_is_refused_with_the_command_that_converts_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "log.json"
    with path.open("wb") as stream:
        stream.truncate(MAX_RECORD_BYTES + 1)
    code, _, err = run([str(path)], capsys)
    assert code == EXIT_USAGE
    assert f"inspect log convert {path} --to eval" in err


def test_a_gzipped_file_is_named_with_the_command_that_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rows.jsonl.gz"
    path.write_bytes(gzip.compress(GOOD + b"\n"))
    code, rows, err = run([str(path)], capsys)
    assert code == EXIT_USAGE and rows == []
    assert err.strip() == (
        f"gsm8k-grade: {path}: gzip-compressed; decompress it and read standard input: "
        f"gunzip -c {path} | gsm8k-grade -"
    )


def test_a_directory_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, rows, err = run([str(tmp_path)], capsys)
    assert code == EXIT_USAGE and rows == []
    assert err.strip() == f"gsm8k-grade: cannot read {tmp_path}: Is a directory"


def test_a_named_pipe_is_read_once_as_it_streams(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "rows.jsonl"
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("wb") as stream:
            stream.write(GOOD + b"\n" + GOOD + b"\n")

    writer = threading.Thread(target=write)
    writer.start()
    code, rows, _ = run([str(fifo)], capsys)
    writer.join()
    assert code == 0
    assert [row["correct"] for row in rows] == [True, True]


def naive_boxed_spans(text: str) -> list[tuple[int, int]]:
    """boxed_spans with every open brace kept: the reference the bounded stack must match."""
    import re

    spans, stack = [], []
    for brace in re.finditer(r"\\boxed[ \t]*\{|[{}]", text):
        if brace.group(0) != "}":
            stack.append((brace.group(0) != "{", brace.end()))
        elif stack:
            boxed, start = stack.pop()
            if boxed and brace.start() - start <= _BOXED_LIMIT:
                spans.append((start, brace.start()))
    return sorted(spans)


def test_boxed_spans_match_the_unbounded_stack() -> None:
    rng = random.Random(39)
    pieces = ["\\boxed{", "{", "}", "18", " ", "x" * 300]
    for _ in range(200):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 3000)))
        assert boxed_spans(text) == naive_boxed_spans(text)


@pytest.mark.slow  # a process or a large input: seconds each
def test_boxed_spans_hold_a_bounded_stack_on_unclosed_braces() -> None:
    text = "\\boxed{" + "{" * 1_000_000 + "}" * 3 + "\\boxed{18}"
    tracemalloc.start()
    spans = boxed_spans(text)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert [text[a:b] for a, b in spans] == ["18"]
    assert peak < 2_000_000  # the unbounded stack held about 100 MB


@pytest.mark.slow
@pytest.mark.parametrize("case", grade_inputs.HOSTILE, ids=lambda case: case.label)
def test_full_size_hostile_files_name_each_bad_place_within_512_mb(
    case: grade_inputs.Hostile, tmp_path: Path
) -> None:
    """The benchmark's files as generated: the bad place named, valid rows graded, peak
    resident memory of the grading process at most 512 MB."""
    path = case.build(tmp_path)
    result = grade_inputs.grade(path)
    assert result.peak_mb <= 512
    assert sum("correct" in row for row in result.rows()) == case.graded
    errors = grade_inputs.errors(result)
    assert len(errors) == len(case.places)
    for line, place in zip(errors, case.places, strict=True):
        assert line.startswith("gsm8k-grade: " + place.format(path=path))


def test_an_exception_while_regrading_is_that_row_s_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gsm8k.grading.imports import regrade

    def fragile(completion: str, *args: object) -> object:
        if "16 - 3 - 4" in completion:
            raise ArithmeticError("overflow")
        return original(completion, *args)  # type: ignore[arg-type]

    original = regrade.grade
    monkeypatch.setattr(regrade, "grade", fragile)
    path = tmp_path / grade_inputs.LM_EVAL_NAME
    path.write_bytes(grade_inputs.LM_EVAL.read_bytes())
    code, rows, err = run([str(path)], capsys)
    assert code == EXIT_SOME_FAILED
    assert [row["error"] for row in rows if "error" in row] == [
        "cannot grade: ArithmeticError: overflow"
    ]
    assert sum("correct" in row for row in rows) == LM_EVAL_ROWS - 1
    assert f"{path}: line 8: cannot grade: ArithmeticError: overflow" in err


@pytest.mark.slow  # a process or a large input: seconds each
def test_memory_stays_flat_over_many_failed_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = b"[]\n" * 100_000 + GOOD + b"\n"
    main(["-"], stdin=io.BytesIO(b"[]\n"))  # imports done before measuring
    capsys.readouterr()
    sink = open(os.devnull, "w")  # noqa: SIM115 (closed below); captured output would count
    monkeypatch.setattr(sys, "stdout", sink)
    tracemalloc.start()
    try:
        code = main(["-"], stdin=io.BytesIO(stdin))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        sink.close()
    err = capsys.readouterr().err
    assert code == EXIT_SOME_FAILED
    assert "… and 99990 more lines with an 'error' field" in err
    assert "graded 1 completions: accuracy 1/1" in err and "100000 lines could not" in err
    assert peak < 2_000_000  # each failure kept took about 400 bytes: 40 MB
