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
    pytest.param(
        "She starts with 7 × 24 = 168 crayons and hands out 28 × 5 = 140, leaving **28 crayons**.",
        "Each pack has 24 crayons. Ms. Lee buys 7 packs and gives 5 crayons to each of her 28 "
        "students. How many crayons does she have left?",
        "28",
        id="bold-value-that-is-a-number-of-the-question",
    ),
    pytest.param("She has **18** or **20** eggs.", None, None, id="two-bold-values-offered"),
    pytest.param(
        "7 × 24 = 168 and 28 × 5 = 140, leaving **28 crayons**.\n\nWait, that is wrong.",
        None,
        None,
        id="bold-value-taken-back",
    ),
    pytest.param(
        "25% of $40 = $10\n$40 − $10 = $30\n\nThe sale price is **$30**.\n\nAlternatively, if the "
        "25% discount were applied twice (e.g., with a coupon stacking), the price would be "
        "$22.50.",
        None,
        "30",
        id="one-conditional-alternative-after-it",
    ),
    pytest.param(
        "**Sam has 42 pencils left.**\n\nExplanation: 5 boxes with 12 pencils each gives 60 "
        "pencils. Then he gives away 18.",
        "Sam has 5 boxes of 12 pencils. He gives away 18 pencils. How many pencils are left?",
        "42",
        id="its-explanation-after-it",
    ),
    pytest.param(
        "First leg: 60 mph × 2.5 h = 150 miles\nSecond leg: 40 mph × 1.5 h = 60 miles\n\nTotal "
        "distance = 150 + 60 = 210 miles.\n\nThe train travels 210 miles over the 4 hours of the "
        "trip.",
        "A train goes 60 mph for 2.5 hours, then 40 mph for 1.5 hours. How far does it travel?",
        "210",
        id="the-time-it-took-after-the-distance",
    ),
    pytest.param(
        "150 × 2/5 = 60 → 150 − 60 = 90 → 90 − 20 = 70\n\n**Ava has 70 stickers left.**\n\n### "
        "Summary\n| Step | Stickers |\n|---|---|\n| Start | 150 |\n| After brother | 90 |\n| After "
        "friend | 70 |",
        "Ava had 150 stickers. She gave 2/5 of them to her brother and 20 to her friend. How many "
        "stickers does she have left?",
        "70",
        id="a-summary-table-after-it",
    ),
    pytest.param(
        "$35 + (240 × $0.10) = $35 + $24 = $59\n\nJake's bill last month was $59, which is $24 "
        "more than the base plan.",
        "A phone plan costs $35 per month plus $0.10 per text. Jake sent 240 texts. How much was "
        "his bill, in dollars?",
        "59",
        id="a-difference-in-the-closing-sentence",
    ),
]
MISSING_AND_SHARES = [
    pytest.param(
        "Samantha is 31, Raymond is 37. He had a son at 23.\n\nHowever, the problem doesn't say "
        "whether 'now' refers to the same year for both of them, so the answer cannot be "
        "determined from the given information.",
        None,
        id="cannot-be-determined-in-a-long-sentences-last-clause",
    ),
    pytest.param(
        "Purple: 18. Green: 7.\n\nIn total, Mark has 35 flowers, of which 20% are green.",
        "35",
        id="a-share-of-the-value-when-no-percent-is-asked",
    ),
    pytest.param(
        "700 / 1000 = 0.7 or 70%.", "70", id="the-value-restated-as-a-percentage-is-no-share"
    ),
    pytest.param(
        "Net per year: 7 × 1.5 − 3 = 7.5. 90 / 7.5 = 12.\n\nI think it might be 12 years, but "
        "I'm not sure.\n\nAlternatively, it could be 13 years if we need strictly positive "
        "earnings.",
        None,
        id="two-hedged-guesses-with-their-reasons",
    ),
]


@pytest.mark.parametrize(("completion", "answer"), MISSING_AND_SHARES)
def test_no_answer_said_in_words_and_shares_of_the_value(
    completion: str, answer: str | None
) -> None:
    assert grade(completion, "1", question=FLOWERS).answer == answer


@pytest.mark.parametrize(("completion", "question", "answer"), BOLD)
def test_a_bold_closing_value_is_the_statement(
    completion: str, question: str | None, answer: str | None
) -> None:
    assert grade(completion, "1", question=question).answer == answer
