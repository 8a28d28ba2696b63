"""What real models write, and what the grader must read from it (docs/grading.md, "Grading rules")."""

from __future__ import annotations

import pytest

from gsm8k.grading.extract import extract_answer
from gsm8k.grading.verdict import extract_and_compare

STEPS = "Janet has 16 - 3 - 4 = 9 eggs left.\nShe sells them for 9 * 2 = 18 dollars.\n"

# (completion, target, expected answer, rule, format followed, correct)
ROWS = [
    # --- the requested format and its everyday variations -----------------------------------
    pytest.param(
        STEPS + "ANSWER: 18", "18", "18", "answer_line", True, True, id="answer-line-plain"
    ),
    pytest.param(
        STEPS + "**ANSWER:** 18",
        "18",
        "18",
        "answer_line",
        True,
        True,
        id="answer-line-bold-keyword",
    ),
    pytest.param(
        STEPS + "ANSWER: **18**",
        "18",
        "18",
        "answer_line",
        True,
        True,
        id="answer-line-bold-number",
    ),
    pytest.param(
        STEPS + "answer:18",
        "18",
        "18",
        "answer_line",
        True,
        True,
        id="answer-line-lowercase-no-space",
    ),
    pytest.param(
        STEPS + "ANSWER: $18.00",
        "18",
        "18",
        "answer_line",
        True,
        True,
        id="answer-line-currency-cents",
    ),
    pytest.param(
        STEPS + "ANSWER: 18 dollars",
        "18",
        "18",
        "answer_line",
        True,
        True,
        id="answer-line-unit-word",
    ),
    pytest.param(
        STEPS + "ANSWER: 18.",
        "18",
        "18",
        "answer_line",
        True,
        True,
        id="answer-line-trailing-period",
    ),
    pytest.param(
        "ANSWER: 1,234", "1234", "1234", "answer_line", True, True, id="answer-line-thousands-comma"
    ),
    pytest.param(
        "-5 + 2 = -3\nANSWER: -3", "-3", "-3", "answer_line", True, True, id="answer-line-negative"
    ),
    pytest.param(
        "ANSWER: 18 (9 * 2)",
        "18",
        "18",
        "answer_line",
        True,
        True,
        id="answer-line-working-in-brackets",
    ),
    pytest.param(
        "ANSWER: 9 * 2 = 18",
        "18",
        "18",
        "answer_line",
        True,
        True,
        id="answer-line-working-then-equals",
    ),
    pytest.param(
        "She saved 60% of it.\nANSWER: 60%",
        "60",
        "60",
        "answer_line",
        True,
        True,
        id="answer-line-percent",
    ),
    pytest.param(
        "### ANSWER: 18", "18", "18", "answer_line", True, True, id="answer-line-markdown-heading"
    ),
    pytest.param(
        "ANSWER:\n18", "18", "18", "answer_line", True, True, id="answer-line-number-on-next-line"
    ),
    pytest.param(
        "ANSWER: 18.0",
        "18",
        "18",
        "answer_line",
        True,
        True,
        id="answer-line-trailing-zero-decimal",
    ),
    pytest.param(
        "ANSWER: 2,880,000",
        "2880000",
        "2880000",
        "answer_line",
        True,
        True,
        id="answer-line-large-exact",
    ),
    pytest.param(
        "ANSWER: 0.5", "0.5", "0.5", "answer_line", True, True, id="answer-line-decimal-target"
    ),
    pytest.param("ANSWER: 1/2", "0.5", "0.5", "answer_line", True, True, id="answer-line-fraction"),
    pytest.param(
        "ANSWER: \\$18",
        "18",
        "18",
        "answer_line",
        True,
        True,
        id="answer-line-latex-escaped-dollar",
    ),
    # --- other conventions models fall back to ---------------------------------------------
    pytest.param(STEPS + "#### 18", "18", "18", "hash_line", False, True, id="gsm8k-hash-format"),
    pytest.param(
        STEPS + "The answer is $\\boxed{18}$.",
        "18",
        "18",
        "boxed",
        False,
        True,
        id="boxed-inline-math",
    ),
    pytest.param(
        "Total: $\\boxed{1{,}234}$",
        "1234",
        "1234",
        "boxed",
        False,
        True,
        id="boxed-latex-thousands",
    ),
    pytest.param("\\[\\boxed{18\\%}\\]", "18", "18", "boxed", False, True, id="boxed-percent"),
    pytest.param("\\boxed{\\$18}", "18", "18", "boxed", False, True, id="boxed-dollar"),
    pytest.param("\\boxed{\\frac{1}{2}}", "0.5", "0.5", "boxed", False, True, id="boxed-fraction"),
    pytest.param(
        STEPS + "The answer is 18.", "18", "18", "answer_is", False, True, id="the-answer-is"
    ),
    pytest.param(
        STEPS + "The final answer is 18",
        "18",
        "18",
        "answer_is",
        False,
        True,
        id="the-final-answer-is",
    ),
    pytest.param(
        STEPS + "Therefore, the answer is 18.",
        "18",
        "18",
        "answer_is",
        False,
        True,
        id="therefore-the-answer-is",
    ),
    pytest.param(
        STEPS + "Final Answer: The final answer is $18$. I hope it is correct.",
        "18",
        "18",
        "answer_is",
        False,
        True,
        id="minerva-style-final-answer",
    ),
    pytest.param(
        STEPS + "So the answer is $18.",
        "18",
        "18",
        "answer_is",
        False,
        True,
        id="answer-is-with-currency",
    ),
    pytest.param(
        '{"reasoning": "16-3-4=9, 9*2=18", "answer": "18"}',
        "18",
        "18",
        "json",
        False,
        True,
        id="json-string-answer",
    ),
    pytest.param(
        '{"reasoning": "9*2", "answer": 18}',
        "18",
        "18",
        "json",
        False,
        True,
        id="json-number-answer",
    ),
    pytest.param(
        "Q: eggs?\nShe has 9 eggs worth 2 each.\nA: 18",
        "18",
        "18",
        "a_line",
        False,
        True,
        id="final-a-line",
    ),
    pytest.param(STEPS, "18", "18", "last_number", False, True, id="last-sentence-number"),
    # --- chatter, continuations, self-corrections ------------------------------------------
    pytest.param(
        STEPS + "ANSWER: 18\nLet me know if you have 2 more questions!",
        "18",
        "18",
        "answer_line",
        True,
        True,
        id="trailing-chatter-with-number",
    ),
    pytest.param(
        STEPS
        + "ANSWER: 18\n\nQuestion: Tom has 3 apples and eats 1. How many are left?\nTom has 3 - 1 = 2.\nANSWER: 2",
        "18",
        "18",
        "answer_line",
        True,
        True,
        id="invented-next-question",
    ),
    pytest.param(
        STEPS + "#### 18\n\nQuestion: A bag has 5 balls...\n#### 5",
        "18",
        "18",
        "hash_line",
        False,
        True,
        id="invented-next-question-hash-format",
    ),
    pytest.param(
        STEPS + "ANSWER: 18<|im_end|>\n<|im_start|>user\nWhat is 2+3?<|im_end|>\nANSWER: 5",
        "18",
        "18",
        "answer_line",
        True,
        True,
        id="invented-chat-turn",
    ),
    pytest.param(
        "9 * 3 = 27\nANSWER: 27\nWait, that's wrong: she sells 9 eggs at $2, 9 * 2 = 18.\nANSWER: 18",
        "18",
        "18",
        "answer_line",
        True,
        True,
        id="self-correction-last-answer-wins",
    ),
    pytest.param(
        "ANSWER: 25 ... wait, that is wrong. Recomputing: 9 * 2 = 18.\nANSWER: 18",
        "18",
        "18",
        "answer_line",
        True,
        True,
        id="self-correction-inline",
    ),
    # --- no answer --------------------------------------------------------------------------
    pytest.param("", "18", None, "none", False, False, id="empty-output"),
    pytest.param(
        "I'm sorry, but I can't help with that request.",
        "18",
        None,
        "none",
        False,
        False,
        id="refusal",
    ),
    pytest.param("ANSWER: $ANSWER", "18", None, "none", False, False, id="literal-placeholder"),
    pytest.param(
        "ANSWER: $NUMBER", "18", None, "none", False, False, id="literal-number-placeholder"
    ),
    # --- wrong answers that lenient graders accept -----------------------------------------
    pytest.param(
        "ANSWER: 123459",
        "123456",
        "123459",
        "answer_line",
        True,
        False,
        id="near-miss-large-not-rounded",
    ),
    pytest.param(
        "ANSWER: 2,880,004",
        "2880000",
        "2880004",
        "answer_line",
        True,
        False,
        id="near-miss-millions-not-rounded",
    ),
    pytest.param(
        "ANSWER: 17.5",
        "18",
        "17.5",
        "answer_line",
        True,
        False,
        id="decimal-not-rounded-to-integer",
    ),
    pytest.param("ANSWER: -18", "18", "-18", "answer_line", True, False, id="sign-matters"),
    pytest.param(
        "ANSWER: 1080\nThat is $1,080 in total for 2 more weeks.",
        "1080",
        "1080",
        "answer_line",
        True,
        True,
        id="currency-comma-not-read-as-080",
    ),
    pytest.param(
        "Each box has 12.\nANSWER: 12 boxes x 3 = 36",
        "36",
        "36",
        "answer_line",
        True,
        True,
        id="answer-line-working-with-equals-takes-result",
    ),
]


def row(
    completion: str, target: str, answer: str | None, rule: str, *, id: str, correct: bool = True
) -> object:
    """A table row whose format-followed flag follows from its rule."""
    return pytest.param(completion, target, answer, rule, rule == "answer_line", correct, id=id)


NNBSP = "\u202f"  # narrow no-break space, the French and Russian thousands separator in print

# 1. JSON answer fields: separators, currency and units inside the string; a stated field
#    outranks answer phrases in the reasoning text.
JSON_ROWS = [
    row(
        '```json\n{"reasoning": "2 * 1,570 = 3,140", "answer": "3,140 kilometers"}\n```',
        "3140",
        "3140",
        "json",
        id="json-en-thousands-and-unit",
    ),
    row(
        '{"reasoning": "4000 × 3.5 = 14,000", "answer": "$5,600"}',
        "5600",
        "5600",
        "json",
        id="json-en-currency-thousands",
    ),
    row(
        '{"reasoning": "Insgesamt 18.000 Euro.", "answer": "18.000 €"}',
        "18000",
        "18000",
        "json",
        id="json-de-dot-thousands",
    ),
    row(
        '{"raisonnement": "3 × 6 000 = 18 000", "answer": "18 000 €"}',
        "18000",
        "18000",
        "json",
        id="json-fr-space-thousands",
    ),
    row(
        '{"рассуждение": "…", "answer": "1' + NNBSP + '596 рублей"}',
        "1596",
        "1596",
        "json",
        id="json-ru-narrow-nbsp-thousands",
    ),
    row(
        '{"razonamiento": "3,5 dólares por galón × 1600 galones", "answer": "5.600 dólares"}',
        "5600",
        "5600",
        "json",
        id="json-es-dot-thousands-with-decimal-comma-evidence",
    ),
    row(
        '{"推理": "5600元", "answer": "5,600元"}',
        "5600",
        "5600",
        "json",
        id="json-zh-thousands-then-cjk-unit",
    ),
    row(
        '{"reasoning": "Points from long-answer = 3 * 5 = 15 points. The answer is 15 for that '
        'part; total 8 + 18 + 15 = 41.", "answer": "41"}',
        "41",
        "41",
        "json",
        id="json-field-outranks-answer-phrase-in-reasoning",
    ),
]

# 2. Reasoning blocks are working, not answers.
REASONING_ROWS = [
    row(
        "<think>\n16 - 3 - 4 = 9. The answer is 5? No: answer: 7 * 8 = 56. Let me redo.\n"
        "</think>\n\n9 * 2 = 18\n#### 14",
        "14",
        "14",
        "hash_line",
        id="think-answer-inside-block-never-outranks-final",
    ),
    row(
        "<think>\nOkay, 16 - 3 - 4 = 9 eggs, so the answer is 18.\nWait, let me check the "
        "muffins again: 4 eggs, so",
        "18",
        None,
        "none",
        correct=False,
        id="think-unclosed-block-is-no-answer",
    ),
    row(
        "<think>答案是56</think>\n所以她每天赚 9 × 2 = 18 美元。答案是 18。",
        "18",
        "18",
        "answer_is",
        id="think-zh-final-after-block",
    ),
    row(
        "まず、16 - 3 - 4 = 9個。答えは56です。\n</think>\n\n9 × 2 = 18。答えは18ドルです。",
        "18",
        "18",
        "answer_is",
        id="think-ja-closing-tag-only-template-opened-block",
    ),
    row(
        "<thinking>Ответ: 56</thinking>\nОна зарабатывает 9 × 2 = 18 долларов. Ответ: 18.",
        "18",
        "18",
        "answer_is",
        id="thinking-tag-ru",
    ),
    row(
        "[THINK]La respuesta es 56.[/THINK]La respuesta es 18.",
        "18",
        "18",
        "answer_is",
        id="mistral-think-brackets-es",
    ),
    row(
        "<think>Die Antwort lautet 18.</think>",
        "18",
        None,
        "none",
        correct=False,
        id="think-de-only-reasoning-no-final-answer",
    ),
    row(
        "<thought>Jibu ni 56.</thought>\nJibu ni 18.", "18", "18", "answer_is", id="thought-tag-sw"
    ),
    row(
        "<reasoning>\n16 - 3 - 4 = 9; 9 * 2 = 18\n</reasoning>\n<answer>\n18\n</answer>",
        "18",
        "18",
        "answer_tag",
        id="reasoning-and-answer-tags",
    ),
    row(
        "<|begin_of_thought|>La réponse est 56.<|end_of_thought|>\n"
        "<|begin_of_solution|>La réponse est 18.<|end_of_solution|>",
        "18",
        "18",
        "answer_is",
        id="begin-of-thought-markers-fr",
    ),
]

# 3. Number formats of other locales and scripts.
LOCALE_ROWS = [
    row(
        "3 × 6 000 = 18 000. La réponse est 18 000.",
        "18000",
        "18000",
        "answer_is",
        id="fr-space-thousands",
    ),
    row(f"Ответ: 1{NNBSP}596.", "1596", "1596", "answer_is", id="ru-narrow-nbsp-thousands"),
    row("Ответ — 18\u00a0000 рублей.", "18000", "18000", "answer_is", id="ru-nbsp-thousands"),
    row(
        "Sie zahlt 3 × 5,50 € = 16,50 €. Die Antwort lautet 16,50 €.",
        "16.5",
        "16.5",
        "answer_is",
        id="de-decimal-comma",
    ),
    row(
        "The answer is 1,596.", "1596", "1596", "answer_is", id="en-comma-three-digits-is-thousands"
    ),
    row(
        "Er zahlt 2,50 € pro Stück. Die Antwort lautet 1.596.",
        "1596",
        "1596",
        "answer_is",
        id="de-dot-thousands-when-text-uses-decimal-commas",
    ),
    row(
        "It is 1.596 km long, about 1.6 km. The answer is 1.596.",
        "1.596",
        "1.596",
        "answer_is",
        id="en-dot-three-digits-is-decimal-when-text-uses-decimal-points",
    ),
    row(
        "La respuesta es 1.234.567.",
        "1234567",
        "1234567",
        "answer_is",
        id="es-dot-groups-always-thousands",
    ),
    row(
        "Die Antwort lautet 1.596,50 €.",
        "1596.5",
        "1596.5",
        "answer_is",
        id="de-dot-thousands-before-decimal-comma",
    ),
    row(
        "Die Antwort lautet 18.000.",
        "18000",
        "18000",
        "answer_is",
        id="de-dot-before-000-is-thousands",
    ),
    row("উত্তর হল 1,00,000।", "100000", "100000", "answer_is", id="bn-indian-grouping"),
    row("উত্তর হল ১১।", "11", "11", "answer_is", id="bn-native-digits"),
    row("คำตอบคือ ๒๙", "29", "29", "answer_is", id="th-native-digits"),
    row("答えは１８個です。", "18", "18", "answer_is", id="ja-fullwidth-digits"),
    row("所以总共是18个", "18", "18", "last_number", id="zh-digits-right-after-cjk"),
    row(
        "他有5个苹果，又买了13个，一共18个。",
        "18",
        "18",
        "last_number",
        id="zh-last-number-between-cjk",
    ),
]

# 4. Answer phrases: every MGSM language, and prose that only looks like an answer.
PHRASE_ROWS = [
    row("5 + 6 = 11. Die Antwort lautet 11.", "11", "11", "answer_is", id="de-phrase"),
    row("5 + 6 = 11. La respuesta es 11.", "11", "11", "answer_is", id="es-phrase"),
    row("5 + 6 = 11. La réponse est 11.", "11", "11", "answer_is", id="fr-phrase"),
    row(
        "5 + 6 = 11. La réponse est donc 11.",
        "11",
        "11",
        "answer_is",
        id="fr-phrase-with-qualifying-word",
    ),
    row("5 + 6 = 11\nAntwort: 11", "11", "11", "answer_is", id="de-answer-label"),
    row("5 + 6 = 11. Ответ — 11.", "11", "11", "answer_is", id="ru-phrase-dash"),
    row("5 + 6 = 11. Jibu ni 11.", "11", "11", "answer_is", id="sw-phrase"),
    row("5 + 6 = 11। উত্তর হল 11।", "11", "11", "answer_is", id="bn-phrase"),
    row("5+6=11. సమాధానం 11.", "11", "11", "answer_is", id="te-phrase"),
    row("ดังนั้น 5 + 6 = 11 คำตอบคือ 11", "11", "11", "answer_is", id="th-phrase"),
    row("5+6=11。答えは11です。", "11", "11", "answer_is", id="ja-phrase"),
    row("5 + 6 = 11。答案是 11。", "11", "11", "answer_is", id="zh-phrase"),
    row(
        "Schritt-für-Schritt-Antwort: Roger hatte 5 Bälle. 5 + 6 = 11 Bälle.",
        "11",
        "11",
        "last_number",
        id="de-step-by-step-header-is-not-an-answer",
    ),
    row(
        "## Step 5: Provide the final answer\nThe final answer is the amount of money Gerald has "
        'left after spending $10.\n\n```json\n{"reasoning": "60 - 10 = 50", "answer": "50"}\n```',
        "50",
        "50",
        "json",
        id="answer-is-followed-by-prose-not-a-number",
    ),
    row(
        "Gerald has 60 - 10 = 50 left. The answer is the money he has left, 50.",
        "50",
        "50",
        "last_number",
        id="answer-is-prose-then-number-later-falls-back",
    ),
    row(
        "Points from long-answer = 3 * 5 = 15 points.\nTotal score = 8 + 18 + 15 = 41 points.",
        "41",
        "41",
        "last_number",
        id="long-answer-is-not-the-answer-keyword",
    ),
    row(
        "Here is how I arrived at the answer:\n\n1. She spends 3 * $1 = $3 a day.\n"
        "2. In May she spends 31 * $3 = $93.",
        "93",
        "93",
        "last_number",
        id="arrived-at-the-answer-colon-then-list",
    ),
    row(
        "La respuesta es:\n\n1. Calculamos 5 + 6 = 11.",
        "11",
        "11",
        "last_number",
        id="es-phrase-then-list-is-not-an-answer",
    ),
]

# 5. Kojima et al.'s zero-shot answer trigger, in several languages, and its follow-ups.
KOJIMA_ROWS = [
    row(
        "9 * 2 = 18.\nTherefore, the answer (arabic numerals) is 18.\n\nQ: A bag has 3 apples. "
        "How many?\nA: Let's think step by step. Therefore, the answer (arabic numerals) is 3.",
        "18",
        "18",
        "answer_is",
        id="kojima-en-with-invented-follow-up",
    ),
    row(
        "Por lo tanto, la respuesta (números arábigos) es 18.",
        "18",
        "18",
        "answer_is",
        id="kojima-es",
    ),
    row("Donc, la réponse (en chiffres arabes) est 18.", "18", "18", "answer_is", id="kojima-fr"),
    row(
        "Daher ist die Antwort (arabische Ziffern) 18.\nDie Antwort (arabische Ziffern) ist 18.",
        "18",
        "18",
        "answer_is",
        id="kojima-de",
    ),
    row("したがって、答え（アラビア数字）は18です。", "18", "18", "answer_is", id="kojima-ja"),
]

# 6. Invented follow-ups are cut after any first stated answer, a JSON field included.
FOLLOW_UP_ROWS = [
    row(
        '{"reasoning": "9 * 2 = 18", "answer": "18"}\n\nQuestion: Answer in JSON, e.g. '
        '{"reasoning": "...", "answer": "42"}',
        "18",
        "18",
        "json",
        id="json-answer-then-echoed-prompt",
    ),
    row(
        '{"answer": "18"}\nFrage: Wie viele? {"answer": "3"}',
        "18",
        "18",
        "json",
        id="json-de-follow-up",
    ),
    row(
        '{"answer": "18"}\nPregunta: ¿Cuántos? {"answer": "3"}',
        "18",
        "18",
        "json",
        id="json-es-follow-up",
    ),
    row("答案是 18。\n问题：他有几个？答案是 3。", "18", "18", "answer_is", id="zh-follow-up"),
    row("Ответ: 18.\nЗадача: сколько? Ответ: 3.", "18", "18", "answer_is", id="ru-follow-up"),
    row("Jibu ni 18.\nSwali: ngapi? Jibu ni 3.", "18", "18", "answer_is", id="sw-follow-up"),
]

# 7. The last-number fallback skips labels, list markers and restated questions.
FALLBACK_ROWS = [
    row(
        "The rest is 40 - 24 = 16.\n16 people think that horse #12 will win the big race.",
        "16",
        "16",
        "last_number",
        id="label-hash-number-is-not-the-answer",
    ),
    row(
        "```python\nprint(30 - 5 - 20)\n```\n```output\n5\n```\n5 cars drove through the "
        "traffic jam in the first 15 minutes.",
        "5",
        "5",
        "last_number",
        id="printed-result-restated-in-closing-prose",
    ),
    row(
        "```python\nprint(80 * 75 / 2000)\n```\n```output\n3.0\n```\nThree trucks will be needed.",
        "3",
        "3",
        "last_number",
        id="printed-result-when-closing-prose-states-no-number",
    ),
    row(
        "```python\nprint(10 / 3)\n```\n```output\n3.3333333333333335\n```\nSo 4 trucks are "
        "needed.",
        "4",
        "4",
        "last_number",
        id="closing-prose-overrides-printed-result",
    ),
    row(
        "She makes 9 * 2 = 18 dollars a day. How much does she make in 7 days?",
        "18",
        "18",
        "last_number",
        id="en-closing-question-is-not-the-answer",
    ),
    row(
        "Each candy had 25 calories, so he ate 175/25 = 7 bars?",
        "7",
        "7",
        "last_number",
        id="question-that-shows-working-still-counts",
    ),
    row(
        "Sie verdient 9 * 2 = 18 Dollar am Tag. Wie viel verdient sie in 7 Tagen?",
        "18",
        "18",
        "last_number",
        id="de-closing-question-is-not-the-answer",
    ),
    row(
        "彼女は1日に18ドル稼ぎます。7日間ではいくらですか？",
        "18",
        "18",
        "last_number",
        id="ja-closing-question-is-not-the-answer",
    ),
    row(
        "Elle gagne 18 dollars par jour. Combien gagne-t-elle en 7 jours ?",
        "18",
        "18",
        "last_number",
        id="fr-closing-question-with-space-before-mark",
    ),
    row(
        "Steps:\n1. 16 - 3 - 4 = 9\n2. 9 * 2 = 18\n3. Done",
        "18",
        "18",
        "last_number",
        id="trailing-list-marker-is-not-the-answer",
    ),
    row(
        "She sells 9 eggs at $2 each.\n18.",
        "18",
        "18",
        "last_number",
        id="number-alone-on-last-line-is-not-a-list-marker",
    ),
    row(
        "The answer is 1/3 of a pound.",
        "3",
        "0.3333333333333333333333333333",
        "answer_is",
        correct=False,
        id="fraction-is-not-its-denominator",
    ),
]

# 8. Two numbers after ####.
HASH_ROWS = [
    row("#### 45,27", "45.27", "45.27", "hash_line", id="hash-decimal-comma-is-one-number"),
    row(
        "#### 45,27",
        "45",
        "45.27",
        "hash_line",
        correct=False,
        id="hash-decimal-comma-not-read-as-45",
    ),
    row("#### 45, 27", "45", None, "none", correct=False, id="hash-two-numbers-are-no-answer"),
    row("#### 16,50 €", "16.5", "16.5", "hash_line", id="hash-fr-decimal-comma"),
    row("#### 18 000", "18000", "18000", "hash_line", id="hash-ru-space-thousands"),
    row(
        "\\boxed{" + "9" * 600 + "}",
        "18",
        "9" * 600,
        "last_number",
        correct=False,
        id="boxed-contents-over-500-characters-are-not-an-answer",
    ),
]

ASIDE_ROWS = [
    # An `=` inside brackets after the stated value is an aside, not working that leads to it.
    row(
        "Shells: 9 * 2 = 18.\nANSWER: 18 (= 9 × 2)",
        "18",
        "18",
        "answer_line",
        id="aside-equals",
    ),
    row(
        "So x = 2 bags.\nThe answer is 18 (with x = 2).",
        "18",
        "18",
        "answer_is",
        id="aside-x-equals",
    ),
    row("#### 18 (x = 2)", "18", "18", "hash_line", id="aside-after-hash"),
    row("\\boxed{18 \\text{ (since } x = 2)}", "18", "18", "boxed", id="aside-in-boxed-text"),
    row("ANSWER: 18 [x = 2]", "18", "18", "answer_line", id="aside-square-brackets"),
    row("ANSWER: (9 * 2) = 18", "18", "18", "answer_line", id="bracketed-working-then-equals"),
    row("The answer is 2 + (3 * 4) = 14.", "14", "14", "answer_is", id="working-with-brackets"),
    row(
        "ANSWER: 9 * 2 = 18 (dollars)",
        "18",
        "18",
        "answer_line",
        id="working-then-unit-aside",
    ),
    row("\\boxed{-\\$18}", "-18", "-18", "boxed", id="minus-before-escaped-dollar-boxed"),
    row(
        "She lost money.\nANSWER: −\\$18",
        "-18",
        "-18",
        "answer_line",
        id="unicode-minus-escaped-dollar",
    ),
    row("\\boxed{\\$1,234}", "1234", "1234", "boxed", id="escaped-dollar-thousands"),
    row("It costs \\$5 - \\$3 = \\$2.", "2", "2", "last_number", id="escaped-dollar-subtraction"),
    row(
        "ANSWER: not 18 but 20",
        "18",
        "20",
        "answer_line",
        correct=False,
        id="negated-value-ruled-out",
    ),
    row(
        "The answer is NOT 18.",
        "18",
        None,
        "none",
        correct=False,
        id="negated-only-value-no-answer",
    ),
    row("ANSWER: 20 (not 18)", "20", "20", "answer_line", id="negated-aside-after-value"),
    row("She has not 18 but 20 apples.", "20", "20", "last_number", id="negated-in-fallback"),
]

ALL_ROWS = (
    ROWS
    + JSON_ROWS
    + REASONING_ROWS
    + LOCALE_ROWS
    + PHRASE_ROWS
    + KOJIMA_ROWS
    + FOLLOW_UP_ROWS
    + FALLBACK_ROWS
    + HASH_ROWS
    + ASIDE_ROWS
)


@pytest.mark.parametrize(
    ("completion", "target", "answer", "rule", "followed", "correct"), ALL_ROWS
)
def test_grading_table(
    completion: str, target: str, answer: str | None, rule: str, followed: bool, correct: bool
) -> None:
    extraction, is_correct = extract_and_compare(completion, target)
    assert (extraction.answer, extraction.rule, extraction.format_followed, is_correct) == (
        answer,
        rule,
        followed,
        correct,
    )


def test_truncated_output_gets_no_last_number_guess() -> None:
    cut_off = "Janet has 16 eggs. She eats 3, so 16 - 3 = 13. Then she bakes with 4, so 13"
    assert extract_answer(cut_off, truncated=True).answer is None
    assert extract_answer(cut_off, truncated=False).answer == "13"


@pytest.mark.parametrize(
    "cut_off",
    [
        pytest.param(
            '{"reasoning": "16 - 3 - 4 = 9 eggs, so the answer is 18. But the \\"muffins\\" use',
            id="en",
        ),
        pytest.param('{"razonamiento": "x", "reasoning": "La respuesta es 18, pero', id="es"),
        pytest.param('```json\n{\n  "explanation": "答案是18。但是', id="zh"),
    ],
)
def test_truncated_inside_json_reasoning_is_no_answer(cut_off: str) -> None:
    assert extract_answer(cut_off, truncated=True).answer is None
    assert extract_answer(cut_off + '", "answer": "18"}', truncated=True).answer == "18"


def test_truncated_output_with_explicit_answer_still_counts() -> None:
    extraction = extract_answer("ANSWER: 18\nBut also consider 4 more cases", truncated=True)
    assert extraction.answer == "18" and extraction.rule == "answer_line"


def test_explicit_rules_win_over_earlier_fallbacks() -> None:
    # A boxed value early on is superseded by the requested ANSWER line.
    assert extract_answer("\\boxed{17} hmm no.\nANSWER: 18").rule == "answer_line"


def test_invalid_target_is_an_error_not_a_wrong_answer() -> None:
    with pytest.raises(ValueError, match="not a number"):
        extract_and_compare("ANSWER: 18", "eighteen")
