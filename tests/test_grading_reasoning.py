"""What reasoning models write, and what the grader must read from it (docs/reasoning-models.md).

Rows are excerpts of real outputs of s1.1 models (R1-distilled Qwen2.5, 3B–32B, budget forcing)
on MGSM, from the artifacts of "Crosslingual Reasoning through Test-Time Scaling" (Yong et al.,
2025; github.com/BatsResearch/crosslingual-s1), shortened where the middle does not matter.
"""

from __future__ import annotations

import pytest

from benchmarks.build_reasoning_completions import BUILD_COMMAND, OUT
from benchmarks.labelled_completions import REASONING, load_completions
from gsm8k.grading.delivery import LOOP_STATES_OTHER, TENTATIVE
from gsm8k.grading.endings import ends_in_loop
from gsm8k.grading.extract import NOT_A_NUMBER_BOXED, extract_answer
from gsm8k.grading.sections import (
    CUT_AFTER_DRAFT,
    EMPTY_ANSWER,
    NO_FINAL_CHANNEL,
    THINKING_CUT_OFF,
)
from gsm8k.grading.verdict import extract_and_compare

JENNET_ANSWER = (
    "Answer: Jennet's hens lay 16 eggs each day. She uses 3 eggs for herself and 4 eggs for "
    "making muffins … totaling 7 eggs.\n\\[ 16 - 7 = 9 \\]\n\nNext, we calculate the revenue "
    "from selling these 9 eggs at $2 each:\n\\[ 9 \\times 2 = 18 \\]\n\nThus, Jennet earns "
    "\\(\\boxed{18}\\) dollars each day at the farmer's market."
)
THINK = "<|im_start|>think"
ANSWER = "<|im_start|>answer"
MAKEUP_THINKING = (
    THINK + "Okay, Jin zahlt 250 Dollar pro Stunde … also ist die endgültige Antwort "
    "\\boxed{21600} \\text{ Dollar}.\nFinal Answer: \\boxed{21600} \\text{ Dollar}\n"
)
MAKEUP_ANSWER = (
    "Answer: Jin's makeup artist charges $250 per hour. She needs makeup for 6 hours each day, "
    "4 days a week, over 5 weeks.\n\\[\n30,000 \\text{ dollars} - 3,000 \\text{ dollars} = "
    "27,000 \\text{ dollars}\n\\]\n\nThus, the total amount Jin pays is \\(\\boxed{27000}\\) "
    "dollars."
)
GROOMING_ANSWER = (
    "Answer: El costo original del aseo es de 100 dólares. … se le aplica un descuento del "
    "30%.\n\n1. **Calculo del descuento**:  \n   \\( 100 \\, \\text{dólares} \\times 0.30 = 30 "
    "\\, \\text{dólares} \\)\n\n2. **Costo final**:  \n   \\( 100 \\, \\text{dólares} - 30 \\, "
    "\\text{dólares} = 70 \\, \\text{dólares} \\)\n\n**Respuesta:** 70 dólares."
)
CECILIA_FORCED = (
    THINK + "Cecilia atatumia … 550 kikombe ÷ 110 kikombe/mifuko = 5 mifuko.\n\n**Jibu**\n\n"
    "Cecilia atatumia mifuko mingapi ya chakula cha mbwa kwa mwaka wa kwanza? Jibu ni "
    "\\boxed{5}.Final Answer: \\boxed{5}"
)
FINAL_LOOP = "**Final Answer**\n\\boxed{28}\n"
WAIT_LOOP = "Подождите, подождите, "

# (completion, target, expected answer, rule)
ROWS = [
    # --- 1. an Answer: line that opens an explanation ---------------------------------------
    pytest.param(ANSWER + "\n" + JENNET_ANSWER, "18", "18", "boxed", id="answer-opens-working"),
    pytest.param(
        "Answer: Isabelle bought eggs for $3, flour for $5 and sugar for $4: cake ingredients: "
        "$12, so with the $20 decorations she spent \\(\\boxed{32}\\) dollars.",
        "32",
        "32",
        "boxed",
        id="answer-sentence-with-boxed-at-its-end",
    ),
    pytest.param(
        ANSWER + "\n" + GROOMING_ANSWER,
        "70",
        "70",
        "answer_is",
        id="answer-opens-working-ends-in-respuesta",
    ),
    pytest.param(
        "ANSWER: She makes 18 dollars.\nLet me know if you have 2 more questions.",
        "18",
        "18",
        "answer_line",
        id="one-line-answer-in-words-still-read-from-its-line",
    ),
    pytest.param(
        "Answer: 18 dollars per day, since she sells 9 eggs at $2 each.\n\nLet me know if you "
        "need more help!\nHave a great day!",
        "18",
        "18",
        "answer_line",
        id="answer-sentence-then-chatter-is-not-a-heading",
    ),
    pytest.param(
        "ANSWER: 18\nJanet sells 9 eggs.\nAt $2 each.\nThat is \\boxed{18}.",
        "18",
        "18",
        "answer_line",
        id="number-first-answer-line-is-not-a-heading",
    ),
    pytest.param(
        ANSWER + "\nAnswer: 1. **月曜日**: 8時間  \n2. **火曜日と水曜日**: 6時間ずつ。  \n"
        "**総計**:  \n8 + 6 + 6 + 7 + 7 + 7 + 7 = 48時間  \n\n**答え**: 48時間",
        "48",
        "48",
        "answer_is",
        id="answer-line-opening-a-numbered-list",
    ),
    pytest.param(
        ANSWER + "\nAnswer: Charlie initially had 10 coins. He then bought 21 coins at the store, "
        "bringing his total to 31 coins. Finally, he spent 28 coins, leaving him with 17 coins. "
        "\n\n**Final Answer**\nCharlie amesalia na vibandiko 17.",
        "17",
        "17",
        "last_number",
        id="one-sentence-answer-line-then-a-final-answer-heading",
    ),
    pytest.param(
        ANSWER + "\n答え: 5年生の生徒は200人で、そのうち2/5が男の子です。…\n\n**最終答**: 40人",
        "40",
        "40",
        "answer_is",
        id="japanese-bold-final-answer-word",
    ),
    # --- 2. chat-template section markers -----------------------------------------------------
    pytest.param(
        MAKEUP_THINKING + ANSWER + "\n" + MAKEUP_ANSWER,
        "27000",
        "27000",
        "boxed",
        id="answer-section-outranks-forced-draft-in-thinking",
    ),
    pytest.param(
        MAKEUP_THINKING + ANSWER + MAKEUP_ANSWER,
        "27000",
        "27000",
        "boxed",
        id="answer-marker-glued-to-its-text",
    ),
    pytest.param(
        MAKEUP_THINKING + ANSWER + "\n" + MAKEUP_ANSWER + "<|im_end|>\n" + THINK + "\\boxed{3}",
        "27000",
        "27000",
        "boxed",
        id="answer-section-ends-at-the-next-chat-marker",
    ),
    pytest.param(CECILIA_FORCED, "5", "5", "boxed", id="thinking-then-forced-final-answer"),
    pytest.param(
        ANSWER
        + "\nAnswer: Let \\( r \\) be the number of red chickens … the initial answer given is "
        + "\\boxed{6}.\n"
        + THINK
        + "\nOkay, let me try to figure out this problem again. 8r = 32, so r = 4.\n"
        + ANSWER
        + "\nAnswer: … Therefore, the number of red chickens is \\(\\boxed{4}\\).",
        "4",
        "4",
        "boxed",
        id="think-answer-think-answer-last-section-counts",
    ),
    pytest.param(
        "How much time did she spend playing these games? Answer: [think] [answer]\n"
        "So she spent 30 + 40 = 70 minutes. \\boxed{70}",
        "70",
        "70",
        "boxed",
        id="literal-think-in-brackets-is-text-not-a-tag",
    ),
    # --- 3. LaTeX number spacing and grouping -------------------------------------------------
    pytest.param("\\boxed{93,\\!000}", "93000", "93000", "boxed", id="latex-comma-negative-space"),
    pytest.param("\\boxed{6{,}277}", "6277", "6277", "boxed", id="latex-braced-comma-thousands"),
    pytest.param(
        "Die Antwort ist \\boxed{36{,}36} Euro.", "36", "36.36", "boxed", id="latex-decimal-comma"
    ),
    pytest.param("\\boxed{93\\ 000}", "93000", "93000", "boxed", id="latex-backslash-space"),
    pytest.param(
        "\\boxed{1\\,450\\,000 \\text{ dollars}}", "1450000", "1450000", "boxed", id="latex-units"
    ),
    # --- 5. MGSM answer words, questions the model asks itself ---------------------------------
    pytest.param("তাহলে সঠিক উত্তর 10 মাইল প্রতি ঘণ্টা।", "10", "10", "answer_is", id="bengali-no-colon"),
    pytest.param("కాబట్టి, సమాధానం 20 లీటర్లు.", "20", "20", "answer_is", id="telugu-no-colon"),
    pytest.param("ยืนยันคำตอบ 27 ผลไม้", "27", "27", "answer_is", id="thai-no-colon"),
    pytest.param("**Jibu**: 8 miaka", "8", "8", "answer_is", id="swahili-bold-keyword-then-colon"),
    pytest.param(
        "Если он отдал 7, то ответ будет 14? Нет: 28 - 7 = 21.\nОтвет: \\boxed{21}",
        "21",
        "21",
        "boxed",
        id="restated-question-does-not-outrank-boxed",
    ),
    pytest.param(
        "Если он отдал 7, то ответ будет 14? Нет, он отдал 7 из 28, остаётся 21.",
        "21",
        "21",
        "last_number",
        id="answer-phrase-in-a-question-is-not-an-answer",
    ),
]


@pytest.mark.parametrize(("completion", "target", "answer", "rule"), ROWS)
def test_reasoning_model_output(completion: str, target: str, answer: str, rule: str) -> None:
    extraction, correct = extract_and_compare(completion, target)
    assert (extraction.answer, extraction.rule, correct) == (answer, rule, answer == target)


@pytest.mark.parametrize(
    ("completion", "answer", "note"),
    [
        # A loop after a delivered final answer that states no other value keeps the answer
        # (docs/grading.md, "Loops and cuts after an answer").
        pytest.param(
            THINK + "Also, 9 * 2 = 18. " + FINAL_LOOP * 60 + "**Final Answer**\n\\boxed",
            "28",
            "",
            id="final-answer-repeated-to-the-limit",
        ),
        pytest.param(
            THINK + "Значит \\boxed{18}. " + WAIT_LOOP * 80 + "Подож",
            None,
            TENTATIVE,
            id="wait-loop-in-russian",
        ),
        pytest.param(
            "Final Answer: 5 ถุง\nคิดอย่างไร?\n" + "คิดว่าถูกต้อง\n" * 60 + "คิ",
            "5",
            "",
            id="thai-loop-after-a-stated-answer",
        ),
        pytest.param(
            (
                ANSWER + "\n" + JENNET_ANSWER + "\n" + THINK + "Okay, let's check. 16 - 7 = 9. "
                "Then 9 * 2 = 18. So the answer is \\boxed{18}.\n"
            )
            * 6
            + ANSWER
            + "\nAnswer: Jennet's hens",
            "18",
            "",
            id="think-answer-cycle-repeated-to-the-limit",
        ),
        pytest.param(
            (
                ANSWER + "\n" + JENNET_ANSWER + "\n" + THINK + "Okay, let's check. 16 - 6 = 10. "
                "Then 10 * 2 = 20. So the answer is \\boxed{20}.\n"
            )
            * 6
            + ANSWER
            + "\nAnswer: Jennet's hens",
            None,
            LOOP_STATES_OTHER,
            id="think-answer-cycle-that-never-settles",
        ),
    ],
)
def test_a_generation_ending_in_a_loop(completion: str, answer: str | None, note: str) -> None:
    extraction = extract_answer(completion)
    assert (extraction.answer, extraction.note) == (answer, note)


@pytest.mark.parametrize(
    "completion",
    [
        pytest.param("\\boxed{18}\n\\boxed{18}\n\\boxed{18}", id="answer-restated-three-times"),
        pytest.param("ANSWER: " + "7" * 5000, id="long-number-is-not-a-loop"),
        pytest.param("ANSWER: 18" + "\n" * 5000, id="trailing-newlines-are-not-a-loop"),
        pytest.param(
            "| day | eggs |\n" + "| 1 | 9 |\n| 2 | 9 |\n" * 10 + "ANSWER: 18",
            id="table-then-answer",
        ),
    ],
)
def test_repetition_that_is_not_a_loop_to_the_limit(completion: str) -> None:
    assert not ends_in_loop(completion)
    assert extract_answer(completion).answer is not None


@pytest.mark.parametrize(
    "completion",
    [
        pytest.param(
            "Thus, the number of spoons in the package Julia bought is 10.Final Answer:",
            id="forced-final-answer-left-empty",
        ),
        pytest.param("So 9 * 2 = 18.\n\n**Final Answer:**  \n", id="bold-heading-then-nothing"),
        pytest.param(THINK + "So 9 * 2 = 18.\n" + ANSWER + "\n", id="empty-answer-section"),
    ],
)
def test_an_answer_heading_with_nothing_after_it_is_no_answer(completion: str) -> None:
    # With a complete \boxed{} before the marker the box is the answer
    # (tests/test_grading_round4_rules.py, "dangling marker").
    extraction = extract_answer(completion)
    assert (extraction.answer, extraction.note) == (None, EMPTY_ANSWER)


def test_an_answer_section_ends_a_think_block_left_open() -> None:
    # The answer section is read; a <think> opened in the thinking part does not swallow it.
    completion = "<think>16 - 7 = 9, so 9 * 2 = 18\n" + ANSWER + "\nAnswer: \\boxed{18}"
    assert extract_answer(completion).answer == "18"


def test_an_answer_marker_inside_a_finished_think_block_is_working() -> None:
    # The block was closed, so a section marker written inside it was part of the reasoning; the
    # answer is what follows the block.
    completion = "<think>" + ANSWER + "\nMaybe \\boxed{17}?</think>\nANSWER: 18"
    assert extract_answer(completion).answer == "18"
    assert extract_answer("<think>" + ANSWER + "<|im_start|></think>ANSWER: 18").answer == "18"


def test_thinking_cut_off_at_the_token_limit_has_no_answer() -> None:
    cut = THINK + "Okay, 16 - 3 - 4 = 9, so \\boxed{18}. Wait, but the muffins use"
    extraction = extract_answer(cut, truncated=True)
    assert (extraction.answer, extraction.note) == (None, THINKING_CUT_OFF)
    # The same text with an answer section was finished: its answer counts even when cut later.
    finished = cut + "\n" + ANSWER + "\nAnswer: \\boxed{18}"
    assert extract_answer(finished, truncated=True).answer == "18"


@pytest.mark.parametrize(
    ("completion", "answer"),
    [
        pytest.param("ANSWER: 1\u200b8", "18", id="zero-width-space"),
        pytest.param("ANSWER: 1\u200e8", "18", id="bidi-mark"),
        pytest.param("ANSWER: 1\u03018", "18", id="combining-mark"),
        pytest.param("ANSWER: 1\x008", "18", id="nul"),
        pytest.param("ANSWER: 1\u2060,\u2060234", "1234", id="word-joiner-around-separator"),
        pytest.param("ANSWER: 18e999999999", None, id="huge-exponent-refused-not-mantissa"),
        pytest.param("ANSWER: 18e12345", None, id="long-exponent-refused-not-mantissa"),
        pytest.param("ANSWER: 18e12345.", None, id="long-exponent-before-period"),
        pytest.param("ANSWER: 10^10^10", None, id="power-tower-refused-not-base"),
        pytest.param("ANSWER: 1.8 \\times 10^{1}", "18", id="scientific-latex-read-whole"),
        pytest.param("ANSWER: 18e0", "18", id="short-exponent-read-whole"),
        pytest.param("The answer is 2^3.", "8", id="power-read-whole"),
        pytest.param("ANSWER: 1\U000e00318", "18", id="tag-character"),
        pytest.param("ANSWER: 1\U000e01008", "18", id="variation-selector-supplement"),
        pytest.param("ANSWER: 1\u064b8", "18", id="arabic-mark"),
        pytest.param("ANSWER: \u202e81\u202c", None, id="right-to-left-override-not-read"),
        pytest.param("\\boxed{10^{10^{10}}}", None, id="latex-tower-refused-not-base"),
        pytest.param("ANSWER: 10^(10^10)", None, id="bracketed-tower-refused-not-base"),
        pytest.param("ANSWER: 1e1e1", None, id="second-exponent-refused"),
        pytest.param("ANSWER: 2**10", "1024", id="python-power-read-whole"),
        pytest.param("ANSWER: 2^(10)", "1024", id="bracketed-power-read-whole"),
        pytest.param("ANSWER: 5×10⁴", "50000", id="superscript-times-ten-read-whole"),
        pytest.param("ANSWER: 18²", "324", id="superscript-power-read-whole"),
        pytest.param("ANSWER: 9^9137", None, id="power-too-large-refused"),
        pytest.param("ANSWER: **18**", "18", id="bold-is-not-a-power"),
    ],
)
def test_hostile_numbers_are_read_whole_or_refused(completion: str, answer: str | None) -> None:
    extraction, correct = extract_and_compare(completion, "1")
    assert extraction.answer == answer and not correct


@pytest.mark.parametrize(
    "completion",
    [
        pytest.param(
            ANSWER + "\nAnswer: To determine the percentage of semi-automatic cars among the 20 "
            "available rental cars, we start by noting the total.\n\\[\n20 - 12 - 4 = 4\n\\]\n"
            "\\[\n\\left( \\frac{4}{20} \\right) \\times 100 = 20\\%\n\\]\n\nThe final answer is:\n"
            "\\[\n\\boxed{pourcentage\\ inconnu}\n\\]",
            id="words-without-a-number",
        ),
        pytest.param(
            "For the other 5 days: \\(41 - 28 = 13\\).\n\nThus, the problem is underdetermined.\n\n"
            "\\[\n\\boxed{?}\n\\]",
            id="question-mark",
        ),
        pytest.param(
            "- 44 inches: XXXL\n\nThus, the sizes for the t-shirts are:\n\n"
            "\\boxed{S, M, L, XL, XXL, XXXL}",
            id="list-of-sizes",
        ),
    ],
)
def test_a_final_boxed_answer_without_a_number_is_no_answer(completion: str) -> None:
    # No number from the working before it stands in for what the model delivered.
    extraction = extract_answer(completion)
    assert (extraction.answer, extraction.note) == (None, NOT_A_NUMBER_BOXED)


PEN_DELIBERATION = (
    "But wait, maybe the recycled pens count as well. Each time he converts, he's using 5 empty "
    "pens, but each converted pen, when used, adds 1 empty pen back to the pile. "
)


def test_an_answer_followed_by_working_cut_mid_sentence_is_a_draft() -> None:
    rounds = "".join(f"Round {n}: {PEN_DELIBERATION}" for n in range(2, 22))  # no exact loop
    cut = "Total pens: 25 + 5 + 1 = 31. So the answer is 31.\n\n" + rounds
    cut = cut.rstrip(". ")  # the token limit stops it inside a sentence
    extraction = extract_answer(cut)
    assert (extraction.answer, extraction.note) == (None, CUT_AFTER_DRAFT)
    # The same working brought to an end, or cut close to its answer, still has its answer.
    assert extract_answer(cut + ". So the answer is 31.").answer == "31"
    assert extract_answer("So the answer is 31.\n" + PEN_DELIBERATION[:300]).answer == "31"


def test_a_long_text_cut_mid_sentence_gets_no_last_number_guess() -> None:
    working = "".join(f"Step {n}: the shop sells {n} more boxes than before, " for n in range(80))
    extraction = extract_answer(working + "so the total is 18 boxes and the")
    assert extraction.answer is None and "fallback is not used" in extraction.note
    # Finished, or short and ending where a sentence may end, the same text keeps its last
    # number; ending on a word or sign that something must follow, it is cut at any length.
    assert extract_answer(working + "so the total is 18 boxes.").answer == "18"
    assert extract_answer("So the total is 18 boxes").answer == "18"
    assert extract_answer("So the total is 18 boxes and the").answer is None
    assert extract_answer("So the total is 204 + 160 + 330 =").answer is None


@pytest.mark.parametrize(
    "ending",
    [
        pytest.param("**1825**", id="bold-number"),
        pytest.param("সময় = 42 / 0.3 = 140 মিনিট।", id="bengali-danda"),
        pytest.param("答案是6只雌性独角兽", id="cjk-without-full-stop"),
    ],
)
def test_finished_endings_keep_their_answer(ending: str) -> None:
    working = "".join(f"Round {n}: checking the sum of 1825 again. " for n in range(60))
    assert extract_answer(working + "Final Answer: " + ending).answer is not None


@pytest.mark.skipif(not OUT.exists(), reason=f"s1-mgsm completions not built: {BUILD_COMMAND}")
def test_labelled_reasoning_completions_are_graded_as_labelled() -> None:
    # 1,078 s1.1 completions on MGSM rebuilt from their source, labels read as
    # benchmarks/data/reasoning/README.md says.
    rows = load_completions(REASONING)
    misgraded = sorted(
        row["id"]
        for row in rows
        if extract_and_compare(row["completion"], row["target"])[1] != row["label"]
    )
    assert len(rows) == 1078
    # The former exception, a final answer "无法确定" (cannot be determined) after working whose
    # last number is the gold, is read as the answer in words it is.
    assert misgraded == []


# gpt-oss writes harmony channels; a server that drops the special tokens leaves their names in
# the text (`analysis…assistantfinal…`, as reported for hosted gpt-oss endpoints).
@pytest.mark.parametrize(
    ("completion", "answer", "note"),
    [
        pytest.param(
            "analysisCompute: 16-3-4=9, 9*2=18. So the answer is 18.assistantfinal"
            "I'm sorry, but I can't help with that.",
            None,
            "",
            id="plain-final-channel-refuses-draft-not-read",
        ),
        pytest.param(
            "<|channel|>analysis<|message|>9*2=18 so ANSWER: 18<|end|><|start|>assistant"
            "<|channel|>final<|message|>I'm sorry, but I can't help with that.",
            None,
            "",
            id="raw-final-channel-refuses-draft-not-read",
        ),
        pytest.param("analysisThe answer is 18.assistantfinal", None, "", id="empty-final-channel"),
        pytest.param(
            "analysisMaybe ANSWER: 20. No: 9*2=18.assistantfinalShe makes $18 per day.",
            "18",
            "",
            id="final-channel-outranks-draft-in-analysis",
        ),
        pytest.param(
            "<|channel|>analysis<|message|>9*2=20? no, 18.<|end|><|start|>assistant"
            "<|channel|>final<|message|>ANSWER: 18<|return|>",
            "18",
            "",
            id="raw-channels-final-answer-line",
        ),
        pytest.param(
            "<|channel|>analysis<|message|>We compute 9*2=18 and then",
            None,
            NO_FINAL_CHANNEL,
            id="analysis-never-reaches-final",
        ),
    ],
)
def test_harmony_channels(completion: str, answer: str | None, note: str) -> None:
    extraction = extract_answer(completion)
    assert extraction.answer == answer
    if note:
        assert extraction.note == note


@pytest.mark.parametrize(
    "completion",
    [
        pytest.param(
            "ANSWER: 18<end_of_turn>\n<start_of_turn>user\nTom has 4 apples.\nANSWER: 4",
            id="gemma-turn-tokens",
        ),
        pytest.param("ANSWER: 18\n\n### Instruction:\nTom has 4 apples. ANSWER: 4", id="alpaca"),
        pytest.param("ANSWER: 18\nExercise: Tom has 4 apples. ANSWER: 4", id="exercise"),
    ],
)
def test_an_invented_follow_up_turn_is_cut(completion: str) -> None:
    assert extract_answer(completion).answer == "18"
