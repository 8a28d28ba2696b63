"""Fresh instances of GSM-Symbolic templates for the probe, from the project's generator
(:mod:`gsm8k.data.symbolic`): the only place the probe depends on how they are made."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from gsm8k.data.splits import from_start_directory

TEMPLATES_ENV = "GSM_SYMBOLIC_TEMPLATES"


@dataclass(frozen=True)
class FreshText:
    template: str
    original_index: int
    instance: int
    question: str
    solution: str


def templates_folder(templates: str | None) -> Path | None:
    """``-T templates`` or ``$GSM_SYMBOLIC_TEMPLATES`` as an absolute path; ``None`` when
    neither is set."""
    value = templates or os.environ.get(TEMPLATES_ENV)
    return from_start_directory(value) if value else None


def fresh_texts(folder: Path, seed: int, per_template: int) -> list[FreshText]:
    """``per_template`` fresh instances of every template in ``folder`` (question and worked
    solution), in template order.

    Raises:
        ValueError: the generator's one-line error (missing folder, malformed template, too
            many instances asked).
    """
    from gsm8k.data.symbolic import fresh_samples

    texts = []
    for sample in fresh_samples(folder, seed, per_template):
        metadata = sample.metadata or {}
        instance = metadata.get("instance")
        if not isinstance(instance, int):
            continue  # the template's GSM8K original: the probe reads it from GSM8K itself
        texts.append(
            FreshText(
                template=str(metadata["template"]),
                original_index=int(metadata["original_index"]),
                instance=instance,
                question=str(sample.input),
                solution=str(metadata["solution"]),
            )
        )
    return texts
