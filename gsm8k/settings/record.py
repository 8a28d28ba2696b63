"""What a run's log records about how it was made: the data and its revision, the prompt's
settings, and where model-written code ran (``log.eval.metadata``)."""

from __future__ import annotations

from typing import Any

from gsm8k.data.variants import EvaluationSet
from gsm8k.execution.policy import CodePolicy
from gsm8k.prompting.exemplars import Shots
from gsm8k.prompting.settings import PromptSettings


def run_metadata(
    evaluated: EvaluationSet,
    shots: Shots,
    policy: CodePolicy,
    settings: PromptSettings,
    mode: str,
    tools: str,
    language: str | None,
) -> dict[str, Any]:
    """The task's metadata: enough to say exactly what was evaluated and how."""
    data, exemplars = evaluated.split, shots.split
    return {
        "dataset": data.location,
        "dataset_revision": data.revision,
        "dataset_sha256": data.sha256,
        "split": data.split,
        "fewshot": settings.fewshot,
        "fewshot_seed": settings.fewshot_seed,
        "fewshot_dataset": exemplars.location if exemplars else None,
        "fewshot_revision": exemplars.revision if exemplars else None,
        "placement": settings.placement,
        "calculator_annotations": settings.calculator_annotations,
        "mode": mode,
        "tools": tools,
        "sandbox": policy.sandbox,
        "variant": evaluated.name,
        "language": language,
        "paired_with_gsm8k": evaluated.paired,
        "code_isolation": policy.code_isolation(),
        "trust_model_code": policy.trust_model_code,
        "memory_limit": policy.memory_limit(),
        "program_packages": policy.program_packages(),
    }


def display_name(evaluated: EvaluationSet, mode: str, tools: str) -> str:
    """How Inspect's log list and viewer name the run: the evaluated set (``gsm-symbolic-p2``,
    ``mgsm-de``), then a mode or tools other than the defaults (``gsm8k pal``)."""
    parts = [evaluated.name]
    if mode != "cot":
        parts.append(mode)
    if tools != "none":
        parts.append(f"tools={tools}")
    return " ".join(parts)
