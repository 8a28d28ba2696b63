"""A closing statement with no answer mark, read against the sentences after it and in the asked
unit (docs/grading.md, "The delivered answer"; 1.14.0).

Each row states one committed answer in prose and then a remark that holds another number: the
remark must not replace the answer. Neighbour rows, where the later sentence states a new value,
must still read that value.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from gsm8k.grading import grade

_PLAN = (
    "A gym charges $40 per month plus a one-time $50 joining fee. What is the total cost of the "
    "membership for the first year?"
)
_TANK = (
    "A tank holds 600 liters. It leaks 3 liters every hour. How many liters are left after 2 days?"
)
_BOOK = (
    "Ava is reading a 150-page book. She read 20 pages on Monday and twice as many on Tuesday. If "
    "she wants to read half of the remaining pages on Wednesday, how many pages should she read?"
)
_SALE = (
    "A lamp costs $50. In a sale its price is lowered to $40. By what percent was the price "
    "reduced?"
)
_PAINT = (
    "It takes Omar 20 minutes to paint one chair. How many hours will it take him to paint 12 "
    "chairs?"
)
_PENS = "A box of 20 pens costs $5. How much does each pen cost, in cents?"
_CANS = (
    "Each bottle returned is worth 5 cents. Lea returns 4 bags of 35 bottles. How much money, in "
    "dollars, does she get?"
)
_EDIT = "Nia edits 8 pages and spends 15 minutes on each page. How many hours does she spend?"


@pytest.mark.parametrize(
    ("question", "completion", "expected"),
    [
        # A labelled closing line with a value of its own, then a rate the question does not ask.
        (
            _PLAN,
            "The monthly fees come to $40 × 12 = $480 and the fee is paid once.\n\n"
            "First-year total: $530.\n\nThat works out to about $44 per month over the year.",
            "530",
        ),
        # Neighbour: a later sentence that states a new value is the answer.
        (
            _PLAN,
            "The monthly fees come to $40 × 12 = $480.\n\nFirst-year fees: $480.\n\n"
            "Adding the joining fee, she pays $530 in the first year.",
            "530",
        ),
        # An answer heading closed by a period, then a remark with working of its own.
        (
            _TANK,
            "In 2 days (48 hours) it leaks 48 × 3 = 144 liters, so 600 − 144 = 456 liters remain."
            "\n\n**Answer.** 456\n\nThe tank would be empty after 600 / 3 = 200 hours.",
            "456",
        ),
        # A value described by another in a `which is` clause.
        (
            _BOOK,
            "She has read 20 + 40 = 60 pages, so 90 are left.\n\n"
            "Ava should read 45 pages on Wednesday, which is half of the 90 pages she has left.",
            "45",
        ),
        # Neighbour: `which is` right before a number restates the value.
        (
            _BOOK,
            "She has 150 − 60 = 90 pages left, and half of them is 90 / 2, which is 45.",
            "45",
        ),
        # The ends of a change after the value.
        (
            _SALE,
            "The drop is $10 on a $50 lamp, and 10 / 50 = 0.2.\n\n"
            "The price was reduced by 20 percent, from $50 to $40.",
            "20",
        ),
    ],
)
def test_a_closing_statement_keeps_its_value_past_a_remark(
    question: str, completion: str, expected: str
) -> None:
    assert grade(completion, expected, question=question).answer == expected


@pytest.mark.parametrize(
    ("question", "completion", "expected"),
    [
        # The working's result restated with its unit, where hours are asked.
        (_PAINT, "12 chairs take 12 × 20 = 240 minutes.\n\nSo it takes Omar 240 minutes.", "4"),
        # A price in dollars where cents are asked: the sign before the value is its unit.
        (_PENS, "Each pen costs $5 / 20 = $0.25.\n\n**Each pen costs $0.25.**", "25"),
        # Cents where dollars are asked.
        (
            _CANS,
            "She returns 4 × 35 = 140 bottles, 140 × 5 = 700 cents.\n\nShe gets 700 cents.",
            "7",
        ),
        # A bold value already read in the asked unit is not converted twice.
        (_EDIT, "Total time = 8 × 15 = 120 minutes.\n\nNia spends **120 minutes** editing.", "2"),
    ],
)
def test_a_closing_statement_is_read_in_the_asked_unit(
    question: str, completion: str, expected: str
) -> None:
    assert grade(completion, expected, question=question).answer == expected


_TICKETS = (
    "Adult tickets cost $12 and child tickets cost $7. A family buys 2 adult and 3 child tickets. "
    "How much do they pay?"
)
_WAGE = (
    "Lou earns $16 per hour and works 30 hours a week. She also gets a $40 bonus each week. How "
    "much does she earn in 3 weeks?"
)


@pytest.mark.parametrize(
    ("completion", "expected"),
    [
        # An alternative answer on a line of its own after a committed answer line.
        (
            "2 × 12 + 3 × 7 = 45.\n\n**Answer:** 45\n\n**Alternative answer:** 38 (if one is free)",
            "45",
        ),
        # Another value called acceptable under a condition, after the answer.
        (
            "2 × 12 = 24 and 3 × 7 = 21, so 24 + 21 = 45.\n\n<answer>45</answer>\n\n"
            "Although $38 might also be acceptable if one child rides free.",
            "45",
        ),
        # Neighbour: called acceptable with no condition, it is a second answer.
        (
            "2 × 12 = 24 and 3 × 7 = 21, so 24 + 21 = 45.\n\n<answer>45</answer>\n\n"
            "Although $38 would also be a reasonable reading.",
            None,
        ),
        # Neighbour: the answer itself doubted beside the other value.
        (
            "2 × 12 + 3 × 7 = 45 dollars.\n\nIt's probably $45, but $38 is also possible if one "
            "child rides free.",
            None,
        ),
        # An answer in a JSON object with an alternative beside it offers two.
        ('{"answer": 45, "alternative_answer": 38}', None),
    ],
)
def test_an_alternative_after_a_committed_answer_leaves_it(
    completion: str, expected: str | None
) -> None:
    assert grade(completion, "45", question=_TICKETS).value == (
        None if expected is None else Decimal(expected)
    )


@pytest.mark.parametrize(
    ("completion", "expected"),
    [
        # A second reading by name, under a condition, after a bold answer.
        (
            "Weekly: 16 × 30 = 480, plus 40 = 520.\n3 weeks: 520 × 3 = 1,560.\n\n"
            "Lou earns **$1,560** in 3 weeks.\n\n*Scenario B:* if the bonus were paid once, "
            "she'd earn 480 × 3 + 40 = $1,480.",
            "1560",
        ),
        (
            "Weekly pay is 16 × 30 + 40 = 520, so 520 × 3 = 1560.\n\n#### 1560\n\nScenario B: if "
            "the bonus is paid once, she'd earn 1480.",
            "1560",
        ),
        # Neighbour: two named readings and no choice between them offer two answers.
        (
            "**Interpretation 1 (weekly bonus):** (16 × 30 + 40) × 3 = $1,560\n"
            "**Interpretation 2 (one bonus):** 16 × 30 × 3 + 40 = $1,480\n\n"
            "Depending on the interpretation, Lou earns $1,560 or $1,480.",
            None,
        ),
    ],
)
def test_a_named_second_reading_under_a_condition_is_an_alternative(
    completion: str, expected: str | None
) -> None:
    verdict = grade(completion, "1560", question=_WAGE)
    assert verdict.value == (None if expected is None else Decimal(expected))


_RUNS = (
    "Omar runs 4 miles every weekday and 6 miles on Saturday. He rests on Sunday. How many miles "
    "does he run in 3 weeks?"
)


@pytest.mark.parametrize(
    ("completion", "expected"),
    [
        # A correction that closes its working on the new value, the old one ruled out.
        (
            "4 × 5 = 20, plus 6 is 26 a week. Over 3 weeks: 26 × 2 = 52 miles.\n\n#### 52\n\n"
            "Edit: I multiplied by 2 instead of 3. The correct total is 26 × 3 = 78 miles, not 52.",
            "78",
        ),
        (
            "26 miles a week, so 26 × 2 = 52.\n\n#### 52\n\nERRATUM: three weeks means "
            "26 × 3 = 78 miles, so the total is 26 + 26 + 26 = 78.",
            "78",
        ),
        ("The answer is 52. Just kidding — it's 78.", "78"),
        ("The answer is 52. Scratch that, 78.", "78"),
        # Neighbour: a doubt that goes on to check states nothing new.
        ("26 × 3 = 78.\n\n#### 78\n\nWait, let me verify: 26 + 26 + 26 = 78. Yes.", "78"),
    ],
)
def test_a_correction_closing_its_working_states_the_new_value(
    completion: str, expected: str
) -> None:
    assert grade(completion, expected, question=_RUNS).answer == expected


_SAVE = (
    "Leo's allowance is $12 a week. He spends $3 on snacks and $2 on stickers each week and "
    "saves the rest. How much does he save in 5 weeks?"
)
_FILMS = (
    "A film night shows 3 films lasting 80, 100 and 120 minutes. How many hours long is the "
    "film night?"
)
_BAKERY = (
    "Ana buys 2 dozen rolls at $6 per dozen and 3 dozen buns at $8 per dozen. How much does she "
    "pay in total?"
)
_PUPPIES = (
    "A shelter had 30 puppies. A third were adopted on Monday and 4 more on Tuesday. How many are "
    "left?"
)
_READ = (
    "Mia is reading a 150-page book. She read 20 pages yesterday and twice as many today. If she "
    "wants to read half of the remaining pages tomorrow, how many pages should she read?"
)


@pytest.mark.parametrize(
    ("question", "completion", "expected"),
    [
        # A concluding clause's value stated over a question quantity is the result.
        (
            _SAVE,
            "He keeps 12 − 3 − 2 = 7 dollars each week, so Leo saves 35 dollars in 5 weeks.",
            "35",
        ),
        # An absolute clause about something else after the answer.
        (
            _FILMS,
            "Total: 80 + 100 + 120 = 300 minutes, and 300 / 60 = 5.\n\n"
            "The film night is 5 hours long, with the longest film being 2 hours.",
            "5",
        ),
        # What the value was found for, not a question number.
        (
            _BAKERY,
            "Rolls 2 × 6 = 12; buns 3 × 8 = 24. Sum: 12 + 24 = 36.\n\n"
            "Ana pays $36 in total for the 5 dozen pastries.",
            "36",
        ),
        # A question number restated after `out of the original`.
        (
            _PUPPIES,
            "Monday: 30 / 3 = 10 adopted, 20 left. Tuesday: 4 adopted, 16 left.\n\n"
            "There are 16 puppies left out of the original 30.",
            "16",
        ),
        # A place in a sequence after the answer is no quantity.
        (
            _READ,
            "Read so far: 20 + 40 = 60 pages. Remaining: 150 − 60 = 90 pages. Half: 90 ÷ 2 = 45 "
            "pages.\n\nMia should read 45 pages tomorrow. After that she'll be at page 105 of 150.",
            "45",
        ),
    ],
)
def test_a_closing_sentence_passes_over_what_describes_its_value(
    question: str, completion: str, expected: str
) -> None:
    assert grade(completion, expected, question=question).answer == expected
