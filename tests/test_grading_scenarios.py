"""Conditional answers (docs/grading.md, "The delivered answer"): a conditional answer after a
committed statement leaves the statement; conditional answers with no committed one, one per
scenario, deliver nothing. Neighbours: a condition that restates the question's premise, and
values of a question's first and second part, are no scenarios.
"""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

WAGES = (
    "Tina makes $18.00 an hour, with overtime past 8 hours. If she works 10 hours a day for 5 "
    "days, how much does she make?"
)
GAS = (
    "Maria drives 18 miles each way, 5 days a week, at 24 miles per gallon and $3.20 a gallon. "
    "How much does she spend on gas each week?"
)
SCENARIOS = [
    pytest.param(
        "**Total for 5 days:** 5 × $198.00 = $990.00\n\nTina makes **$990**.\n\nIf overtime "
        "were instead computed on a weekly basis (over 40 hours), the answer would be $1,080.",
        WAGES,
        "990",
        id="conditional-answer-after-bold-statement",
    ),
    pytest.param(
        "P = $19.50 ÷ 0.75 = **$26.00**\n\nThe original price was **$26.00**.\n\n(Perhaps the "
        "intended answer is $24.38, if the discount were applied differently.)",
        None,
        "26",
        id="hedged-answer-phrase-after-bold-statement",
    ),
    pytest.param(
        "She drives 180 miles a week, which is 7.5 gallons.\n\nIf she drives both ways every "
        "day, the answer would be $24. If she only drives one way, it would be $12.",
        GAS,
        None,
        id="one-conditional-answer-per-scenario",
    ),
    pytest.param(
        "If every second glass costs $2, the total is $56. If it costs $3, the total is $64.\n\n"
        "So the answer would be $56 in the first reading and $64 in the second.",
        None,
        None,
        id="values-per-reading-in-one-answer-phrase",
    ),
    pytest.param(
        "She drives 180 miles a week, which is 7.5 gallons.\n\nIf she drives both ways every "
        "day, the answer would be $24.",
        GAS,
        "24",
        id="one-condition-restating-the-premise-stands",
    ),
    pytest.param(
        "Julie scored 14 - 4 = 10 points.\nSasha scored 14 points in the first game and 4 points "
        "in the second game, for a total of 14 + 4 = 18 points.",
        None,
        "18",
        id="first-and-second-game-are-parts-not-cases",
    ),
]


@pytest.mark.parametrize(("completion", "question", "answer"), SCENARIOS)
def test_conditional_answers_and_scenarios(
    completion: str, question: str | None, answer: str | None
) -> None:
    assert grade(completion, "1", question=question).answer == answer
