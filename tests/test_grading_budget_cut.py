"""Thinking cut by a budget, with no tags and no stop reason: an answer stated long before a text
that ends on a number cut short was a draft (gsm8k/grading/endings.py)."""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

QUESTION = (
    "Janet's ducks lay 16 eggs per day. She eats 3 and bakes with 4. She sells the rest at $2 "
    "each. How much does she make?"
)
ANSWERED = (
    "Okay, let me think. She has 16 - 3 = 13, then 13 - 4 = 9 eggs, and 9 * 2 = 18. "
    "So the answer is 18.\n\n"
)
DOUBT = "Hmm, but wait. Let me reconsider whether the muffins use eggs from the same day. "


@pytest.mark.parametrize(
    "ending", ["the total would be 18 + 1", "16 - 3 - 4 = 9 and 9 times 2 is 1", "so it is $2"]
)
def test_an_answer_long_before_a_number_cut_short_is_a_draft(ending: str) -> None:
    verdict = grade(ANSWERED + DOUBT * 30 + ending, "18", question=QUESTION)
    assert verdict.answer is None


@pytest.mark.parametrize(
    "completion",
    [
        ANSWERED + DOUBT * 2 + "the total would be 18 + 1",  # close after the answer
        ANSWERED + DOUBT * 30 + "So the answer is 18.",  # finished with a statement
        ANSWERED + DOUBT * 30 + "Final count of eggs sold: 9.",  # a finished sentence
    ],
)
def test_an_answer_that_was_not_cut_stands(completion: str) -> None:
    assert grade(completion, "18", question=QUESTION).answer == "18"
