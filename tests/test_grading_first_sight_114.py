"""Shapes the first-sight rounds on 1.14.0's snapshots found (docs/grading.md, "The
delivered answer"): a bold compound quantity, a heading after the answer, a revision a later
retraction points past, a labelled scenario, a guess in the counted noun, positions and practice
problems after the answer, someone else's answer phrase, a box ruled out, two conditioned boxes.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from gsm8k.grading import grade

_HIKE = (
    "A trail is 15 miles long. Dana hikes at 3 miles per hour and takes a 30-minute break. How "
    "many hours does the whole hike take?"
)
_RUNS = "Tom runs 4 miles every day for 2 weeks. How many miles does he run in total?"
_CARS = (
    "A dealer sold 1,340 cars in March and 870 cars in April. How many cars did it sell in the "
    "two months combined?"
)
_WAGE = (
    "Tina makes $20.00 an hour. If she works more than 8 hours per shift, she is paid time and "
    "a half for the extra hours. If she works 10 hours every day for 5 days, how much does she "
    "make?"
)
_ROBE = (
    "A robe takes 4 bolts of blue fiber and half that much white fiber. How many bolts in total?"
)
_APPS = (
    "An app had 50 downloads in the first month, three times as many in the second, and 20% "
    "fewer than the second in the third. How many downloads did it have over three months?"
)
_SITTER = (
    "Mia earns $15 an hour babysitting. Yesterday she babysat for 40 minutes. How much did she "
    "earn?"
)
_EGGS = (
    "Janet's ducks lay 16 eggs per day. She eats three for breakfast and bakes muffins with four. "
    "She sells the rest for $2 each. How much does she make every day?"
)
_CLIPS = "Nia sold 60 clips in April and half as many in May. How many clips did she sell in all?"


@pytest.mark.parametrize(
    ("question", "completion", "expected"),
    [
        (
            _HIKE,
            "Hiking takes 15 / 3 = 5 hours, and the break adds 30 minutes.\n\n"
            "So the whole hike takes **5 hours and 30 minutes**.",
            "5.5",
        ),
        (
            _RUNS,
            "**Answer: 56 miles**\n\n#### Explanation\n2 weeks = 14 days, and 14 × 4 = 56.\n\n"
            "#### Note 2\nIf he ran twice a day, it would double.",
            "56",
        ),
        (
            _CARS,
            "1,340 + 870 = 2,110 cars.\n\n**Revised answer:** 1,340 + 870 = 2,210 cars. I made "
            "an addition error above.",
            "2210",
        ),
        (
            _WAGE,
            "Tina makes $1,100.\n\nScenario B: if she didn't work overtime at all, she would "
            "earn 8 × 20 × 5 = $800.",
            "1100",
        ),
        (
            _ROBE,
            "Blue: 4 bolts; white: 2 bolts.\n\nIt takes 6 bolts in total.\n\nPerhaps 7 if you "
            "count a spare bolt for mistakes, but the question doesn't ask for that.",
            "6",
        ),
        (
            _APPS,
            "Downloads:\n1. 50\n2. 150\n3. 120\n\nTotal = 320.\n\nSo the app had 320 downloads "
            "over the three months, with the peak of 150 in month 2.",
            "320",
        ),
        (
            _SITTER,
            "40 minutes is 40/60 of an hour, and 15 × 40/60 = $10.\n\nSo Mia earned $10.\n\n"
            "Follow-up question: If Mia babysits for 2 hours next week, how much will she earn?\n"
            "Solution: 2 × 15 = $30. She will earn $30.",
            "10",
        ),
        (
            _EGGS,
            "16 - 3 - 4 = 9 eggs left\n9 * 2 = 18 dollars\n\nMy answer: 18\n"
            "Reference answer (from the key): 20",
            "18",
        ),
        (
            _CLIPS,
            "May: $60 \\div 2 = 30$\nTotal: $60 + 30 = 90$\n\n"
            "The total is $\\boxed{90}$, not $\\boxed{30}$.",
            "90",
        ),
        (
            _EGGS,
            "She sells the remaining eggs for a total of $20, actually $18 — I forgot that "
            "16 − 7 = 9, not 10.",
            "18",
        ),
        (
            _CLIPS,
            "**Answer:** 60 clips\n\nWait — May is half of April, not equal to it. "
            "Corrected: 60 + 30 = **90 clips**.",
            "90",
        ),
    ],
)
def test_the_last_rounds_shapes(question: str, completion: str, expected: str) -> None:
    assert grade(completion, expected, question=question).value == Decimal(expected)


@pytest.mark.parametrize(
    ("question", "completion"),
    [
        (
            _EGGS,
            "Eggs left: 16 − 3 − 4 = 9\n\nAnswer: $\\boxed{18}$ (if she sells all 9 eggs) / "
            "$\\boxed{14}$ (if she keeps 2 for herself)",
        ),
        (
            _SITTER,
            't = 40/60 h.\n\n{"answer_dollars": 10, "answer_alt": 12, "note": "12 if '
            'rounded up to the hour"}',
        ),
    ],
)
def test_two_values_offered_give_no_answer(question: str, completion: str) -> None:
    assert grade(completion, "10", question=question).value is None


_HIKE2 = (
    "A trail is 12 miles long. Kim hikes at 3 miles per hour and takes a 30-minute lunch break. "
    "How many hours does the whole hike take?"
)
_FLOCK = "A farmer has 120 hens. He sells 1/4 of them and then buys 18 more. How many hens now?"


@pytest.mark.parametrize(
    ("question", "completion"),
    [
        # One answer per condition, sentence after sentence, none chosen.
        (
            _HIKE2,
            "Hiking time: 12 / 3 = 4 hours.\n\nIt depends on whether the break counts. If it "
            "does, the answer is 4.5 hours. If it doesn't, the answer is 4 hours.",
        ),
        (
            _FLOCK,
            "Selling 1/4: 30 sold, 90 left. Buying 18: 108.\n\n"
            "Final answer (if 1/4 is of the original flock): 108\n"
            "Final answer (if 1/4 is of the flock after buying): 103.5",
        ),
        # A hedged closing statement, then an alternative with another value.
        (
            _HIKE2,
            "12 / 3 = 4 hours, plus the break.\n\nThe answer might be 4.5 hours. "
            "Alternatively, if the break is not counted, it would be 4 hours.",
        ),
        (
            _HIKE2,
            "Perhaps the answer is 4.5? Hiking: 12 / 3 = 4, so 4 + 0.5 = 4.5. Or it might "
            "be 4 if only walking time counts.",
        ),
        # A value, `or`, and working that comes to another.
        (_HIKE2, "12 / 3 = 4 hours.\n\nThe answer is 4.5 or 4 + 1 = 5 if the break is an hour."),
        # A guess that doubts the answer itself, with another value.
        (
            _HIKE2,
            "12 / 3 = 4, plus 0.5.\n\nI'd say 4.5 hours, but 4 is also plausible if the "
            "break does not count.",
        ),
    ],
)
def test_answers_per_condition_give_none(question: str, completion: str) -> None:
    assert grade(completion, "4.5", question=question).value is None


_PAY = (
    "Eliza earns $10 an hour for the first 40 hours and 1.2 times that for overtime. She works 45 "
    "hours. How much does she earn?"
)
_PENS = "Sam buys 3 pencils that cost 45 cents each. How many dollars does he spend?"
_CLASS = "In a class of 40 students, 14 walk to school. What percentage walk to school?"
_MARBLES = "Sam had 45 marbles. He gave 12 to his brother and 8 to his sister. How many are left?"
_CHOCS = "Lea had 32 chocolates and her sister had 42. If they ate 35, how many are left in total?"
_JOB = "Jo earns $18 per hour and works 7.5 hours a day, 5 days a week. How much per week?"
_CLOTHES = "Mo buys 3 shirts at $16.50 and 3 hats at $22.50. How many dollars does he spend?"


@pytest.mark.parametrize(
    ("question", "completion", "expected"),
    [
        (
            _PAY,
            "Regular: 40 × $10 = $400. Overtime: 5 × $12 = $60. Total: $400 + $60 = $450.\n\n"
            "So Eliza earned **$450**, actually $460 — I mis-added 400 + 60.",
            "460",
        ),
        (
            _PENS,
            "3 × 45 = 135 cents = $1.35.\n\n#### 1.45\n\nThe answer is 1.35, I typed 1.45 by "
            "mistake.",
            "1.35",
        ),
        (
            _MARBLES,
            "Sam gave away 12 + 8 = 20 marbles.\n45 - 20 = 25\n\nSo Sam has 25 marbles "
            "left.\n\nTo double check: 25 + 12 + 8 =",
            "25",
        ),
        (
            _CHOCS,
            "Together: 74\nEaten: 35\nLeft: 74 - 35 = 39\n\nThey have 39 chocolates left in "
            "total.\n\nQuestion 3: If they share them equally, how many does each get?\n"
            "Since 39 is odd, each gets 19 and one is left over.",
            "39",
        ),
        (
            _MARBLES,
            "45 − 20 = 25.\n\n#### 25\n\n---\n\n**Related practice:** If Sam had 50 "
            "marbles, how many would be left? (Answer: 30)",
            "25",
        ),
        (
            _JOB,
            "Daily earnings = 18 * 7.5 = 135\nWeekly earnings = 135 * 5 = 675\n\nJo earns $675 "
            "per week, which is $35,100 per year if she works 52 weeks.",
            "675",
        ),
        (
            _CLOTHES,
            "3 × (16.50 + 22.50) = 3 × 39.00 = 117.00\n\nMo spent $117.00 in total on 6 "
            "items of clothing.",
            "117",
        ),
    ],
)
def test_more_corrections_and_remarks(question: str, completion: str, expected: str) -> None:
    assert grade(completion, expected, question=question).value == Decimal(expected)


def test_a_retraction_after_the_answer_withdraws_it() -> None:
    completion = "14 / 40 = 0.3 → 30%.\n\n**Final answer: 30%**\n\nI need to retract that."
    assert grade(completion, "35", question=_CLASS).value is None
