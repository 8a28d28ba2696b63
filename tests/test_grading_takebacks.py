"""What follows an answer mark and takes it back, corrects it, or only looks like it does
(docs/grading.md, "The delivered answer"). Each row has the shape a model writes; neighbours
keep what must not change: a struck value other than the answer, a correction that restates the
same value, a false alarm.
"""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

TAKEN_BACK = [
    pytest.param(
        "40 + 100 + 20 = 160 minutes\n#### 160\n\nHmm, wait. I don't think that's right.",
        None,
        id="dont-think-thats-right",
    ),
    pytest.param(
        "6. **Boxes of pizza:** $17 ÷ $8.50 = 2\n\n<answer>2</answer>\n\nUpon review, this answer "
        "is incorrect because I mis-added the subtotal.",
        None,
        id="this-answer-is-incorrect-mid-sentence",
    ),
    pytest.param(
        "He keeps 5/7 × 3600 ≈ 2571.\n\nAnswer: $2,571\n\nI realize I added the fractions "
        "incorrectly, so the answer above is wrong.",
        None,
        id="answer-above-is-wrong",
    ),
    pytest.param(
        "So he made a profit of 200,000 - 130,000 = $70,000.\n\n#### 70000\n\nI apologize, my "
        "previous answer is incorrect. Let me re-examine the 150% increase.",
        None,
        id="retraction-then-a-plan",
    ),
    pytest.param(
        "Regular: 8 × 18 = 144 per day. Overtime: 2 × 27 = 54 per day.\n5 × 198 = $990.\n\n"
        "#### 990\n\nActually, no — I should double the overtime hours, making it $1,080.",
        "1080",
        id="actually-no-making-it",
    ),
    pytest.param(
        "2 · 16 + 2 · 8 = 48.\n\nFinal answer: 48\n\nUpdate: I forgot that each slice is cut "
        "in two, so it's actually 96.",
        "96",
        id="its-actually-after-retraction",
    ),
    pytest.param(
        "12 ÷ (2/3) = **18**.\n\n#### 18\n\nI made an arithmetic error in step 3: no, 12 ÷ (2/3) "
        "= 18 is right, so everything checks out and the answer is indeed 18.",
        "18",
        id="false-alarm-restates-the-answer",
    ),
    pytest.param(
        "The second stop was at 60 - 15 = 45 miles, so he rode 45 - 20 = 25 miles.\n\nFinal "
        "answer: 25\n\nMaybe 35? No — 25 is correct.",
        "25",
        id="doubt-then-the-answer-again",
    ),
    pytest.param(
        "The candle burns for 5 - 1 = 4 hours.\n\nThe candle will be 8 cm shorter (4 hours × 2 "
        "cm, not 5 hours × 2 cm = 10 cm).",
        "8",
        id="working-ruled-out-by-not",
    ),
    pytest.param(
        "The jewelry gives the larger profit: **$125**.\n\n\\boxed{125}\n\nThe other option, "
        "electronics, would yield \\boxed{96}, which is lower.",
        "125",
        id="box-of-the-other-option",
    ),
    pytest.param(
        "- Für 5 Tage: 198 × 5 = 990 $\n\nDie Antwort lautet 900 $.\n\nKorrektur: Ich habe mich "
        "verschrieben – richtig ist 990 $.",
        "990",
        id="german-correction",
    ),
    pytest.param(
        "3 辆车 × 42 = 126 人，加上步行的 17 人，共 143 人。\n\n答案：143\n\n"
        "不对，我好像理解错了题意，重新计算：",
        None,
        id="chinese-retraction-then-cut",
    ),
    pytest.param(
        "Left: 20 − 15 = 5 cups.\n\n**Answer: 5 cups**\n\nPlease disregard the above, I made an "
        "error in the setup. Recalculating:\n\nPer batch 2.5 cups, so",
        None,
        id="please-disregard-the-above-then-cut",
    ),
    pytest.param(
        "The perimeter is 40 m, so the fence costs 40 × 15 = $600.\n\n**Answer: $640**, I mean "
        "**$600**.",
        "600",
        id="i-mean-between-bold-values",
    ),
    pytest.param("60 − 17 = 43\n\nAnswer: 47 [edit: typo, 43]", "43", id="edit-in-brackets"),
    pytest.param(
        "Change: $20 - 15.75 = 4.25$\n\n$\\boxed{4.25}$\n\nStudents often write "
        "$\\boxed{5.75}$ here by forgetting the pen, which is wrong.",
        "4.25",
        id="a-box-others-often-write",
    ),
    pytest.param(
        "Per year: $1800 \\times 12 = 21600$.\n\n#### 21600\n\nNote that $\\boxed{1800}$ is the "
        "monthly figure, not the yearly one.",
        "21600",
        id="a-box-in-a-note",
    ),
    pytest.param(
        '**Total: 3 bolts**\n\nAlternatively, someone might read "half that much" as half of a '
        "bolt, which would give 2.5 bolts, but the natural reading is half of the blue amount.",
        "3",
        id="someone-might-read-it-otherwise",
    ),
    pytest.param(
        "Increase: 150% of 80000 = 120000.\nNew value: 80000 + 120000 = 200000.\nProfit = "
        "200000 - 1",
        None,
        id="an-expression-never-worked-out",
    ),
    pytest.param(
        "20 + 80 + 160 = 260.\n\n\\boxed{250}\n\nActually, \\boxed{260}.",
        "260",
        id="actually-before-a-second-box",
    ),
    pytest.param(
        "Mia tenía 60 galletas, regaló 20 y se comió 4: quedan 36. En bolsas de 6 salen 6 bolsas."
        "\n\nSin embargo, el enunciado no aclara si las bolsas deben ir llenas, así que la "
        "respuesta no se puede determinar.",
        None,
        id="spanish-cannot-be-determined-in-a-concluding-clause",
    ),
    pytest.param(
        "Liam has 3 × 14 = 42 marbles.\n\nThe answer is 42.\n\nOh wait, the question asks for the "
        "total altogether.",
        None,
        id="wait-the-question-asks-for-another-quantity",
    ),
    pytest.param(
        "Total trees: 60 + 25 = 85.\n\nAntwort: 85\n\nMoment, das stimmt nicht. Ich habe die "
        "Kokospalmen falsch",
        None,
        id="german-retraction-then-cut",
    ),
    pytest.param(
        "Altogether: 48 + 24 = 72 clips.\n\nОтвет: 72.\n\nНет, подождите, здесь ошибка. "
        "Пересчитаем:",
        None,
        id="russian-retraction-then-cut",
    ),
    pytest.param(
        "9 × 60 = 540 meters.\n\nANSWER: 540 / 180 (depending on interpretation)",
        None,
        id="depending-on-interpretation",
    ),
    pytest.param("9 eggs × $2 per egg = $18\n\n#### eighteen or twenty", None, id="words-or-words"),
    pytest.param("9 eggs × $2 per egg = $18\n\n#### eighteen", "18", id="words-alone"),
    pytest.param(
        "9 eggs × $2 per egg = $18\n\n#### " + "eighteen or " * 300 + "twenty",
        None,
        id="words-or-words-flood-ending-on-another",
    ),
    pytest.param(
        "Together they have 42 + 14 = 56 marbles.\n\nAnswer: 56 marbles (42 for Liam and 14 for "
        "Noah).",
        "56",
        id="answer-line-with-its-parts-in-brackets",
    ),
    pytest.param("Answer: 18 (or 20)", None, id="answer-line-with-an-alternative-in-brackets"),
]
STRUCK_AND_FOLLOW_UPS = [
    pytest.param(
        "3. **Dozens:** 84 ÷ 12 = 7 dozen\n\n**Answer: 7 dozen**\n\n~~84~~", "7", id="struck-other"
    ),
    pytest.param("Answer: 7\n\n~~7~~", None, id="struck-answer-itself"),
    pytest.param("Answer: 1,080\n\n~~$1,080~~", None, id="struck-answer-itself-with-sign"),
    pytest.param(
        "**Meters per week:** 9 × 60 m = 540 m\n\nANSWER: 540\n\nExample 2: Mary runs 4 sprints 2 "
        "times a week at 50 meters each. ANSWER: 400",
        "540",
        id="invented-example-after-the-answer",
    ),
    pytest.param(
        "Regular pay = 400, overtime = 60.\n\nANSWER: 460\n\nNow solve the next problem: A shop "
        "sells pens at $3 each. How much do 7 pens cost?\nANSWER: 21",
        "460",
        id="invented-next-problem-after-the-answer",
    ),
]


@pytest.mark.parametrize(("completion", "answer"), TAKEN_BACK)
def test_what_takes_an_answer_back_or_corrects_it(completion: str, answer: str | None) -> None:
    assert grade(completion, "1").answer == answer


@pytest.mark.parametrize(("completion", "answer"), STRUCK_AND_FOLLOW_UPS)
def test_struck_values_and_invented_follow_ups(completion: str, answer: str | None) -> None:
    assert grade(completion, "1").answer == answer
