"""Metamorphic relations over labelled completions (benchmarks/grading_relations.py).

From a completion whose delivered answer is known, each relation rewrites its final answer
statement and says what the grader must then read. The fast tier checks the machinery and runs
every relation over a slice of the hand-written corpus in benchmarks/data; the slow tier runs
every relation over every usable real completion in ``../shared/data/completions`` beside
``GSM8K_DATA_DIR`` (one phrasing per completion, rotated by its index) and skips without them.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from benchmarks.answer_statements import asked_unit, find_statement, question_quantities
from benchmarks.grading_agreement import (
    CORRECTIONS,
    attach_questions,
    audited_labels,
    load_completions,
    load_corrections,
)
from benchmarks.grading_relations import (
    RELATIONS,
    Outcome,
    alternative,
    apply,
    bundled_rows,
    failures,
    pass_rates,
    table,
    usable_cases,
)
from benchmarks.relation_phrasings import HEDGED, Case
from benchmarks.relation_restatements import words
from tests.conftest import REAL_DATA_DIR


@pytest.mark.parametrize(
    ("completion", "kind", "slot", "value"),
    [
        pytest.param("so 96 lines.\nA: 96", "a_line", "96", "96", id="gpt3-a-line"),
        pytest.param("= 18.\n**ANSWER:** $18.00", "answer_line", "$18.00", "18", id="bold-line"),
        pytest.param("= 18.\n#### 18", "hash_line", "18", "18", id="hash"),
        pytest.param("bill is $\\boxed{45.0}$ dollars.", "boxed", "45.0", "45", id="tora-box"),
        pytest.param('{"reasoning": "x", "answer": "8,200"}', "json", "8,200", "8200", id="json"),
        pytest.param('{"answer": 14}', "json", "14", "14", id="json-number"),
        pytest.param("So the answer is 18.", "phrase", "18", "18", id="phrase"),
        pytest.param("#### 18\nThe answer is \\boxed{20}.", "boxed", "20", "20", id="last-mark"),
    ],
)
def test_the_final_statement_is_found_without_the_grader(
    completion: str, kind: str, slot: str, value: str
) -> None:
    statement = find_statement(completion)
    assert statement is not None
    assert statement.kind == kind
    assert completion[statement.slot_start : statement.slot_end] == slot
    assert statement.value == Decimal(value)


@pytest.mark.parametrize(
    "completion",
    [
        pytest.param("#### 18 or 20", id="two-numbers"),
        pytest.param("\\boxed{9 \\times 2}", id="an-operation"),
        pytest.param("She makes 18 dollars.", id="no-mark"),
        pytest.param(
            '"answer": "it is 230 miles' + " but the distance is unknown" * 40 + ', sadly"',
            id="a-long-slot-of-words-fails-at-once",
        ),
    ],
)
def test_a_statement_without_one_plain_number_is_not_used(completion: str) -> None:
    assert find_statement(completion) is None


def _case(completion: str, question: str | None = None) -> Case:
    statement = find_statement(completion)
    assert statement is not None
    return Case(completion, statement, question, Decimal(20))


def test_a_slot_rewrite_keeps_the_marks_own_markup() -> None:
    case = _case("9 * 2 = 18.\n**ANSWER:** 18")
    rewrites = {label: build(case) for label, build in HEDGED.phrasings}
    assert rewrites["{d}, perhaps {a}"] == "9 * 2 = 18.\n**ANSWER:** 18, perhaps 20"
    assert rewrites["\\boxed{{{d}}} or \\boxed{{{a}}}"] is None  # a box-only phrasing
    json_case = _case('{"answer": 18}')
    assert json_case.slot("18 or maybe 20") == '{"answer": "18 or maybe 20"}'


def test_question_fields() -> None:
    question = "Jo reads 16 pages and 3 of them twice. How many minutes does it take her?"
    assert question_quantities(question) == [(Decimal(16), "pages")]
    assert asked_unit(question) == "minutes"
    assert asked_unit("It costs $5 each. How much does she pay?") == "dollars"
    assert asked_unit("How many apples are left?") is None
    assert [words(Decimal(v)) for v in (0, 25, 105, 1000)] == [
        "zero",
        "twenty-five",
        "one hundred and five",
        None,
    ]


def test_the_alternative_value_avoids_the_answer_and_the_questions_numbers() -> None:
    assert alternative(Decimal(18), {Decimal(20), Decimal(36)}, 0) == Decimal(28)
    assert all(alternative(Decimal(18), set(), i) != 18 for i in range(12))


@pytest.mark.parametrize(
    ("expected", "got", "passed"),
    [
        (None, None, True),
        (None, "NONE", True),  # the model said the question cannot be answered: no value
        ("18", "18.0000000001", True),
        ("18", "20", False),
        (None, "18", False),
        ("18", None, False),
    ],
)
def test_an_outcome_compares_values_not_strings(
    expected: str | None, got: str | None, passed: bool
) -> None:
    assert Outcome("r", "p", "id", 0, expected, got, "", "").passed is passed


# Every relation on a slice of the hand-written corpus (every ninth row: most styles, all
# values), at the delivered-answer rules' measured rates; before them the same slice passed
# hedges 9 of 66, corrections 19, retractions 13, empty slots 17 and number words 14 of 26. The
# miss left is a rule defect (docs/grading-relations.md): `the answer is Six.` after a sentence
# read as its last number. (`the answer is cannot be determined`, read as the working's last
# number in 3 rows, is now an empty slot.) The floors only ever rise.
BUNDLED_MIN_PASS = {
    **dict.fromkeys(
        (
            "hedged_statement",
            "alternative_after",
            "unhedged_correction",
            "quoted_mistake",
            "retraction_cut",
            "degree_mark",
            "sign_word",
            "scale_word",
            "closing_guesses",
            "closing_hedge",
            "empty_slot",
            "ruled_out",
            "undecided_after",
            "per_case",
            "disclaimed",
            "parallel_cases",
            "closing_remark",
        ),
        1.0,
    ),
    "number_words": 25 / 26,
}


def test_relations_over_the_hand_written_corpus() -> None:
    rows = bundled_rows()[::9]
    outcomes = apply(usable_cases(rows, [bool(row["label"]) for row in rows]))
    rates = {name: passed / total for name, (passed, total) in pass_rates(outcomes).items()}
    assert set(rates) == set(BUNDLED_MIN_PASS)  # no question, so no unit or closing relation
    low = {name: rate for name, rate in rates.items() if rate < BUNDLED_MIN_PASS[name]}
    assert low == {}, table(outcomes) + "\n\n" + failures(outcomes, 3)


# Each relation's pass rate over the 16,975 usable real completions with the delivered-answer
# rules, as measured (docs/grading-relations.md). The floors only ever rise. What is under 100%:
# - ToRA sentences that are conditional themselves (`Jordan would earn \boxed{140} if he spent
#   …`): by the definition a hedged statement followed by another value delivers none, so the
#   `alternative_after`, `quoted_mistake` and `unhedged_correction` rewrites of those few rows
#   expect what the definition does not say: the relation's wording, not a rule defect;
# - `hedged_statement` and `empty_slot` inside a JSON answer string after a `**Answer:**` line
#   (zeroeval): rule defects, listed as known limits in docs/grading.md;
# - `closing_clause` (23): mostly the relation's wording (`So it takes 15 to cover all 4 pound.`,
#   `… since there are 6 left.`: the question's word after its number is no noun), and a few
#   closing sentences whose value is itself a number of the question and not the working's
#   last result (`the total comes to 1 for the 180 days` after `= 1.6 bags`);
# - `closing_hedge` on five ToRA rows whose program printed another value (`2.4`, `-40`): the
#   printed result wins over a closing sentence of a question number, hedged or not.
MIN_PASS = {
    **{relation.name: 1.0 for relation in RELATIONS},
    "hedged_statement": 16_971 / 16_975,
    "alternative_after": 16_971 / 16_975,
    "empty_slot": 16_971 / 16_975,
    "closing_clause": 14_592 / 14_612,
    # Two rows whose working ends on a committed closing statement of another value (`The third
    # class has 23 boys.`, `A box has 128 chocolate bars.`): the rewrite's `Maybe {d}.` is then a
    # hedge after a committed statement, which stands (1.14.0) — the relation's wording.
    "closing_hedge": 7_877 / 7_884,
    # `Reminder: the question gives 5 different.`: the question's noun after 5 is no noun.
    "closing_remark": 5_128 / 5_129,
    # A ToRA row whose program printed 293.33 before two boxes of 294: the relation takes the
    # first box for the working's value; and a ZeroEval row whose statement is not its last line.
    "ruled_out": 7_690 / 7_691,
    "undecided_after": 16_974 / 16_975,
}


@pytest.fixture(scope="module")
def real_outcomes() -> list[Outcome]:
    if not REAL_DATA_DIR:
        pytest.skip("GSM8K_DATA_DIR is not set; the labelled completions sit beside it")
    directory = Path(REAL_DATA_DIR).parent / "completions"
    if not directory.is_dir():
        pytest.skip(f"no labelled completions at {directory}")
    rows: list[dict[str, Any]] = load_completions(directory)
    attach_questions(rows, Path(REAL_DATA_DIR).parent)
    labels = audited_labels(rows, load_corrections(CORRECTIONS, rows))
    return apply(usable_cases(rows, labels))


@pytest.mark.slow
def test_every_relation_holds_over_the_real_completions(real_outcomes: list[Outcome]) -> None:
    rates = pass_rates(real_outcomes)
    # Every relation applies to enough completions that its rate means something.
    assert {name: total for name, (_, total) in rates.items() if total < 100} == {}
    assert set(rates) == set(MIN_PASS)
    low = {
        name: f"{passed}/{total}"
        for name, (passed, total) in rates.items()
        if passed / total < MIN_PASS[name]
    }
    assert low == {}, table(real_outcomes) + "\n\n" + failures(real_outcomes, 3)
