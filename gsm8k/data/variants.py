"""Which set a run evaluates, and how its samples are paired with GSM8K's test questions.

``dataset`` names GSM8K (the hub's or a local copy), GSM8K-Platinum, a custom GSM8K-format file,
or a GSM-family variant (GSM-Symbolic, GSM-Plus, MGSM). Every paired sample carries the GSM8K test
index it derives from (``metadata["gsm8k_index"]``), so runs on different sets compare question by
question.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample

from gsm8k.data.bundled import BUNDLED_SOURCE
from gsm8k.data.catalog import HUB_GSM8K, default_source, is_named_source, resolve_path
from gsm8k.data.family.samples import normalize_question, variant_samples
from gsm8k.data.family.sources import VARIANTS, is_variant, load_variant
from gsm8k.data.fresh.samples import (
    FRESH_SOURCE,
    FreshOptions,
    fresh_details,
    fresh_set,
    fresh_split,
)
from gsm8k.data.fresh.samples import fresh_options as fresh_options  # the task's import
from gsm8k.data.splits import DatasetUnavailableError, LoadedSplit, load_split

EVALUATION_SPLIT = "test"
EXEMPLAR_SPLIT = "train"


@dataclass(frozen=True)
class EvaluationSet:
    """The evaluated samples and where they came from."""

    samples: list[Sample]
    split: LoadedSplit
    """The records' origin (location, revision, checksum), as the log records it."""
    name: str
    """How logs name the set: ``gsm8k``, ``gsm8k-platinum``, ``mgsm-de``, a file's name, ..."""
    paired: bool
    """Whether every sample carries its GSM8K test index."""
    details: dict[str, Any] = field(default_factory=dict)
    """What else the log records about the set (fresh questions: seed, templates, skips)."""

    def dataset(self) -> MemoryDataset:
        """The samples as Inspect's dataset, named and located as the log records them."""
        return MemoryDataset(self.samples, name=self.name, location=self.split.location)


def evaluation_set(
    source: str,
    split: str,
    language: str | None,
    records_to_samples: Callable[[LoadedSplit], list[Sample]],
    fresh: FreshOptions | None = None,
) -> EvaluationSet:
    """Load the evaluated set named by ``source`` and pair its samples with GSM8K.

    Args:
        source: A hub name, a local path, or a GSM-family variant name.
        split: The split of a GSM8K-format source (variants have one evaluated split).
        language: MGSM's language (``dataset=mgsm`` only).
        records_to_samples: How GSM8K-format records become samples (the task's own rule).
        fresh: The seed, count and templates of ``dataset=gsm-symbolic-fresh``.
    """
    if source == FRESH_SOURCE and fresh is not None:
        originals = gsm8k_test_split(source)
        drawn = fresh_set(
            fresh.folder, fresh.seed, fresh.per_template, gsm8k_records=lambda: originals.records
        )
        details = fresh_details(drawn) | {
            "originals": originals.location,
            "originals_sha256": originals.sha256,
        }
        return EvaluationSet(drawn.samples, fresh_split(drawn), FRESH_SOURCE, True, details)
    if is_variant(source):
        loaded = load_variant(VARIANTS[source], language)
        samples = variant_samples(
            VARIANTS[source], loaded, lambda: gsm8k_test_questions(source), language
        )
        name = f"mgsm-{language}" if source == "mgsm" else source
        return EvaluationSet(samples, loaded, name, paired=True)
    loaded = load_split(source, split, parameter="dataset")
    samples = records_to_samples(loaded)
    name = _set_name(source, loaded)
    return EvaluationSet(samples, loaded, name, pair_with_gsm8k(samples, source, loaded))


def pair_with_gsm8k(samples: list[Sample], source: str, evaluation: LoadedSplit) -> bool:
    """Give each sample of a GSM8K-format split its GSM8K test index as id and metadata.

    GSM8K's own test and socratic splits are in test order. Another set (GSM8K-Platinum, which
    drops 110 questions, or any subset) is matched question by question against the GSM8K test
    split. Returns whether every sample was paired; a custom set whose questions are not all
    GSM8K test questions keeps its row numbers as ids and is not paired.

    Raises:
        ValueError: a Platinum question is not a GSM8K test question.
    """
    if _in_test_order(source, evaluation):
        for sample in samples:
            (sample.metadata or {})["gsm8k_index"] = sample.id
        return True
    platinum = source == "gsm8k-platinum"
    try:
        index_of = {normalize_question(q): i for i, q in enumerate(gsm8k_test_questions(source))}
    except (DatasetUnavailableError, ValueError):
        if platinum:
            raise
        return False
    indices = [index_of.get(normalize_question(str(sample.input))) for sample in samples]
    if any(index is None for index in indices):
        if platinum:
            missing = sum(index is None for index in indices)
            raise ValueError(
                f"dataset=gsm8k-platinum: {missing} questions of {evaluation.location} are not "
                "GSM8K test questions, so they cannot be paired with their originals."
            )
        return False
    for sample, index in zip(samples, indices, strict=True):
        sample.id = index
        (sample.metadata or {})["gsm8k_index"] = index
    return True


def is_gsm8k_layout(source: str) -> bool:
    """Whether ``source`` is a local directory laid out as GSM8K (it has ``train.jsonl``)."""
    path = resolve_path(source)
    return path is not None and path.is_dir() and (path / f"{EXEMPLAR_SPLIT}.jsonl").is_file()


def gsm8k_test_questions(source: str) -> list[str]:
    """The GSM8K test questions in order, from the default dataset (the hub's if that is
    ``source`` itself)."""
    return [str(record.get("question", "")) for record in gsm8k_test_records(source)]


def gsm8k_test_records(source: str) -> list[dict[str, Any]]:
    """The GSM8K test records in order, from the default dataset (the bundled copy if that is
    ``source`` itself)."""
    return gsm8k_test_split(source).records


def gsm8k_test_split(source: str) -> LoadedSplit:
    """GSM8K's test split, from the default dataset (the bundled copy if that is ``source``
    itself or a GSM-family name), with where it came from."""
    reference = default_source()
    if reference in (source, FRESH_SOURCE) or is_variant(reference):
        reference = BUNDLED_SOURCE
    return load_split(reference, EVALUATION_SPLIT, parameter="dataset")


def _in_test_order(source: str, evaluation: LoadedSplit) -> bool:
    """Whether the split is GSM8K's test set itself (row k is test item k)."""
    if source in (BUNDLED_SOURCE, HUB_GSM8K, "gsm8k-socratic"):
        return True
    return is_gsm8k_layout(source) and evaluation.split in ("test", "test_socratic")


def _set_name(source: str, evaluation: LoadedSplit) -> str:
    """How logs name the evaluated set: the dataset's name (GSM8K is ``gsm8k`` wherever it came
    from), or what the local files are."""
    if is_named_source(source):
        return BUNDLED_SOURCE if source == HUB_GSM8K else source
    if is_gsm8k_layout(source):
        return {"test": "gsm8k", "test_socratic": "gsm8k-socratic"}.get(
            evaluation.split, f"gsm8k-{evaluation.split}"
        )
    path = resolve_path(source)
    return path.name if path is not None and path.is_dir() else evaluation.split
