"""Self-consistency: reduce several completions of one question by voting on their answers.

Inspect's built-in ``mode``/``majority`` reducers vote on correct versus incorrect, which is not
self-consistency: answers [17, 16, 18, 18, 15] with target 18 reduce to wrong under ``mode``
although 18 is the most frequent answer. This reducer votes on the extracted, normalized answer.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from statistics import mean

from inspect_ai.scorer import Score, ScoreReducer, score_reducer

from gsm8k.metrics.keys import ACCURACY, MATCH, MATCH_ANSWER, STRICT_ACCURACY


@score_reducer(name="majority_answer")
def majority_answer() -> ScoreReducer:
    """maj@k: the most frequent extracted answer decides the sample.

    A tie goes to the tied answer that occurs first in epoch order, so the result is
    deterministic. Epochs without an answer do not vote; if none answered, the sample is wrong.
    ``strict_accuracy`` votes the same way among answers given in the requested format only;
    ``match`` votes on the answers ``match(numeric=True)`` read; the other rates are averaged
    over epochs. Unscored epochs (not the model's failure) neither
    vote nor count; a sample with no scored epoch is unscored.
    """

    def reduce(scores: list[Score]) -> Score:
        scored = [score for score in scores if not _unscored(score)]
        if not scored:
            # Every epoch failed for a reason that is not the model's: the sample stays out.
            return Score.unscored(
                reason=scores[0].reason, explanation=_votes_text(scores), answer=None
            )
        scores = scored
        winner = _vote(scores)
        representative = _first_with_answer(scores, winner)
        if not isinstance(scores[0].value, dict):
            # A scalar scorer such as match(): the winning answer's own verdict.
            value = representative.value if representative else 0
            return Score(value=value, answer=winner, explanation=_votes_text(scores))
        per_epoch = [_as_floats(score) for score in scores]
        values = {key: mean(epoch[key] for epoch in per_epoch) for key in per_epoch[0]}
        values[ACCURACY] = _value(representative, ACCURACY)
        strict_scores = [s for s in scores if (s.metadata or {}).get("format_followed")]
        strict_winner = _vote(strict_scores)
        values[STRICT_ACCURACY] = _value(_first_with_answer(strict_scores, strict_winner), ACCURACY)
        if MATCH in values:
            # match(numeric=True) votes on the answers it read itself, as it would as a scorer.
            match_answers = [(s.metadata or {}).get(MATCH_ANSWER) for s in scores]
            match_winner = majority_vote(match_answers)
            voted = next(
                (s for s, a in zip(scores, match_answers, strict=True) if a == match_winner), None
            )
            values[MATCH] = _value(voted if match_winner is not None else None, MATCH)
        return Score(
            value=values,
            answer=winner,
            explanation=_votes_text(scores),
            metadata={"votes": dict(Counter(s.answer for s in scores if s.answer is not None))},
        )

    return reduce


def _unscored(score: Score) -> bool:
    """``Score.unscored()``'s NaN value: an epoch that does not vote and is not averaged."""
    return isinstance(score.value, float) and math.isnan(score.value)


def majority_vote(answers: Sequence[str | None]) -> str | None:
    """The most frequent answer, ties to the one seen first; ``None`` (no answer) never votes."""
    given = [answer for answer in answers if answer is not None]
    if not given:
        return None
    counts = Counter(given)
    top = max(counts.values())
    return next(answer for answer in given if counts[answer] == top)


def _vote(scores: list[Score]) -> str | None:
    return majority_vote([score.answer for score in scores])


def _first_with_answer(scores: list[Score], answer: str | None) -> Score | None:
    if answer is None:
        return None
    return next(score for score in scores if score.answer == answer)


def _value(score: Score | None, key: str) -> float:
    return 0.0 if score is None else _as_floats(score)[key]


def _as_floats(score: Score) -> dict[str, float]:
    """A dict-valued score's values as floats (the grader's values are all 0.0/1.0)."""
    assert isinstance(score.value, dict), "majority_answer expects the grader's dict values"
    return {key: float(value or 0.0) for key, value in score.value.items()}


def _votes_text(scores: list[Score]) -> str:
    answers = ", ".join(str(score.answer) for score in scores)
    return f"Majority vote over answers: {answers}"
