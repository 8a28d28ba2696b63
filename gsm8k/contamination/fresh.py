"""Fresh instances of GSM-Symbolic templates for the probe, drawn by the project's generator
(:mod:`gsm8k.data.fresh`, as ``-T dataset=gsm-symbolic-fresh`` draws them): the only place the
probe depends on how they are made."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from gsm8k.data.fresh.samples import TEMPLATES_ENV


@dataclass(frozen=True)
class FreshText:
    template: str
    original_index: int
    instance: int
    question: str
    solution: str
    """The worked solution without its final ``#### N`` line."""


@dataclass(frozen=True)
class FreshTexts:
    texts: list[FreshText]
    folder: Path
    checksum: str
    skipped: dict[str, str] = field(default_factory=dict)
    """Templates that yielded no instance (file stem → why): left out of the probe."""


def templates_given(templates: str | None) -> bool:
    """Whether ``-T templates`` or ``$GSM_SYMBOLIC_TEMPLATES`` names a templates folder."""
    return bool(templates or os.environ.get(TEMPLATES_ENV))


def fresh_texts(templates: str | None, seed: int, per_template: int) -> FreshTexts:
    """``per_template`` fresh instances of every template (question and worked solution), in
    template order, drawn exactly as ``-T dataset=gsm-symbolic-fresh`` draws them.

    Raises:
        ValueError: the generator's one-line error (no such folder, a malformed template, a bad
            seed or count).
    """
    from gsm8k.data.fresh import fresh_set, templates_folder

    drawn = fresh_set(
        templates_folder(templates),
        seed,
        per_template,
        include_originals=False,
        reader="gsm8k_memorization (its fresh texts)",
    )
    texts = []
    for sample in drawn.samples:
        metadata = sample.metadata or {}
        texts.append(
            FreshText(
                template=str(metadata["template"]),
                original_index=int(metadata["original_index"]),
                instance=int(metadata["instance"]),
                question=str(sample.input),
                solution=str(metadata["solution"]),
            )
        )
    return FreshTexts(texts, drawn.folder, drawn.checksum, dict(drawn.skipped))
