"""A closing sentence delivers the result the working computed, not the question's numbers it
restates around it (gsm8k/grading/fallback.py)."""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

ROWS = [
    pytest.param(
        "The bike costs $300. He saves $25 a day. How many days does he save?",
        "300 / 25 = 12\nHe needs to save for 12 days to be able to buy the bike that costs $300.",
        "12",
        id="purpose-clause-with-a-question-number",
    ),
    pytest.param(
        "A box lasts 10 cycles. She has 2 boxes. How many loads can she do?",
        "10 / 2 = 5\nShe can do 5 loads, since the box lasts **10 cycles**.",
        "5",
        id="bold-question-number-after-the-answer",
    ),
    pytest.param(
        "The full price is $30 and she pays two thirds. How much does she pay?",
        "30 * 2/3 = 20\nShe pays $20, which is $10 less than the full $30.",
        "20",
        id="comparison-after-the-answer",
    ),
    pytest.param(
        "She sells goods worth $2500 at 18% commission. How much commission does she earn?",
        "2500 * 0.18 = 450\nShe earned $450 in commission for selling goods worth $2500.",
        "450",
        id="means-after-the-answer",
    ),
    pytest.param(
        "Janet's ducks lay 16 eggs per day. She sells 9 of them for $2 each. "
        "How much does she make?",
        "9 * 2 = 18\nSo the result is 18 when there are 16 eggs.",
        "18",
        id="condition-clause-without-a-comma",
    ),
    pytest.param(
        "James runs 3 sprints of 20 meters, 1 time a week. He runs 60 meters each week. "
        "How many total meters does he run a week?",
        "So he runs 20*3=60 meters in total each week\n"
        "Therefore, the total comes to 60 for the 3 sprints.",
        "60",
        id="a-computed-value-that-the-question-also-states",
    ),
    pytest.param(
        "Three dogs walk 12 miles; the first walks 4 and the second 4. How far does the last walk?",
        "12 - 4 - 4 = 4\nTherefore, the last dog needs to walk 4 miles.",
        "4",
        id="the-answer-is-a-question-number",
    ),
    # Real closing prose (ZeroEval reasoning fields): `given to`, `as tips`, `which equals` and
    # `making the total` state results, they open no premise.
    pytest.param(
        "Sally's scores are 50, 80, 70 and 80. Find her mean score.",
        "50 + 80 + 70 + 80 = 280. The mean score is 280 divided by 4, which equals 70.",
        "70",
        id="which-equals-a-question-number",
    ),
    pytest.param(
        "Mazie gave 52 marbles to Dallas and Darla. Dallas has 21 after dropping 4. How many "
        "did Mazie give to Darla?",
        "He received 21 + 4 = 25. The number given to Darla is the total minus the number "
        "given to Dallas: 52 - 25 = 27.",
        "27",
        id="given-is-no-reason",
    ),
    pytest.param(
        "Rafaela got $800 in tips and Julieta 10% less. How much did they receive as tips?",
        "Julieta received $720. The total amount they received as tips is $800 + $720 = $1520.",
        "1520",
        id="as-is-no-reason",
    ),
    pytest.param(
        "The tank held 120 liters; she took 90 and collected twice what was left. How many "
        "liters are in the tank now?",
        "She took 90 liters, leaving 30 liters. She then collected 60 liters of rainwater, "
        "making the total 90 liters.",
        "90",
        id="making-states-a-result",
    ),
    # The result of the working is not the answer when the closing sentence computes further.
    pytest.param(
        "She makes $48 a day. How much does she make in a week?",
        "6 * 8 = 48\nShe makes $48 a day, which is $336 a week.",
        "336",
        id="a-further-result-in-the-closing-sentence",
    ),
]


@pytest.mark.parametrize(("question", "completion", "answer"), ROWS)
def test_the_closing_sentence_delivers_the_computed_result(
    question: str, completion: str, answer: str
) -> None:
    assert grade(completion, answer, question=question).answer == answer
