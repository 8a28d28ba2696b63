"""Where a completion's answer region ends (docs/grading.md, "Loops and cuts after an answer").

Rows are built from the shapes reasoning and chat models write when they run to the token limit:
a loop after the answer, a tentative answer in cut-off thinking, a follow-up turn in another chat
family's markers, a restated question, numbers written with other separators and signs.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from inspect_ai.model import ModelOutput

from gsm8k.grading.delivery import LOOP_STATES_OTHER, TENTATIVE
from gsm8k.grading.numbers import parse_gold
from gsm8k.grading.scorer import score_output
from gsm8k.grading.sections import ENDS_IN_LOOP, NO_FINAL_CHANNEL
from gsm8k.grading.verdict import grade
from gsm8k.metrics.keys import ACCURACY, TRUNCATED

STEPS = "Janet has 16 - 3 - 4 = 9 eggs left.\nShe sells them for 9 * 2 = 18 dollars.\n"
THINK = "<|im_start|>think\n"
ANSWER = "<|im_start|>answer\n"
QUESTION = (
    "Janet's ducks lay 16 eggs per day. She eats three for breakfast every morning and bakes "
    "muffins for her friends every day with four. She sells the remainder at the farmers' market "
    "daily for $2 per fresh duck egg. How much in dollars does she make every day at the "
    "farmers' market?"
)
BLOCK = (
    "Answer: Janet's ducks lay 16 eggs a day. She uses 3 + 4 = 7, so 16 - 7 = 9 are left.\n"
    "She sells 9 eggs at $2 each: 9 × 2 = 18.\n\\boxed{18}\n\n"
)
UNITS_DEBATE = (
    "Wait, should the box hold \\$18 or 18 dollars? The question asks for dollars, so the "
    "number alone is right: \\boxed{18}.\n\n"
)

# (completion, truncated, expected answer, rule)
KEPT = [
    pytest.param(
        STEPS + "ANSWER: 18\n" + "Question: " * 20_000,
        True,
        "18",
        "answer_line",
        id="answer-line-then-question-20000-times",
    ),
    pytest.param(
        STEPS + "ANSWER: 18\n" + "Question: " * 20_000,
        False,
        "18",
        "answer_line",
        id="answer-line-then-question-loop-without-stop-reason",
    ),
    pytest.param(
        "So 3 + 2 = 5.\n\\boxed{5}\n" + "Final Answer: " * 300,
        True,
        "5",
        "boxed",
        id="boxed-then-final-answer-marker-repeated",
    ),
    pytest.param(
        "So 3 + 2 = 5.\n\\boxed{5}" + "\n<|im_start|>answer" * 200,
        True,
        "5",
        "boxed",
        id="boxed-then-answer-section-marker-repeated",
    ),
    pytest.param(
        THINK + "So 3 + 2 = 5.\n" + "**Final Answer**\n\\boxed{5}\n" * 60,
        True,
        "5",
        "boxed",
        id="budget-forced-final-answer-repeated-in-thinking",
    ),
    pytest.param(BLOCK * 7 + BLOCK[:90], True, "18", "boxed", id="answer-block-regenerated"),
    pytest.param(
        (ANSWER + BLOCK + THINK + "Let me verify: 16 - 7 = 9 and 9 * 2 = 18. Correct.\n") * 6,
        True,
        "18",
        "boxed",
        id="think-answer-cycles-with-one-value",
    ),
    pytest.param(
        STEPS + "The answer is \\boxed{18}." + "\\n" * 5_000,
        True,
        "18",
        "boxed",
        id="answer-then-literal-newline-escapes",
    ),
    pytest.param(
        STEPS + "ANSWER: 18" + "<|im_end|>\n<|endoftext|>" * 500,
        True,
        "18",
        "answer_line",
        id="answer-then-template-garbage",
    ),
    pytest.param(
        STEPS + "\\boxed{18}\n\n" + UNITS_DEBATE * 12 + UNITS_DEBATE[:40],
        True,
        "18",
        "boxed",
        id="answer-then-units-debate-restating-it",
    ),
    pytest.param(
        "Final Answer: 5 ถุง\nคิดอย่างไร?\n" + "คิดว่าถูกต้อง\n" * 60,
        False,
        "5",
        "answer_is",
        id="final-answer-heading-then-a-loop-of-words",
    ),
]


@pytest.mark.parametrize(("completion", "truncated", "answer", "rule"), KEPT)
def test_a_loop_after_a_delivered_answer_keeps_it(
    completion: str, truncated: bool, answer: str, rule: str
) -> None:
    verdict = grade(completion, answer, truncated=truncated)
    assert (verdict.answer, verdict.rule, verdict.correct) == (answer, rule, True)


# (completion, truncated, note)
NONE = [
    pytest.param(
        "Let me recompute: 16 - 7 = 9. Then 9 * 2 = 18. " * 60,
        False,
        ENDS_IN_LOOP,
        id="loop-of-working-before-any-answer",
    ),
    pytest.param(
        "The answer is 18. No wait, the answer is 20. " * 40,
        False,
        LOOP_STATES_OTHER,
        id="loop-alternating-two-values",
    ),
    pytest.param(
        STEPS + "\\boxed{18}\n" + "Hmm, or is it \\boxed{20}? Let me think again.\n" * 40,
        True,
        LOOP_STATES_OTHER,
        id="loop-after-an-answer-stating-another",
    ),
    pytest.param(
        "Question: Tom has 5 apples and buys 13 more. Answer: 18\n" * 40,
        False,
        ENDS_IN_LOOP,
        id="invented-question-loop-before-any-answer",
    ),
    pytest.param(
        "Answer: Joe's bag of candy holds 18 chocolate bars and 80 apples.\n\nEach bar weighs "
        "twice as much as an apple, and" + " ina" * 3_000,
        False,
        ENDS_IN_LOOP,
        id="answer-line-opening-working-that-breaks-into-a-word-loop",
    ),
    pytest.param(
        THINK + "So the answer is \\boxed{18}. " + "Wait, wait, let me re-check. " * 60,
        False,
        TENTATIVE,
        id="answer-in-thinking-then-a-loop-of-doubt",
    ),
]


@pytest.mark.parametrize(("completion", "truncated", "note"), NONE)
def test_a_loop_before_any_answer_or_alternating_has_none(
    completion: str, truncated: bool, note: str
) -> None:
    verdict = grade(completion, "18", truncated=truncated)
    assert (verdict.answer, verdict.note) == (None, note)


# (completion, truncated, expected answer or None)
CUT = [
    pytest.param(
        "So the answer is 240 dollars. Wait, let me check that again…",
        True,
        None,
        id="tentative-phrase-then-more-reasoning-cut",
    ),
    pytest.param(
        "6 hours at $40 is 240. So the answer is 240 dollars. But the tip might change it, "
        "since she",
        True,
        None,
        id="tentative-phrase-then-reasoning-mid-sentence",
    ),
    pytest.param(
        "So the answer is 240 dollars. Wait, let me check that again…",
        False,
        "240",
        id="same-text-finished-is-read",
    ),
    pytest.param(
        "6 hours at $40 each is 240.\nSo the answer is 240 dollars.", True, "240", id="phrase-last"
    ),
    pytest.param(
        "So the answer is **240**.\n\n<|im_end|>", True, "240", id="phrase-then-only-markup"
    ),
    pytest.param(
        "Final Answer: 240\n\nLet me double-check the tip once more", True, "240", id="heading"
    ),
    pytest.param(
        "Ответ: 240\n\nПроверим ещё раз: 6 часов", True, "240", id="russian-answer-heading"
    ),
    pytest.param("ANSWER: 240\nWait, let me check", True, "240", id="answer-line-then-more"),
]


@pytest.mark.parametrize(("completion", "truncated", "answer"), CUT)
def test_tentative_answers_in_cut_text(completion: str, truncated: bool, answer: str) -> None:
    verdict = grade(completion, "240", truncated=truncated)
    assert verdict.answer == answer
    if answer is None:
        assert verdict.note == TENTATIVE or "cut off" in verdict.note


LATER = "The answer is 3 apples."
# A follow-up turn the model invents after answering 18, then answers 3 in it.
FOLLOW_UPS = [
    pytest.param(
        f"The answer is 18.<｜end▁of▁sentence｜><｜User｜>Tom has 3 apples.<｜Assistant｜>{LATER}",
        id="deepseek-full-width-markers",
    ),
    pytest.param(
        "The answer is 18.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nTom has 3 "
        f"apples.<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n{LATER}",
        id="llama3-user-header",
    ),
    pytest.param(
        f"The answer is 18.</s>[INST] Tom has 3 apples. How many? [/INST] {LATER}",
        id="mistral-inst",
    ),
    pytest.param(
        f"The answer is 18.<|start|>user<|message|>Tom has 3 apples.<|end|> {LATER}",
        id="harmony-user-turn",
    ),
]


@pytest.mark.parametrize("completion", FOLLOW_UPS)
def test_follow_up_turns_of_other_chat_families_are_cut(completion: str) -> None:
    assert grade(completion, "18").answer == "18"


def test_assistantfinal_inside_an_analysis_only_harmony_output_is_not_a_final_channel() -> None:
    completion = (
        "<|channel|>analysis<|message|>We need 9 * 2 = 18. The user may want the format "
        "assistantfinal 20, but first check the eggs again"
    )
    verdict = grade(completion, "20")
    assert (verdict.answer, verdict.note) == (None, NO_FINAL_CHANNEL)


def test_plain_text_harmony_still_reads_its_final_marker() -> None:
    assert grade("analysisWe need 9 * 2 = 18.assistantfinal18", "18").answer == "18"


def test_a_whole_question_restated_at_the_end_is_not_read_at_its_last_number() -> None:
    completion = f"So she makes 9 × $2 = $18 every day.\n\n{QUESTION}"
    verdict = grade(completion, "18")
    assert (verdict.answer, verdict.rule) == ("18", "last_number")


def test_a_closing_question_without_the_problem_is_not_cut() -> None:
    # Only one number before the question: not the problem restated, so its number still counts.
    assert grade("Working…\n\nShe makes 18 dollars. Want me to explain?", "18").answer == "18"


# (completion, expected answer)
NUMBERS = [
    pytest.param("ANSWER: 1\u2007234", "1234", id="figure-space-grouping"),
    pytest.param("ANSWER: 1\u2008234", "1234", id="punctuation-space-grouping"),
    pytest.param("ANSWER: 1\u3000234", "1234", id="ideographic-space-grouping"),
    pytest.param("ANSWER: ١٬٢٣٤", "1234", id="arabic-thousands-separator"),
    pytest.param("ANSWER: ٣٫٥", "3.5", id="arabic-decimal-separator"),
    pytest.param("ANSWER: 12٬500٫75", "12500.75", id="arabic-both-separators"),
    pytest.param("ANSWER: －18", "-18", id="full-width-hyphen-minus"),
    pytest.param("The answer is ﹣18.", "-18", id="small-hyphen-minus-in-a-phrase"),
    pytest.param('{"answer": "‒7"}', "-7", id="figure-dash-in-json"),
    pytest.param("The temperature fell to –7 degrees.", "-7", id="en-dash-sign"),
    pytest.param("ANSWER: 25 – 7 = 18", "18", id="en-dash-between-numbers-is-subtraction"),
    pytest.param("ANSWER: 10－12 apples", "10", id="full-width-dash-range-is-not-a-sign"),
]


@pytest.mark.parametrize(("completion", "answer"), NUMBERS)
def test_separators_and_signs_by_unicode_property(completion: str, answer: str) -> None:
    assert grade(completion, answer).answer == answer


@pytest.mark.parametrize("gold", ["1,8", "12,34", "1,2345"])
def test_a_gold_whose_commas_do_not_group_thousands_is_refused(gold: str) -> None:
    with pytest.raises(ValueError, match="ambiguous"):
        parse_gold(gold)


def test_gsm8k_grade_names_the_line_with_an_ambiguous_gold() -> None:
    rows = [
        {"id": "a", "completion": "ANSWER: 18", "target": "18"},
        {"id": "b", "completion": "ANSWER: 18", "target": "1,8"},
    ]
    result = subprocess.run(
        [sys.executable, "-m", "gsm8k.grading.cli", "-"],
        input="".join(json.dumps(row) + "\n" for row in rows),
        capture_output=True,
        text=True,
        check=False,
    )
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 1
    assert lines[0]["correct"] is True
    assert lines[1]["line"] == 2 and "ambiguous" in lines[1]["error"]
    assert ":2:" in result.stderr and "1,8" in result.stderr


@pytest.mark.parametrize(
    ("completion", "accuracy"),
    [
        pytest.param(STEPS + "ANSWER: 18\n" + "Question: " * 20_000, 1.0, id="delivered-then-loop"),
        pytest.param(
            "So the answer is 18 dollars. Wait, let me check that again, since she", 0.0, id="draft"
        ),
    ],
)
def test_the_scorer_grades_a_completion_cut_at_the_token_limit(
    completion: str, accuracy: float
) -> None:
    # As an eval meets it: Inspect's output with stop reason max_tokens, through the scorer.
    output = ModelOutput.from_content("model", completion, stop_reason="max_tokens")
    value = score_output(output, "18").value
    assert isinstance(value, dict)
    assert (value[ACCURACY], value[TRUNCATED]) == (accuracy, 1.0)
