"""The scorer on whole model outputs: reasoning parts, stop reasons, and failures while grading."""

from __future__ import annotations

import pytest
from inspect_ai.model import ChatMessageAssistant, ContentReasoning, ContentText, ModelOutput

import gsm8k.grading.scorer
from gsm8k.grading.scorer import ACCURACY, NO_ANSWER, TRUNCATED, score_output


def output(*parts: ContentReasoning | ContentText, stop_reason: str = "stop") -> ModelOutput:
    message = ChatMessageAssistant(content=list(parts), model="reasoner")
    return ModelOutput.from_message(message, stop_reason=stop_reason)  # type: ignore[arg-type]


def test_reasoning_parts_are_never_read_as_the_answer() -> None:
    score = score_output(
        output(
            ContentReasoning(reasoning="So the answer is 56. ANSWER: 56"),
            ContentText(text="She makes 9 * 2 = 18 dollars.\nANSWER: 18"),
        ),
        "18",
    )
    assert score.value[ACCURACY] == 1.0  # type: ignore[index]
    assert score.metadata is not None and score.metadata["reasoning"] is True
    assert score.answer == "18"


def test_cut_off_while_reasoning_is_no_answer_and_says_why() -> None:
    score = score_output(
        output(
            ContentReasoning(reasoning="16 - 3 - 4 = 9, the answer is 18"), stop_reason="max_tokens"
        ),
        "18",
    )
    assert score.value == {
        "accuracy": 0.0,
        "strict_accuracy": 0.0,
        "format_followed": 0.0,
        "no_answer": 1.0,
        "truncated": 1.0,
    }
    assert score.metadata is not None
    assert score.metadata["note"] == "only reasoning, no final answer (cut off while reasoning)"
    assert "cut off while reasoning" in (score.explanation or "")


@pytest.mark.parametrize("stop_reason", ["max_tokens", "stop"])
def test_an_unclosed_think_block_in_the_text_is_no_answer(stop_reason: str) -> None:
    truncated = ModelOutput.from_content(
        "reasoner",
        "<think>\n16 - 3 - 4 = 9 eggs; 9 * 2 = 18, so the answer is 18",
        stop_reason=stop_reason,  # type: ignore[arg-type]
    )
    score = score_output(truncated, "18")
    assert score.value[ACCURACY] == 0.0 and score.value[NO_ANSWER] == 1.0  # type: ignore[index]
    assert score.value[TRUNCATED] == float(stop_reason == "max_tokens")  # type: ignore[index]
    assert "reasoning block never closed" in (score.explanation or "")


def test_a_failure_while_grading_is_that_samples_scored_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(completion: str, target: str, truncated: bool = False) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(gsm8k.grading.scorer, "extract_and_compare", broken)
    score = score_output(ModelOutput.from_content("m", "ANSWER: 18"), "18")
    assert score.value[ACCURACY] == 0.0 and score.value[NO_ANSWER] == 1.0  # type: ignore[index]
    assert score.metadata is not None
    assert (
        score.metadata["error"]
        == "grading failed: RecursionError: maximum recursion depth exceeded"
    )
    assert (score.explanation or "").startswith("Not graded, counted as no answer: grading failed")
    assert score.reason == "scoring_failed"


def test_a_bad_gold_fails_its_sample_with_the_reason_not_the_run() -> None:
    score = score_output(ModelOutput.from_content("m", "ANSWER: 18"), "eighteen")
    assert score.metadata is not None and "is not a number" in score.metadata["error"]


def test_explanations_quote_at_most_a_clip_of_a_huge_number() -> None:
    score = score_output(ModelOutput.from_content("m", "ANSWER: " + "9" * 100_000), "18")
    assert score.answer == "9" * 100_000  # the answer itself is exact
    assert len(score.explanation or "") < 1_000
