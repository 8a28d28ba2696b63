"""A sentence after the closing statement that states another quantity than the one asked is a
remark (docs/grading.md, "The delivered answer"): another person of the question, the value over
many periods when one period is asked. Each row has a neighbour where the later sentence is the
model's own conclusion and must still replace the first.
"""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

RECORDS = (
    "Marilyn's first record sold 10 times as many copies as Harald's. If they sold 88,000 "
    "copies combined, how many copies did Harald sell?"
)
SPRINTS = (
    "James decides to run 3 sprints 3 times a week. He runs 60 meters each sprint. How many "
    "total meters does he run a week?"
)
ABOUT_ANOTHER = [
    pytest.param(
        "Let H be Harald's copies. 11H = 88000, so H = 8000.\nHarald sold 8,000 copies. "
        "Marilyn, with ten times as many, sold 80,000.",
        RECORDS,
        "8000",
        id="another-person-after-result",
    ),
    pytest.param(
        "Harald sold 8,000 copies. Marilyn, with ten times as many, sold 80,000.",
        RECORDS,
        "8000",
        id="another-person-no-working",
    ),
    pytest.param(
        "Harald sold 8,000 copies. So Marilyn sold 80,000.",
        RECORDS,
        "80000",
        id="conclusion-about-another-person-replaces",
    ),
    pytest.param(
        "Peter and Paul take 3 kg + 4 kg = 7 kg.\nThe remaining amount: 12 kg - 7 kg = 5 kg.\n"
        "Jacques will have the remaining amount, which is 5 kg.",
        "Pierre, Paul, and Jacques bought 12 kg of apples. Pierre wants a quarter and Paul a "
        "third. How many kilograms will James have left?",
        "5",
        id="asked-person-never-named-in-the-working",
    ),
]
PERIODS = [
    pytest.param(
        "Each week he runs 3 * 3 * 60 = 540 meters.\nHe runs 540 meters a week. Over three weeks "
        "that adds up to 1,620 meters.",
        "540",
        id="many-periods-in-words",
    ),
    pytest.param(
        "Each week he runs 3 * 60 = 180 meters.\nHe runs 180 meters a week. Over three weeks that "
        "adds up to 540 meters.",
        "180",
        id="gold-in-a-remark-over-many-periods",
    ),
    pytest.param(
        "Each week he runs 3 * 60 = 180 meters.\nHe runs 180 meters a week. So he runs 540 "
        "meters a week.",
        "540",
        id="conclusion-in-the-asked-period-replaces",
    ),
]


@pytest.mark.parametrize(("completion", "question", "answer"), ABOUT_ANOTHER)
def test_a_sentence_about_another_person_of_the_question_is_a_remark(
    completion: str, question: str, answer: str
) -> None:
    assert grade(completion, "1", question=question).answer == answer


@pytest.mark.parametrize(("completion", "answer"), PERIODS)
def test_a_value_over_many_periods_when_one_is_asked_is_a_remark(
    completion: str, answer: str
) -> None:
    assert grade(completion, "1", question=SPRINTS).answer == answer
