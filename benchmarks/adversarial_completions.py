"""Completions built to make answer extraction slow, and the grader's time on each.

    python benchmarks/adversarial_completions.py [SIZE_KB]

Each case is what a broken or hostile model can write (trailing newline floods, a token repeated
until the length limit, one enormous number). Prints CPU time per completion at SIZE_KB (default
200) and at a quarter of it: linear work shows a ratio near 4, quadratic work near 16.
tests/test_grading_fuzz.py runs the same cases with generous bounds.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from gsm8k.grading.verdict import extract_and_compare


def _repeat(unit: str, size: int, head: str = "", tail: str = "") -> str:
    return head + unit * max(1, (size - len(head) - len(tail)) // len(unit)) + tail


def _varied(unit: str, size: int) -> str:
    """``unit`` filled with changing numbers (``{i}``, ``{j}``, ``{k}``) and words (``{w}``)."""
    words = ("one", "two", "three", "seven")
    parts, length, i = [], 0, 0
    while length < size:
        part = unit.format(i=i, j=1 + i % 3, k=5 + i % 7, w=words[i % 4] * (1 + i % 5))
        parts.append(part)
        length, i = length + len(part), i + 1
    return "".join(parts)


CASES: dict[str, Callable[[int], str]] = {
    "answer line, then a newline flood": lambda n: _repeat("\n", n, head="ANSWER: 18"),
    "newline flood, then a question": lambda n: _repeat("\n", n, "ANSWER: 18", "Question: 2"),
    "\\boxed{ repeated, never closed": lambda n: _repeat("\\boxed{", n),
    "\\boxed{ nested and closed": lambda n: _repeat("\\boxed{", n // 2) + "18" + "}" * (n // 14),
    "ANSWER: repeated": lambda n: _repeat("ANSWER:", n),
    "ANSWER: lines with no value": lambda n: _repeat("ANSWER:\n", n),
    "ANSWER: then spaces and a letter": lambda n: _repeat(" ", n, "ANSWER:\n1", "x"),
    "one long digit run": lambda n: _repeat("7", n, head="ANSWER: "),
    "long digit run, no keyword": lambda n: _repeat("7", n),
    "thousands groups without end": lambda n: _repeat(",123", n, head="1"),
    "space groups without end": lambda n: _repeat(" 123", n, head="1"),
    "dot groups without end": lambda n: _repeat(".123", n, head="1"),
    "deep braces": lambda n: "{" * (n // 2) + "}" * (n // 2),
    "<think> flood, never closed": lambda n: _repeat("<think>", n),
    "</think> flood": lambda n: _repeat("</think>", n, tail="ANSWER: 18"),
    "the answer is, repeated": lambda n: _repeat("the answer is ", n),
    "Ответ: and 答案是 repeated": lambda n: _repeat("Ответ: 答案是 ", n),
    "JSON answer keys repeated": lambda n: _repeat('"answer": ', n),
    "#### lines with no value": lambda n: _repeat("####\n", n),
    "questions after an answer": lambda n: _repeat("\nQuestion:", n, head="ANSWER: 18"),
    "fractions over zero": lambda n: _repeat("1/0 ", n),
    "numbers in one question": lambda n: _repeat("12 ", n, tail="?"),
    "list markers": lambda n: _repeat("\n1. ", n),
    "labels": lambda n: _repeat("#12 ", n),
    "output blocks": lambda n: _repeat("```output\n", n),
    "mixed scripts and digits": lambda n: _repeat("答えは১২ๆ１８ \u202f1\u00a0000,5 ", n),
    "spaces then no number": lambda n: _repeat(" ", n, head="The answer is", tail="x"),
    "decimal commas": lambda n: _repeat("1,5 ", n),
    "final A: line of markup and spaces": lambda n: _repeat(" ", n, head="A: *", tail="x"),
    "JSON answer of markup and spaces": lambda n: _repeat(" ", n, '{"answer": "*', 'x"}'),
    "JSON reasoning of escaped quotes": lambda n: _repeat('\\"', n, '{"reasoning": "'),
    "Answer: lines of words": lambda n: _repeat("Answer: she has some eggs\n", n),
    # Varied from one unit to the next, so that the loop rule does not end the reading early.
    "mixed numbers": lambda n: _varied("{i} {j}/{k} ", n),
    "#### headings after an opening guess": lambda n: "#### 18\n" + _varied("#### Cost {i}\n", n),
    "final-answer headings": lambda n: _varied("**Final Answer:** {i} apples ({j} red)\n", n),
    "answer line of number words": lambda n: "ANSWER: " + _varied("one hundred and {w} ", n),
    "answer lines of expressions": lambda n: _varied("Answer: x - {i} or {j}\n", n),
    "boxes in two units": lambda n: _varied("\\boxed{{{i}}} hours, \\boxed{{{k}}} min. ", n),
    "dangling markers after a box": lambda n: _repeat("}.", n, "\\boxed{12", "Final Answer:"),
    "a loop cut mid-passage": lambda n: _repeat("Wait, let me check again. ", n, tail="Wai"),
    "<|im_start|> markers repeated": lambda n: _repeat("<|im_start|>think x", n),
    "large powers, bases and exponents varied": lambda n: " ".join(
        f"{2 + i % 8}^{9000 + i % 997}" for i in range(max(1, n // 7))
    ),
    "power towers": lambda n: _repeat("10^{10^{10}} ", n),
}


def seconds_per_completion(text: str, repeats: int = 1) -> float:
    """CPU seconds one grading of ``text`` takes (best of ``repeats``)."""
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        extract_and_compare(text, "18")
        best = min(best, time.process_time() - started)
    return best


def main(size_kb: int) -> int:
    size = size_kb * 1000
    print(f"| case | CPU s at {size_kb} KB | CPU s at {size_kb // 4} KB | ratio |")
    print("|---|---|---|---|")
    worst = 0.0
    for name, build in CASES.items():
        large = seconds_per_completion(build(size), repeats=3)
        small = seconds_per_completion(build(size // 4), repeats=3)
        worst = max(worst, large)
        ratio = large / small if small > 0 else float("nan")
        print(f"| {name} | {large:.4f} | {small:.4f} | {ratio:.1f} |")
    print(f"\nworst: {worst:.4f} s per {size_kb} KB completion")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
