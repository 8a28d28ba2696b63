"""Closing sentences that state the answer and go on with the question's data, a ratio, a part
list or a remark (docs/grading.md, "The delivered answer"): the answer stands. Each row is the
shape a model writes, in English or in another language MGSM's questions are answered in.
"""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

EGGS = (
    "Janet's ducks lay 16 eggs per day. She eats three for breakfast and bakes with four. She "
    "sells the remainder for $2 per egg. How much in dollars does she make every day?"
)
CHANGE = (
    "Liam buys 3 notebooks at $4.50 each and a pen for $2.25. He pays with a $20 bill. How much "
    "change does he get?"
)
APPLES = (
    "A farmer picks 350 apples. He sells 40% of them and uses 1/3 of the rest for cider. How "
    "many apples are left?"
)
HOUSE = (
    "Josh buys a house for $80,000 and puts in $50,000 in repairs. This increased the value of "
    "the house by 150%. How much profit did he make?"
)
ROBE = (
    "A robe takes 2 bolts of blue fiber and half that much white fiber. How many bolts in total "
    "does it take?"
)
WALK = "Sam walks 3 miles at a steady speed of 2 miles per hour. How many hours does the walk take?"
COOKIES = (
    "Emma baked 4 trays of 18 cookies. She gave 25 cookies to her neighbors and ate 5 herself. "
    "How many cookies does she have left?"
)
BUSES = (
    "A school has 3 buses, and each bus carries 42 students. Another 17 students walk to "
    "school. How many students go to the school in total?"
)
ROWS = [
    pytest.param(
        "After eating 3 and baking with 4, she has 9 left.\n\nSo she makes $18 a day by selling "
        "her 9 remaining eggs at $2 each.",
        EGGS,
        "18",
        id="price-restated-after-at",
    ),
    pytest.param(
        "Les 3 cahiers coûtent 3 × 4,50 $ = 13,50 $. Avec le stylo, le total est 15,75 $.\n\n"
        "Liam reçoit donc 4,25 $ de monnaie sur son billet de 20 $.",
        CHANGE,
        "4.25",
        id="french-question-number-restated",
    ),
    pytest.param(
        "Der Bauer verkauft 140 Äpfel und verwendet 70 für Apfelwein. Es bleiben also 140 von "
        "den ursprünglich 350 Äpfeln übrig.",
        APPLES,
        "140",
        id="german-question-number-restated",
    ),
    pytest.param(
        "The value went up 150% to $200,000, and with $130,000 invested, Josh made a profit of "
        "$70,000 — a return of about 54% on his investment.",
        HOUSE,
        "70000",
        id="a-ratio-beside-the-answer",
    ),
    pytest.param(
        "Blue: 2 bolts. White: 1 bolt. Total: **3 bolts**.\n\nP.S. A typical bathrobe actually "
        "uses about 4 yards of fabric.",
        ROBE,
        "3",
        id="a-postscript",
    ),
    pytest.param(
        "Using t = d / v: t = 3 / 2 = 1.5.\n\nThe walk takes 1.5 hours. In general, at 2 mph "
        "each mile takes 30 minutes.",
        WALK,
        "1.5",
        id="a-generalisation",
    ),
    pytest.param(
        "She has 72 − 25 − 5 = 42 cookies left. If she packs them in boxes of 6, that's 7 boxes.",
        COOKIES,
        "42",
        id="a-condition-after-the-computing-sentence",
    ),
    pytest.param(
        "She has 72 − 25 − 5 = 42 cookies left. She packs them in boxes of 6, so she has 7 boxes.",
        COOKIES,
        "7",
        id="a-conclusion-after-the-computing-sentence-replaces",
    ),
    pytest.param(
        "There are 143 students at the school in total: 126 who ride the 3 buses and 17 who walk.",
        BUSES,
        "143",
        id="parts-beside-a-restated-question-number",
    ),
    pytest.param(
        "Tuesday: 2 × 48 = 96\nWednesday: 96 − 15 = 81\n\n48 + 96 + 81 = 225\n\nThe store sold 225 "
        "shirts in total. Tuesday was the best day with 96 shirts.",
        "A store sold 48 shirts on Monday, twice as many on Tuesday, and 15 fewer than Tuesday on "
        "Wednesday. How many shirts did it sell over the three days?",
        "225",
        id="a-value-of-the-working-named-again",
    ),
    pytest.param(
        "Tuesday: 2 × 48 = 96\nWednesday: 96 − 15 = 81\n\n48 + 96 + 81 = 225\n\nThe store sold 225 "
        "shirts in total. So the answer is the Tuesday figure, which is 96 shirts.",
        "A store sold 48 shirts on Monday, twice as many on Tuesday, and 15 fewer than Tuesday on "
        "Wednesday. How many shirts did it sell over the three days?",
        "96",
        id="a-value-of-the-working-stated-as-the-answer",
    ),
    pytest.param(
        "First, Carla downloads 40% of 200 GB = 80 GB, which takes 40 minutes. Then she starts "
        "over and downloads the full 200 GB, which takes",
        None,
        None,
        id="cut-after-takes",
    ),
]


@pytest.mark.parametrize(("completion", "question", "answer"), ROWS)
def test_the_closing_statement_stands_beside_its_remarks(
    completion: str, question: str | None, answer: str | None
) -> None:
    assert grade(completion, "1", question=question).answer == answer
