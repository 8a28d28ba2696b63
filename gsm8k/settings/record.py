"""What a run's log records about how it was made: the data and its revision, the prompt's
settings, and where model-written code ran (``log.eval.metadata``)."""

from __future__ import annotations

from typing import Any

from gsm8k.data.catalog import is_named_source, resolve_path
from gsm8k.data.family.sources import is_variant
from gsm8k.data.splits import LoadedSplit
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
    } | evaluated.details


def display_name(evaluated: EvaluationSet, mode: str, tools: str, preset: str | None = None) -> str:
    """The run's name for people: the evaluated set (``gsm-symbolic-p2``, ``mgsm-de``), then a
    mode, tools or preset other than the defaults (``gsm8k pal``, ``gsm8k lm-eval-gsm8k``)."""
    return " ".join(_name_parts(evaluated, mode, tools, preset))


def run_name(evaluated: EvaluationSet, mode: str, tools: str, preset: str | None = None) -> str:
    """The task's name in the log (``eval.task``), which Inspect 0.3.285's log list and viewer
    show (not the display name): the display name's parts joined by ``_``, since it is also part
    of the log's file name (``gsm8k``, ``gsm-plus``, ``gsm8k_pal``, ``gsm8k_lm-eval-gsm8k``).
    The task itself stays ``eval.task_registry_name``."""
    return "_".join(_name_parts(evaluated, mode, tools, preset))


def _name_parts(evaluated: EvaluationSet, mode: str, tools: str, preset: str | None) -> list[str]:
    parts = [evaluated.name]
    if mode != "cot":
        parts.append(mode)
    if tools != "none":
        parts.append(f"tools={tools}")
    if preset is not None:
        parts.append(preset)
    return parts


def recorded_arguments(
    source: str, settings: PromptSettings, exemplars: LoadedSplit | None
) -> dict[str, Any]:
    """The values the prompt's arguments took, for the log's task arguments (``inspect view``'s
    CONFIG panel): the dataset read (a local one as an absolute path), the shots, their seed,
    placement and source (``None`` where the run has none: no seed for fixed exemplars), and
    whether the examples show calculator annotations."""
    local = None if is_named_source(source) or is_variant(source) else resolve_path(source)
    return {
        "dataset": str(local) if local else source,
        "fewshot": settings.fewshot,
        "fewshot_seed": settings.fewshot_seed,
        "placement": settings.placement,
        "fewshot_dataset": exemplars.location if exemplars else None,
        "calculator_annotations": settings.calculator_annotations,
    }


def headline(mode: str) -> str:
    """The run's headline in Inspect's summary, log list and viewer: the exact grader's accuracy
    (named, since the grader's rates come before its accuracies in the log's scores)."""
    return f"{'pal_grader' if mode == 'pal' else 'gsm8k_grader'}.accuracy"
