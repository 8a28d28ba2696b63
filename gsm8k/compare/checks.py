"""Whether runs can be ranked against each other: same data, prompt, generation settings, questions.

Every output-affecting setting (see :mod:`gsm8k.compare.settings`) must agree, except the model.
Model arguments are provider-specific, so they are compared only among runs of one provider.
Each problem is one line naming the setting and which runs have which value, short enough to read
on a folder of many runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gsm8k.compare.display import clipped, id_ranges, shown_values
from gsm8k.compare.labels import label_order
from gsm8k.compare.results import Run, id_order
from gsm8k.compare.settings import MODEL_ARGS_PREFIX, provider

LISTED_RUNS = 4
"""The largest group of runs sharing a value is summarised as "the other N runs" above this."""


def comparability_problems(runs: list[Run]) -> list[str]:
    """One line per way the runs' settings split them, then one for differing sample sets."""
    # Settings that split the runs the same way (a dataset's path, checksum and name) share
    # one line, so a folder of many runs gives a few lines rather than one per field.
    lines: dict[tuple[Any, ...], list[str]] = {}
    shown: dict[tuple[Any, ...], str] = {}
    for name in setting_names(runs):
        groups = _provider_groups(runs) if name.startswith(MODEL_ARGS_PREFIX) else [runs]
        for group in groups:
            values = [run.identity.get(name) for run in group]
            texts = shown_values(values)
            if len(set(texts)) > 1:
                split = tuple(sorted(_partition(group, texts)))
                lines.setdefault(split, []).append(name)
                described = who_has_what(group, values)
                if len(described) < len(shown.get(split, described + " ")):
                    shown[split] = described  # the shortest values tell the groups apart best
    problems = [
        ", ".join(f"`{name}`" for name in names) + f": {shown[split]}"
        for split, names in lines.items()
    ]
    sample_sets = [frozenset(run.samples) for run in runs]
    if len(set(sample_sets)) > 1:
        sizes = [f"{len(s)} ({id_ranges(sorted(s, key=id_order), limit=3)})" for s in sample_sets]
        common = frozenset.intersection(*sample_sets)
        problems.append(
            f"samples: {who_has_what(runs, sizes)}; {len(common)} in common, and pairwise tests "
            "use the common samples only"
        )
    return problems


def setting_names(runs: Sequence[Run]) -> list[str]:
    """Every setting name any run has, in the order labels name them (the preset, the variant,
    the mode and the exemplars first; a dataset's file and checksum last)."""
    return label_order(set().union(*(run.identity for run in runs)) if runs else set())


def who_has_what(runs: Sequence[Run], values: Sequence[Any]) -> str:
    """``value → run, run; value → run``; the largest group becomes "the other N runs" when the
    list would otherwise be long. Unset values read "unset"."""
    texts = [clipped(text) if text != "-" else "unset" for text in shown_values(values)]
    groups: dict[str, list[str]] = {}
    for run, text in zip(runs, texts, strict=True):
        groups.setdefault(text, []).append(run.label)
    largest = max(groups, key=lambda text: len(groups[text]))
    summarise = len(groups[largest]) > LISTED_RUNS
    parts = [
        f"{text} → {', '.join(labels)}"
        for text, labels in groups.items()
        if not (summarise and text == largest)
    ]
    if summarise:
        parts.append(f"{largest} → the other {len(groups[largest])} runs")
    return "; ".join(parts)


def _partition(runs: Sequence[Run], texts: Sequence[str]) -> list[tuple[str, ...]]:
    """The runs grouped by value, values themselves left out."""
    groups: dict[str, list[str]] = {}
    for run, text in zip(runs, texts, strict=True):
        groups.setdefault(text, []).append(run.label)
    return [tuple(sorted(labels)) for labels in groups.values()]


def _provider_groups(runs: list[Run]) -> list[list[Run]]:
    groups: dict[str, list[Run]] = {}
    for run in runs:
        groups.setdefault(provider(run.model), []).append(run)
    return list(groups.values())
