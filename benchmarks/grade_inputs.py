"""``gsm8k-grade`` on one row, and on hostile files: wall time, peak memory, what it says.

    python -m benchmarks.grade_inputs               # this checkout
    python -m benchmarks.grade_inputs --repeat 5    # more runs of the one-row timing
    PYTHONPATH=/path/to/other/checkout python -m benchmarks.grade_inputs   # another release

1. One JSONL row graded end to end (interpreter start included): wall time, best and median of
   ``--repeat`` runs, and which heavy packages the process imported.
2. Hostile files, generated in a temporary folder (never committed): each is graded by a fresh
   ``gsm8k-grade`` process, and its peak resident memory (``wait4``'s ``ru_maxrss``), exit
   status, wall time, rows graded and first error line are reported. The goal is at most
   512 MB on each, every bad place named by file and line, and the valid rows graded.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gsm8k.grading.imports.jsonlines import MAX_RECORD_BYTES

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "regrade"
(LM_EVAL,) = (FIXTURES / "lm_eval").glob("samples_gsm8k_local_*.jsonl")
INSPECT_EVAL = FIXTURES / "inspect_evals" / "gsm8k_inspect_evals.eval"
LM_EVAL_NAME = "samples_gsm8k_local_2026-01-01T00-00-00.jsonl"
"""Hostile lm-eval files keep lm-eval's naming, so the task name is read as it would be."""
MB = 1024 * 1024
HEAVY = ("inspect_ai", "scipy", "numpy", "pandas", "pydantic", "datasets")
"""Packages a plain JSONL grade must not import (each costs from 0.1 s to 2 s)."""
BOMB = "samples/bomb_epoch_1.json"
ONE_ROW = {"id": "1", "completion": "9 * 2 = 18 dollars.\nANSWER: 18", "target": "18"}


def lm_eval_lines() -> list[bytes]:
    """The real lm-eval 0.4.13 samples file's lines (7 questions, 2 filters)."""
    return LM_EVAL.read_bytes().splitlines()


def with_bad_lines(folder: Path, name: str, bad: list[bytes]) -> Path:
    """The real lm-eval lines with ``bad`` lines put after the first, third and fifth line."""
    lines = lm_eval_lines()
    for place, line in zip((1, 4, 7), bad, strict=False):
        lines.insert(place, line)
    path = folder / name / LM_EVAL_NAME
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def nested(folder: Path, depth: int = 200_000) -> Path:
    return with_bad_lines(folder, "nested", [b"[" * depth + b"]" * depth])


def long_integer(folder: Path, digits: int = 5_000) -> Path:
    record = json.loads(lm_eval_lines()[0])
    text = json.dumps(record).replace('"doc_id": 0', '"doc_id": 1' + "0" * (digits - 1), 1)
    return with_bad_lines(folder, "long-integer", [text.encode()])


def stray_byte(folder: Path) -> Path:
    """A ``\\xff`` inside the first line's generated text: the line is not UTF-8."""
    lines = lm_eval_lines()
    lines[0] = lines[0].replace(b"She has 16", b"She has \xff16", 1)
    path = folder / "stray-byte" / LM_EVAL_NAME
    path.parent.mkdir()
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def padded(folder: Path, size: int = 39 * 1000 * 1000) -> Path:
    """One record padded with ``[]`` to ``size`` bytes (parsed whole: 64 bytes of objects per
    3 bytes of text), between the real lines."""
    record = lm_eval_lines()[0]
    padding = b', "pad": [' + b"[]," * (size // 3) + b"[]]}"
    return with_bad_lines(folder, "padded", [record[:-1] + padding])


def padded_lines(folder: Path, count: int = 39, size: int = 1000 * 1000) -> Path:
    """Every question repeated with 1 MB of ``[]`` on each line: all valid, all graded."""
    record = lm_eval_lines()[1]
    padding = b', "pad": [' + b"[]," * (size // 3) + b"[]]}"
    path = folder / "padded-lines" / LM_EVAL_NAME
    path.parent.mkdir()
    path.write_bytes(b"\n".join([record[:-1] + padding] * count) + b"\n")
    return path


def inflating_eval(folder: Path, inflated: int = 1024 * MB) -> Path:
    """The real inspect_evals log plus a sample member that inflates to ``inflated`` bytes."""
    path = folder / "inflating" / "log.eval"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(INSPECT_EVAL.read_bytes())
    with (
        zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as archive,
        archive.open(BOMB, "w") as member,
    ):
        for _ in range(inflated // MB):
            member.write(b" " * MB)
    return path


def lying_eval(folder: Path, inflated: int = 1024 * MB) -> Path:
    """A member that records 100 bytes but inflates to ``inflated``: its recorded size is
    rewritten in its local header and its central directory entry."""
    path = inflating_eval(folder, inflated)
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(BOMB)
    name = BOMB.encode()
    data[info.header_offset + 22 : info.header_offset + 26] = (100).to_bytes(4, "little")
    at = data.find(b"PK\x01\x02")
    while data[at + 46 : at + 46 + len(name)] != name:
        at = data.find(b"PK\x01\x02", at + 4)
    data[at + 24 : at + 28] = (100).to_bytes(4, "little")
    lying = path.with_name("lying.eval")
    lying.write_bytes(bytes(data))
    path.unlink()
    return lying


def unclosed_box(folder: Path, size: int = 49 * 1000 * 1000) -> Path:
    """gsm8k-grade's own input: a valid row, a completion of ``size`` bytes opened with
    ``\\boxed{`` and never closed, a valid row."""
    good = json.dumps(ONE_ROW)
    completion = "\\boxed{" + "{" * size
    path = folder / "unclosed-box" / "rows.jsonl"
    path.parent.mkdir(exist_ok=True)
    big = json.dumps({"id": "2", "completion": completion, "target": "18"})
    path.write_text("\n".join([good, big, good]) + "\n")
    return path


@dataclass(frozen=True)
class Hostile:
    """A hostile file, the rows of it that must be graded and where its errors must point
    (``{path}`` is the file; lm-eval's and Inspect's places, or gsm8k-grade's own ``file:line``)."""

    label: str
    build: Callable[[Path], Path]
    graded: int
    places: tuple[str, ...]


LM_EVAL_QUESTIONS = 7
INSPECT_SAMPLES = 7
HOSTILE = (
    Hostile("lm-eval line nested 200,000 deep", nested, LM_EVAL_QUESTIONS, ("{path}: line 2: ",)),
    Hostile(
        "lm-eval line with a 5,000-digit integer",
        long_integer,
        LM_EVAL_QUESTIONS,
        ("{path}: line 2: ",),
    ),
    Hostile(
        "lm-eval first line with a stray \\xff",
        stray_byte,
        LM_EVAL_QUESTIONS,  # the line is a strict-match filter's: the lenient one's are graded
        ("{path}: line 1: ",),
    ),
    Hostile("lm-eval line of 39 MB of []", padded, LM_EVAL_QUESTIONS, ("{path}: line 2: ",)),
    Hostile("lm-eval file: 39 lines of 1 MB of []", padded_lines, 39, ()),
    Hostile(
        ".eval with a member inflating to 1 GiB",
        inflating_eval,
        INSPECT_SAMPLES,
        (f"{{path}}: {BOMB}: ",),
    ),
    Hostile(
        ".eval with a member recording 100 bytes, inflating to 1 GiB",
        lying_eval,
        INSPECT_SAMPLES,
        (f"{{path}}: {BOMB}: ",),
    ),
    Hostile("own rows: 49 MB completion, unclosed \\boxed{", unclosed_box, 2, ("{path}:2: ",)),
    Hostile(
        "own rows: 8 MiB completion (the most a line holds), unclosed \\boxed{",
        lambda folder: unclosed_box(folder, MAX_RECORD_BYTES - 100),
        3,
        (),
    ),
    Hostile(
        "lm-eval line of 8 MiB of [] (the most a line holds)",
        lambda folder: padded(folder, MAX_RECORD_BYTES - 2000),
        LM_EVAL_QUESTIONS,  # a strict-match line, read and left for the lenient filter's
        (),
    ),
)


@dataclass(frozen=True)
class Run:
    code: int
    wall: float
    peak_mb: float
    stdout: str
    stderr: str

    def rows(self) -> list[dict[str, object]]:
        return [json.loads(line) for line in self.stdout.splitlines()]


MEASURE = (
    "import resource, subprocess, sys\n"
    "code = subprocess.call(sys.argv[1:])\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "print(f'peak-kb: {peak}', file=sys.stderr)\n"
    "raise SystemExit(code)\n"
)
"""Runs a command and reports its peak resident memory. A child's ``ru_maxrss`` counts the
memory of the process it was forked from until it runs ``exec``: started from this small
process, not from the benchmark holding the hostile file's text, the figure is the grader's."""


def grade(path: Path | str, *extra: str, code: str | None = None) -> Run:
    """``gsm8k-grade PATH`` in a fresh process: its exit status, wall time and peak memory."""
    command = [sys.executable, "-m", "gsm8k.grading.cli", str(path), *extra]
    if code is not None:
        command = [sys.executable, "-c", code, str(path)]
    return measure(command)


def measure(command: list[str]) -> Run:
    """``command`` in a fresh process: its exit status, wall time, peak memory and output."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        status = subprocess.call([sys.executable, "-c", MEASURE, *command], stdout=out, stderr=err)
        wall = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        said = err.read().decode().splitlines()
        peak = int(said.pop().removeprefix("peak-kb: "))  # kilobytes on Linux
        return Run(status, wall, peak / 1024, out.read().decode(), "\n".join(said))


HEAVY_PROBE = (
    "import sys\n"
    "from gsm8k.grading.cli import main\n"
    "code = main(sys.argv[1:])\n"
    f"heavy = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})\n"
    "print('heavy:', ' '.join(heavy) or 'none', file=sys.stderr)\n"
    "raise SystemExit(code)\n"
)
"""Grades as the command does, then says which heavy packages it loaded."""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_row(repeat: int) -> None:
    import gsm8k

    print(f"gsm8k from {Path(gsm8k.__file__).parent}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "one.jsonl"
        path.write_text(json.dumps(ONE_ROW) + "\n")
        walls, cpus = [], []
        for _ in range(repeat):
            started, cpu_started = time.perf_counter(), _children_cpu()
            command = [sys.executable, "-m", "gsm8k.grading.cli", str(path)]
            subprocess.run(command, capture_output=True, check=True)
            walls.append(time.perf_counter() - started)
            cpus.append(_children_cpu() - cpu_started)
        probe = grade(path, code=HEAVY_PROBE)
    said = [line for line in probe.stderr.splitlines() if line.startswith("heavy: ")]
    loaded = said[0].removeprefix("heavy: ").split() if said else ["(the probe failed)"]
    packages = sorted({name.split(".")[0] for name in loaded}) or ["none"]
    print(
        f"one JSONL row: best {min(walls):.2f} s, median {statistics.median(walls):.2f} s wall "
        f"over {repeat} runs (CPU: best {min(cpus):.2f} s, the figure a busy machine leaves "
        f"meaningful; load average {os.getloadavg()[0]:.1f}); heavy packages imported: "
        f"{', '.join(packages)}"
    )


def errors(run: Run) -> list[str]:
    """The lines of stderr that name a bad place (the summary and headline are not errors)."""
    return [line for line in run.stderr.splitlines() if line.startswith("gsm8k-grade: ")]


def hostile(labels: list[str] | None = None) -> None:
    chosen = [c for c in HOSTILE if not labels or any(label in c.label for label in labels)]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for case in chosen:
            path = case.build(folder)
            run = grade(path)
            graded = sum("correct" in row for row in run.rows())
            print(
                f"{case.label}: {path.stat().st_size / 1e6:.1f} MB file, peak {run.peak_mb:.0f} "
                f"MB, {run.wall:.1f} s wall, exit {run.code}, {graded} rows graded "
                f"(expected {case.graded})"
            )
            for line in errors(run)[:3] or run.stderr.splitlines()[-1:]:
                print(f"    {line.replace(str(path), 'FILE')[:200]}")
            path.unlink()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of the one-row timing")
    parser.add_argument("--only", choices=("one-row", "hostile"), help="run one part")
    parser.add_argument(
        "--case", action="append", help="hostile files whose label contains this (repeatable)"
    )
    args = parser.parse_args(argv)
    if args.only != "hostile":
        one_row(args.repeat)
    if args.only != "one-row":
        hostile(args.case)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
