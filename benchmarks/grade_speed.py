"""How fast grading is: ``gsm8k-grade`` end to end, and long reasoning completions in process.

    python -m benchmarks.grade_speed [COUNT]

1. ``gsm8k-grade`` on COUNT completions (default 30,000: the labelled corpus repeated), with the
   wall time and the CPU time of the process (interpreter start included).
2. The grader in process on long completions: the reasoning-model completions rebuilt by
   ``build_reasoning_completions.py`` as they are (skipped with a note when not built), and
   100 kB thinking sections built by joining different real completions (no exact repetition,
   so no loop cuts the work short) before a final answer.
   Reported as megabytes of text per CPU second, the figure that stays meaningful on a loaded
   machine (the goal is at least 4).
3. Degenerate floods of 200 kB a model may write (a number repeated 100,000 times, on one line
   or many, after an unclosed box, as alternatives): CPU seconds each (the goal is under 0.5).
"""

from __future__ import annotations

import gzip
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.build_reasoning_completions import BUILD_COMMAND, OUT
from gsm8k.grading.verdict import extract_and_compare

DATA = Path(__file__).parent / "data"
LONG_CHARS = 100_000
"""Characters of thinking in each long completion."""
LONG_COUNT = 40
"""Long completions graded."""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cli_speed(count: int) -> None:
    rows = [
        json.loads(line)
        for name in ("grading_corpus.jsonl", "smollm2_completions.jsonl")
        for line in (DATA / name).read_text().splitlines()
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        for index in range(count):
            row = rows[index % len(rows)]
            record = {"id": str(index), "completion": row["completion"], "target": row["target"]}
            handle.write(json.dumps(record) + "\n")
    started, cpu_started = time.perf_counter(), _children_cpu()
    result = subprocess.run(
        [sys.executable, "-m", "gsm8k.grading.cli", handle.name],
        capture_output=True,
        text=True,
        check=True,
    )
    elapsed, cpu = time.perf_counter() - started, _children_cpu() - cpu_started
    assert len(result.stdout.splitlines()) == count
    print(
        f"gsm8k-grade: {count} completions in {elapsed:.2f} s wall, {cpu:.2f} s CPU "
        f"({cpu / count * 1e6:.0f} µs CPU each, process start included)"
    )
    print(result.stderr.strip())
    Path(handle.name).unlink()


def megabytes_per_cpu_second(completions: list[tuple[str, str]]) -> tuple[float, float]:
    """Megabytes graded per CPU second, and the CPU seconds spent."""
    started = time.process_time()
    for completion, target in completions:
        extract_and_compare(completion, target)
    cpu = time.process_time() - started
    size = sum(len(completion.encode("utf-8")) for completion, _ in completions)
    return size / 1e6 / cpu, cpu


def long_speed() -> None:
    if not OUT.exists():
        print(
            "reasoning completions not built, long-completion speed skipped; "
            f"build: {BUILD_COMMAND}"
        )
        return
    rows = [json.loads(line) for line in gzip.decompress(OUT.read_bytes()).splitlines()]
    real = [(row["completion"], row["target"]) for row in rows]
    rate, cpu = megabytes_per_cpu_second(real)
    size = sum(len(c.encode("utf-8")) for c, _ in real) / 1e6
    print(f"reasoning completions as written: {len(real)} ({size:.1f} MB): {rate:.1f} MB/CPU-s")
    texts = [row["completion"] for row in rows]
    marked: list[tuple[str, str]] = []
    plain: list[tuple[str, str]] = []
    for index in range(LONG_COUNT):
        parts, length, offset = [], 0, index
        while length < LONG_CHARS:
            parts.append(texts[offset % len(texts)])
            length += len(parts[-1])
            offset += 7
        thinking = "\n".join(parts)[:LONG_CHARS].replace("<|im_start|>", "")
        marked.append((f"<|im_start|>think{thinking}\n<|im_start|>answer\n\\boxed{{18}}", "18"))
        # Without markers every rule reads the whole text: the slowest honest case.
        plain.append((f"{thinking}\nSo she makes 9 * 2 = 18 dollars.", "18"))
    for name, completions in (("answer section", marked), ("no markers", plain)):
        rate, cpu = megabytes_per_cpu_second(completions)
        print(
            f"{LONG_COUNT} completions with {LONG_CHARS // 1000} kB of thinking ({name}): "
            f"{rate:.1f} MB/CPU-s ({cpu / LONG_COUNT * 1000:.1f} ms CPU each)"
        )


FLOOD_CHARS = 200_000
WORKING = "Janet has 16 - 3 - 4 = 9 eggs left, and 9 * 2 = 18.\n"
FLOODS = {
    "a number repeated on one line": ("", "1 "),
    "a number repeated, a line each": ("", "1 \n"),
    "after an unclosed box": ("\\boxed{18 ", "1 "),
    "signed numbers after an unclosed box": ("\\boxed{18 ", "+1 "),
    "fractions after an unclosed box": ("\\boxed{18 ", "\\frac{1}{2} "),
    "hedged alternatives": ("Maybe ", "18 or "),
}
"""Flood name → what opens it once, and the piece repeated."""


def flood_speed() -> None:
    for name, (head, piece) in FLOODS.items():
        text = WORKING + head + piece * (FLOOD_CHARS // len(piece))
        started = time.process_time()
        extract_and_compare(text, "18")
        print(f"flood, {name} ({len(text) // 1000} kB): {time.process_time() - started:.2f} CPU-s")


def main(count: int) -> int:
    cli_speed(count)
    long_speed()
    flood_speed()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 30_000))
