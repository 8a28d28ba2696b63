"""A warning for votes that cannot disagree: several completions per question at temperature 0."""

from __future__ import annotations

import logging

from inspect_ai import Epochs
from inspect_ai.model import get_model
from inspect_ai.model._generate_config import active_generate_config
from inspect_ai.scorer import mean_score, pass_at
from inspect_ai.solver import Generate, Solver, TaskState, solver

from gsm8k.metrics.reducers import majority_answer

logger = logging.getLogger(__name__)


def identical_votes_warning(votes: int, temperature: float | None) -> str | None:
    """The warning for ``votes`` completions at ``temperature``, or ``None`` when they can
    differ (unset: the provider's default, which samples for most providers)."""
    if votes <= 1 or temperature is None or temperature > 0:
        return None
    return (
        f"votes={votes} at temperature 0: greedy decoding writes the same completion every "
        f"time, so the run takes {votes} times as long for {votes} identical votes. For "
        "self-consistency set a temperature (e.g. --temperature 0.7); otherwise use votes=1."
    )


@solver
def warn_identical_votes(votes: int) -> Solver:
    """Logs the warning once per run when the model's effective temperature is 0."""
    warned = False

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        nonlocal warned
        if not warned:
            warned = True
            # The model's own config (a provider's defaults included), then the run's settings.
            config = get_model().config.merge(active_generate_config())
            message = identical_votes_warning(votes, config.temperature)
            if message:
                logger.warning(message)
        return state

    return solve


def vote_check(votes: int) -> list[Solver]:
    """A warning, once per run, when several votes are drawn greedily (all would be the same)."""
    return [warn_identical_votes(votes)] if votes > 1 else []


def voting(votes: int) -> Epochs | None:
    """Several completions per question: mean accuracy, majority vote (maj@k) and pass@k."""
    return Epochs(votes, [mean_score(), majority_answer(), pass_at(votes)]) if votes > 1 else None
