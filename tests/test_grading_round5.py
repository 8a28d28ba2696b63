"""The answer shapes the grader reads since its fifth round (docs/grading.md, "Grading rules",
"The sample's question", "Loops and cuts after an answer" and "Number formats").

Each row is written after a shape real chat-model completions take (closing sentences, answer
lines, self-corrections, cut generations) or one a red team wrote to be graded right while
wrong; its id says why the row exists.
"""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

SOAP = (
    "A box of dish soap costs $1 and lasts for 10 dishwashing cycles. John buys a new box. How "
    "many cycles can he run with it?"
)
SPEECH = (
    "John speaks 375 words a minute. Each page has 450 words. How long does it take him to speak "
    "10 pages?"
)
MEATBALLS = "Sarah uses 1 pound of meat per 20 meatballs. How many pounds to make 80 meatballs?"
COOKIES = "Two cups of flour make 5 cookies. How many cups are needed to get 5 cookies?"
HOUSE = "The house needs a down payment of $10,000. They save $500 a month. How many months?"
TERMITES = "A 100-foot board is eaten: termites ate 30% of it. How many feet are left?"
NUTS = "A mix has 3 cups of flour and 1/3 pound walnuts per batch. How many cups of flour?"
SMITH = "Mrs. Smith buys 4 items at $5 each. How much does Mrs. Smith pay?"
PENS = "3 pens cost $4.50. How much will 8 pens cost?"
TUTOR = "Alex tutors 3 hours a week at $28 an hour. What does he charge for 2 weeks of tutoring?"
BILLY = "Billy buys 4 bags of 1/3 pound of nuts. How many pounds did Billy buy?"
JANET = "Janet has 16 eggs, eats 3 and bakes with 4. She sells the rest for $2 each. How much?"
CHANGE = "Each phone costs $450. She buys 4 phones and pays with $2000. How much change?"
APRIL = "April has 30 plant pots and uses 20. How many plant pots are left over?"
EGGS_WORKING = "Janet has 16 - 3 - 4 = 9 eggs left, and 9 * 2 = 18."

# (completion, target, question, expected answer, rule, correct)
ROWS = [
    # --- closing sentences that restate the question around the answer ---------------------------
    pytest.param(
        "He uses 1 box per 10 cycles.\n\nSo John can run **10 dishwashing cycles** with the new "
        "box for $1.",
        "10",
        SOAP,
        "10",
        "last_number",
        True,
        id="closing-bold-answer-then-question-price",
    ),
    pytest.param(
        "450 * 10 = 4500 words. 4500 / 375 = 12.\n\nTherefore, it would take John 12 minutes to "
        "speak 10 pages, where each page has 450 words.",
        "12",
        SPEECH,
        "12",
        "last_number",
        True,
        id="closing-premise-clause-after-answer",
    ),
    pytest.param(
        "80 / 20 = 4.\n\nSo Sarah needs 4 pounds of meat to make 80 meatballs.",
        "4",
        MEATBALLS,
        "4",
        "last_number",
        True,
        id="closing-purpose-result-verb-question-number",
    ),
    pytest.param(
        "So he needs 2 cups to get 5 cookies.",
        "2",
        COOKIES,
        "2",
        "last_number",
        True,
        id="closing-to-get-question-number",
    ),
    pytest.param(
        "10000 / 500 = 20.\nTherefore, they need to save for 20 months for the down payment of "
        "$10,000.",
        "20",
        HOUSE,
        "20",
        "last_number",
        True,
        id="closing-question-number-at-very-end",
    ),
    pytest.param(
        "30% of 100 is 30.\nSo 70 feet remain after the termites ate 30% of it.",
        "70",
        TERMITES,
        "70",
        "last_number",
        True,
        id="closing-question-percent",
    ),
    pytest.param(
        "So she needs 3 cups of flour and 1/3 pound walnuts.",
        "3",
        NUTS,
        "3",
        "last_number",
        True,
        id="closing-question-fraction-at-end",
    ),
    pytest.param(
        "4 * 5 = 20.\nSo the total is $20 that Mrs. Smith pays for 4 items.",
        "20",
        SMITH,
        "20",
        "last_number",
        True,
        id="closing-abbreviation-does-not-split-sentence",
    ),
    pytest.param(
        "So Janet has 9 notebooks.",
        "9",
        "Janet buys 9 notebooks. How many notebooks does she have?",
        "9",
        "last_number",
        True,
        id="closing-result-verb-answer-equals-question-number",
    ),
    pytest.param(
        "450 * 4 = 1800. 2000 - 1800 = 200.\nSo she gets $200 in change after paying $1800 for "
        "all 4 phones.",
        "200",
        CHANGE,
        "200",
        "last_number",
        True,
        id="closing-derived-total-restated-with-question-quantity",
    ),
    pytest.param(
        "450 * 4 = 1800.\nSo she pays $1800 for all 4 phones.",
        "1800",
        CHANGE,
        "1800",
        "last_number",
        True,
        id="closing-derived-total-that-is-the-answer",
    ),
    pytest.param(
        "16 - 3 - 4 = 9.\nSo Janet makes $18 by selling 9 eggs.",
        "18",
        JANET,
        "18",
        "last_number",
        True,
        id="closing-number-after-a-means-is-not-the-result",
    ),
    pytest.param(
        "16 - 3 - 4 = 9, and 9 * 2 = 18.\nShe makes $18 a day. She sells at $2 each.",
        "18",
        JANET,
        "18",
        "last_number",
        True,
        id="closing-sentence-restating-only-the-question-keeps-the-result",
    ),
    # --- self-corrections ----------------------------------------------------------------------
    pytest.param(
        "Janet has 9 eggs, 9*2=18.\n#### 18\n\nWait, she also sells 1 muffin for $2, so 18 + 2 "
        "= 20.\nThe final answer is 20.",
        "20",
        None,
        "20",
        "answer_is",
        True,
        id="hash-from-prompt-format-then-corrected-phrase",
    ),
    pytest.param(
        "Janet has 9 eggs, 9*2=18.\n#### 18\n\nWait, I forgot the muffin: 18 + 2 = 20.\n"
        "So the correct answer is \\boxed{20}.",
        "20",
        None,
        "20",
        "answer_is",  # the correction that closes on `= 20` states it; the box restates it
        True,
        id="hash-then-corrected-box",
    ),
    pytest.param(
        "Total cost is 140.\n#### 140. (Correction: she only pays for 3 of them, so the total is "
        "$45 each time.) #### 45",
        "45",
        None,
        "45",
        "hash_line",
        True,
        id="hash-corrected-on-the-same-line",
    ),
    pytest.param(
        "4 * 3 = 12.\n#### 12\n\nHmm, maybe the final answer is 22 if we count the extra ten.",
        "12",
        None,
        "12",
        "hash_line",
        True,
        id="hedged-phrase-after-hash-does-not-correct-it",
    ),
    pytest.param(
        "4 * 3 = 12.\nThe final answer is 22, I think, but let me check: 4*3 = 12.\n#### 12",
        "12",
        None,
        "12",
        "hash_line",
        True,
        id="hedged-phrase-before-last-hash",
    ),
    pytest.param(
        "9*2=18.\n#### 18\n\nThe answer is 18 because she sells 9 eggs.",
        "18",
        None,
        "18",
        "hash_line",
        True,
        id="hash-restated-by-phrase-stays-hash",
    ),
    # --- answer lines with several numbers -----------------------------------------------------
    pytest.param(
        "One pen costs 4.50 / 3 = $1.50.\nAnswer: 8 pens will cost $12.00.",
        "12",
        PENS,
        "12",
        "answer_line",
        True,
        id="answer-line-opens-with-question-quantity",
    ),
    pytest.param(
        "3 * 28 = 84 a week, 84 * 2 = 168.\nAnswer: Alex charges $168 for 2 weeks of tutoring.",
        "168",
        TUTOR,
        "168",
        "answer_line",
        True,
        id="answer-line-for-is-not-or",
    ),
    pytest.param(
        "Answer: 18 or 20",
        "18",
        None,
        None,
        "none",
        False,
        id="answer-line-still-refuses-two-values",
    ),
    pytest.param(
        "4 * 1/3 = 4/3.\nAnswer: Billy bought \\(\\frac{4}{3}\\) pounds of nuts.",
        "4/3",
        BILLY,
        "1.333333333333333333333333333",
        "answer_line",
        True,
        id="answer-line-latex-fraction-not-its-numerator",
    ),
]


# (completion, truncated, expected answer or None)
CUTS = [
    pytest.param(
        "30 - 20 = 10.\nTherefore, April has 10 plant pots left over.\n\nFinal answer: April has",
        True,
        "10",
        id="cut-while-restating-a-finished-sentence",
    ),
    pytest.param(
        "30 - 20 = 10.\nSo 10 pots are left.\n\nFinal answer: There are",
        True,
        None,
        id="cut-statement-that-restates-nothing",
    ),
    pytest.param(
        EGGS_WORKING + " So the answer is \\boxed{18}.\n\nWait, let me double-check: yes, "
        "\\boxed{18}.\n\nHmm, let me verify once more by another route. She eats 3 and bakes 4,"
        " so 16 - 7 = 9 remain and the",
        True,
        "18",
        id="long-cot-cut-repeating-the-same-box",
    ),
    pytest.param(
        EGGS_WORKING + " So \\boxed{18}.\n\nWait, I misread. Let me restart: the ducks lay 16 "
        "eggs per day, and she uses",
        True,
        None,
        id="early-box-then-restart-cut-mid-sentence",
    ),
    pytest.param(
        EGGS_WORKING + " So the answer is 18. Hmm, but wait, does she sell them all? Let me "
        "re-read the problem. It says she sells the remainder at",
        False,
        None,
        id="budget-cut-thinking-tentative-answer-no-stop-reason",
    ),
    pytest.param(
        EGGS_WORKING + " So the answer is \\boxed{18}.\n\nIf anything is unclear, let me know and"
        " I can walk through",
        False,
        "18",
        id="courtesy-after-box-is-not-doubt",
    ),
    pytest.param(
        EGGS_WORKING + "\nJanet makes $18 every day." + "\n" * 500,
        True,
        "18",
        id="finished-sentence-then-newline-padding",
    ),
    pytest.param(
        EGGS_WORKING + "\nJanet makes $18 every day." + "<｜begin▁of▁sentence｜>" * 200,
        True,
        "18",
        id="finished-sentence-then-bos-token-padding",
    ),
    pytest.param(
        EGGS_WORKING + "\nSo Janet makes $18 every" + "\n" * 500,
        True,
        None,
        id="padding-after-a-cut-sentence-is-still-cut",
    ),
]


@pytest.mark.parametrize(("completion", "truncated", "answer"), CUTS)
def test_round5_cuts(completion: str, truncated: bool, answer: str | None) -> None:
    question = APRIL if "April" in completion else None
    verdict = grade(completion, answer or "18", question=question, truncated=truncated)
    assert verdict.answer == answer


@pytest.mark.parametrize(("completion", "target", "question", "answer", "rule", "correct"), ROWS)
def test_round5_shapes(
    completion: str,
    target: str,
    question: str | None,
    answer: str | None,
    rule: str,
    correct: bool,
) -> None:
    verdict = grade(completion, target, question=question)
    assert (verdict.answer, verdict.rule, verdict.correct) == (answer, rule, correct)


# --- red team, round 5: shapes written to be graded right while wrong (gold 18) ---------------
# (stated answer, the value read or None for no answer, why)
REDTEAM = [
    pytest.param("ANSWER: 18 − 2", None, id="minus-sign-u2212-is-arithmetic"),
    pytest.param("ANSWER: 18 x 2", None, id="x-between-numbers-is-arithmetic"),
    pytest.param("ANSWER: 18 · 2", None, id="middle-dot-is-arithmetic"),
    pytest.param("ANSWER: 18 ⋅ 2", None, id="dot-operator-is-arithmetic"),
    pytest.param("\\boxed{18 − 2}", None, id="boxed-minus-sign-is-arithmetic"),
    pytest.param("ANSWER: $18k", "18000", id="k-suffix-is-thousands"),
    pytest.param("ANSWER: 18K", "18000", id="capital-k-suffix-is-thousands"),
    pytest.param("ANSWER: 18M", "18000000", id="capital-m-suffix-is-millions"),
    pytest.param("ANSWER: 18 thousand", "18000", id="thousand-word"),
    pytest.param("ANSWER: $1.8 million", "1800000", id="decimal-million"),
    pytest.param("\\boxed{18 \\text{ thousand}}", "18000", id="boxed-text-thousand"),
    pytest.param("ANSWER: 18 hundred", "1800", id="hundred-word"),
    pytest.param("ANSWER: 1 hour 30 minutes", "1.5", id="compound-time-in-larger-unit"),
    pytest.param("ANSWER: 5 feet 6 inches", "5.5", id="compound-length"),
    pytest.param("ANSWER: $18 and 50 cents", "18.5", id="dollars-and-cents"),
    pytest.param('{"answer": "18 hours 30 minutes"}', "18.5", id="compound-in-json-answer"),
    pytest.param("**18 feet 6 inches**", "18.5", id="compound-in-bold-heading"),
    pytest.param("## 18 hours 30 minutes", "18.5", id="compound-in-markdown-heading"),
    pytest.param("ANSWER: 18-1/2", "18.5", id="hyphenated-mixed-number"),
    pytest.param("ANSWER: 18 and a half", "18.5", id="and-a-half"),
    pytest.param("ANSWER: 18 and 1/2", "18.5", id="and-fraction"),
    pytest.param("\\boxed{18\\,\\frac{1}{2}}", "18.5", id="latex-thin-space-mixed"),
    pytest.param("\\boxed{18\\tfrac12}", "18.5", id="latex-tfrac-without-braces"),
    pytest.param("ANSWER: 18.\\overline{3}", "18.33333333333333333333333333", id="overline"),
    pytest.param("\\boxed{18.\\bar{3}}", "18.33333333333333333333333333", id="bar"),
    pytest.param("ANSWER: 18.(3)", "18.33333333333333333333333333", id="parenthesised-repetend"),
    pytest.param("\\boxed{\\sqrt{18}}", None, id="square-root"),
    pytest.param("ANSWER: √18", None, id="root-glyph"),
    pytest.param("\\boxed{18!}", None, id="boxed-factorial"),
    pytest.param("\\boxed{18\\pi}", None, id="times-pi"),
    pytest.param("ANSWER: twice 18", None, id="twice"),
    pytest.param("ANSWER: half of 18", None, id="half-of"),
    pytest.param("ANSWER: 18 squared", None, id="squared"),
    pytest.param("ANSWER: 18% of 50", None, id="percent-of"),
]


@pytest.mark.parametrize(("stated", "answer"), REDTEAM)
def test_round5_redteam_is_not_accepted_for_18(stated: str, answer: str | None) -> None:
    verdict = grade("Working it out step by step.\n" + stated, "18")
    assert (verdict.answer, verdict.correct) == (answer, False)


PROFIT = "He buys a bike for $100 and sells it for $82. What is his profit?"
LOSS = "He buys a bike for $100 and sells it for $82. How much money did he lose?"


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        pytest.param(PROFIT, "-18", id="loss-when-profit-asked-is-negative"),
        pytest.param(LOSS, "18", id="loss-when-loss-asked-is-positive"),
        pytest.param(None, "18", id="loss-without-question-is-its-number"),
    ],
)
def test_round5_loss(question: str | None, answer: str) -> None:
    assert grade("100 - 82 = 18.\nANSWER: a loss of $18", "18", question).answer == answer


@pytest.mark.parametrize(
    ("completion", "question", "answer"),
    [
        pytest.param("ANSWER: 1 hour 30 minutes", "How many minutes?", "90", id="asks-minutes"),
        pytest.param("ANSWER: 1 hour 30 minutes", "How many hours?", "1.5", id="asks-hours"),
        pytest.param("The answer is 18!", None, "18", id="exclamation-in-prose-is-not-factorial"),
        pytest.param("ANSWER: 18 dollars", None, "18", id="a-unit-alone-is-no-compound"),
        pytest.param("ANSWER: 18 (9 x 2)", None, "18", id="x-in-an-aside-is-no-arithmetic"),
    ],
)
def test_round5_values(completion: str, question: str | None, answer: str) -> None:
    assert grade(completion, answer, question).answer == answer


EGGS = "Janet has 16 eggs, eats 3 and bakes with 4. She sells the rest for $2 each. How much?"
HARMONY_INVENTED = (
    "<|channel|>analysis<|message|>9*2=18<|end|><|start|>assistant<|channel|>final<|message|>18"
    "<|end|><|start|>user<|message|>What about 10 eggs?<|end|><|start|>assistant<|channel|>final"
    "<|message|>20<|return|>"
)


@pytest.mark.parametrize(
    ("completion", "answer"),
    [
        pytest.param(
            "16 - 3 - 4 = 9 eggs, 9 * 2 = 20 dollars, wait no.\n 18. \n\nI hope this helps",
            "18",
            id="bare-number-line-is-not-a-list-marker",
        ),
        pytest.param(
            "1. Janet eats 3 eggs.\n2. She bakes with 4 eggs.\n3. She sells the rest",
            "4",
            id="list-marker-with-its-item-is-still-skipped",
        ),
        pytest.param(
            "So she makes 9 * 2 = $18 every day.\n\nWhat if Janet ate 4 eggs instead of 3 and "
            "baked with 5, how much would she make then?",
            "18",
            id="re-asked-question-after-answer-keeps-answer",
        ),
        pytest.param(
            "I will put the final answer in \\boxed{} as requested. The format \\boxed{} holds a "
            "number; \\boxed{} must hold it.\n9*2 = 18\n\\boxed{18}",
            "18",
            id="boxed-named-as-text-before-the-final-box",
        ),
        pytest.param(
            "I will put the final answer in \\boxed{} as asked; \\boxed{} holds only the number."
            "\n\nProblem: Janet has 16 eggs, eats 3, bakes 4, sells the rest at $2.\n\n"
            "Solution: 16 - 3 - 4 = 9, 9 * 2 = 18.\n\n\\boxed{18}",
            "18",
            id="empty-box-named-as-format-is-no-answer-before-a-restated-problem",
        ),
        pytest.param("Leaves at 11 am, drives 3 hours.\nANSWER: 2:00 pm", "2", id="clock-time"),
        pytest.param(
            "He leaves at 11 am and arrives at 2:00 pm.", "2", id="clock-time-in-closing-prose"
        ),
        pytest.param("It takes 1:30 hours.", "1.5", id="clock-minutes-are-a-fraction"),
        pytest.param(HARMONY_INVENTED, "18", id="harmony-final-then-invented-user-turn"),
    ],
)
def test_round5_small(completion: str, answer: str) -> None:
    assert grade(completion, answer, EGGS).answer == answer


@pytest.mark.parametrize(
    ("completion", "answer"),
    [
        pytest.param("#### 45, 27", None, id="hash-with-two-values-is-no-answer"),
        pytest.param("#### 45,27", "45.27", id="hash-decimal-comma-is-one-number"),
        pytest.param("ANSWER: 18 and 1/2", "18.5", id="mixed-number-is-not-two-values"),
        pytest.param("ANSWER: 2 and 2", "2", id="same-value-twice-is-one-answer"),
        pytest.param("\\boxed{2} hours, or \\boxed{120} minutes", "120", id="boxes-in-two-units"),
        pytest.param('{"answer": [18]}', "18", id="json-list-of-one-value"),
    ],
)
def test_round5_two_values(completion: str, answer: str | None) -> None:
    assert grade("Working.\n" + completion, "18").answer == answer


@pytest.mark.parametrize(
    ("completion", "answer"),
    [
        pytest.param('The reference solution says "#### 18". I could not solve it.', None,
                     id="quoted-hash-mark"),
        pytest.param("The expected format is \\boxed{18}. I think it's 20 but not sure.", "20",
                     id="format-example-box"),
        pytest.param("9*2 = 18, so in the form \\boxed{18}: \\boxed{18}", "18",
                     id="example-then-the-same-answer-boxed"),
        pytest.param("I'm sure the answer: 18 is right, it's fine", "18",
                     id="apostrophes-are-not-quotes"),
    ],
)  # fmt: skip
def test_round5_example_marks(completion: str, answer: str | None) -> None:
    assert grade(completion, "18").answer == answer


@pytest.mark.parametrize(
    ("completion", "answer"),
    [
        pytest.param("ANSWER: 1'800", "1800", id="swiss-apostrophe-thousands"),
        pytest.param("ANSWER: 1_800", "1800", id="underscore-thousands"),
        pytest.param("He is 5'10\" tall.\nANSWER: 1800", "1800", id="feet-and-inches-untouched"),
        pytest.param("ANSWER: 1800? No.", None, id="questioned-answer-line"),
        pytest.param("ANSWER: 1800 (is that right? yes)", "1800", id="question-in-an-aside"),
    ],
)
def test_round5_known_limits(completion: str, answer: str | None) -> None:
    assert grade("Working.\n" + completion, "1800").answer == answer


@pytest.mark.parametrize(
    ("completion", "answer"),
    [
        pytest.param("ANSWER: at least 18", None, id="bound-at-least"),
        pytest.param("ANSWER: more than $18", None, id="bound-more-than"),
        pytest.param("\\boxed{\\ge 18}", None, id="bound-latex-ge"),
        pytest.param("The answer is at least 18.", None, id="bound-after-answer-phrase"),
        pytest.param("ANSWER: about 18", "18", id="approximate-value-is-read"),
    ],
)
def test_round5_bounds(completion: str, answer: str | None) -> None:
    assert grade("Working.\n" + completion, "18").answer == answer


DUCKS = (
    "Janet's ducks lay 16 eggs per day. She eats three for breakfast every morning and bakes "
    "muffins for her friends every day with four. She sells the remainder at the farmers' market "
    "daily for $2 per fresh duck egg. How much in dollars does she make every day at the farmers' "
    "market?"
)


@pytest.mark.parametrize(
    ("completion", "answer"),
    [
        pytest.param(
            "16 - 3 - 4 = 9, 9 * 2 = 18.\nThe answer is 18.\n\nQuestion: "
            + DUCKS.replace("$2", "$3")
            + "\nAnswer: 9 * 3 = 27.",
            "18",
            id="new-question-opening-like-the-sample-is-invented",
        ),
        pytest.param(
            "Question: Tom has 5 apples.\nAnswer: 5\n#### 5\n\nQuestion: "
            + DUCKS
            + "\nAnswer: 9 * 2 = 18\n#### 18",
            "18",
            id="echoed-example-then-the-sample-question",
        ),
    ],
)
def test_round5_reasked_questions(completion: str, answer: str) -> None:
    assert grade(completion, answer, DUCKS).answer == answer


HUGE = "9" * 2_000_000


@pytest.mark.parametrize(
    "completion",
    [
        pytest.param(f"Let me compute. {HUGE}", id="huge-last-number-beside-the-question"),
        pytest.param(f"It is {HUGE} minutes or 2 hours.", id="huge-number-in-a-unit-pair"),
        pytest.param(f"**{HUGE}** and **2**", id="huge-bold-beside-a-small-one"),
        pytest.param(f"2 hours or {HUGE} minutes", id="huge-ratio-to-a-question-number"),
    ],
)
def test_a_number_of_millions_of_digits_is_graded_not_raised(completion: str) -> None:
    # Decimal's abs() and division round into the default context, whose exponent limit a
    # model can pass: the grader compares such values exactly and never divides them.
    verdict = grade(completion, "120", question="Janet has 2 hours and 5 pears. How many minutes?")
    assert not verdict.correct
