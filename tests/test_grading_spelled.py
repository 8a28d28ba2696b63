"""A final statement in English number words states its answer (gsm8k/grading/spelled.py): an
answer phrase (`The answer is eighty.`) or a closing sentence with no mark (`She can travel
eighteen miles in total.`), with no digit after it. Words that are no quantity are not read."""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

_WORKING = "He buys 3 packs of 4, so 3 * 4 = 12 cookies, then eats 2 and has 10.\n\n"
_OMELET = "Claire makes a 3 egg omelet every morning for breakfast.  "
_DOZENS = _OMELET + "How many dozens of eggs will she eat in 4 weeks?"
_EGGS = _OMELET + "How many eggs will she eat in 4 weeks?"

# (closing, expected answer): each fails before the rule (the working's last number was read).
STATED_IN_WORDS = [
    ("The answer is eleven.", "11"),
    ("The answer is: eleven cookies.", "11"),
    ("So the answer is **eleven**.", "11"),
    ("The final answer is eleven", "11"),
    ("Therefore, the answer is therefore eleven.", "11"),
    ("The answer is one hundred and five.", "105"),
    ("The answer is a hundred.", "100"),
    ("The answer is a dozen.", "12"),
    ("The answer is thirty-five hours.", "35"),
    ("The answer is twenty-five dollars.", "25"),
    ("The answer is eleven. (The other box has eight.)", "11"),
    ("ANSWER: ten\n\nThe answer is eleven.", "11"),
    ("He has eleven cookies left.", "11"),
    ("Either way, he has eleven cookies.", "11"),
    ("Terry spends seventy-five dollars.", "75"),
    ("She can travel eighteen miles in total.", "18"),
    ("It takes him five hours to get back.", "5"),
    ("He has eleven.", "11"),
]
# Two runs of number words joined by a hedge or list: no answer, as with digits.
HEDGED_IN_WORDS = [
    "The answer is nine or eleven.",
    "The answer is either eleven or twelve.",
    "The answer is probably eleven, maybe twelve.",
    "The answer is between nine and eleven.",
    "The answer is not eleven.",
    "He has eleven cookies or twelve cookies left.",
    "He has eleven cookies left, maybe twelve.",
]
# Words that are no quantity, a question, an aside or a note: the working's 10 stands.
UNCHANGED = [
    "The answer is one of the hardest to find.",
    "Is the answer eleven?",
    "He shares them with each one of his friends.",
    "So no one gets more than the others.",
    "He eats them one at a time.",
    "He eats them one by one.",
    "The two of them are happy.",
    "His two sons are happy.",
    "Note: the final amount is rounded to two decimal places.",
    "(He also has two dogs.)",
    "He is a hundred percent sure.",
    "Step two is done.",
    "That is three times as many.",
    "He gives one to each friend.",
    "Does he have eleven?",
    "He has a few left.",
    "He did it at once.",
    "The answer is ten.\n\nHe has 10 cookies.",
    "\\boxed{10}\n\nThe answer is nine or eleven.",
]


@pytest.mark.parametrize(("closing", "expected"), STATED_IN_WORDS)
def test_statement_in_words_is_the_answer(closing: str, expected: str) -> None:
    verdict = grade(_WORKING + closing, expected)
    assert verdict.answer == expected, verdict.note


@pytest.mark.parametrize("closing", HEDGED_IN_WORDS)
def test_two_values_in_words_are_no_answer(closing: str) -> None:
    assert grade(_WORKING + closing, "10").answer is None


@pytest.mark.parametrize("closing", UNCHANGED)
def test_words_that_are_no_quantity_are_not_read(closing: str) -> None:
    assert grade(_WORKING + closing, "10").answer == "10"


@pytest.mark.parametrize(("question", "expected"), [(_DOZENS, "7"), (_EGGS, "84"), (None, "7")])
def test_dozens_in_words_read_in_the_asked_unit(question: str | None, expected: str) -> None:
    completion = (
        "She eats 3 eggs a day for 28 days: 3 * 28 = 84 eggs.\n\nShe will eat seven dozen eggs."
    )
    assert grade(completion, expected, question=question).answer == expected


def test_the_models_own_statement_in_words_is_read_even_when_wrong() -> None:
    completion = (
        "x + x + 30 = 110, so x = 40, gold is 70.\n\nThe answer is sixty. (Silver coins are forty.)"
    )
    assert grade(completion, "70").answer == "60"


@pytest.mark.parametrize(
    "shape", ["one ", "twenty-", "a dozen ", "The answer is nine or ", "each one "]
)
def test_floods_of_number_words_grade_fast(shape: str) -> None:
    import time

    started = time.perf_counter()
    grade("5 = 5.\n\nThe answer is " + shape * 20000, "1")
    assert time.perf_counter() - started < 1.0
