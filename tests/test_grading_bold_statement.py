"""A bold value closing the working is the answer statement of a text with no answer mark
(docs/grading.md, "The delivered answer"): remarks after it (its parts listed, a difference, a
rate or a percentage not asked, a value of the working in brackets) leave it; a later sentence
that concludes with another value, or more working, still replaces it.
"""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

FLOWERS = (
    "Mark has a garden with flowers. Ten of them are yellow, and there are 80% more of those in "
    "purple. There are only 25% as many green flowers as there are yellow and purple flowers. "
    "How many flowers does Mark have in his garden?"
)
PROFIT = (
    "A merchant can buy jewelry worth $5,000 or electronic gadgets worth $8,000. Jewelry will go "
    "up 2.5% and gadgets 1.2%. How much profit would the better choice make?"
)
DOWNLOADS = (
    "A program had 60 downloads in the first month, three times as many in the second month, "
    "and 30% fewer in the third month than in the second. How many downloads did it have total "
    "over the three months?"
)
EGGS = (
    "Janet's ducks lay 16 eggs per day. She eats three and bakes with four. She sells the rest "
    "for $2 per egg. How much in dollars does she make every day?"
)
BOLD = [
    pytest.param(
        "Purple: 10 × 1.8 = 18. Green: 0.25 × 28 = 7.\n\nMark has **35 flowers** in his garden."
        "\n\n- Yellow: 10\n- Purple: 18\n- Green: 7",
        FLOWERS,
        "35",
        id="its-parts-listed-after",
    ),
    pytest.param(
        "**Jewelry profit:** 2.5% × $5,000 = $125\n**Electronics profit:** 1.2% × $8,000 = $96"
        "\n\nThe jewelry gives the larger profit: **$125**.\n\nBy choosing the jewelry, the "
        "merchant's profit is $125, which is $29 more than the electronics option.",
        PROFIT,
        "125",
        id="a-difference-after",
    ),
    pytest.param(
        "- **Total:** 60 + 180 + 126 = 366 downloads\n\nThe program had **366** downloads over "
        "the three months. The second month alone accounted for almost half (180).",
        DOWNLOADS,
        "366",
        id="a-value-of-the-working-in-brackets-after",
    ),
    pytest.param(
        "16 - 3 - 4 = **9 eggs** left.\n\nShe sells them at $2 each, so she makes $18 a day.",
        EGGS,
        "18",
        id="a-bold-value-of-the-working-then-the-result",
    ),
    pytest.param(
        "She has **9 eggs** left to sell.\n\nSo she makes $18 every day.",
        EGGS,
        "18",
        id="a-conclusion-after-the-bold-value-replaces-it",
    ),
]


@pytest.mark.parametrize(("completion", "question", "answer"), BOLD)
def test_a_bold_closing_value_is_the_statement(completion: str, question: str, answer: str) -> None:
    assert grade(completion, "1", question=question).answer == answer
