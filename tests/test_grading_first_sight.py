"""Classes that first-sight attacks on 1.11.0 found, each pinned by rows of the shape a model
writes and by a neighbour that must not change (docs/grading.md, "The delivered answer").

Every row states what the delivered-answer definition reads: a remark after a closing statement
leaves it standing; a breakdown of a value is no new value; a retraction then an unfinished redo
delivers nothing; a correction in the retraction's own sentence delivers its value; a range, two
bounds, a slash pair, lettered options or conditioned cases give no answer; a text that ends where
no sentence can end was cut.
"""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

SPRINTS = (
    "He does 3 sprints, 3 times a week, so that is 9 sprints.\nEach sprint is 60 "
    "meters, so 9 × 60 = 540.\n"
)
CANDLE = "From 1:00 PM to 5:00 PM is 4 hours. 4 * 2 = 8 cm.\n\n"
EGGS_DOZEN = "3 eggs a day * 28 days = 84 eggs. 84 / 12 = 7 dozen.\n\n"
DOZEN_QUESTION = (
    "Claire makes a 3 egg omelet every morning for breakfast. How many dozens of eggs will she "
    "eat in 4 weeks?"
)

REMARKS = [
    pytest.param(
        "Siobhan has 20 + 5 - 2 = 23 jewels.\nSiobhan has 23 jewels.\n\nBy comparison, Aaron "
        "has 25 "
        "and Raymond has 40.",
        "23",
        id="comparison-after",
    ),
    pytest.param(
        "Total: 40 + 20 + 100 = 160 minutes.\n\nThe download takes 160 minutes. The trap here is "
        "answering 100 minutes by forgetting the restart.",
        "160",
        id="trap-after",
    ),
    pytest.param(
        "Each serving is 300g/5 = 60 grams, so 60 * 4/5 = 48 grams.\n\nYou can eat 48 grams. Don't "
        "answer 60, which is the weight of a full serving.",
        "48",
        id="dont-answer-after",
    ),
    pytest.param(
        "Revenue $40, supplies $10 for the beeswax.\nNet profit: $30.\nNote that if he needed a "
        "second pound of beeswax, profit would be $20.",
        "30",
        id="note-that-hypothetical",
    ),
    pytest.param(
        "It will take 90 / 7.5 = 12 years to break even, and 12 + 1 = 13.\nSo: 13 years. Not 12 — "
        "at 12 years he has only broken even.",
        "13",
        id="not-n-after",
    ),
    pytest.param(
        "Going back at 6 mph: 30 / 6 = 5 hours.\n\nIt takes him 5 hours to get back, so he'd "
        "arrive "
        "home at around 9 PM.",
        "5",
        id="clock-time-after",
    ),
    pytest.param(
        "He spends $60.\n\nOne could also argue for $75, I suppose.",
        "60",
        id="someone-could-argue",
    ),
    # Neighbour: a first-person correction after the statement is no remark.
    pytest.param(
        "Janet has 16 - 3 - 4 = 9 eggs left. She sells them at $2 each: 9 * 2 = 18.\nI initially "
        "got 18, but that was wrong.",
        None,
        id="own-value-called-wrong",
    ),
]

BREAKDOWNS = [
    pytest.param(
        "The jeweler charges 1300 and insurance is 10% of that, 130.\n\nShe paid $1,430 in total, "
        "i.e. $1,300 for the ring plus $130 for insurance.",
        "1430",
        id="sum-after-ie",
    ),
    pytest.param(
        SPRINTS + "James runs a total of 540 meters every week, across his 9 sprints of 60 m each.",
        "540",
        id="product-across",
    ),
    pytest.param(
        "She makes $7,425 per week.\n\nThat's 33 classes × 15 students × $15.",
        "7425",
        id="product-next-sentence",
    ),
    # Neighbours: working in words, and a further step, are no breakdown.
    pytest.param(
        "20% of 50 employees is 10 employees. 30% of 10 employees is 3 employees.",
        "3",
        id="percent-of-working",
    ),
    pytest.param(
        "By the end of May, there are 320 students. Subtracting the initial 10 students gives us "
        "310 additional students.",
        "310",
        id="next-step-not-parts",
    ),
]

RETRACTIONS = [
    pytest.param(
        "The answer is 26.\nOops, that's wrong. Let me redo it: 19.50 * 1.25",
        None,
        id="redo-cut-at-working",
    ),
    pytest.param(
        "So the answer is 294.\n\nWait, I made an error. Recomputing with 252 eggs and $2",
        None,
        id="redo-cut-mid-sentence",
    ),
    pytest.param(
        "So he can go 3 times.\n\nUgh, I messed up somewhere. Let me try again.\n\nTicket $7, "
        "popcorn $7",
        None,
        id="no-mark-redo-cut",
    ),
    pytest.param(
        "Answer: 8\n\nActually I think that's wrong, let me start over.",
        None,
        id="i-think-thats-wrong",
    ),
    pytest.param(
        "**25 miles**\n\nI apologize, the above answer is incorrect.", None, id="apology-opener"
    ),
    pytest.param(
        "So she eats 7 dozen eggs.\n\nHold on, that doesn't look correct...",
        None,
        id="doesnt-look-correct",
    ),
    # Neighbour: a finished redo delivers its result.
    pytest.param(
        "The answer is 8.\n\nWait, I made an error. Let me recompute: 4 * 3 = 12.",
        "12",
        id="finished-redo",
    ),
]

CORRECTIONS = [
    pytest.param(
        "The answer is 180 meters — sorry, I misspoke, it's 540 meters for the week.",
        "540",
        id="misspoke-its",
    ),
    pytest.param("The answer is 540 — oops, typo, I meant 520.", "520", id="oops-i-meant"),
    pytest.param("ANSWER: 35. Sorry, my mistake: it's 45.", "45", id="sorry-my-mistake"),
    pytest.param("ANSWER: 26 — my bad, I forgot the muffins; it's 18.", "18", id="my-bad-its"),
    pytest.param(
        "#### 18\n\nErratum: the final answer should read 16.", "16", id="erratum-should-read"
    ),
    pytest.param(
        "**Answer: 35**\n\nOn second thought, the second stop is at 45 miles, so the distance "
        "between stops is 25 miles.",
        "25",
        id="second-thought-so",
    ),
    pytest.param(
        "Answer: 40 — sorry, that's the silver coins. Gold coins: 70.",
        "70",
        id="sorry-thats-the-other",
    ),
]

NO_ONE_ANSWER = [
    pytest.param(
        "Answer: ~160 minutes, could be anywhere from 140 to 180", None, id="range-on-answer-line"
    ),
    pytest.param("He spends about $75-80 on yogurt.", None, id="dollar-range-shorthand"),
    pytest.param("His pace was 10 mph at most, 8 mph at least.", None, id="two-bounds"),
    pytest.param("He runs 540m/180m a week.", None, id="slash-pair-units"),
    pytest.param("Lloyd makes $294/$2058 per week.", None, id="slash-pair-dollars"),
    pytest.param("So the probability is 2/4 or 50%.", "50", id="a-bare-slash-is-a-fraction"),
    pytest.param("The answers are 140 and 130.", None, id="plural-answers"),
    pytest.param(
        "**Answer options**\n\nA. $460 (overtime at 1.2×)\nB. $450 (no overtime premium)",
        None,
        id="lettered-options",
    ),
    pytest.param(
        "Profit, counting repairs as a cost: $70,000.\nProfit, ignoring repairs: $120,000.",
        None,
        id="conditioned-labels",
    ),
    pytest.param(
        "- If he runs 3 hours on the other days too: 60 / 9 = 6.67 mph\n- If half as much (1.5 h "
        "each): 60 / 6 = 10 mph",
        None,
        id="conditional-bullets-with-working",
    ),
    pytest.param(
        '{"steps": ["40/2=20", "20+5=25"], "candidates": [23, 25], "final": null}',
        None,
        id="json-final-null",
    ),
    pytest.param(
        '[\n  {"scenario": "overtime on all hours", "answer": 540},\n  {"scenario": "overtime '
        'after 40h", "answer": 460}\n]',
        None,
        id="json-answer-per-scenario",
    ),
    pytest.param("So the total is 204 + 160 + 330 =", None, id="cut-at-equals"),
    pytest.param(
        "Together 1150 a week, and 1150 × 50 = 57500. Now I need to subtract the unpaid "
        "weeks, which are",
        None,
        id="cut-on-opening-word",
    ),
    # Neighbours that keep their value.
    pytest.param(
        '```json\n{"answer": 3}\n```\nHmm, I mixed it up. The final JSON:\n'
        '```json\n{"answer": 16}\n```',
        "16",
        id="json-redone-after-a-fence",
    ),
    pytest.param(
        "The shipping cost is $3.00 and the refund amount is $24. The total cost for Milly "
        "is $11.00, so she loses $8.00.",
        "8",
        id="not-parallel-cases",
    ),
]

HEDGED_AFTER = [
    pytest.param(
        "They travel 150 miles north on the second day.\n\nEach train covered 150 miles. "
        "Then again, it could be 230 if you include the first day.",
        "150",
        id="then-again-it-could-be",
    ),
    pytest.param(
        "Samantha is 31, Raymond had his son at 23.\n\nThe son was born 8 years ago. Though "
        "I suppose it might be 14.",
        "8",
        id="though-i-suppose",
    ),
    pytest.param(
        CANDLE + "The candle will be 10 cm shorter.\n\nIf the candle only burned for 4 hours, the "
        "answer would be 8.",
        "10",
        id="conditional-answer-phrase",
    ),
    pytest.param(
        "Ben's iPhone is 1*2 = 2 years old.\nBrandon's iPhone is 4*2 = 8 years "
        "old.\nBrandon's iPhone is 8 years old.\nAlternatively, reading 'two times older' as "
        "3x, it'd be 12.",
        "8",
        id="factor-in-alternative",
    ),
    pytest.param(
        "The candle burns for 5 - 1 = 4 hours, so 2 * 4 = 8 cm.\nThe candle will be 8 cm shorter. "
        "The answer is not 10 cm — 1 PM to 5 PM is 4 hours, not 5.",
        "8",
        id="answer-is-not",
    ),
]


@pytest.mark.parametrize(("completion", "answer"), REMARKS)
def test_a_remark_after_the_closing_statement_leaves_it(
    completion: str, answer: str | None
) -> None:
    assert grade(completion, "1").answer == answer


@pytest.mark.parametrize(("completion", "answer"), BREAKDOWNS)
def test_a_breakdown_of_a_value_is_no_new_value(completion: str, answer: str | None) -> None:
    assert grade(completion, "1").answer == answer


@pytest.mark.parametrize(("completion", "answer"), RETRACTIONS)
def test_a_retraction_then_an_unfinished_redo_delivers_nothing(
    completion: str, answer: str | None
) -> None:
    assert grade(completion, "1").answer == answer


@pytest.mark.parametrize(("completion", "answer"), CORRECTIONS)
def test_a_correction_in_the_retractions_sentence_delivers_its_value(
    completion: str, answer: str | None
) -> None:
    assert grade(completion, "1").answer == answer


@pytest.mark.parametrize(("completion", "answer"), NO_ONE_ANSWER)
def test_ranges_pairs_options_cases_and_cuts_give_no_answer(
    completion: str, answer: str | None
) -> None:
    assert grade(completion, "1").answer == answer


@pytest.mark.parametrize(("completion", "answer"), HEDGED_AFTER)
def test_a_hedged_alternative_after_a_closing_statement_leaves_it(
    completion: str, answer: str | None
) -> None:
    assert grade(completion, "1").answer == answer


def test_a_unitless_guess_after_a_statement_in_the_asked_unit_leaves_it() -> None:
    completion = EGGS_DOZEN + "She eats 6 dozen eggs. Could be 7, I guess."
    assert grade(completion, "7", question=DOZEN_QUESTION).answer == "6"
    # With no question, the guess is read as the closing hedge it is.
    working = "Janet has 16 - 3 - 4 = 9 eggs left, and 9 * 2 = 18.\n"
    assert grade(working + "So she has 9 eggs. Probably 18.", "18").answer == "18"


WIRE_QUESTION = (
    "Tracy used a piece of wire 4 feet long to support tomato plants in the garden. The wire was "
    "cut into pieces 6 inches long. How many pieces did she obtain?"
)


def test_the_questions_data_after_the_answer_is_a_remark() -> None:
    completion = (
        "4 feet = 48 inches. 48 / 6 = 8 pieces.\n\nShe obtained 8 pieces.\n\nThe wire was 4 feet "
        "long and each piece was 6 inches."
    )
    assert grade(completion, "8", question=WIRE_QUESTION).answer == "8"
    # A closing `which is N` states a value, even one the question holds.
    stated = (
        "The first 6 hours see 30 bees leave, so 30 * 2 = 60 bees.\nThe last 6 hours see the same "
        "as the first 6 hours, which is 30 bees."
    )
    assert grade(stated, "30", question="30 bees leave in the first 6 hours.").answer == "30"


CANDLE_QUESTION = (
    "A candle melts by 2 centimeters every hour that it burns. How many centimeters shorter will "
    "a candle be after burning from 1:00 PM to 5:00 PM?"
)


def test_a_hedged_guess_after_a_statement_in_the_asked_unit_or_opened_by_or_leaves_it() -> None:
    candle = CANDLE + "The candle is 10 cm shorter. Possibly 8, if you count only full hours."
    assert grade(candle, "8", question=CANDLE_QUESTION).answer == "10"
    yogurt = "60 / 4 = 15 packs; 15 * $5 = $75.\n\nHe spends $80.\nOr $75 with the deal, I suppose."
    assert grade(yogurt, "75").answer == "80"
