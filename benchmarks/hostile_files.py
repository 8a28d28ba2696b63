"""Hostile template folders, logs, names and grading inputs against the real commands.

    python -m benchmarks.hostile_files            # every input, at full size

Each input is built in a temporary folder (never committed) and given to a fresh process of the
command a user would run (``gsm8k-fresh``, ``gsm8k-contamination``, ``gsm8k-grade``); for each
the table gives the exit status, the wall time, the peak resident memory (``wait4``'s
``ru_maxrss``, as :mod:`benchmarks.grade_inputs` measures it) and the first line on stderr. The
goal: a non-zero exit (or the template skipped and listed), one line naming the file and what
to do, no traceback, no raw control character, at most 512 MB.

The templates are written here, in GSM-Symbolic's format; GSM-Symbolic's own are never copied.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.grade_inputs import Run, measure

MB = 1024 * 1024
PEAK_MB = 512
ESCAPES = "\x1b]0;owned\x07"
"""An OSC sequence that retitles a terminal window, BEL-terminated: what a hostile name holds."""

SHOP: dict[str, Any] = {
    "question": "Ana buys 3 pens at $2 each. How much does she spend?",
    "answer": "She spends 3 * 2 = <<3*2=6>>6 dollars.\n#### 6",
    "id_orig": 0,
    "question_annotated": (
        "{name,Ana} buys {n,3} pens at ${p,2} each. How much does she spend?\n\n"
        "#init:\n- name = sample(names_female)\n- $n = range(2, 20)\n- $p = range(2, 10)\n\n"
        "#conditions:\n- n * p < 100\n\n#answer: n * p"
    ),
    "answer_annotated": "She spends {n} * {p} = <<{n}*{p}={n*p}>>{n*p} dollars.\n#### {n*p}",
}


def _template(folder: Path, record: dict[str, Any], name: str = "0000.json") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(record, indent=2), "utf-8")
    return folder


def with_init(lines: list[str], slots: str = "", answer: str = "n * p") -> dict[str, Any]:
    """SHOP with ``lines`` added to its ``#init:`` and ``slots`` to its question."""
    question = str(SHOP["question_annotated"]).replace(
        "- $p = range(2, 10)\n", "- $p = range(2, 10)\n" + "".join(f"- {x}\n" for x in lines)
    )
    question = question.replace("How much", f"{slots}How much")
    return {**SHOP, "question_annotated": question.replace("#answer: n * p", f"#answer: {answer}")}


def special_file(folder: Path) -> Path:
    """A template that is a link to a special file: /proc claims 0 bytes and never ends."""
    target = folder / "special"
    target.mkdir()
    (target / "0000.json").symlink_to("/proc/self/pagemap")
    return target


def nested_json(folder: Path, depth: int = 300_000) -> Path:
    """600 kB of nested brackets: Python's JSON reader recurses once per bracket."""
    target = folder / "nested"
    target.mkdir()
    (target / "0000.json").write_text("[" * depth + "]" * depth, "utf-8")
    return target


def deep_lists(folder: Path, lines: int = 700) -> Path:
    """Each ``#init`` line nests a list one level deeper than the line before."""
    # sample(..., 1) keeps its list: a line whose value is a list would draw one item of it
    nesting = ["a0 = [1]", *(f"a{k} = sample([a{k - 1}], 1)" for k in range(1, lines))]
    return _template(folder / "deep", with_init(nesting))


def render_bomb(folder: Path, items: int = 100_000) -> Path:
    """One slot given 100,000 texts of 10,000 characters: a 1 GB question per instance."""
    text = ["t0 = 'xxxxxxxxxx'"] + [f"t{k} = {' + '.join([f't{k - 1}'] * 10)}" for k in (1, 2, 3)]
    bomb = with_init([*text, f"s = sample([t3] * {items}, {items})"], slots="She says {s,hi}. ")
    return _template(folder / "render", bomb)


def wrong_answer(folder: Path) -> Path:
    """``#answer`` one more than the solution computes, and no ``####`` line to catch it."""
    wrong = {
        **SHOP,
        "question_annotated": str(SHOP["question_annotated"]) + " + 1",
        "answer_annotated": "She spends {n} * {p} = <<{n}*{p}={n*p}>>{n*p} dollars.",
    }
    return _template(folder / "wrong", wrong)


def escaped_name(folder: Path) -> Path:
    """A malformed template whose file name holds a terminal escape."""
    target = folder / "named"
    target.mkdir()
    (target / f"0000{ESCAPES}.json").write_text("{", "utf-8")
    return target


def header_bomb(folder: Path, size: int = 1536 * MB) -> Path:
    """A small ``.eval`` whose ``header.json`` inflates to ``size`` bytes."""
    target = folder / "bomb-logs"
    target.mkdir()
    path = target / "2026-01-01T00-00-00+00-00_gsm8k_bomb.eval"
    with (
        zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive,
        archive.open("header.json", "w", force_zip64=True) as member,
    ):
        member.write(b'{"eval": {"task": "gsm8k", "x": "')
        for _ in range(size // MB):
            member.write(b"0" * MB)
        member.write(b'"}}')
    return target


def empty_file(folder: Path) -> Path:
    path = folder / "empty.jsonl"
    path.write_bytes(b"")
    return path


def csv_file(folder: Path) -> Path:
    path = folder / "completions.csv"
    path.write_text('id,completion,target\n1,"ANSWER: 18",18\n2,"ANSWER: 7",8\n', "utf-8")
    return path


@dataclass(frozen=True)
class Case:
    label: str
    build: Callable[[Path], Path]
    command: Callable[[Path], list[str]]
    says: str
    """What the one line on stderr holds."""
    status: int


def fresh(*extra: str) -> Callable[[Path], list[str]]:
    return lambda folder: ["-m", "gsm8k.data.fresh", "--templates", str(folder), *extra]


def contamination(folder: Path) -> list[str]:
    return ["-m", "gsm8k.contamination.cli", str(folder)]


def grading(path: Path) -> list[str]:
    return ["-m", "gsm8k.grading.cli", str(path)]


CASES = (
    Case("special-file", special_file, fresh(), "0000.json: larger than", 2),
    Case("nested-json", nested_json, fresh(), "0000.json: JSON nested too deeply", 2),
    Case("deep-lists", deep_lists, fresh("--draw"), "nested more than 16 deep", 1),
    Case("render-bomb", render_bomb, fresh("--draw"), "longer than 100,000 characters", 1),
    Case("wrong-answer", wrong_answer, fresh("--draw"), "it has no #### line", 1),
    Case("escaped-name", escaped_name, fresh(), "0000\\x1b]0;owned\\x07.json", 2),
    Case("header-bomb", header_bomb, contamination, "no fresh-question run", 2),
    Case("empty-file", empty_file, grading, "empty, no completions to grade", 2),
    Case("csv-file", csv_file, grading, "not JSON lines; gsm8k-grade reads JSON lines", 2),
)


def run(case: Case, folder: Path) -> Run:
    """The case's command in a fresh process, measured."""
    return measure([sys.executable, *case.command(case.build(folder))])


def problems(case: Case, result: Run) -> list[str]:
    """What the run did that a hostile input must not make it do."""
    found = []
    if result.code != case.status:
        found.append(f"exit {result.code}, not {case.status}")
    if "Traceback" in result.stderr:
        found.append("a traceback")
    if any((ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) < 0xA0 for c in result.stderr):
        found.append("a raw control character on stderr")
    if any(ord(c) < 32 and c not in "\n\t" for c in result.stdout):
        found.append("a raw control character on stdout")
    if case.says not in result.stderr:
        found.append(f"stderr lacks {case.says!r}")
    if result.peak_mb > PEAK_MB:
        found.append(f"peak {result.peak_mb:.0f} MB")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.parse_args()
    print("| input | exit | wall s | peak MB | first line on stderr | problems |")
    print("|---|---:|---:|---:|---|---|")
    for case in CASES:
        with tempfile.TemporaryDirectory() as folder:
            result = run(case, Path(folder))
        first = (result.stderr.strip().splitlines() or [""])[0][:120].replace("|", "\\|")
        found = "; ".join(problems(case, result)) or "none"
        print(
            f"| {case.label} | {result.code} | {result.wall:.1f} | {result.peak_mb:.0f} | "
            f"{first} | {found} |"
        )


if __name__ == "__main__":
    main()
