"""Every abnormal score says why; failures that are not the model's are unscored."""

from __future__ import annotations

import asyncio
import math
import threading
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ContentReasoning,
    ContentText,
    ModelOutput,
)
from inspect_ai.model._model_output import ChatCompletionChoice
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState
from inspect_ai.tool import ToolInfo

from gsm8k.execution.runner import ExecutionResult, Limits
from gsm8k.execution.scorer import pal_grader
from gsm8k.grading import reasons
from gsm8k.grading.scorer import OFF_LOOP_CHARACTERS, gsm8k_grader, score_output
from gsm8k.metrics.reducers import majority_answer
from gsm8k.task import gsm8k
from tests.scripted import last_user_text, mock_model, run_eval

FAST = Limits(timeout_seconds=3.0, cpu_seconds=1, memory_mb=256)


def output(text: str, stop_reason: str = "stop", error: str | None = None) -> ModelOutput:
    made = ModelOutput.from_content(model="m", content=text, stop_reason=stop_reason)  # type: ignore[arg-type]
    made.error = error
    return made


def reasoning_only(stop_reason: str) -> ModelOutput:
    message = ChatMessageAssistant(
        content=[ContentReasoning(reasoning="16 - 3 - 4 = 9, times 2 is"), ContentText(text="")]
    )
    return ModelOutput(
        model="m",
        choices=[ChatCompletionChoice(message=message, stop_reason=stop_reason)],  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("made", "reason", "accuracy"),
    [
        pytest.param(output("9 * 2 = 18\nANSWER: 18"), None, 1.0, id="answer-as-asked"),
        pytest.param(output("So she makes $18 every day."), reasons.INVALID_RESPONSE_FORMAT, 1.0, id="right-but-no-answer-line"),
        pytest.param(output("I am not sure how to solve this."), reasons.INVALID_RESPONSE_FORMAT, 0.0, id="text-with-no-number"),
        pytest.param(output(""), reasons.NO_RESPONSE, 0.0, id="empty"),
        pytest.param(output(" \n\u200b "), reasons.NO_RESPONSE, 0.0, id="whitespace-and-zero-width"),
        pytest.param(output("She sells 16 - 3 - 4 = 9 eggs, so 9 *", "max_tokens"), reasons.TRUNCATED, 0.0, id="cut-at-max-tokens"),
        pytest.param(output("ANSWER: 18", "model_length"), reasons.TRUNCATED, 1.0, id="cut-at-context-after-answer"),
        pytest.param(reasoning_only("max_tokens"), reasons.TRUNCATED, 0.0, id="cut-off-while-reasoning"),
        pytest.param(reasoning_only("stop"), reasons.NO_RESPONSE, 0.0, id="reasoning-only"),
        pytest.param(output("", "content_filter", "flagged"), reasons.REFUSAL, 0.0, id="content-filter"),
    ],
)  # fmt: skip
def test_model_failures_are_scored_with_their_reason(
    made: ModelOutput, reason: str | None, accuracy: float
) -> None:
    score = score_output(made, "18")
    assert score.reason == reason
    assert isinstance(score.value, dict) and score.value["accuracy"] == accuracy
    assert reason is None or reason in reasons.MODEL_FAILURES


def _is_unscored(score: Score) -> bool:
    return isinstance(score.value, float) and math.isnan(score.value)


@pytest.mark.parametrize(
    "made",
    [
        pytest.param(output("", "unknown", "llama.cpp: decode failed"), id="error-no-text"),
        pytest.param(ModelOutput(model="m", choices=[], error="connection reset"), id="no-choices"),
    ],
)
def test_an_engine_error_is_unscored(made: ModelOutput) -> None:
    score = score_output(made, "18")
    assert _is_unscored(score) and score.reason == reasons.ENGINE_ERROR
    assert "engine returned an error" in (score.explanation or "")


def test_a_grading_failure_is_counted_wrong_with_its_reason() -> None:
    score = score_output(output("ANSWER: 18"), "eighteen")  # an unusable gold answer
    assert isinstance(score.value, dict) and score.value["accuracy"] == 0.0
    assert score.reason == reasons.SCORING_FAILED and "ValueError" in (score.explanation or "")


def _pal(completion: str, **runner: Any) -> Score:
    state = TaskState(model="m", sample_id="s", epoch=1, input="", messages=[])
    state.output = output(completion)
    return asyncio.run(pal_grader(FAST)(state, Target("18")))


PROGRAM = "```python\ndef solution():\n    return {}\n```"


@pytest.mark.parametrize(
    ("completion", "reason", "status"),
    [
        pytest.param(PROGRAM.format("(16 - 3 - 4) * 2"), None, "ok", id="program-runs"),
        pytest.param(PROGRAM.format("1 / 0"), reasons.PROGRAM_FAILED, "error", id="program-raises"),
        pytest.param("The answer is 18.", reasons.INVALID_RESPONSE_FORMAT, "no_program", id="no-program-block"),
        pytest.param("", reasons.NO_RESPONSE, "no_program", id="empty"),
    ],
)  # fmt: skip
def test_program_scores_say_why(completion: str, reason: str | None, status: str) -> None:
    score = _pal(completion)
    assert score.reason == reason and (score.metadata or {})["status"] == status


def test_a_sandbox_that_cannot_start_is_unscored(monkeypatch: pytest.MonkeyPatch) -> None:
    async def unavailable(*args: Any) -> ExecutionResult:
        return ExecutionResult("sandbox_unavailable", None, "could not start: EAGAIN", "", 0.0)

    monkeypatch.setattr("gsm8k.execution.scorer.run_model_code", unavailable)
    score = _pal(PROGRAM.format("18"))
    assert _is_unscored(score) and score.reason == reasons.SANDBOX_UNAVAILABLE
    assert "EAGAIN" in (score.explanation or "")


def test_majority_vote_skips_unscored_epochs() -> None:
    scored = score_output(output("ANSWER: 18"), "18")
    wrong = score_output(output("ANSWER: 17"), "18")
    lost = score_output(ModelOutput(model="m", choices=[], error="reset"), "18")
    reduced = majority_answer()([lost, wrong, lost, scored, scored])
    assert isinstance(reduced.value, dict) and reduced.value["accuracy"] == 1.0
    assert reduced.value["no_answer"] == 0.0  # averaged over the three scored epochs only
    all_lost = majority_answer()([lost, lost])
    assert _is_unscored(all_lost) and all_lost.reason == reasons.ENGINE_ERROR


def _graded(completion: str, target: str = "18") -> Score:
    """gsm8k_grader's whole score, match(numeric=True)'s verdict included."""
    state = TaskState(model="m", sample_id="s", epoch=1, input="", messages=[])
    state.output = output(completion)
    return asyncio.run(gsm8k_grader()(state, Target(target)))


def test_match_votes_on_its_own_answers() -> None:
    # The grader reads the ANSWER line (18, right); match(numeric=True) reads the last number.
    late = _graded("ANSWER: 18\nThat is 9 eggs a day at $2 each, within 5 minutes.")
    right = _graded("ANSWER: 18")
    assert late.value["match"] == 0.0 and (late.metadata or {})["match_answer"] == "5"  # type: ignore[index]
    reduced = majority_answer()([late, late, right])
    assert isinstance(reduced.value, dict)
    assert reduced.value["accuracy"] == 1.0  # 18 by three votes
    assert reduced.value["match"] == 0.0  # match read 5 twice, 18 once
    assert majority_answer()([late, right, right]).value["match"] == 1.0  # type: ignore[index]


def test_match_on_a_long_completion_runs_off_the_event_loop() -> None:
    # Inspect's match is quadratic in a run of '-' (a million take seconds): a flood must not
    # hold the loop that runs the other samples. Short completions stay on the loop.
    threads: list[int] = []

    @scorer(metrics=[])
    def where() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            threads.append(threading.get_ident())
            return Score(value="C", answer="18")

        return score

    async def grade(completion: str) -> Score:
        state = TaskState(model="m", sample_id="s", epoch=1, input="", messages=[])
        state.output = output(completion)
        return await gsm8k_grader(beside=where())(state, Target("18"))

    async def both() -> tuple[Score, Score]:
        return await grade("ANSWER: 18"), await grade("-" * (OFF_LOOP_CHARACTERS + 1))

    loop_thread = threading.get_ident()
    short, flood = asyncio.run(both())
    assert threads[0] == loop_thread and threads[1] != loop_thread
    assert short.value["match"] == flood.value["match"] == 1.0  # type: ignore[index]


def test_a_failing_comparison_scorer_counts_as_no_match() -> None:
    @scorer(metrics=[])
    def broken() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            raise RuntimeError("boom")

        return score

    state = TaskState(model="m", sample_id="s", epoch=1, input="", messages=[])
    state.output = output("ANSWER: 18")
    graded = asyncio.run(gsm8k_grader(beside=broken())(state, Target("18")))
    assert graded.value["accuracy"] == 1.0 and graded.value["match"] == 0.0  # type: ignore[index]
    assert "RuntimeError: boom" in (graded.metadata or {})["match_error"]


def test_an_unscored_sample_is_out_of_match_too() -> None:
    state = TaskState(model="m", sample_id="s", epoch=1, input="", messages=[])
    state.output = ModelOutput(model="m", choices=[], error="connection reset")
    assert _is_unscored(asyncio.run(gsm8k_grader()(state, Target("18"))))


def _flaky_model() -> Any:
    """Right on every question but the robe question, where the engine fails."""

    def respond(messages: list[ChatMessage], tools: list[ToolInfo]) -> ModelOutput:
        prompt = last_user_text(messages)
        if "robe" in prompt:
            return output("", "unknown", "engine went away")  # Inspect needs one choice
        if "Janet" in prompt:
            return output("She makes $18.")  # right, but no ANSWER: line
        return output("ANSWER: 0")

    return mock_model(respond, "flaky")


@pytest.mark.slow
def test_the_log_says_how_many_were_left_out(mini_data: Path) -> None:
    log = run_eval(gsm8k(dataset=str(mini_data), fewshot=0), _flaky_model(), limit=3)
    assert log.status == "success", log.error
    headline = next(s for s in log.results.scores if s.name == "accuracy")
    assert headline.scorer == "gsm8k_grader"
    assert (headline.scored_samples, headline.unscored_samples) == (2, 1)
    assert headline.metrics["accuracy"].value == 0.5  # 1 of the 2 scored, not 1 of 3
    matched = next(s for s in log.results.scores if s.name == "match")  # out of match's too
    assert (matched.scored_samples, matched.unscored_samples) == (2, 1)
    by_id = {s.id: s.scores["gsm8k_grader"] for s in log.samples}
    assert by_id[1].reason == reasons.ENGINE_ERROR
    assert by_id[0].reason == reasons.INVALID_RESPONSE_FORMAT


def test_compare_leaves_an_unscored_sample_out_and_calls_the_run_incomplete(
    mini_data: Path, tmp_path: Path
) -> None:
    from gsm8k.compare.runs import read_runs

    run_eval(
        gsm8k(dataset=str(mini_data), fewshot=0), _flaky_model(), limit=3, log_dir=str(tmp_path)
    )
    [run] = read_runs(tmp_path).runs
    assert run.missing == [1] and not run.complete  # the engine error: retry it
    assert sorted(run.samples) == [0, 2]


def test_a_reply_the_generate_guard_ended_is_scored_not_left_out() -> None:
    ended = output("", "unknown", "the model's reply had no choices")  # as the guard leaves it
    assert _is_unscored(score_output(ended, "18"))
    score = score_output(ended, "18", guarded=True)
    assert isinstance(score.value, dict) and score.value["accuracy"] == 0.0
    assert score.reason == reasons.NO_RESPONSE


@pytest.mark.slow
def test_compare_gives_the_command_that_runs_unscored_samples_again(
    mini_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """eval-retry keeps an unscored sample as it is (it is no error): the report gives the
    ``inspect eval`` that runs it again, and a run of it completes the run."""
    import shlex

    from gsm8k.compare.cli import main as compare_main
    from gsm8k.compare.runs import read_runs

    task = gsm8k(dataset=str(mini_data), fewshot=0)
    run_eval(task, _flaky_model(), limit=3, log_dir=str(tmp_path), temperature=0.0)
    compare_main([str(tmp_path)])
    report = capsys.readouterr().out
    entry = next(line for line in report.splitlines() if line.startswith("> - mockllm/flaky"))
    assert "Complete it with" not in entry  # no failed sample: eval-retry would do nothing
    assert "1 sample(s) left unscored by an engine or sandbox failure" in entry
    command = entry.rsplit("`", 2)[-2]
    words = shlex.split(command)
    assert Path(words[0]).name == "inspect" and words[1] == "eval" and "--model" in words
    assert words[words.index("--sample-id") + 1] == "1"
    assert words[words.index("--log-dir") + 1] == str(tmp_path)
    assert "fewshot=0" in words and words[words.index("--temperature") + 1] == "0.0"
    # What that command runs: the same task, model and options on sample 1, into the folder.
    run_eval(
        gsm8k(dataset=str(mini_data), fewshot=0),
        mock_model(lambda messages, tools: output("ANSWER: 5"), "flaky"),
        sample_id=[1],
        log_dir=str(tmp_path),
        temperature=0.0,
    )
    [run] = read_runs(tmp_path).runs
    assert run.complete and sorted(run.samples) == [0, 1, 2]
