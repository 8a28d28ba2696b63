"""Invented follow-ups: a new question, a turn marker or a practice problem the model writes after
its answer is no reasoning towards the sample's answer, and is cut off (docs/grading.md)."""

from __future__ import annotations

import re

from gsm8k.grading.phrases import ANSWER_PHRASES
from gsm8k.grading.rules import ANSWER_LABEL
from gsm8k.grading.sections import FOLLOW_UP, PRACTICE

# The first explicit answer mark, after which a follow-up is invented.
EXPLICIT_ANSWER = re.compile(
    # `#### 18` states an answer; `#### Cost of Bread` and `#### 1. Cost` are headings.
    rf"{ANSWER_LABEL}|####[ \t*_$\\]*[-−]?\d(?!\d?[.)][ \t]+[^\W\d_])"
    # `\\boxed{}` named as the format (`put the answer in \\boxed{}`) states no answer.
    r"|\\boxed[ \t]*\{(?![ \t]*(?:\}|(?:answer|number|\.\.\.|…)[ \t]*\}))"
    r"|[\"'](?:final[_ ])?answer[\"'][ \t]*:"
    # An answer phrase counts only with a number close after it: a bare answer word (`উত্তর`,
    # which needs no colon) in the working is not a stated answer.
    rf"|<answer>|(?:{ANSWER_PHRASES})[^\n\d]{{0,20}}\d",
    re.IGNORECASE | re.MULTILINE,
)


def cut_continuation(completion: str, question: str | None = None) -> str:
    """Drop an invented follow-up question that starts after the first explicit answer (or a
    practice problem after worked text with no mark).

    A "follow-up" that is the sample's own question is not invented: what came before it was an
    echoed example (a few-shot exemplar copied back with its answer), and the model's answer to
    the sample follows it.
    """
    opening = " ".join((question or "").split())[:_QUESTION_OPENING]
    start = 0
    while True:
        if FOLLOW_UP.search(completion, start) is None:
            return completion[start:]  # the common case, found with one cheap scan
        first_answer = EXPLICIT_ANSWER.search(completion, start)
        if first_answer is None:
            # A problem set as practice after a worked answer is invented whatever marks it.
            practice = PRACTICE.search(completion, start)
            if practice is None or not any(
                c.isdigit() for c in completion[start : practice.start()]
            ):
                return completion[start:]
            return completion[start : practice.start()]
        continuation = FOLLOW_UP.search(completion, first_answer.end())
        if continuation is None:
            return completion[start:]
        after = completion[continuation.end() : continuation.end() + 2 * len(opening) + 40]
        if not opening or not " ".join(after.split()).startswith(opening):
            return completion[start : continuation.start()]
        start = continuation.start()


_QUESTION_OPENING = 2_000
"""Characters of the sample's question (spaces collapsed) that mark it as asked again: the whole
question (up to this length), so that a new question that opens like the sample's but changes a
number (`… for $3 per fresh duck egg …`) is an invented follow-up, not an echo."""
