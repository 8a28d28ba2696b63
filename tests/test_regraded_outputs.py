"""The README's "Re-graded published outputs" table and the script that prints it."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.regraded_outputs import ModelResult, completions_dir, main, table

README = Path(__file__).parents[1] / "README.md"


def test_a_row_gives_each_graders_accuracy_and_the_paired_differences() -> None:
    result = ModelResult(
        model="llm-agents/tora-70b-v1.0",
        source="tora",
        rows=4,
        labels=[True, True, True, False],
        match=[True, False, False, False],
        flexible=[False, False, False, False],
        ours=[True, True, True, False],
    )
    unknown = ModelResult("lab/new-model", "elsewhere", 2, [True, False], [True, False],
                          [True, False], [True, False])  # fmt: skip
    lines = table([result, unknown]).splitlines()
    cells = [cell.strip() for cell in lines[2].strip("|").split("|")]
    assert cells[:3] == ["tora-70b-v1.0", "4", "84.3"]  # the ToRA README's figure
    assert cells[3] == "75.0 (30.1–95.4)" and cells[4].startswith("25.0 ")
    assert cells[5].startswith("0.0 ") and cells[6] == "**75.0 (30.1–95.4)**"
    assert cells[7].startswith("+75.0 (") and cells[8].startswith("+50.0 (")
    assert lines[3].split("|")[3].strip() == "—"  # no published figure known
    assert lines[-1] == "Outputs published by microsoft/ToRA (MIT); elsewhere."


@pytest.mark.bench  # lm-eval's own column: the bench extra
def test_the_readme_table_is_the_scripts_output(capsys: pytest.CaptureFixture[str]) -> None:
    folder = completions_dir(None)
    if not folder.is_dir():
        pytest.skip(f"no labelled completions at {folder} (set GSM8K_COMPLETIONS_DIR)")
    pytest.importorskip("lm_eval")
    assert main([]) == 0
    printed = capsys.readouterr().out.strip()
    assert printed in README.read_text(encoding="utf-8"), "README table is stale: rebuild it"
