"""One quantity is one value, read in the unit the question asks for (gsm8k/grading/units.py)."""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

WORKING = "Janet has 16 - 3 - 4 = 9 eggs left, and 9 * 2 = 18.\n"
MINUTES = "How many minutes does the trip take?"
INCHES = "How many inches tall is he?"
DOLLARS = "Eggs sell for $2 each. How much does she make?"

ROWS = [
    # A compound quantity, in any of the forms models write, read in the asked unit.
    pytest.param(MINUTES, "ANSWER: 1h 30m", "90", id="hours-minutes-short"),
    pytest.param(MINUTES, "ANSWER: 2h15m", "135", id="hours-minutes-unspaced"),
    pytest.param(MINUTES, "The trip takes 1h 30m.", "90", id="compound-in-closing-sentence"),
    pytest.param(INCHES, "ANSWER: 5'6\"", "66", id="feet-inches-marks"),
    pytest.param(INCHES, "ANSWER: 5 ft. 6 in.", "66", id="feet-inches-abbreviated"),
    pytest.param(
        "How many quarts does she have?", "ANSWER: 2 gallons 2 quarts", "10", id="gallons-quarts"
    ),
    pytest.param(
        MINUTES, "\\boxed{1 \\text{ hour } 30 \\text{ minutes}}", "90", id="compound-in-latex-text"
    ),
    pytest.param("How many seconds does it take?", "ANSWER: 1 min 30 s", "90", id="min-s"),
    pytest.param(None, "ANSWER: 1 hour 30 minutes", "1.5", id="no-question-larger-unit"),
    pytest.param(None, "ANSWER: $18 and 50 cents", "18.5", id="dollars-and-cents"),
    # One unit of the asked unit's kind, converted.
    pytest.param(MINUTES, "ANSWER: 1.5 hours", "90", id="hours-when-minutes-asked"),
    pytest.param(MINUTES, "ANSWER: 1.5 hours (90 minutes)", "90", id="restated-in-asked-unit"),
    pytest.param(
        "It takes a while. How long is it? Give your answer in minutes.",
        "ANSWER: 1.5 hours",
        "90",
        id="asked-by-instruction",
    ),
    pytest.param(
        "Sandy walks 8 hours. Calculate the total time in minutes.",
        "ANSWER: 8 hours",
        "480",
        id="asked-by-calculate",
    ),
    pytest.param(DOLLARS, "ANSWER: 2600 cents ($26)", "26", id="cents-when-dollars-asked"),
    pytest.param(
        "Kelly has 5 quarters. How many cents will she have left?",
        "ANSWER: 90 cents, or $0.90",
        "90",
        id="dollars-restating-cents",
    ),
    pytest.param("How many eggs does she buy?", "ANSWER: 2 dozen", "24", id="dozen-counted"),
    pytest.param("How many dozen eggs does she buy?", "ANSWER: 2 dozen", "2", id="dozen-asked"),
    # Not converted: a rate, units of another kind, prices that mention cents.
    pytest.param(
        "How many minutes does she read per week?",
        "ANSWER: 2 hours per day",
        "2",
        id="rate-read-as-written",
    ),
    pytest.param(MINUTES, "ANSWER: 3 months", "3", id="other-kind-not-converted"),
    pytest.param(
        "Vincent pays $2 for 3 flowers. How much money does he save?",
        "ANSWER: 700 cents ($7)",
        "7",
        id="cent-inside-a-word-is-no-cent",
    ),
    pytest.param(
        "A pop costs 55 cents and a chip $1. How much does she spend?",
        "ANSWER: 155 cents",
        "155",
        id="prices-in-cents-ask-no-unit",
    ),
    # Two values in units that do not convert into each other are two answers.
    pytest.param(DOLLARS, "ANSWER: 18 dollars or 36 euros", None, id="currencies-do-not-convert"),
    pytest.param(
        DOLLARS,
        "\\boxed{18 \\text{ dollars or } 36 \\text{ euros}}",
        None,
        id="currencies-in-a-box",
    ),
    pytest.param(DOLLARS, "She makes 18 dollars, or maybe 36 euros.", None, id="closing-euros"),
    pytest.param("How many cookies?", "ANSWER: 2 boxes or 24 cookies", None, id="no-unit-words"),
    pytest.param(DOLLARS, "ANSWER: $18 (or 1800 cents)", "18", id="one-quantity-two-units"),
    pytest.param(MINUTES, "ANSWER: 2 hours or 120 minutes", "120", id="one-quantity-time"),
    pytest.param(MINUTES, "ANSWER: 2 hours or 100 minutes", None, id="two-quantities-time"),
    pytest.param(DOLLARS, "ANSWER: $18, or $126 per week", "18", id="rate-of-another-period"),
]


@pytest.mark.parametrize(("question", "ending", "answer"), ROWS)
def test_a_quantity_is_read_in_the_asked_unit(
    question: str | None, ending: str, answer: str | None
) -> None:
    verdict = grade(WORKING + ending, answer or "18", question=question)
    assert verdict.answer == answer
