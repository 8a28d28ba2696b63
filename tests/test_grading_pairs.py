"""Two values offered by a sign or a word, in any statement, are no one answer; a label or the
asked quantity named as missing is read for what it is (gsm8k/grading)."""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

WORKING = "Janet has 16 - 3 - 4 = 9 eggs left, and 9 * 2 = 18.\n"
QUESTION = "She sells 9 eggs for $2 each. How much does she make?"


@pytest.mark.parametrize(
    "ending",
    [
        "ANSWER: 18-20",
        "ANSWER: ca. 18-20 dollars",
        "She makes about 18-20 dollars a day.",
        "She makes ca. 18-20 dollars.",
        "ANSWER: $18 / $20",
        "She makes $18 / $20.",
        "ANSWER: $18 (alt: $20)",
        "So the amount cannot be determined.",
        "The total cannot be determined.",
    ],
)
def test_no_one_answer(ending: str) -> None:
    verdict = grade(WORKING + ending, "18", question=QUESTION)
    assert verdict.answer is None


@pytest.mark.parametrize(
    "ending",
    [
        "\\boxed{\\text{Day 1: } 18}",
        "ANSWER: Week 2: $18",
        "ANSWER: 18 (9-2 eggs... no)",
        "ANSWER: 18",
        "She sold 16-3-4 = 9 eggs, so she makes $18.",
        "So the total is $18.",
    ],
)
def test_one_answer(ending: str) -> None:
    verdict = grade(WORKING + ending, "18", question=QUESTION)
    assert verdict.answer == "18"
