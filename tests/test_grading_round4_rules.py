"""The answer shapes of plain chat models, GRPO-trained models and hostile outputs that the grader
reads since its fourth round (docs/grading.md, "Grading rules" and "The sample's question").

Each row is written after a shape real completions take; its id says why the row exists.
"""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import Target
from inspect_ai.solver import TaskState

from gsm8k.grading import grade
from gsm8k.grading.cli import main
from gsm8k.grading.scorer import gsm8k_grader, score_output
from gsm8k.metrics.keys import ACCURACY

MAYA = "Maya buys 9 notebooks. Each notebook costs $5. How much does Maya spend on the notebooks?"
MAYA_IN_WORDS = "Maya buys nine notebooks at $5 each. How much does Maya spend on the notebooks?"
TOM = "Tom is 44 years old. How old will Tom be 10 years from now?"
SPRINTS = "John runs 3 sprints 3 times a week, 60 meters each sprint. How many meters a week?"
TANKS = "Each of the 3 tanks takes 4 hours to fill. How many hours does it take to fill them all?"
SAVINGS = "Lena saves $15 every week. How much does she save in 3 weeks?"
TRUCKS = (
    "Each flagstone weighs 75 pounds. A truck carries 2000 pounds. How many trucks are needed "
    "to move 80 flagstones?"
)
TRIP_HOURS = "A trip has 3 legs of 40 minutes each. How many hours does the trip take?"
TRIP_MINUTES = "A trip has 3 legs of 40 minutes each. How many minutes does the trip take?"
EGGS = "Janet has 16 eggs, eats 3 and bakes with 4. She sells the rest for $2 each. How much?"
WORKING = "Janet has 16 - 3 - 4 = 9 eggs left.\nShe sells them for 9 * 2 = 18 dollars.\n"

# (completion, target, question, expected answer, rule, correct)
ROWS = [
    # --- a concluding sentence that restates a quantity of the question ----------------------
    pytest.param(
        "Each notebook costs $5, so 9 x $5 = $45.\nTherefore, Maya spends $45 on the 9 notebooks.",
        "45",
        MAYA,
        "45",
        "last_number",
        True,
        id="closing-sentence-restates-the-count",
    ),
    pytest.param(
        "Filling takes 3 x 4 = 12 hours.\nSo it takes 12 hours to fill all 3 tanks.",
        "12",
        TANKS,
        "12",
        "last_number",
        True,
        id="closing-sentence-restates-after-all",
    ),
    pytest.param(
        "9 x 5 = 45.\nTherefore, Maya spends $45 on the 9 notebooks.",
        "45",
        MAYA_IN_WORDS,
        "45",
        "last_number",
        True,
        id="question-spells-the-number-in-words",
    ),
    pytest.param(
        "3 x 3 x 60 = 540.\nTherefore, John runs 540 meters a week, 3 times a week.",
        "540",
        SPRINTS,
        "540",
        "last_number",
        True,
        id="closing-sentence-restates-after-a-comma",
    ),
    pytest.param(
        "9 x 5 = 45.\nSo Maya spends $45 buying 9 notebooks.",
        "45",
        MAYA,
        "45",
        "last_number",
        True,
        id="closing-sentence-restates-with-the-questions-noun",
    ),
    pytest.param(
        "After a swap of 4 she has 9 notebooks.",
        "9",
        MAYA,
        "9",
        "last_number",
        True,
        id="a-result-verb-states-the-answer-not-a-restatement",
    ),
    pytest.param(
        "She lends 4 and gets 4 back.\nSo after 2 swaps she still has 9 notebooks.",
        "9",
        MAYA,
        "9",
        "last_number",
        True,
        id="answer-equal-to-a-question-number-is-kept",
    ),
    pytest.param(
        "Each notebook costs $5.\nMaya spends her money on the 9 notebooks.",
        "45",
        MAYA,
        "9",
        "last_number",
        False,
        id="a-sentence-with-only-question-numbers-keeps-its-last",
    ),
    pytest.param(
        "Each notebook costs $5, so she pays $5 for every one.\nTherefore, Maya spends $45 on the "
        "9 notebooks.",
        "45",
        None,
        "9",
        "last_number",
        False,
        id="without-the-question-the-last-number-stands",
    ),
    pytest.param(
        "```python\nprint(75 * 80 / 2000)\n```\n```output\n3.0\n```\n"
        "Three trucks will be needed to transport 80 flagstones in one trip.",
        "3",
        TRUCKS,
        "3",
        "last_number",
        True,
        id="program-result-beats-prose-with-only-question-numbers",
    ),
    # --- an Answer: line with several numbers -------------------------------------------------
    pytest.param(
        "44 + 10 = 54\nAnswer: Tom's age 10 years from now is 54.",
        "54",
        TOM,
        "54",
        "answer_line",
        True,
        id="answer-line-restates-a-question-number-first",
    ),
    pytest.param(
        "Answer: In 3 weeks Lena saves $45.",
        "45",
        SAVINGS,
        "45",
        "answer_line",
        True,
        id="answer-line-opens-with-a-restated-duration",
    ),
    pytest.param(
        "Answer: Lena saves $45 in 3 weeks.",
        "45",
        SAVINGS,
        "45",
        "answer_line",
        True,
        id="answer-line-computed-value-first",
    ),
    # --- mixed numbers -----------------------------------------------------------------------
    pytest.param("Each gets \\boxed{3 2/5}.", "3", None, "3.4", "boxed", False, id="mixed-boxed"),
    pytest.param(
        "The answer is 12\\frac{1}{3} cups.",
        "12",
        None,
        "12.33333333333333333333333333",
        "answer_is",
        False,
        id="mixed-latex-fraction",
    ),
    pytest.param(
        "ANSWER: 5 1/2 hours", "5", None, "5.5", "answer_line", False, id="mixed-answer-line"
    ),
    pytest.param(
        "She needs 2 1/2 cups of flour.",
        "2",
        None,
        "2.5",
        "last_number",
        False,
        id="mixed-last-number",
    ),
    pytest.param(
        "ANSWER: 12 (1/3 of 36)", "12", None, "12", "answer_line", True, id="aside-is-not-mixed"
    ),
    # --- GRPO: an opening #### guess, then reasoning -----------------------------------------
    pytest.param(
        "#### 18\n\nJanet has 16 - 3 - 4 = 9 eggs. At $2 each she makes 9 * 2 = 20.\n\\boxed{20}",
        "18",
        None,
        "20",
        "boxed",
        False,
        id="opening-guess-right-final-box-wrong",
    ),
    pytest.param(
        "#### 20\n\nJanet has 16 - 3 - 4 = 9 eggs. At $2 each she makes 9 * 2 = 18.\n\\boxed{18}",
        "18",
        None,
        "18",
        "boxed",
        True,
        id="opening-guess-wrong-final-box-right",
    ),
    pytest.param(
        "#### 15\n\n" + WORKING + "## 18",
        "18",
        None,
        "18",
        "hash_line",
        True,
        id="opening-guess-then-closing-double-hash",
    ),
    pytest.param(
        "#### 15\n\n" + WORKING + "#### 18",
        "18",
        None,
        "18",
        "hash_line",
        True,
        id="opening-guess-then-later-hash-line",
    ),
    pytest.param(
        "#### 18\n\nQuestion: Tom has 3 apples and eats none. How many are left?\nANSWER: 3",
        "18",
        None,
        "18",
        "hash_line",
        True,
        id="opening-answer-then-invented-follow-up",
    ),
    pytest.param(
        "#### 18\n\n" + WORKING + "So she makes $18 a day.",
        "18",
        None,
        "18",
        "hash_line",
        True,
        id="opening-answer-with-explanation-only",
    ),
    # --- markdown headings are not the answer mark -------------------------------------------
    pytest.param(
        "#### Cost of Bread\nA loaf costs $3, so 2 loaves cost $6.\n"
        "#### Step 2: Milk\nMilk costs $4.\nThe total is $10.",
        "10",
        None,
        "10",
        "last_number",
        True,
        id="hash-headings-are-not-answers",
    ),
    pytest.param(
        "#### 1. Cost of bread\nA loaf costs $3, 2 cost $6.\n#### 2. Total\nThe total is $10.",
        "10",
        None,
        "10",
        "last_number",
        True,
        id="numbered-hash-headings-are-not-answers",
    ),
    pytest.param(
        "#### Cost of Bread\nBread costs $3.\n\n**Question:** How much is milk?\n"
        "Milk costs $2, so the total is $5.",
        "5",
        None,
        "5",
        "last_number",
        True,
        id="hash-heading-does-not-start-a-follow-up-cut",
    ),
    # --- expressions and hedges are not numbers ----------------------------------------------
    pytest.param("Let x be her age.\nAnswer: x - 14", "14", None, None, "none", False, id="expr"),
    pytest.param("ANSWER: 14 - x", "14", None, None, "none", False, id="expression-after"),
    pytest.param("So \\boxed{x - 14}", "14", None, None, "none", False, id="expression-boxed"),
    pytest.param("ANSWER: x = 14", "14", None, "14", "answer_line", True, id="solved-variable"),
    pytest.param("ANSWER: 60 km/h", "60", None, "60", "answer_line", True, id="unit-not-variable"),
    pytest.param(WORKING + "ANSWER: 18 or 20", "18", None, None, "none", False, id="hedged"),
    pytest.param(
        "ANSWER: $18 (or 1800 cents)", "18", None, "18", "answer_line", True, id="same-in-cents"
    ),
    pytest.param(
        "ANSWER: 18 (or 18.00)", "18", None, "18", "answer_line", True, id="same-value-twice"
    ),
    # --- answers in words after numeric working ----------------------------------------------
    pytest.param(
        WORKING + "ANSWER: twenty dollars", "18", None, "20", "answer_line", False, id="words-20"
    ),
    pytest.param(WORKING + "ANSWER: eighteen", "18", None, "18", "answer_line", True, id="words"),
    pytest.param(
        WORKING + "ANSWER: she makes some money",
        "18",
        None,
        None,
        "none",
        False,
        id="answer-in-words-without-a-number",
    ),
    pytest.param(
        "蚂蚁有50只，洋葱虫有25只，50 + 25 = 75。\n\n最终答案：无法确定。",
        "75",
        None,
        None,
        "none",
        False,
        id="final-answer-cannot-be-determined",
    ),
    pytest.param(
        WORKING + "\\boxed{18}\n\nFinal answer: as boxed above.",
        "18",
        None,
        "18",
        "boxed",
        True,
        id="words-after-a-box-do-not-take-it-back",
    ),
    pytest.param("ANSWER:\n18", "18", None, "18", "answer_line", True, id="number-on-next-line"),
    # --- an echoed placeholder before the working --------------------------------------------
    pytest.param(
        "ANSWER: $ANSWER\n\n" + WORKING + "\\boxed{18}",
        "18",
        None,
        "18",
        "boxed",
        True,
        id="placeholder-then-boxed",
    ),
    pytest.param(
        WORKING + "ANSWER: $ANSWER", "18", None, None, "none", False, id="placeholder-at-the-end"
    ),
    # --- a complete box followed by a dangling marker ----------------------------------------
    pytest.param(
        "Thus the package held \\(\\boxed{10}\\).Final Answer:",
        "10",
        None,
        "10",
        "boxed",
        True,
        id="box-then-empty-final-answer",
    ),
    pytest.param(
        "<|im_start|>think\n16 - 3 - 4 = 9; 9 * 2 = 18, so \\boxed{18}<|im_start|>answer",
        "18",
        None,
        "18",
        "boxed",
        True,
        id="box-then-bare-answer-marker",
    ),
    # --- a final-answer heading in another language after a box of the working ---------------
    pytest.param(
        "Zuerst zählen wir: \\boxed{3} rote Äpfel.\nDann 3 + 2 = 5.\n\n"
        "**Endgültige Antwort:** 5 Äpfel (3 rote und 2 grüne)",
        "5",
        None,
        "5",
        "answer_is",
        True,
        id="german-final-heading-after-a-box",
    ),
    pytest.param(
        "りんごは\\boxed{3}個、みかんは9個です。3 + 9 = 12\n\n**最終答案：12個**",
        "12",
        None,
        "12",
        "answer_is",
        True,
        id="japanese-final-heading-after-a-box",
    ),
    pytest.param(
        "Step 1\n#### 16\nStep 2: 16 + 2 = 18\n\n**Final Answer:** 18 apples",
        "18",
        None,
        "18",
        "answer_is",
        True,
        id="english-final-heading-after-a-hash-line",
    ),
    # --- two boxes, one quantity in two units ------------------------------------------------
    pytest.param(
        "3 x 40 = 120 minutes.\nThe trip takes \\boxed{2} hours, or \\boxed{120} minutes.",
        "2",
        TRIP_HOURS,
        "2",
        "boxed",
        True,
        id="two-units-question-asks-hours",
    ),
    pytest.param(
        "3 x 40 = 120 minutes.\nThe trip takes \\boxed{2} hours, or \\boxed{120} minutes.",
        "120",
        TRIP_MINUTES,
        "120",
        "boxed",
        True,
        id="two-units-question-asks-minutes",
    ),
    pytest.param(
        "The trip takes \\boxed{2} hours, or \\boxed{120} minutes.",
        "2",
        None,
        "120",
        "boxed",
        False,
        id="two-units-without-the-question-the-last-box",
    ),
]


@pytest.mark.parametrize(("completion", "target", "question", "answer", "rule", "correct"), ROWS)
def test_round4_rules(
    completion: str,
    target: str,
    question: str | None,
    answer: str | None,
    rule: str,
    correct: bool,
) -> None:
    verdict = grade(completion, target, question=question)
    assert (verdict.answer, verdict.rule, verdict.correct) == (answer, rule, correct)


def test_the_scorer_reads_the_question_from_the_sample() -> None:
    completion = "She pays $5 for each.\nTherefore, Maya spends $45 on the 9 notebooks."
    state = TaskState(
        model="mockllm/model",  # type: ignore[arg-type]
        sample_id=0,
        epoch=1,
        input=MAYA,
        messages=[],
        target=Target("45"),
        output=ModelOutput.from_content("mockllm/model", completion),
    )
    score = asyncio.run(gsm8k_grader()(state, Target("45")))
    assert score is not None and score.answer == "45"
    assert isinstance(score.value, dict) and score.value[ACCURACY] == 1.0
    # The same output without its question reads the restated 9.
    assert score_output(ModelOutput.from_content("m", completion), "45").answer == "9"


def test_gsm8k_grade_takes_the_question_from_the_row_or_the_dataset(
    mini_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    completion = "She sells 9 eggs at $2 each.\nTherefore, Janet makes $18 from the 16 eggs."
    lines = [
        {"id": "own", "completion": completion, "target": "18", "question": EGGS},
        {"id": "0", "completion": completion},  # target and question from the dataset
        {"id": "bare", "completion": completion, "target": "18"},
    ]
    stdin = "".join(json.dumps(line) + "\n" for line in lines).encode()
    code = main(["-", "--dataset", str(mini_data)], stdin=io.BytesIO(stdin))
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0
    assert [row["answer"] for row in rows] == ["18", "18", "16"]


def test_gsm8k_grade_names_a_question_that_is_not_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = json.dumps({"id": "q", "completion": "ANSWER: 1", "target": "1", "question": 7})
    code = main(["-"], stdin=io.BytesIO(line.encode()))
    rows = [json.loads(row) for row in capsys.readouterr().out.splitlines()]
    assert code == 1 and rows[0]["error"] == "'question' must be a string"
