"""The exact GSM8K grader as an Inspect scorer, with format, no-answer and truncation rates.

Every value that is aggregated lives in ``Score.value`` (a dict), so each survives epoch
reduction: the two accuracies have their own scores in the log with an interval, the rates beside
them are one ``rates`` metric; what is only for reading (the rule that fired) lives in metadata.
Inspect's ``match(numeric=True)`` verdict rides in the same score as its ``match`` value (the log's
``match`` entry, as in inspect_evals' gsm8k): one scorer entry carries both verdicts, which costs
Inspect's per-sample scoring machinery once instead of twice.
Grading one sample never raises: an abnormal output is scored with its reason (``Score.reason``),
a failure that is not the model's is unscored with its reason, and the run goes on.
"""

from __future__ import annotations

import asyncio

from inspect_ai.model import ModelOutput
from inspect_ai.scorer import (
    CORRECT,
    Score,
    Scorer,
    Target,
    accuracy,
    match,
    scorer,
    stderr,
)
from inspect_ai.solver import TaskState

from gsm8k.grading import reasons
from gsm8k.grading.extract import Extraction
from gsm8k.grading.limits import limit_reached
from gsm8k.grading.reasons import (
    GUARD_KEY,
    MCP_FAILURE_KEY,
    TRUNCATION_STOP_REASONS,
    engine_error,
    is_blank,
)
from gsm8k.grading.verdict import extract_and_compare
from gsm8k.metrics.intervals import question_stderr, wilson_ci
from gsm8k.metrics.keys import (
    ACCURACY,
    FORMAT_FOLLOWED,
    MATCH,
    MATCH_ANSWER,
    NO_ANSWER,
    STRICT_ACCURACY,
    TRUNCATED,
)
from gsm8k.metrics.rates import rates


def score_values(extraction: Extraction, correct: bool, truncated: bool) -> dict[str, float]:
    """The per-sample values behind the grader's metrics."""
    return {
        ACCURACY: float(correct),
        STRICT_ACCURACY: float(correct and extraction.format_followed),
        FORMAT_FOLLOWED: float(extraction.format_followed),
        NO_ANSWER: float(extraction.answer is None),
        TRUNCATED: float(truncated),
    }


OFF_LOOP_CHARACTERS = 20_000
"""Completions longer than this are graded in a worker thread rather than on the event loop."""


@scorer(
    metrics=[
        {
            ACCURACY: [accuracy(), stderr(), question_stderr(), wilson_ci()],
            STRICT_ACCURACY: [accuracy(), stderr(), question_stderr(), wilson_ci()],
            # The metrics inspect_evals' gsm8k reports for its match scorer.
            MATCH: [accuracy(), stderr()],
        },
        # One pass for the plain rates, not a copy of every score per key (gsm8k.metrics.rates).
        rates([FORMAT_FOLLOWED, NO_ANSWER, TRUNCATED]),
    ]
)
def gsm8k_grader(beside: Scorer | None = None) -> Scorer:
    """Grade the final answer exactly: documented extraction rules, no rounding of integers.

    Per sample it reports the extracted answer, the rule that found it, whether the requested
    ``ANSWER:`` format was followed, and whether the output was cut off at the token limit.

    Args:
        beside: The comparability scorer whose verdict is the ``match`` value (its answer is
            ``match_answer`` in metadata): Inspect's ``match(numeric=True)`` when unset, and the
            log records it when given. It reads the state only: for a completion over
            ``OFF_LOOP_CHARACTERS`` it runs on an event loop of its own in a worker thread.
    """
    comparable = beside if beside is not None else match(numeric=True)

    async def score(state: TaskState, target: Target) -> Score:
        graded = await grade(state, target)
        if not isinstance(graded.value, dict):  # unscored: out of every accuracy, match's too
            return graded
        metadata = graded.metadata if graded.metadata is not None else {}
        try:
            if len(state.output.completion) > OFF_LOOP_CHARACTERS:
                # Inspect's match is quadratic in a run of sign characters (a million '-' take
                # 11 s): in a worker thread with its own loop, the run's other samples go on.
                verdict = await asyncio.to_thread(asyncio.run, comparable(state, target))
            else:
                verdict = await comparable(state, target)
        except Exception as error:  # one sample's failure must not end the run
            verdict = None
            metadata["match_error"] = f"{type(error).__name__}: {_clip(str(error))}"
        graded.value[MATCH] = float(verdict is not None and verdict.value == CORRECT)
        metadata[MATCH_ANSWER] = verdict.answer if verdict is not None else None
        graded.metadata = metadata
        return graded

    async def grade(state: TaskState, target: Target) -> Score:
        if MCP_FAILURE_KEY in state.metadata:  # the MCP server failed the sample, not the model
            failure = str(state.metadata[MCP_FAILURE_KEY])
            explanation = f"Not scored: {failure}."
            return Score.unscored(reason=reasons.MCP_SERVER_FAILED, explanation=explanation)
        # A sample the guard ended, or one a limit ended, is the model's scored failure even
        # when its output looks like an engine's error (see gsm8k.grading.limits).
        guarded = GUARD_KEY in state.metadata or limit_reached() is not None
        if len(state.output.completion) > OFF_LOOP_CHARACTERS:
            # Grading is linear but a long flood still takes CPU time: off the event loop, the
            # other samples of the run go on meanwhile.
            return await asyncio.to_thread(
                score_output, state.output, target.text, guarded, state.input_text
            )
        return score_output(state.output, target.text, guarded=guarded, question=state.input_text)

    return score


def score_output(
    output: ModelOutput, target: str, guarded: bool = False, question: str | None = None
) -> Score:
    """Grade one model output; any failure becomes this sample's score, never a raise.

    The text graded is ``output.completion``, which Inspect builds from the message's text parts
    only: reasoning parts (``ContentReasoning``) are never read as an answer, and inline
    ``<think>`` blocks are removed by the extractor. An abnormal score says why in
    ``Score.reason`` (:mod:`gsm8k.grading.reasons`); an engine error is unscored, left out of
    the accuracy rather than counted wrong. ``guarded``: the task's generate guard ended the sample
    (an empty reply, a flood of tool calls) and made its output a scored failure on purpose.
    ``question``: the sample's question (``state.input_text``), so that a number the completion
    copies from it is not read as its answer.
    """
    failed_engine = None if guarded else engine_error(output)
    if failed_engine is not None:
        return Score.unscored(
            reason=reasons.ENGINE_ERROR,
            explanation=f"Not scored: the engine returned an error, not a completion: "
            f"{_clip(failed_engine)}",
            metadata={"error": _clip(failed_engine)},
        )
    truncated = stop_reason(output) in TRUNCATION_STOP_REASONS
    reasoning = has_reasoning_parts(output)
    try:
        extraction, correct = extract_and_compare(output.completion, target, truncated, question)
    except Exception as error:  # one sample's failure must not end the run
        # Counted wrong, not left out: the text that broke the grader is the model's, and a
        # model must not be able to take its own outputs out of the accuracy.
        failure = f"grading failed: {type(error).__name__}: {_clip(str(error))}"
        return Score(
            value={
                ACCURACY: 0.0,
                STRICT_ACCURACY: 0.0,
                FORMAT_FOLLOWED: 0.0,
                NO_ANSWER: 1.0,
                TRUNCATED: float(truncated),
            },
            answer=None,
            reason=reasons.SCORING_FAILED,
            explanation=f"Not graded, counted as no answer: {failure} (target {_clip(target)}).",
            metadata={"rule": "none", "error": failure, "truncated": truncated},
        )
    note = extraction.note
    if reasoning and not output.completion.strip():
        note = "only reasoning, no final answer" + (
            " (cut off while reasoning)" if truncated else ""
        )
    return Score(
        value=score_values(extraction, correct, truncated),
        answer=extraction.answer,
        explanation=explain(extraction, target, correct, truncated, note),
        reason=abnormal_reason(output, extraction, truncated),
        metadata={
            "rule": extraction.rule,
            "format_followed": extraction.format_followed,
            "truncated": truncated,
            "matched_text": _clip(extraction.text),
            "note": note,
            "reasoning": reasoning,
        },
    )


def abnormal_reason(output: ModelOutput, extraction: Extraction, truncated: bool) -> str | None:
    """Why a scored output is abnormal, the cause first: ``None`` for an answer given as asked.

    A cut-off output is ``truncated`` whatever else is wrong with it (the missing answer line
    follows from the cut); a correct answer outside the ``ANSWER:`` line is still
    ``invalid_response_format`` (it fails ``strict_accuracy``).
    """
    if stop_reason(output) == "content_filter":
        return reasons.REFUSAL
    if truncated:
        return reasons.TRUNCATED
    if is_blank(output.completion):
        return reasons.NO_RESPONSE
    if extraction.answer is None or not extraction.format_followed:
        return reasons.INVALID_RESPONSE_FORMAT
    return None


def stop_reason(output: ModelOutput) -> str | None:
    """The output's stop reason; ``None`` for an output with no choices (Inspect's placeholder
    when a limit ended the sample before any reply, graded as an empty completion)."""
    return output.choices[0].stop_reason if output.choices else None


def has_reasoning_parts(output: ModelOutput) -> bool:
    """Whether the model returned reasoning as separate ``ContentReasoning`` parts."""
    if not output.choices:
        return False
    content = output.message.content
    return not isinstance(content, str) and any(part.type == "reasoning" for part in content)


def explain(
    extraction: Extraction, target: str, correct: bool, truncated: bool, note: str = ""
) -> str:
    """One readable sentence for ``inspect view``."""
    cut = " Output was truncated at the token limit." if truncated else ""
    why = f" ({note})" if note and extraction.answer is None else ""
    if extraction.answer is None:
        return f"No answer found{why} (target {target}).{cut}"
    verdict = "correct" if correct else "incorrect"
    return (
        f"Answer {_clip(extraction.answer or '')} via rule '{extraction.rule}' from "
        f"{_clip(extraction.text)!r}: {verdict} (target {target}).{cut}"
    )


_CLIP = 200
"""Longest text quoted in an explanation (a completion may hold a 100,000-digit number)."""


def _clip(text: str) -> str:
    return text if len(text) <= _CLIP else f"{text[:_CLIP]}… ({len(text):,} characters)"
