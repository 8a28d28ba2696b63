"""The neighbours of this round's rules that an attack found: each row names what the model
wrote and what it delivered (gsm8k/grading; docs/grading.md, "The delivered answer")."""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

EGGS = (
    "Janet's ducks lay 16 eggs per day. She eats 3 and bakes with 4. She sells the rest at $2 "
    "each. How much does she make?"
)
BIKE = "A bike costs $300. Tim saves $25 a day. How many days does Tim need to save?"
MINUTES = "How many minutes does it take?"
PROFIT = "Mark buys a lamp for $50 and sells it. What is his profit?"

NONE = [
    # A hedge in a closing sentence that also restates the question's numbers.
    (EGGS, "She makes $18 or $20 from her 16 eggs."),
    (EGGS, "She makes between $18 and $20 from 16 eggs."),
    (EGGS, "9 * 2 = 18\nShe makes $18 or $16 from her 16 eggs."),
    (BIKE, "300 / 25 = 12\nHe needs 12 or 13 days to buy the bike that costs $300."),
    # One number in two units of a kind, or a bracketed value that is not the same quantity.
    (MINUTES, "ANSWER: 1.5 hours (100 minutes)"),
    (MINUTES, "ANSWER: 100 minutes (1.5 hours)"),
    (EGGS, "ANSWER: $18 (1700 cents)"),
    ("How many feet long is it?", "ANSWER: 6 yards (20 feet)"),
    (MINUTES, "ANSWER: 90 minutes or 90 seconds"),
    ("How many hours does it take?", "ANSWER: 3 hours or 3 days"),
    (MINUTES, "ANSWER: 18 minutes, or maybe 18 hours"),
    # Two scales, two signs, two labelled values, no commitment.
    ("How much money in total?", "ANSWER: $18 billion or $18 million"),
    ("How many people came?", "ANSWER: 18 thousand or 18 million"),
    (PROFIT, "ANSWER: $18 profit or a $18 loss"),
    (PROFIT, "ANSWER: $18 (profit or loss)"),
    (EGGS, "ANSWER: Day 1: 18, Day 2: 20"),
    (EGGS, "ANSWER: Part 1: 18; Part 2: 20"),
    (EGGS, "ANSWER: Cannot be determined, but likely 18"),
    # Pairs written with signs.
    (EGGS, "ANSWER: $18-$20"),
    (EGGS, "ANSWER: 18 dollars/20 dollars"),
]

DELIVERED = [
    (BIKE, "25 * 12 = 300\nHe needs to save for 12 days to buy the bike that costs $300.", "12"),
    (BIKE, "300/25 = 12\nHe needs 12 days.\nCheck: 12 * 25 = 300, which is the bike's cost.", "12"),
    (BIKE, "300/25 = 12\n12 * 25 = 300 ✓\nTim needs 12 days, saving $25 each day.", "12"),
    (BIKE, "300/25 = 12\n12 days = 12/7 ≈ 1.7 weeks\nTim needs 12 days to save $300.", "12"),
    (
        BIKE,
        "300/25 = 12\nTim needs 12 days.\nThat is how long it takes to save $300 at $25 a day.",
        "12",
    ),
    (EGGS, "9 + 16 = 25\nShe makes $18 from her 16 eggs, eating 3 and baking 4.", "18"),
    ("If a dozen eggs costs $3, how many eggs can Jen buy with $6?", "ANSWER: 2 dozen", "24"),
    ("How many hours per week does he practice?", "ANSWER: 90 minutes per week", "1.5"),
    ("How many dollars per hour does she earn?", "ANSWER: 150 cents per hour", "1.5"),
    ("How many additional minutes does it take?", "ANSWER: 1.5 hours", "90"),
    ("How much money in total?", "ANSWER: 18 billion or 18,000 million", "18000000000"),
    ("How many millions of dollars did it earn?", "ANSWER: $18 million", "18"),
    ("How much did it earn in millions?", "ANSWER: $18,000,000", "18"),
    (PROFIT, "ANSWER: Although he lost 2 eggs, he earned a profit of $18.", "18"),
    ("What is the net change in her savings?", "ANSWER: $18 decrease", "-18"),
    ("How many does he keep?", "ANSWER: Half of 40 is 20, so he keeps 40", "40"),
    (EGGS, "ANSWER: 9 eggs, so $18", "18"),
]


@pytest.mark.parametrize(("question", "ending"), NONE)
def test_two_values_or_none_deliver_no_answer(question: str, ending: str) -> None:
    assert grade("Working it out.\n" + ending, "18", question=question).answer is None


@pytest.mark.parametrize(("question", "ending", "answer"), DELIVERED)
def test_the_one_value_delivered_is_read(question: str, ending: str, answer: str) -> None:
    assert grade("Working it out.\n" + ending, answer, question=question).answer == answer
