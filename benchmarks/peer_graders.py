"""The four graders that ``grading_agreement.py`` compares, each run through its own code.

Every grader is a :data:`Grader`: it takes the completion and the gold answer and says whether it
accepts the completion as correct. Peers are imported lazily, so this project's grader and
Inspect's ``match`` run without the benchmark extra (``pip install -e '.[bench]'``).

- ``gsm8k_grader`` — this project's grader (:func:`gsm8k.grading.cli.grade_completion`).
- ``match(numeric=True)`` — Inspect's scorer, called on a ``TaskState`` exactly as a task calls it.
- ``lm-eval flexible-extract`` — lm-evaluation-harness's ``gsm8k`` task: the ``flexible-extract``
  filter chain and the ``exact_match`` metric, both configured from the ``gsm8k.yaml`` that ships
  in the installed ``lm_eval`` package, run through lm-eval's own filter and metric functions.
- ``Math-Verify`` — Hugging Face's ``math_verify``: ``verify(parse(gold), parse(completion))``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from typing import Any

from gsm8k.grading.cli import grade_completion

Grader = Callable[[str, str], bool]
"""``(completion, gold) -> accepted``; may raise, which the benchmark counts as an error."""


def gsm8k_grader(completion: str, target: str) -> bool:
    return grade_completion(completion, target).correct


def inspect_match() -> Grader:
    """Inspect's ``match(numeric=True)`` scorer, scoring one ``TaskState`` per completion."""
    from inspect_ai.model import ModelOutput
    from inspect_ai.scorer import CORRECT, Target, match
    from inspect_ai.solver import TaskState

    scorer = match(numeric=True)
    loop = asyncio.new_event_loop()

    def accepts(completion: str, target: str) -> bool:
        state = TaskState(
            model="benchmark/model",  # type: ignore[arg-type]
            sample_id=0,
            epoch=1,
            input="",
            messages=[],
        )
        state.output = ModelOutput.from_content(model="benchmark", content=completion)
        score = loop.run_until_complete(scorer(state, Target(target)))
        return score is not None and score.value == CORRECT

    return accepts


def lm_eval_flexible_extract() -> Grader:
    """lm-eval's ``gsm8k`` ``flexible-extract`` answer, scored by the task's ``exact_match``.

    The reference is the target itself: the task's reference is the dataset's whole solution,
    which the metric's ``regexes_to_ignore`` (``(?s).*#### `` and ``,``) reduce to the final
    answer without commas, which is what ``target`` holds. The task's ``until`` stop sequences act
    while generating, so they are not applied to completions that were generated elsewhere.
    """
    from lm_eval.api.metrics import exact_match_hf_evaluate
    from lm_eval.filters.extraction import RegexFilter
    from lm_eval.filters.selection import TakeFirstFilter

    config = _lm_eval_gsm8k_config()
    steps = next(f["filter"] for f in config["filter_list"] if f["name"] == "flexible-extract")
    filters: list[Any] = []
    for step in steps:
        arguments = {k: v for k, v in step.items() if k != "function"}
        factory = {"regex": RegexFilter, "take_first": TakeFirstFilter}[step["function"]]
        filters.append(factory(**arguments))
    metric = next(m for m in config["metric_list"] if m["metric"] == "exact_match")
    metric_arguments = {
        key: metric[key] for key in ("regexes_to_ignore", "ignore_case", "ignore_punctuation")
    }

    def accepts(completion: str, target: str) -> bool:
        responses: Any = [[completion]]
        for step in filters:
            responses = step.apply(responses, [{}])
        (prediction,) = list(responses)
        result = exact_match_hf_evaluate(
            predictions=[prediction], references=[target], **metric_arguments
        )
        return bool(result["exact_match"] == 1.0)

    return accepts


@lru_cache(maxsize=1)
def _lm_eval_gsm8k_config() -> dict[str, Any]:
    import yaml

    text = resources.files("lm_eval").joinpath("tasks/gsm8k/gsm8k.yaml").read_text()
    config: dict[str, Any] = yaml.safe_load(text)
    return config


def math_verify() -> Grader:
    """Math-Verify: parse the gold and the completion, then ``verify(gold, answer)``."""
    from math_verify import parse, verify

    @lru_cache(maxsize=4096)
    def gold(target: str) -> Any:
        return parse(target)

    def accepts(completion: str, target: str) -> bool:
        return bool(verify(gold(target), parse(completion)))

    return accepts


GRADERS: dict[str, Callable[[], Grader]] = {
    "gsm8k_grader": lambda: gsm8k_grader,
    "match(numeric=True)": inspect_match,
    "lm-eval flexible-extract": lm_eval_flexible_extract,
    "Math-Verify": math_verify,
}
"""Grader name → factory; factories import their package, so a missing one fails by name."""
