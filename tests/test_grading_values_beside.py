"""Values beside the answer that are not a second answer, and values that are (docs/grading.md,
"The delivered answer"; 1.14.0): the rest of a whole, another person's value after a comparison,
the same value as a compound quantity, the question's data again, a value asked about and denied;
against two values per numbered case, and a hedged statement that offers two.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from gsm8k.grading import grade

_BUS = "A school has 1,500 students. 30% of them take the bus. How many students take the bus?"
_BRUISED = (
    "A shop received 400 pears. 60 of them were bruised. What percent of the pears were bruised?"
)
_JEWELS = (
    "Ana has 3 fewer jewels than Ben. Ben has 4 more jewels than half of Cal's jewels. If Cal has "
    "30 jewels, how many jewels does Ana have?"
)
_DRIVE = "Lou drives 210 miles at 60 miles per hour. How many hours does the drive take?"
_DOWNLOAD = "A download takes 75 minutes and a restart 25 more. How many minutes does it all take?"
_SHEEP = (
    "Oslo has twice as many sheep as Bergen. Bergen has 3 times as many sheep as Molde. How many "
    "sheep do the three towns have together if Molde has 10 sheep?"
)
_POINTS = (
    "Kim plays for 40 minutes. In the first 20 minutes she scores 8 points. In the second 20 "
    "minutes she scores 25% more points. How many points does she score in total?"
)
_WATER = (
    "Each of 5 plants needs 300 milliliters of water a day. How many liters do they need in 4 days?"
)
_TRAIN = "A train travels at 40 miles per hour. How many hours does it take to travel 100 miles?"


@pytest.mark.parametrize(
    ("question", "completion", "expected"),
    [
        (
            _BUS,
            "30% of 1,500 = 0.30 × 1,500 = 450\n\nSo **450 students** take the bus. The "
            "remaining 1,050 students walk or are driven.",
            "450",
        ),
        (_BUS, "1500 × 30% = 450\n\n所以有450名学生坐校车，其余1050名学生用其他方式上学。", "450"),
        (
            _BRUISED,
            "60 / 400 = 0.15, which is **15%**.\n\nSo 15% were bruised, and the remaining "
            "85% were fine.",
            "15",
        ),
        (
            _JEWELS,
            "Half of Cal's 30 is 15; Ben has 19; Ana has 19 − 3.\n\n"
            "Ana has 16 jewels, which is 3 fewer than Ben's 19.",
            "16",
        ),
        (
            _DRIVE,
            "Time = 210 ÷ 60 = 3.5\n\nIt takes Lou 3.5 hours, or 3 hours 30 minutes, to "
            "drive the 210 miles.",
            "3.5",
        ),
        (
            _DOWNLOAD,
            "75 + 25 = 100.\n\nThe answer is 100 minutes, or 1 hour and 40 minutes.",
            "100",
        ),
        (
            _SHEEP,
            "Molde = 10, Bergen = 30, Oslo = 60.\nTotal = 10 + 30 + 60 = 100\n\n"
            "Molde has 10 sheep.",
            "100",
        ),
        (
            _POINTS,
            "8 + 8 × 1.25 = 8 + 10 = 18.\n\nAnswer: 18\n\nHmm, maybe I should double "
            "check... 8 × 1.25 = 10, total 18. Could it be 20? No.",
            "18",
        ),
        (
            _POINTS,
            "8 + 8 × 1.25 = 8 + 10 = 18.\n\nKim's total is 18 points. Could it be 20? Not "
            "if 25% of 8 is 2.",
            "18",
        ),
        (
            _WATER,
            "Per day: 5 × 300 mL = 1500 mL.\nIn 4 days: 4 × 1500 = 6000 mL.\n\n"
            "They need 6000 mL of water.",
            "6",
        ),
        (_TRAIN, "100 ÷ 40 = 2½\n\nIt will take the train 2½ hours to travel 100 miles.", "2.5"),
        (
            _POINTS,
            "8 + 10 = 18.\n\n#### 18\n\nExercise for the reader: what if she scored 10 "
            "points first? (Answer: 22.5)",
            "18",
        ),
        # Neighbour: a later sentence that states a new value of the asked quantity is read.
        (
            _SHEEP,
            "Molde = 10, Bergen = 30.\nTotal so far = 10 + 30 = 40\n\n"
            "With Oslo's 60 sheep, the towns have 100 sheep.",
            "100",
        ),
    ],
)
def test_a_value_beside_the_answer_leaves_it(question: str, completion: str, expected: str) -> None:
    assert grade(completion, expected, question=question).value == Decimal(expected)


_GLASSES = (
    "One glass costs $5, but every second glass costs only 60% of the price. How much do 16 "
    "glasses cost?"
)
_EGGS = (
    "Janet's ducks lay 16 eggs per day. She eats three for breakfast and bakes muffins with four. "
    "She sells the rest for $2 each. How much does she make every day?"
)


@pytest.mark.parametrize(
    ("question", "completion"),
    [
        (
            _GLASSES,
            "**Case 1:** 8 × $5 + 8 × $3 = **$64**\n**Case 2:** 8 × $5 + 8 × $2 = "
            "**$56**\n\nSo the answer is $64 in case 1 and $56 in case 2.",
        ),
        (
            _EGGS,
            "Eggs sold: 9.\n\nThe answer is probably 18, but it could be 20 if she does not "
            "bake every day.",
        ),
        (
            _EGGS,
            "Eggs sold: 9. Revenue: $18.\n\nThe answer is probably 18, but it could be 20 if "
            "she does not bake every day.",
        ),
    ],
)
def test_two_values_offered_give_no_answer(question: str, completion: str) -> None:
    assert grade(completion, "18", question=question).value is None


_FLIP = (
    "Ravi buys a flat for $90,000 and puts in $30,000 in repairs. This increases its value by "
    "100%. How much profit does he make?"
)
_TOWNS = (
    "Oslo has twice as many sheep as Bergen. Bergen has 3 times as many sheep as Molde. How many "
    "sheep do the three towns have together if Molde has 10 sheep?"
)
_WAGES = "Sara earns $12 an hour. Last week she worked 30 hours. How much did she earn last week?"


@pytest.mark.parametrize(
    ("question", "completion", "expected"),
    [
        # A recap of two values of the working after the answer.
        (
            _FLIP,
            "Cost: $90,000 + $30,000 = $120,000. New value: 90,000 × 2 = $180,000.\n\n"
            "Profit = 180,000 − 120,000 = $60,000.\n\nRavi made a profit of $60,000. His total "
            "investment was $120,000 and the flat ended up worth $180,000.",
            "60000",
        ),
        # A ratio beside the answer, when the question asks for no ratio.
        (
            _TOWNS,
            "Adding them up: 10 + 30 + 60 = 100 sheep.\n\nIn total, the three towns have "
            "100 sheep. That's 10 times as many as Molde has on its own.",
            "100",
        ),
        # Someone else's calculation.
        (
            _WAGES,
            "$12 × 30 = $360\n\nSara earned $360 last week. My coworker calculated $348, "
            "but he used 29 hours instead of 30.",
            "360",
        ),
        # Neighbour: a later conclusion that picks one value of the working replaces it.
        (
            _FLIP,
            "Cost: $90,000 + $30,000 = $120,000. Profit: $60,000.\n\nThe value was $180,000."
            "\n\nSo the total profit is $120,000.",
            "120000",
        ),
    ],
)
def test_a_recap_or_ratio_after_the_answer_leaves_it(
    question: str, completion: str, expected: str
) -> None:
    assert grade(completion, expected, question=question).value == Decimal(expected)
