"""Files a user did not write, through the commands that read them: template folders
(``gsm8k-fresh``, ``-T dataset=gsm-symbolic-fresh``), log folders (``gsm8k-contamination``),
names holding terminal escapes, and inputs ``gsm8k-grade`` does not read. Each is one line
naming the file and what to do, a non-zero exit (or the template skipped and listed), no
traceback and no raw control character. The inputs are built by ``benchmarks/hostile_files.py``,
which also measures each at full size in its own process (peak memory at most 512 MB)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from benchmarks import hostile_files as hostile
from gsm8k.compare import inflation
from gsm8k.contamination.cli import main as contamination
from gsm8k.data.fresh import fresh_set
from gsm8k.data.fresh.cli import main as fresh
from gsm8k.grading.cli import EXIT_USAGE
from gsm8k.grading.cli import main as grade
from gsm8k.grading.printable import printable
from gsm8k.settings.errors import TaskInputError

ROOT = Path(__file__).resolve().parent.parent


def raw_controls(text: str) -> list[str]:
    """Control characters a terminal would act on (line breaks and tabs are text)."""
    return [c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) < 0xA0]


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, lines
    assert not raw_controls(lines[0]) and "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize(
    ("build", "says"),
    [
        # /proc/self/pagemap claims 0 bytes and reads on; where /proc is closed it cannot be read
        pytest.param(hostile.special_file, "gsm8k-fresh: 0000.json: ", id="special-file"),
        pytest.param(
            lambda folder: hostile.nested_json(folder, 50_000),
            "gsm8k-fresh: 0000.json: JSON nested too deeply; not a template.",
            id="nested-json",
        ),
        pytest.param(
            hostile.escaped_name,
            "gsm8k-fresh: 0000\\x1b]0;owned\\x07.json: line 1: not valid JSON",
            id="escape-in-a-file-name",
        ),
    ],
)
def test_a_template_that_cannot_be_read_is_one_line_naming_it(
    build: Any, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = build(tmp_path)
    assert fresh(["--templates", str(folder), "--no-gsm8k"]) == 2
    out, err = capsys.readouterr()
    assert one_line(err).startswith(says) and out == ""


def hostile_templates(tmp_path: Path) -> Path:
    """Three templates that cannot give a right question beside one that can."""
    folder = tmp_path / "mixed"
    for index, build in enumerate(
        (hostile.deep_lists, lambda f: hostile.render_bomb(f, 2_000), hostile.wrong_answer)
    ):
        made = build(tmp_path / str(index)) / "0000.json"
        record = json.loads(made.read_text("utf-8")) | {"id_orig": index}
        hostile._template(folder, record, f"{index:04d}.json")
    hostile._template(folder, hostile.SHOP | {"id_orig": 3}, "0003.json")
    return folder


SKIPPED = {
    "0000": "a list nested more than 16 deep",
    "0001": "the question would be longer than 100,000 characters",
    "0002": "the solution's last computation (it has no #### line) differs from #answer",
}


def test_templates_that_cannot_give_a_right_question_are_skipped_and_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = hostile_templates(tmp_path)
    drawn = fresh_set(folder, seed=0, per_template=2, include_originals=False)
    assert set(drawn.skipped) == set(SKIPPED)
    for name, why in SKIPPED.items():
        assert why in drawn.skipped[name]
    assert {s.metadata["template"] for s in drawn.samples if s.metadata} == {"0003"}
    assert fresh(["--templates", str(folder), "--draw", "--per-template", "1"]) == 0
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert [line.split("template ", 1)[1][:9] for line in lines] == [
        f"{name}.json" for name in SKIPPED
    ]
    assert out.count("## ") == 1 and "(template 0003)" in out


def test_a_wrong_answer_without_a_final_line_never_becomes_a_target(tmp_path: Path) -> None:
    """The true answer n * p, and ``#answer`` n * p + 1: no question is drawn at all."""
    folder = hostile.wrong_answer(tmp_path)
    assert fresh(["--templates", str(folder), "--draw"]) == 1
    with pytest.raises(ValueError, match=r"every template in .* was skipped"):
        fresh_set(folder, seed=0, per_template=1, include_originals=False)


def test_the_probe_names_itself_when_it_skips_a_template(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from gsm8k.contamination.fresh import fresh_texts

    folder = hostile_templates(tmp_path)
    with caplog.at_level("WARNING"):
        texts = fresh_texts(str(folder), seed=0, per_template=1)
    assert set(texts.skipped) == set(SKIPPED)
    warned = [r.getMessage() for r in caplog.records if "skipped" in r.getMessage()]
    assert len(warned) == 3 and all(m.startswith("gsm8k_memorization") for m in warned)


def test_a_refused_folder_reaches_stderr_under_display_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gsm8k.settings import errors
    from gsm8k.task import gsm8k

    folder = hostile.escaped_name(tmp_path)
    monkeypatch.setattr(errors, "display_type", lambda: "none")
    with pytest.raises(TaskInputError) as raised:
        gsm8k(dataset="gsm-symbolic-fresh", templates=str(folder))
    line = one_line(capsys.readouterr().err)
    assert line == f"error: {raised.value}" and "0000\\x1b]0;owned\\x07.json" in line


def test_a_misspelt_parameter_holding_an_escape_is_refused_escaped() -> None:
    from gsm8k.task import gsm8k

    with pytest.raises(TaskInputError) as raised:
        misspelt: dict[str, Any] = {f"fewshoot{hostile.ESCAPES}": 1}
        gsm8k(**misspelt)
    assert "fewshoot\\x1b]0;owned\\x07" in str(raised.value)
    assert not raw_controls(str(raised.value))


def test_a_log_member_that_inflates_past_the_bound_is_skipped_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(inflation, "MAX_MEMBER_BYTES", 1024 * 1024)
    folder = hostile.header_bomb(tmp_path, 2 * hostile.MB)
    (log,) = folder.iterdir()
    assert "header.json inflates to more than 1 MiB" in str(inflation.oversized_member(str(log)))
    lying = tmp_path / "lying.eval"  # records 10 bytes for the same 2 MB
    data = bytearray(log.read_bytes())
    central = data.rfind(b"PK\x01\x02")
    data[central + 24 : central + 28] = (10).to_bytes(4, "little")
    lying.write_bytes(bytes(data))
    with zipfile.ZipFile(lying) as archive:
        assert archive.getinfo("header.json").file_size == 10
    assert "inflates to more than" in str(inflation.oversized_member(str(lying)))
    assert contamination([str(folder)]) == 2
    line = one_line(capsys.readouterr().err)
    assert "1 log(s) skipped" in line and "header.json inflates to more than 1 MiB" in line


def test_logs_whose_members_add_up_past_the_bound_or_json_logs_too_large_are_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(inflation, "MAX_READ_BYTES", 1024 * 1024)
    many = tmp_path / "many.eval"
    with zipfile.ZipFile(many, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for part in range(3):  # each under the per-member bound, together past the total
            archive.writestr(f"_journal/summaries/{part}.json", b"0" * 400_000)
    assert "together" in str(inflation.oversized_member(str(many)))
    large = tmp_path / "large.json"
    large.write_bytes(b" " * (1024 * 1024 + 1))
    assert "inspect log convert" in str(inflation.oversized_member(str(large)))
    assert inflation.oversized_member(str(tmp_path / "absent.eval")) is None


@pytest.mark.parametrize(
    ("build", "says"),
    [
        pytest.param(hostile.empty_file, "empty, no completions to grade; ", id="empty"),
        pytest.param(
            hostile.csv_file, "comma- or tab-separated values, not JSON lines; ", id="csv"
        ),
    ],
)
def test_a_file_gsm8k_grade_does_not_read_is_one_line_naming_the_formats(
    build: Any, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = build(tmp_path)
    assert grade([str(path)]) == EXIT_USAGE
    out, err = capsys.readouterr()
    line = one_line(err)
    assert line.startswith(f"gsm8k-grade: {path}: {says}") and out == ""
    assert "JSON lines" in line and "lm-eval --log_samples" in line and ".eval" in line


def test_empty_standard_input_is_not_a_successful_grade(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert grade(["-"], stdin=io.BytesIO(b"")) == EXIT_USAGE
    assert "<stdin>: empty, no completions to grade" in one_line(capsys.readouterr().err)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        pytest.param("a\x1b]0;x\x07b", "a\\x1b]0;x\\x07b", id="osc-and-bel"),
        pytest.param("x\x9bq\x7f", "x\\x9bq\\x7f", id="c1-and-del"),
        pytest.param("gpt\u202e4", "gpt\\u202e4", id="bidi-override"),
        pytest.param("Zoë 東京 $x$", "Zoë 東京 $x$", id="letters-kept"),
        pytest.param("one\ntwo\tthree", "one\\x0atwo\\x09three", id="one-line"),
    ],
)
def test_printable_escapes_what_a_terminal_would_act_on(text: str, shown: str) -> None:
    assert printable(text) == shown
    assert printable("a\nb\x1b", lines=True) == "a\nb\\x1b"


# --- through the real processes and real logs (slow) -------------------------------------------

NAME = "evil\x1b]0;owned\x07$x^$"
"""A model name with a terminal escape and TeX: printed escaped, plotted as plain text."""


@pytest.mark.slow
def test_hostile_logs_and_names_through_gsm8k_contamination(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from inspect_ai.log import read_eval_log, write_eval_log

    from gsm8k.contamination.memorization import gsm8k_memorization
    from gsm8k.task import gsm8k
    from tests.contamination_support import memorizer, write_gsm8k, write_templates
    from tests.scripted import run_eval, scripted_model

    monkeypatch.setenv("GSM8K_DATA_DIR", str(write_gsm8k(tmp_path / "gsm8k", 2, train=4)))
    templates = write_templates(tmp_path / "templates", 2)
    logs = tmp_path / "logs"
    fresh_task = gsm8k(
        dataset="gsm-symbolic-fresh", templates=str(templates), fresh_per_template=1, fewshot=0
    )
    probe_task = gsm8k_memorization(templates=str(templates), train=2)
    model = scripted_model(memorizer(2), name=NAME)
    run_eval(fresh_task, model, log_dir=str(logs), limit=3)
    probe = run_eval(probe_task, model, log_dir=str(logs))
    for sample in probe.samples or []:  # a probe whose scores hold no numbers
        for score in (sample.scores or {}).values():
            score.value = {"exact": None, "rouge_l": None, "ngram": None}
    write_eval_log(probe, probe.location)
    assert read_eval_log(probe.location).samples is not None

    assert contamination([str(logs), "--png", str(tmp_path / "signals.png")]) == 0
    out, err = capsys.readouterr()
    assert not raw_controls(out) and not raw_controls(err) and "Traceback" not in err
    assert "evil\\x1b]0;owned\\x07$x^$" in out and (tmp_path / "signals.png").stat().st_size
    assert "0 of " in out.split("**memorization probe**")[1]  # its samples left unscored
    fresh_run = out.split("**fresh questions**")[1].split("**memorization probe**")[0]
    assert "Settings: dataset=gsm-symbolic-fresh," in fresh_run and " --limit 3\n" in fresh_run

    other = scripted_model(lambda prompt: "ANSWER: 1", name="other\x07")
    run_eval(fresh_task, other, log_dir=str(logs), limit=3)
    assert contamination([str(logs)]) == 3
    out, err = capsys.readouterr()
    assert out == "" and not raw_controls(err) and "other\\x07" in err


@pytest.mark.slow
def test_a_refused_folder_reaches_the_terminal_of_inspect_eval_under_display_none(
    tmp_path: Path,
) -> None:
    folder = hostile.nested_json(tmp_path, 50_000)
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "inspect"),
            *("eval", "gsm8k/gsm8k", "--model", "mockllm/model"),
            *("-T", "dataset=gsm-symbolic-fresh", "-T", f"templates={folder}"),
            *("--log-dir", str(tmp_path / "logs")),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=os.environ | {"INSPECT_DISPLAY": "none"},
        timeout=300,
    )
    assert done.returncode != 0
    assert "0000.json: JSON nested too deeply" in one_line(done.stderr)


@pytest.mark.slow
@pytest.mark.parametrize(
    "case",
    [
        next(case for case in hostile.CASES if case.label == "render-bomb"),
        # 600 MB: past the 512 MB bound if read, built in a third of the benchmark's time
        hostile.Case(
            "header-bomb",
            lambda folder: hostile.header_bomb(folder, 600 * hostile.MB),
            hostile.contamination,
            "header.json inflates to more than 64 MiB",
            2,
        ),
    ],
    ids=lambda case: case.label,
)
def test_full_size_bombs_stay_within_512_mb(case: hostile.Case, tmp_path: Path) -> None:
    result = hostile.run(case, tmp_path)
    assert hostile.problems(case, result) == [], result.stderr[-2000:]


@pytest.mark.parametrize(
    ("value", "read"),
    [
        pytest.param(0.25, 0.25, id="a-number"),
        pytest.param(None, None, id="none"),
        pytest.param("0.5", None, id="text"),
        pytest.param(True, None, id="a-boolean"),
        pytest.param(10**400, None, id="too-large-for-a-float"),
        pytest.param(float("nan"), None, id="nan"),
    ],
)
def test_a_probe_measure_from_a_log_is_a_finite_number_or_unscored(value: Any, read: Any) -> None:
    from gsm8k.contamination.logs import _measure

    assert _measure(value) == read
