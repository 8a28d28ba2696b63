"""A loss where the question asks for a profit is a negative value, wherever it is stated."""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

WORKING = "He paid $50 and sold it for $32, so 32 - 50 = -18.\n"
PROFIT = "Mark buys a lamp for $50 and sells it for $32. What is his profit?"
LOSS = "Mark buys a lamp for $50 and sells it for $32. How much money did he lose?"


@pytest.mark.parametrize(
    "ending",
    [
        "The final answer is a loss of $18.",
        "**Final Answer:** a loss of $18",
        "So Mark lost $18.",
        "#### loss of $18",
        "ANSWER: $18 loss",
        "ANSWER: $18 (loss)",
        "ANSWER: $18 (net loss)",
        "ANSWER: 18 dollars at a loss",
        "ANSWER: a negative profit of $18",
        "ANSWER: a loss of $18",
        "ANSWER: -$18",
    ],
)
def test_a_loss_is_a_negative_profit(ending: str) -> None:
    assert grade(WORKING + ending, "-18", question=PROFIT).answer == "-18"


@pytest.mark.parametrize(
    "ending",
    ["So Mark lost $18.", "ANSWER: $18 loss", "The final answer is a loss of $18."],
)
def test_a_loss_asked_for_is_its_size(ending: str) -> None:
    assert grade(WORKING + ending, "18", question=LOSS).answer == "18"


def test_a_loss_elsewhere_in_the_sentence_does_not_sign_the_answer() -> None:
    ending = "He lost 2 lamps but still made $18 in profit.\nANSWER: $18"
    assert grade(WORKING + ending, "18", question=PROFIT).answer == "18"
