"""How reports name runs: the model (a model file's path cut to what tells it apart), then the
fewest settings that tell apart runs of the same model, the ones a reader compares first.

Settings are tried in :data:`LABEL_ORDER` (the preset, the evaluated variant, the mode, the
exemplars, decoding), then every other setting; one is added to the labels of a group of runs
that would otherwise read alike only when its value differs within that group. Settings that
follow from one already named (a preset's origin and rule, a variant's file and checksum) never
split a group further, so they are not shown.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from gsm8k.compare.display import clipped, display_value, shorten_paths, shown_values
from gsm8k.compare.results import Run
from gsm8k.compare.settings import MODEL_ARGS_PREFIX, provider

LABEL_ORDER = (
    "preset",
    "variant",
    "language",
    "mode",
    "tools",
    "fewshot",
    "placement",
    "fewshot_seed",
    "epochs",
    "temperature",
    "max_tokens",
    "system_message",
    "seed",
    "top_p",
    "top_k",
    "stop_seqs",
    "reasoning_effort",
    "split",
    "calculator_annotations",
    "task_version",
)
"""Settings a reader compares first, in the order labels name them."""

DERIVED = (
    "dataset",
    "dataset_sha256",
    "dataset_revision",
    "fewshot_dataset",
    "fewshot_revision",
    "preset_origin",
    "fewshot_source",
    "original_rule",
    "paired_with_gsm8k",
    "code_isolation",
)
"""Settings that mostly follow from others (the variant's file, the preset's source): named
last, when nothing else tells two runs apart."""


def label_order(names: set[str]) -> list[str]:
    """``names`` in the order labels try them: :data:`LABEL_ORDER`, the rest alphabetically
    (model arguments included), then :data:`DERIVED`."""
    first = [name for name in LABEL_ORDER if name in names]
    last = [name for name in DERIVED if name in names]
    rest = sorted(name for name in names if name not in LABEL_ORDER and name not in DERIVED)
    return first + rest + last


def assign_labels(runs: list[Run]) -> None:
    """Label each run by its model name and the settings that tell it from runs of the same
    model (see the module docstring); runs whose settings differ only in ways that display
    alike (two long paths clipped the same) get ``#2``, ``#3`` in addition."""
    shown_models = model_names({run.model for run in runs})
    details: dict[int, list[str]] = {id(run): [] for run in runs}
    names = set().union(*(run.identity for run in runs)) if runs else set()
    for name in label_order(names):
        for group in _alike(runs, shown_models, details):
            values = [run.identity.get(name) for run in group]
            if len({display_value(value) for value in values}) < 2:
                continue
            for run, shown in zip(group, shown_values(values), strict=True):
                text = "unset" if shown == "-" else clipped(shown)  # as the warnings say it
                details[id(run)].append(f"{_short_name(name)}={text}")
    for run in runs:
        parts = details[id(run)]
        model = shown_models[run.model]
        run.label = f"{model} [{', '.join(parts)}]" if parts else model
    seen: dict[str, int] = {}
    for run in runs:
        seen[run.label] = seen.get(run.label, 0) + 1
        if seen[run.label] > 1:
            run.label = f"{run.label} #{seen[run.label]}"


def _alike(
    runs: list[Run], models: dict[str, str], details: dict[int, list[str]]
) -> list[list[Run]]:
    """Groups of two or more runs whose labels, as built so far, read the same."""
    groups: dict[tuple[str, ...], list[Run]] = defaultdict(list)
    for run in runs:
        groups[(models[run.model], *details[id(run)])].append(run)
    return [group for group in groups.values() if len(group) > 1]


def _short_name(name: str) -> str:
    return name.removeprefix(MODEL_ARGS_PREFIX)


def model_names(models: set[str]) -> dict[str, str]:
    """Models named by an absolute file path (``gguf//home/me/models/qwen.gguf``) shortened to
    the provider and the part of the path that tells them apart."""
    files = {model: model.split("/", 1)[1] for model in models if "/" in model}
    files = {model: path for model, path in files.items() if Path(path).is_absolute()}
    short = shorten_paths(files.values())
    return {
        model: f"{provider(model)}/{short[files[model]]}" if model in files else model
        for model in models
    }
