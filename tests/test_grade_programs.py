"""``gsm8k-grade --run-programs``: each row's program runs in the sandbox ``mode=pal`` uses and its
result is graded, whichever convention the program follows."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from gsm8k.grading.cli import EXIT_ALL_GRADED, EXIT_USAGE, main
from tests.test_result_channel import channel_program

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the OS sandbox needs Linux namespaces"
)

ROWS: list[tuple[dict[str, Any], bool, str]] = [
    # (row without id and target 18, correct, status)
    ({"program": "def solution():\n    return (16 - 3 - 4) * 2\n"}, True, "ok"),
    ({"program": "def simple_math_problem() -> int:\n    eggs = 16 - 3 - 4\n    return eggs * 2\n"}, True, "ok"),
    ({"program": "import math\nimport numpy as np\n\ndef solver():\n    return np.int64(9) * 2\nans = solver()"}, True, "ok"),
    ({"program": "eggs = 16 - 3 - 4\nprint(eggs * 2)\n"}, True, "ok"),
    ({"program": "print(f'The answer is {18}')\n"}, False, "no_result"),
    ({"completion": "Here is my program:\n```python\ndef solution():\n    return 9 * 2\n```\nIt returns 18."}, True, "ok"),
    ({"completion": "The answer is 18."}, False, "no_program"),
    ({"program": "def solution():\n    return 17\n"}, False, "ok"),
    ({"program": "while True:\n    pass\n"}, False, "timeout"),
    ({"program": "import os\nans = int(os.environ.get('GSM8K_SECRET', '-1'))\n"}, False, "ok"),
    ({"program": channel_program(b'{"status": ' + b"[" * 5000 + b"]" * 5000 + b"}\n")}, False, "invalid_result"),
]  # fmt: skip


@pytest.mark.slow
def test_every_convention_is_read_and_graded_in_the_sandbox(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GSM8K_SECRET", "18")  # in the evaluator's environment, not the sandbox's
    path = tmp_path / "programs.jsonl"
    path.write_text(
        "".join(
            json.dumps({"id": str(i), "target": "18", **row}) + "\n"
            for i, (row, _, _) in enumerate(ROWS)
        )
    )
    code = main(["--run-programs", str(path)])
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    assert code == EXIT_ALL_GRADED, captured.err
    got = [(row["correct"], row["status"]) for row in rows]
    assert got == [(correct, status) for _, correct, status in ROWS]
    assert {row["rule"] for row in rows} == {"program"}
    assert rows[0]["answer"] == "18" and rows[7]["answer"] == "17"
    assert "accuracy 5/11" in captured.err


def test_without_a_sandbox_running_programs_is_refused_unless_trusted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    row = {"id": "a", "target": "18", "program": "ans = 18"}
    data = (json.dumps(row) + "\n").encode()
    code = main(["--run-programs", "-"], stdin=io.BytesIO(data))
    captured = capsys.readouterr()
    assert code == EXIT_USAGE and "bubblewrap" in captured.err and captured.out == ""
    code = main(["--run-programs", "--trust-model-code", "-"], stdin=io.BytesIO(data))
    captured = capsys.readouterr()
    assert code == EXIT_ALL_GRADED and json.loads(captured.out)["correct"] is True


def test_a_row_needs_a_program_or_a_completion(capsys: pytest.CaptureFixture[str]) -> None:
    data = b'{"id": "a", "target": "18", "program": 18}\n{"id": "b", "target": "18"}\n'
    main(["--run-programs", "-"], stdin=io.BytesIO(data))
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[0]["error"] == "'program' must be a string"
    assert rows[1]["error"] == "'completion' must be a string (or give a 'program')"
