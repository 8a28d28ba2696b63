"""The task with another harness's prompt (``-T preset=NAME``): this task's grader first (the
headline), then the original's own scoring rule; the original's generation settings are the
run's defaults, which the command line overrides."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from inspect_ai import Task
from inspect_ai.scorer import match

from gsm8k.data.splits import load_split
from gsm8k.data.variants import EXEMPLAR_SPLIT, EvaluationSet
from gsm8k.execution.policy import code_policy
from gsm8k.grading.scorer import gsm8k_grader
from gsm8k.metrics.votes import vote_check, voting
from gsm8k.prompting.exemplars import Shots, exemplar_source, forbidden_questions
from gsm8k.prompting.presets.build import PresetSetup, build_preset
from gsm8k.prompting.settings import PromptSettings
from gsm8k.settings.arguments import RecordedTask
from gsm8k.settings.record import (
    display_name,
    headline,
    recorded_arguments,
    run_metadata,
    run_name,
)


def preset_task(
    settings: PromptSettings,
    evaluated: EvaluationSet,
    source: str,
    language: str | None,
    votes: int,
    version: str,
) -> Task:
    """The task for a chosen preset (``settings.preset``) on the evaluated set."""
    choice, fewshot_dataset = settings.preset, settings.fewshot_dataset
    if choice is None:
        raise ValueError("preset_task needs settings with a preset chosen.")
    setup: PresetSetup = build_preset(
        choice,
        evaluated.samples,
        evaluated.split,
        lambda: load_split(
            fewshot_dataset or exemplar_source(source), EXEMPLAR_SPLIT, parameter="fewshot_dataset"
        ),
        language,
        forbidden_questions(evaluated.samples),
    )
    applied = replace(
        settings, calculator_annotations=bool(setup.metadata["calculator_annotations"])
    )
    shots = Shots([], None, setup.exemplar_split)
    policy = code_policy("cot", "none", None, False)
    metadata: dict[str, Any] = run_metadata(
        evaluated, shots, policy, applied, "cot", "none", language
    )
    return RecordedTask(
        resolved=recorded_arguments(source, applied, setup.exemplar_split),
        dataset=evaluated.dataset(),
        solver=[*vote_check(votes), *setup.solvers],
        scorer=[gsm8k_grader(beside=match(numeric=True)), *setup.scorers],
        headline_metric=headline("cot"),
        config=setup.config,
        epochs=voting(votes),
        version=version,
        name=run_name(evaluated, "cot", "none", choice.preset.name),
        display_name=display_name(evaluated, "cot", "none", choice.preset.name),
        tags=[evaluated.name],
        metadata=metadata | setup.metadata,
    )
