"""GSM-Plus golds: unanswerable items, fractions and rounded decimals; MGSM answer phrases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gsm8k.data.family.sources import MGSM_LANGUAGES
from gsm8k.grading.golds import declares_unanswerable
from gsm8k.grading.scorer import explain, score_values
from gsm8k.grading.verdict import extract_and_compare
from tests.conftest import REAL_DATA_DIR


@pytest.mark.parametrize(
    ("completion", "correct"),
    [
        ("We do not know how many eggs she eats.\nANSWER: NONE", True),
        ("ANSWER: none", True),
        ("**ANSWER:** N/A", True),
        ("ANSWER: cannot be determined", True),
        ("ANSWER: The question does not give enough information", True),
        ("The number of eggs is not given, so the answer cannot be determined.", True),
        ("There is not enough information to answer this question.", True),
        ("She makes 9 * 2 = 18 dollars.\nANSWER: 18", False),
        ("It cannot be determined at first, but 9 * 2 = 18.\nANSWER: 18", False),
        ("It cannot be determined exactly. The answer is 18.", False),
        ("She makes 18 dollars.", False),
        ("", False),
        ("ANSWER: NONE\nWait, actually 9 * 2 = 18.\nANSWER: 18", False),
        ("ANSWER: 18\nOn reflection the question lacks a number.\nANSWER: NONE", True),
    ],
)
def test_unanswerable_target(completion: str, correct: bool) -> None:
    extraction, verdict = extract_and_compare(completion, "NONE")
    assert verdict is correct
    if correct:
        assert extraction.answer == "NONE"
        assert score_values(extraction, verdict, False)["no_answer"] == 0.0


@pytest.mark.parametrize(
    "completion",
    ["9 * 2 = 18\nANSWER: NONE", "ANSWER: unknown", "Hmm.\nANSWER: cannot be determined"],
)
def test_saying_none_to_an_answerable_question_is_wrong(completion: str) -> None:
    extraction, correct = extract_and_compare(completion, "18")
    assert not correct
    assert extraction.answer == "NONE"


def test_a_declared_none_is_explained_as_an_answer() -> None:
    extraction, correct = extract_and_compare("Eggs eaten are not given.\nANSWER: NONE", "NONE")
    assert extraction.rule == "answer_line" and extraction.format_followed
    assert explain(extraction, "NONE", correct, False).startswith("Answer NONE via rule")
    prose, _ = extract_and_compare("The question cannot be answered without the price.", "NONE")
    assert prose.rule == "answer_is" and not prose.format_followed


def test_prose_that_mentions_none_does_not_declare() -> None:
    assert declares_unanswerable("None of the eggs are left over, so she sells 9.") is None
    assert declares_unanswerable("ANSWER: 18 (none left over)") is None
    assert extract_and_compare("None of the eggs are wasted.\nANSWER: 18", "18")[1]


@pytest.mark.parametrize(
    ("completion", "target", "correct"),
    [
        ("ANSWER: 0.4", "2/5", True),
        ("ANSWER: 2/5", "2/5", True),
        ("ANSWER: \\frac{2}{5}", "2/5", True),
        ("ANSWER: 40%", "2/5", False),
        ("ANSWER: 0.41", "2/5", False),
        ("ANSWER: 1/3", "1/3", True),
        ("ANSWER: 0.333333", "1/3", True),
        ("ANSWER: 0.33", "1/3", False),
        ("ANSWER: 4.33", "4.33", True),
        ("ANSWER: 4.333", "4.33", True),
        ("ANSWER: 13/3", "4.33", True),
        ("ANSWER: 4.3", "4.33", False),
        ("ANSWER: 4.34", "4.33", False),
        ("ANSWER: 4", "4.33", False),
        ("ANSWER: 33.333", "33.33", True),
        ("ANSWER: 3.5", "3.5", True),
        ("ANSWER: 3.54", "3.5", False),
        ("ANSWER: 7/2", "3.5", True),
        ("no number at all", "2/5", False),
        ("ANSWER: -0.25", "-1/4", True),
    ],
)
def test_fraction_and_decimal_targets(completion: str, target: str, correct: bool) -> None:
    assert extract_and_compare(completion, target)[1] is correct


@pytest.mark.parametrize("target", ["NONE", "2/5", "4.33", "18"])
def test_hostile_outputs(target: str) -> None:
    huge = "9" * 5000
    for completion in (
        f"ANSWER: {huge}",
        f"ANSWER: {huge}.333",
        "\n" * 100_000 + "ANSWER: NONE",
        "cannot " * 20_000,
        "does not give " + "x" * 100_000 + " information",
    ):
        assert isinstance(extract_and_compare(completion, target)[1], bool)
    assert extract_and_compare("\n" * 100_000 + "ANSWER: NONE", "NONE")[1]


def test_integer_targets_are_unchanged() -> None:
    assert extract_and_compare("ANSWER: 18", "18")[1]
    assert not extract_and_compare("ANSWER: 18.4", "18")[1]
    assert not extract_and_compare("ANSWER: 123459", "123456")[1]


# MGSM: an output in the style of each language's exemplars, ending with its answer phrase.
MGSM_OUTPUTS = {
    "en": "Ann has 12 - 5 = 7 apples left. The answer is 7.",
    "de": "Anna hat 12 - 5 = 7 Äpfel übrig. Die Antwort ist 7.",
    "es": "Ana tiene 12 - 5 = 7 manzanas. La respuesta es 7.",
    "fr": "Anne a 12 - 5 = 7 pommes. La réponse est 7.",
    "ru": "У Анны осталось 12 - 5 = 7 яблок. Ответ — 7.",
    "ja": "アンは12 - 5 = 7個のりんごを持っています。答えは7です。",
    "zh": "安有 12 - 5 = 7 个苹果。答案是 7。",
    "bn": "আনার কাছে 12 - 5 = 7টি আপেল আছে। উত্তর হল 7।",
    "th": "แอนมีแอปเปิล 12 - 5 = 7 ลูก คำตอบคือ 7",
    "te": "ఆన్ వద్ద 12 - 5 = 7 ఆపిల్స్ ఉన్నాయి. సమాధానం 7.",
    "sw": "Ana ana tufaha 12 - 5 = 7. Jibu ni 7.",
}


def test_every_mgsm_language_is_covered() -> None:
    assert sorted(MGSM_OUTPUTS) == sorted(MGSM_LANGUAGES)


@pytest.mark.parametrize("language", MGSM_LANGUAGES)
def test_mgsm_answer_phrase_grades(language: str) -> None:
    output = MGSM_OUTPUTS[language]
    assert extract_and_compare(output, "7")[1], language
    assert not extract_and_compare(output, "12")[1], language


@pytest.mark.parametrize("language", MGSM_LANGUAGES)
def test_mgsm_answer_phrase_before_an_aside(language: str) -> None:
    """The phrase, not the last number, states the answer when the model adds a remark."""
    output = MGSM_OUTPUTS[language] + "\n(12 - 5 = 7; 5 + 7 = 12)"
    assert extract_and_compare(output, "7")[1], language


@pytest.mark.skipif(not REAL_DATA_DIR, reason="GSM8K_DATA_DIR is not set")
def test_real_mgsm_exemplar_answers_grade_correctly() -> None:
    """MGSM's own 88 worked answers (8 per language) grade as correct against their numbers."""
    assert REAL_DATA_DIR
    path = Path(REAL_DATA_DIR).resolve().parent / "mgsm" / "train.jsonl"
    if not path.is_file():
        pytest.skip("no local MGSM copy beside GSM8K_DATA_DIR")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 88
    wrong = [
        (row["language"], row["index"])
        for row in rows
        if not extract_and_compare(row["answer"], str(row["answer_number"]))[1]
    ]
    assert wrong == []


@pytest.mark.parametrize(
    "completion",
    [
        "<think>\nAnswer: none so far.\n</think>\nThe answer is 18.",
        "Okay so 9*2.\nAnswer: unknown until I compute.\n</think>\n**Final Answer**\n\\boxed{18}",
        "Answer: N/A (see below)\n\nWe get 9*2 = 18.\n\n\\boxed{18}",
        "<think>\nANSWER: NONE?\nNo, 9 * 2 = 18.\n</think>\nANSWER: 18",
    ],
)
def test_an_earlier_none_does_not_decide_a_numeric_item(completion: str) -> None:
    """Only the final answer outside reasoning counts; a passing `Answer: none` is working."""
    extraction, correct = extract_and_compare(completion, "18")
    assert correct and extraction.answer == "18"


@pytest.mark.parametrize(
    "completion",
    [
        "<think>It cannot be determined... wait, it can: 9*2=18.</think>\nShe has 18 apples.",
        "At first it seems it cannot be determined, but 9*2 = 18.\nShe has 18 apples.",
        "The store does not give enough information about how many. Assuming 3 bags, she has 18.",
        "ANSWER: NONE\n\nActually the answer is 18.",
        "<think>\nThe price is missing.\nANSWER: NONE\n</think>\nShe pays 18 dollars.",
    ],
)
def test_a_passing_none_then_a_number_is_not_a_declaration(completion: str) -> None:
    extraction, correct = extract_and_compare(completion, "NONE")
    assert not correct and extraction.answer == "18"


def test_a_final_none_after_reasoning_still_counts() -> None:
    completion = "<think>Maybe ANSWER: 18? No, the price is never given.</think>\nANSWER: NONE"
    assert extract_and_compare(completion, "NONE")[1]
    assert declares_unanswerable("<think>unclosed, cannot be determined") is None
