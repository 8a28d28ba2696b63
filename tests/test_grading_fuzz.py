"""No completion can make grading slow, raise, or read an answer out of unfinished reasoning.

Random text (hypothesis) checks the invariants; the adversarial cases of
benchmarks/adversarial_completions.py check that work grows linearly with the input. Time is
measured as CPU time of this process, with bounds generous enough for a machine whose cores are
all busy: the input grows 32 times, so linear work grows about 32 times and quadratic work about
1,024 times; up to 256 times is allowed. The speed figures themselves are reported by
benchmarks/adversarial_completions.py and benchmarks/grade_speed.py, not asserted here.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from benchmarks.adversarial_completions import CASES, seconds_per_completion
from gsm8k.grading.extract import RULES, UNCLOSED_REASONING, extract_answer, split_reasoning
from gsm8k.grading.numbers import parse_gold
from gsm8k.grading.verdict import extract_and_compare

LARGE = 200_000
"""Characters in the large adversarial completion (about the longest a model emits)."""
SECONDS_PER_LARGE = 4.0
"""Most CPU time grading one LARGE completion may take (it takes about 0.05 s here)."""
GROWTH_FACTOR = 32
"""How many times larger the large input is than the small one."""
MAX_GROWTH = 256.0
"""Most the time may grow when the input grows 32 times (linear: 32; quadratic: 1,024). The
eightfold margin absorbs allocator and cache effects and a loaded machine (a 3x swing was seen
with both cores busy); quadratic work still fails by a factor of four."""
TIMER_FLOOR = 0.005
"""Times below this are timer noise; ratios are taken against at least this much."""

# Pieces real and broken outputs are made of, so random texts hit the rules' keywords.
FRAGMENTS = [
    "ANSWER:",
    "ANSWER: 18",
    "answer: $ANSWER",
    "####",
    "\\boxed{",
    "}",
    "{,}",
    "The answer is",
    "the answer (arabic numerals) is",
    '"answer": "',
    '"',
    "<answer>",
    "</answer>",
    "<think>",
    "</think>",
    "<reasoning>",
    "</reasoning>",
    "[THINK]",
    "[/THINK]",
    "Question:",
    "Q:",
    "<|im_start|>",
    "<|im_start|>think",
    "<|im_start|>answer",
    "<|im_end|>",
    "Final Answer:",
    "Answer: Janet has",
    "[think]",
    "^",
    "^{",
    "e12345",
    "\\times 10^",
    "\u200b",
    "\u0301",
    "\x00",
    ",\\!",
    "{,}",
    "Wait, ",
    "```output\n",
    "```",
    "Ответ:",
    "答案是",
    "答えは",
    "คำตอบคือ",
    "উত্তর হল",
    "Die Antwort lautet",
    "La réponse est",
    "Jibu ni",
    "A:",
    "#",
    "?",
    ".",
    ",",
    "/",
    "=",
    "-",
    "−",
    "$",
    "%",
    "e",
    "\n",
    "\n\n\n",
    " ",
    "\u00a0",
    "\u202f",
    "0",
    "18",
    "1,234",
    "18 000",
    "16,50",
    "1.596",
    "৭",
    "๑",
    "１８",
    "7" * 50,
]
texts = st.one_of(
    st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join),
    st.text(max_size=300),
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts, st.booleans())
def test_extraction_never_raises_and_reports_consistently(text: str, truncated: bool) -> None:
    extraction = extract_answer(text, truncated=truncated)
    assert extraction.rule in RULES
    assert extraction.format_followed == (extraction.rule == "answer_line")
    assert (extraction.value is None) == (extraction.rule == "none")
    if extraction.value is not None:
        # The canonical answer is a number that reads back as the same value.
        assert extraction.answer is not None
        assert parse_gold(extraction.answer) == extraction.value
    if truncated:
        assert extraction.rule != "last_number"


@settings(max_examples=200, deadline=None)
@given(texts)
@example("assistantfinal")  # a harmony final channel with nothing in it
def test_an_unclosed_reasoning_block_is_never_an_answer(text: str) -> None:
    _, _, unclosed = split_reasoning("<think>" + text)
    # A chat-template answer section or a harmony final channel ends the thinking however it was
    # opened (sections.py): with one, the block is not left open (tests/test_grading_reasoning.py).
    ends_thinking = ("<|im_start|>", "<|channel|>", "assistantfinal")
    if unclosed and not any(marker in text for marker in ends_thinking):
        extraction = extract_answer("<think>" + text)
        assert (extraction.value, extraction.note) == (None, UNCLOSED_REASONING)


@settings(max_examples=200, deadline=None)
@given(texts, texts)
def test_a_closed_reasoning_block_changes_nothing_after_it(working: str, final: str) -> None:
    if any(split_reasoning(part)[1] for part in (working, final)):
        return  # the parts themselves hold reasoning tags; nothing simple to compare
    plain = extract_answer(final)
    wrapped = extract_answer(f"<think>{working}</think>{final}")
    assert (wrapped.value, wrapped.rule, wrapped.text) == (plain.value, plain.rule, plain.text)


@settings(max_examples=100, deadline=None)
@given(st.booleans(), st.from_regex(r"[1-9][0-9]{0,6000}", fullmatch=True))
def test_numbers_of_any_length_are_read_exactly(negative: bool, digits: str) -> None:
    # Beyond 4,300 digits Python's int refuses str(); the grader must not go through int.
    number = ("-" if negative else "") + digits
    extraction, correct = extract_and_compare(f"ANSWER: {number}", number)
    assert correct and extraction.answer == number


@pytest.mark.parametrize("name", list(CASES))
def test_adversarial_completion_is_graded_in_linear_time(name: str) -> None:
    build = CASES[name]
    large = build(LARGE)
    small = build(LARGE // GROWTH_FACTOR)
    for _attempt in range(2):  # one retry: a single slow measurement on a busy machine
        time_large = seconds_per_completion(large)
        time_small = seconds_per_completion(small, repeats=3)
        growth = time_large / max(time_small, TIMER_FLOOR)
        if time_large <= SECONDS_PER_LARGE and growth <= MAX_GROWTH:
            return
    pytest.fail(
        f"{name}: {time_large:.3f} s for {LARGE:,} characters, "
        f"{growth:.1f}x for {GROWTH_FACTOR}x input"
    )


@pytest.mark.parametrize(
    "form",
    [
        pytest.param("ANSWER: {}", id="answer-line"),
        pytest.param("The answer is {}.", id="answer-is"),
        pytest.param('{{"answer": {}}}', id="json-bare"),
        pytest.param('{{"answer": "{}"}}', id="json-string"),
        pytest.param("<answer>{}</answer>", id="answer-tag"),
        pytest.param("#### {}", id="hash-line"),
        pytest.param("She has {} left.", id="last-number"),
    ],
)
@pytest.mark.parametrize("digits", [4_301, 20_000])
def test_every_rule_reads_a_huge_number_whole(form: str, digits: int) -> None:
    number = "-" + "9" * digits
    extraction, correct = extract_and_compare(form.format(number), number)
    assert correct and extraction.answer == number


def test_grading_survives_a_number_beyond_pythons_int_limit() -> None:
    huge = "9" * 5_000
    extraction, correct = extract_and_compare(f"The total is {huge} apples.", "18")
    assert extraction.answer == huge and not correct
