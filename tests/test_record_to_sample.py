from __future__ import annotations

import pytest

from gsm8k.task import record_to_sample

# Verbatim GSM8K test records (indices 0 and 1 of openai/grade-school-math test.jsonl) and
# records shaped like the ones with comma and negative finals.
JANET = {
    "question": "Janet\u2019s ducks lay 16 eggs per day. She eats three for breakfast every "
    "morning and "
    "bakes muffins for her friends every day with four. She sells the remainder at the farmers' "
    "market daily for $2 per fresh duck egg. How much in dollars does she make every day at the "
    "farmers' market?",
    "answer": "Janet sells 16 - 3 - 4 = <<16-3-4=9>>9 duck eggs a day.\nShe makes 9 * 2 = "
    "$<<9*2=18>>18 every day at the farmer\u2019s market.\n#### 18",
}


def test_verbatim_record_keeps_question_target_and_solution() -> None:
    sample = record_to_sample(JANET, 0)
    assert sample.id == 0
    assert sample.input == JANET["question"]
    assert sample.target == "18"
    assert sample.metadata is not None
    assert sample.metadata["solution"].endswith("every day at the farmer\u2019s market.")
    assert "####" not in sample.metadata["solution"]


@pytest.mark.parametrize(
    ("final", "target"),
    [
        pytest.param("1,450,000", "1450000", id="thousands-commas-removed"),
        pytest.param("-10", "-10", id="negative-final"),
        pytest.param(" 2,880,000 ", "2880000", id="surrounding-space"),
        pytest.param("0.5", "0.5", id="decimal-final-in-user-data"),
    ],
)
def test_gold_final_is_normalized(final: str, target: str) -> None:
    sample = record_to_sample({"question": "Q?", "answer": f"steps\n#### {final}"}, 3, "train")
    assert sample.target == target
    assert sample.id == 3


@pytest.mark.parametrize(
    ("record", "message"),
    [
        pytest.param(
            {"question": "Q?", "answer": "no final line"}, "no '####", id="missing-delimiter"
        ),
        pytest.param(
            {"question": "Q?", "answer": "x\n#### twelve"},
            "'twelve' is not a number",
            id="non-numeric-final",
        ),
        pytest.param({"question": "Q?", "answer": "x\n#### "}, "is not a number", id="empty-final"),
        pytest.param(
            {"question": "  ", "answer": "x\n#### 3"},
            "'question' is missing or empty",
            id="empty-question",
        ),
        pytest.param({"answer": "x\n#### 3"}, "'question' is missing", id="missing-question"),
        pytest.param({"question": "Q?", "answer": 3}, "no '####", id="answer-not-text"),
    ],
)
def test_invalid_gold_is_an_error_naming_the_record(
    record: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match="record 7") as error:
        record_to_sample(record, 7)
    assert message in str(error.value)
