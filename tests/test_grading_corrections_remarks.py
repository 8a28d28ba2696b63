"""Corrections and remarks after an answer, as real chat and small models write them (docs/
grading.md, "The delivered answer"; 1.14.0).

Each row holds one shape: a correction that must give the new value, a remark that must leave the
answer, or a text cut off on working that must deliver none. Neighbour rows pin what must not
change.
"""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

_APPLES = (
    "A farmer has 150 apples. He sells 20% of them on Monday and 40 apples on Tuesday. How many "
    "apples does he have left?"
)
_PLANTS = (
    "A gardener plants 9 rows of beans with 12 plants in each row. 8 plants die. How many plants "
    "are left?"
)
_FILE = (
    "Nora downloads a 300 GB file at 3 GB/minute. Halfway through, a restart takes 15 minutes and "
    "the download starts again from the beginning. How many minutes does the download take?"
)
_EGGS = (
    "Janet's ducks lay 16 eggs per day. She eats three for breakfast and bakes muffins with four. "
    "She sells the rest for $2 each. How much does she make every day?"
)
_WALLET = (
    "A wallet costs $120. Tom has half of the money. His parents give him $20 and his "
    "grandparents twice as much. How much more money does Tom need?"
)


@pytest.mark.parametrize(
    ("question", "completion", "expected"),
    [
        (
            _APPLES,
            "20% of 150 = 30 sold → 120 left; 40 more → 80 left.\n\nThe answer is 85. "
            "Sorry, typo — 80.",
            "80",
        ),
        (
            _PLANTS,
            "9 × 12 = 108, minus 8 = 100.\n\nThe answer is 100. Just kidding, it's 108 — "
            "the dead plants are still in the ground.",
            "108",
        ),
        (
            _FILE,
            "Half the file: 150 / 3 = 50 minutes. Restart: 15. Whole file: 100.\n\n"
            "ANSWER: 165\n\n~~165~~ 150 — the restart is not download time.",
            "150",
        ),
        (
            _EGGS,
            "16 − 3 = 13 eggs, 13 × $2 = $26.\n\n**Answer: 26**\n\n**Correction:** she also "
            "uses 4 eggs for muffins, so 16 − 3 − 4 = 9 eggs and the earnings are **$18**.",
            "18",
        ),
        (_EGGS, "16 − 3 − 4 = 9 eggs.\n\n#### 20\n\nNot 20 — 18.", "18"),
        # Neighbour: a remark that names the answer again leaves it.
        (
            _EGGS,
            "16 − 3 − 4 = 9 eggs, 9 × $2 = $18.\n\n#### 18\n\nSorry for the long working!",
            "18",
        ),
    ],
)
def test_a_correction_after_the_answer_gives_the_new_value(
    question: str, completion: str, expected: str
) -> None:
    assert grade(completion, expected, question=question).answer == expected


@pytest.mark.parametrize(
    ("question", "completion", "expected"),
    [
        # Another solver's value.
        (
            _APPLES,
            "150 − 30 − 40 = 80.\n\nHe has 80 apples left. GPT-3.5 famously answered 110 "
            "here because it forgot Tuesday.",
            "80",
        ),
        # A counterfactual after the answer.
        (
            _EGGS,
            "| Item | Value |\n|---|---|\n| Eggs sold | 9 |\n| **Total** | **$18** |\n\n"
            "Janet makes $18. Without the muffins she'd have made $26.",
            "18",
        ),
        # A note that restates a value the check computed.
        (
            _PLANTS,
            "Plants left: **100**\n\nCheck: 9 × 12 = 108, and 108 − 8 = 100 ✓\n\n"
            "(Plants planted: 108)",
            "100",
        ),
        # A recap of the working after a bold answer.
        (
            _PLANTS,
            "**Step 1:** Planted = 9 × 12 = 108\n**Step 2:** Left = 108 − 8 = 100\n\n"
            "There are **100 plants** left.\n\nPlants planted: 108.",
            "100",
        ),
        # The whole the answer is taken out of.
        (
            _PLANTS,
            "9 × 12 = 108 plants were planted. 108 − 8 = 100 remain.\n\n"
            "So out of the 9 × 12 = 108 plants, 100 are left.",
            "100",
        ),
        # Neighbour: a plain new statement after a bold answer replaces it.
        (_PLANTS, "There are **108 plants**.\n\nSo after 8 die, 100 are left.", "100"),
    ],
)
def test_a_remark_after_the_answer_leaves_it(question: str, completion: str, expected: str) -> None:
    assert grade(completion, expected, question=question).answer == expected


@pytest.mark.parametrize(
    ("completion", "expected"),
    [
        # An operation written at the very end, its result never.
        (
            "Tom has $60. His parents give $20 and his grandparents $40. So he has $60 + $20 + $40 "
            "= $120, and he still needs $120 − $120",
            None,
        ),
        ("Half of $120 is $60. With $20 and $40 he has $60 + $20 + $40", None),
        # Neighbour: a finished result at the end is read.
        (
            "Half of $120 is $60. With $20 and $40 he has $60 + $20 + $40 = $120, so he needs $0.",
            "0",
        ),
    ],
)
def test_a_text_that_ends_on_an_operation_is_cut(completion: str, expected: str | None) -> None:
    assert grade(completion, "0", question=_WALLET).answer == expected
