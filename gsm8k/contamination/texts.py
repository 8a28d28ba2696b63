"""The texts the memorization probe continues: GSM8K test and train items and fresh instances.

Samples are interleaved template by template (a test text, its fresh instances, one train
text), so that ``--limit`` keeps every source in proportion instead of only the first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.dataset import Sample

from gsm8k.contamination.fresh import FreshText, fresh_texts, templates_given
from gsm8k.contamination.probe import Part, ProbeText, probe_samples
from gsm8k.data.splits import GOLD_DELIMITER, LoadedSplit, default_source, load_split

TRAIN_SEED = 42
"""Picks the train questions; fixed, so that every run of a model probes the same ones."""
TEST_WITHOUT_TEMPLATES = 100
"""Test questions probed when no templates are given (the first ones of the test split)."""


@dataclass
class ProbeData:
    samples: list[Sample]
    location: str
    arguments: dict[str, Any] = field(default_factory=dict)
    """Task arguments as resolved (the templates' absolute folder)."""
    metadata: dict[str, Any] = field(default_factory=dict)


def probe_dataset(
    templates: str | None,
    fresh_seed: int,
    per_template: int,
    train: int,
    parts: Sequence[Part],
    points: int,
    dataset: str | None,
) -> ProbeData:
    """Every probe sample, with what the log records about where the texts came from.

    Raises:
        ValueError: naming the parameter, for a bad count or a text with nothing to continue;
            a missing or malformed templates folder raises the generator's own error.
    """
    source = dataset or default_source()
    test = load_split(source, "test")
    train_split = load_split(source, "train") if train else None
    drawn = fresh_texts(templates, fresh_seed, per_template) if templates_given(templates) else None
    fresh = drawn.texts if drawn is not None else []
    if drawn is not None:
        originals = sorted({f.original_index for f in fresh}, key=lambda i: _template_of(fresh, i))
    else:
        originals = list(range(min(TEST_WITHOUT_TEMPLATES, len(test.records))))
    chosen_train = _train_indices(train_split, train)
    units: list[list[ProbeText]] = []
    for position in range(max(len(originals), len(chosen_train))):
        unit: list[ProbeText] = []
        if position < len(originals):
            index = originals[position]
            template = _template_of(fresh, index) if fresh else None
            unit += _record_texts(test, index, "test", parts, template)
            for item in (f for f in fresh if f.original_index == index):
                unit += _fresh_texts(item, parts)
        if train_split is not None and position < len(chosen_train):
            unit += _record_texts(train_split, chosen_train[position], "train", parts, None)
        units.append(unit)
    samples = probe_samples([text for unit in units for text in unit], points)
    metadata: dict[str, Any] = {
        # Where the texts were read, as gsm8k/gsm8k records it (reruns set $GSM8K_DATA_DIR).
        "dataset": test.location,
        "dataset_revision": test.revision,
        "dataset_sha256": test.sha256,
        "templates": str(drawn.folder) if drawn is not None else None,
        "templates_sha256": drawn.checksum if drawn is not None else None,
        "templates_probed": len(originals) if drawn is not None else 0,
        "templates_skipped": drawn.skipped if drawn is not None else {},
        "train_seed": TRAIN_SEED,
        "parts": list(parts),
    }
    arguments = {"templates": str(drawn.folder) if drawn is not None else None}
    return ProbeData(samples, test.location, arguments, metadata)


def _template_of(fresh: list[FreshText], index: int) -> str:
    return next(f.template for f in fresh if f.original_index == index)


def _train_indices(split: LoadedSplit | None, count: int) -> list[int]:
    if split is None or count == 0:
        return []
    if count > len(split.records):
        raise ValueError(
            f"-T train={count}: the train split has {len(split.records)} questions; ask for fewer."
        )
    return sorted(random.Random(TRAIN_SEED).sample(range(len(split.records)), count))


def _record_texts(
    split: LoadedSplit, index: int, source: str, parts: Sequence[Part], template: str | None
) -> list[ProbeText]:
    """A GSM8K record's question and worked solution (without its ``#### N`` line, as fresh
    instances' solutions are kept)."""
    if not 0 <= index < len(split.records):
        raise ValueError(
            f"{split.location}: no {split.split} record {index} (the templates name it)"
        )
    record = split.records[index]
    question, answer = str(record.get("question", "")).strip(), str(record.get("answer", ""))
    if not question or GOLD_DELIMITER not in answer:
        raise ValueError(f"{split.where(index)}: not a GSM8K record (question, answer #### N)")
    texts = {"question": question, "solution": answer.rsplit(GOLD_DELIMITER, 1)[0].strip()}
    return [
        ProbeText(
            source=source,  # type: ignore[arg-type]
            part=part,
            key=str(index),
            text=texts[part],
            question=question,
            template=template,
            original_index=index if source == "test" else None,
        )
        for part in parts
    ]


def _fresh_texts(item: FreshText, parts: Sequence[Part]) -> list[ProbeText]:
    texts = {"question": item.question, "solution": item.solution}
    return [
        ProbeText(
            source="fresh",
            part=part,
            key=f"{item.template}-{item.instance}",
            text=texts[part],
            question=item.question,
            template=item.template,
            original_index=item.original_index,
        )
        for part in parts
    ]
