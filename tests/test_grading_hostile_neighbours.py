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
    # A second value offered in words, a value per label in any form, two boxes that disagree.
    (EGGS, "She makes $18 a day, if not $20."),
    (EGGS, "She makes $18 a day, give or take $2."),
    (EGGS, "She makes $18 a day, plus or minus $2."),
    (EGGS, "ANSWER: 18, if not 20"),
    (EGGS, "ANSWER: Monday $18; Tuesday $20"),
    (EGGS, "ANSWER: (a) 18 (b) 20"),
    (EGGS, "ANSWER: 18 (first reading), 20 (second reading)"),
    (EGGS, "ANSWER: Day 1: 18 / Day 2: 20"),
    (EGGS, "ANSWER: Janet: $18, Tim: $20"),
    (EGGS, "\\boxed{18 \\text{ (Monday)}, 20 \\text{ (Tuesday)}}"),
    (EGGS, "The answer is 18 for Monday and 20 for Tuesday."),
    (MINUTES, "It takes $\\boxed{2}$ hours, or $\\boxed{140}$ minutes."),
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
    # A closing sentence whose result is also a number of the question, or that restates it.
    ("Theo pays $7 with $10. How much change?", "So the change is $10 - $7 = $3.", "3"),
    (
        "Jackson is 5 years younger than Tom, who is 9. How old is Jackson?",
        "Jackson is 9 - 5 = 4.",
        "4",
    ),
    (EGGS, "She makes $18 every day, which is 1800 cents.", "18"),
    ("How many pounds does the box weigh?", "It weighs 25 pounds, which is 400 ounces.", "25"),
    (EGGS, "So she makes $20 a day, since 9 eggs × $2 = $18.", "20"),
    (
        "James slept 6 hours and Harry 9. How many more hours did Harry sleep?",
        "9 - 6 = 3\nHarry slept 3 more hours than James, who slept 6 hours.",
        "3",
    ),
    ("What was the temperature?", "The temperature was 3 degrees below zero.", "-3"),
    (MINUTES, "ANSWER: 140 minutes (2 hours 20 minutes)", "140"),
    ("How long does it take?", "ANSWER: 160 minutes (about 2.67 hours)", "160"),
    (
        "How many hours does he spend?",
        "He spends $\\boxed{36}$ hours, or $\\boxed{2160}$ minutes.",
        "36",
    ),
    (MINUTES, "It takes $\\boxed{140}$ minutes, or $\\boxed{2\\frac{1}{3}}$ hours.", "140"),
    (
        "How many weeks does John need?",
        "ANSWER: After 2 weeks of saving $40 a week, John has $80.",
        "2",
    ),
    (
        EGGS,
        "ANSWER: 18\nWait — I misread: she bakes with 3. 16 - 3 - 3 = 10, so she makes $20.",
        "20",
    ),
]


@pytest.mark.parametrize(("question", "ending"), NONE)
def test_two_values_or_none_deliver_no_answer(question: str, ending: str) -> None:
    assert grade("Working it out.\n" + ending, "18", question=question).answer is None


@pytest.mark.parametrize(("question", "ending", "answer"), DELIVERED)
def test_the_one_value_delivered_is_read(question: str, ending: str, answer: str) -> None:
    assert grade("Working it out.\n" + ending, answer, question=question).answer == answer
