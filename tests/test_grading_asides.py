"""What a committed answer delivers when more follows its value (docs/grading.md, "The delivered
answer"): a rate of another period, a hypothetical, a bracket, a comparison, a part the working
computed or a note after a closing sentence's result; a restatement that rounds or computes the
same value; a correction said as "really", "sorry, typo" or "No, I misread"; someone else's
answer; nested JSON answers, dozens beside a count, and signs said in other languages.
"""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

JANET = (
    "Janet's ducks lay 16 eggs per day. She eats three for breakfast and bakes muffins with "
    "four. She sells the rest for $2 per egg. How much in dollars does she make every day?"
)
WORKING = "16 - 3 - 4 = 9 eggs are left, and 9 * 2 = 18.\n"

ROWS = [
    pytest.param(
        JANET,
        WORKING + "So she makes $18 a day, which is $126 a week.",
        "18",
        id="rate-of-another-period",
    ),
    pytest.param(
        JANET,
        WORKING + "She makes $18 per day. If she ate 4 eggs, she would make $16.",
        "18",
        id="hypothetical-after-the-answer",
    ),
    pytest.param(
        JANET,
        "Janet makes $18 per day (9 eggs × $2).",
        "18",
        id="bracketed-working-after-the-result",
    ),
    pytest.param(
        JANET,
        WORKING + "Janet makes $18 a day, compared with $32 if she sold all 16 eggs.",
        "18",
        id="comparison-after-the-result",
    ),
    pytest.param(
        JANET,
        WORKING + "\\boxed{18 \\text{ (or } 9 \\times 2)}",
        "18",
        id="arithmetic-restatement-in-a-box",
    ),
    pytest.param(
        JANET,
        WORKING + "So the answer is 15.\nDouble-checking, the total is really 18.",
        "18",
        id="is-really-corrects",
    ),
    pytest.param(
        JANET,
        WORKING + "The answer is 1800, sorry, typo, 18.",
        "18",
        id="two-markers-take-back",
    ),
    pytest.param(
        JANET,
        WORKING + "So the answer is 16. No, I misread. It's 18.",
        "18",
        id="no-i-misread",
    ),
    pytest.param(
        JANET,
        WORKING + "#### 18\n\n(The official GSM8K answer is 5.)",
        "18",
        id="someone-elses-answer-with-words-between",
    ),
    pytest.param(
        JANET,
        WORKING + "ANSWER: 18.00 ≈ 18",
        "18",
        id="approximately-the-same-value",
    ),
    pytest.param(
        "Eliza earns $10 an hour for 40 hours and 1.2 times that for overtime. She worked 45 "
        "hours. How much did she earn this week?",
        "Regular: 40 × 10 = $400.\nOvertime: 45 - 40 = 5 hours, 5 × 12 = $60.\n"
        "Total: 400 + 60 = $460.\n\n"
        "Eliza earns $460 this week for working 45 hours, 5 of which are overtime.",
        "460",
        id="part-the-working-computed",
    ),
    pytest.param(
        "Lori needs 24 eggs. How many dozens of eggs does she need?",
        "24 / 12 = 2.\nLori needs 24 eggs, or 2 dozen.",
        "2",
        id="dozens-beside-a-count",
    ),
    pytest.param(
        "Lori needs 24 eggs. How many dozens of eggs does she need?",
        "24 / 12 = 2.\nShe needs 2 dozen (24 eggs).",
        "2",
        id="count-in-brackets-after-dozens",
    ),
    pytest.param(
        "James runs 3 sprints of 60 meters 3 times a week. How many meters does he run a week?",
        '{"result": {"answer": 540, "unit": "meters"}, "confidence": 0.85}',
        "540",
        id="nested-json-answer",
    ),
    pytest.param(
        "James runs 3 sprints of 60 meters 3 times a week. How many meters does he run a week?",
        '{"answer": {"value": 540, "unit": "meters"}, "confidence": 0.9}',
        "540",
        id="json-answer-object",
    ),
    pytest.param(
        "At 6am it is 2 degrees; it falls 8 degrees, then rises 3. What is the temperature now?",
        "2 − 8 = −6，−6 + 3 = −3。\n\n答案是零下3摄氏度。",
        "-3",
        id="chinese-below-zero",
    ),
    pytest.param(
        "At 6am it is 2 degrees; it falls 8 degrees, then rises 3. What is the temperature now?",
        "2 - 8 = -6; -6 + 3 = -3.\nLa temperatura era de 3 grados bajo cero.",
        "-3",
        id="spanish-below-zero",
    ),
    pytest.param(
        "He buys 2 pounds of wax at $10 and sells 20 candles at $2 each. What is his net profit?",
        "**Costs:** 2 × $10 = $20\n**Revenue:** 20 × $2 = $40\n**Net profit:** $40 − $20 = **$20**",
        "20",
        id="bold-result-after-equals",
    ),
    pytest.param(
        "One friend guesses 80, another 20 more than half of that, a third 25% more. What is "
        "the average guess?",
        "Guesses 80, 60, 100. Avg = 80.\n\n"
        "The average guess is 80 jelly beans. (The guesses were 80, 60 and 100.)",
        "80",
        id="note-in-brackets-after-the-answer",
    ),
]


@pytest.mark.parametrize(("question", "completion", "expected"), ROWS)
def test_the_committed_answer_is_read(question: str, completion: str, expected: str) -> None:
    verdict = grade(completion, expected, question=question)
    assert verdict.answer == expected, verdict.rule
