"""Which worked examples a run shows: seeded train records, or MGSM's own per language.

Exemplars never repeat an evaluated question or the GSM8K original of an evaluated variant item;
``pal`` exemplars are programs rebuilt from the records' calculator annotations.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspect_ai.dataset import Sample

from gsm8k.data.bundled import BUNDLED_SOURCE, DATA_DIR_ENV
from gsm8k.data.catalog import (
    HUB_DATASETS,
    default_source,
    is_hub_source,
    local_copy,
    resolve_path,
)
from gsm8k.data.family.samples import normalize_question
from gsm8k.data.family.sources import load_mgsm_exemplar_rows
from gsm8k.data.splits import LoadedSplit, load_split
from gsm8k.data.variants import EXEMPLAR_SPLIT, EvaluationSet, is_gsm8k_layout
from gsm8k.execution.programs import program_from_solution
from gsm8k.prompting.fewshot import (
    Exemplar,
    chain_of_thought_response,
    program_response,
    seeded_order,
    strip_annotations,
)
from gsm8k.prompting.mgsm import MgsmPrompt, mgsm_prompt
from gsm8k.prompting.settings import PromptSettings

logger = logging.getLogger(__name__)

SOCRATIC = "gsm8k-socratic"

RecordToSample = Callable[[dict[str, Any], int, str], Sample]
"""How a GSM8K record becomes a sample: ``(record, index, split)``."""


@dataclass(frozen=True)
class Shots:
    """The exemplars of one run and where they came from."""

    exemplars: list[Exemplar]
    """GSM8K-format exemplars (empty for MGSM, whose prompt is :attr:`mgsm`)."""
    mgsm: MgsmPrompt | None
    """MGSM's prompt in the question's language, for ``dataset=mgsm``."""
    split: LoadedSplit | None
    """Where the exemplars came from; ``None`` when none are shown."""


def choose_exemplars(
    source: str,
    language: str | None,
    settings: PromptSettings,
    evaluated: EvaluationSet,
    mode: str,
    record_to_sample: RecordToSample,
) -> Shots:
    """The exemplars for the task's own prompt (see :func:`load_exemplars`)."""
    fewshot = settings.fewshot
    if source == "mgsm":
        rows = load_mgsm_exemplar_rows(str(language))
        prompt = mgsm_prompt(rows, str(language), fewshot)
        return Shots([], prompt, rows if fewshot else None)
    if settings.fewshot_seed is None:  # only a preset leaves it unset, and presets draw their own
        raise ValueError("fewshot_seed: the task's own prompt needs a seed for its exemplars.")
    exemplars, split = load_exemplars(
        fewshot,
        settings.fewshot_seed,
        settings.fewshot_dataset or exemplar_source(source),
        settings.calculator_annotations,
        evaluated.split,
        mode,
        record_to_sample,
        forbidden_questions(evaluated.samples),
    )
    return Shots(exemplars, None, split)


def load_exemplars(
    fewshot: int,
    seed: int,
    source: str,
    annotations: bool,
    evaluation: LoadedSplit,
    mode: str,
    record_to_sample: RecordToSample,
    forbidden: frozenset[str] = frozenset(),
) -> tuple[list[Exemplar], LoadedSplit | None]:
    """The first ``fewshot`` train records in seeded order as worked examples.

    For ``pal`` the response is a program built from the record's calculator annotations, and
    records whose annotations do not reproduce the gold answer are passed over.

    Args:
        forbidden: Normalized questions no exemplar may be (see :func:`forbidden_questions`):
            the evaluated questions and the GSM8K originals of evaluated variant items.

    Raises:
        ValueError: when ``fewshot`` exceeds what the train split can supply, or an exemplar
            question also appears in the evaluation set or is the original of an evaluated item.
    """
    if fewshot == 0:
        return [], None
    train = load_split(source, EXEMPLAR_SPLIT, parameter="fewshot_dataset")
    if fewshot > len(train.records):
        raise ValueError(
            f"fewshot={fewshot}: the train split at {train.location} has only "
            f"{len(train.records)} records; pass fewshot={len(train.records)} or fewer."
        )
    evaluation_questions = {
        str(record.get("question", "")).strip() for record in evaluation.records
    }
    exemplars: list[Exemplar] = []
    for index in seeded_order(len(train.records), seed):
        if len(exemplars) == fewshot:
            break
        try:
            sample = record_to_sample(train.records[index], index, EXEMPLAR_SPLIT)
        except ValueError as error:
            raise ValueError(f"{train.where(index)}: {error}") from error
        if sample.input in evaluation_questions:
            raise ValueError(
                f"fewshot_dataset: train record {index} of {train.location} is also in the "
                f"evaluation set {evaluation.location}; exemplars must come from a separate split."
            )
        if normalize_question(str(sample.input)) in forbidden:
            raise ValueError(
                f"fewshot_dataset: train record {index} of {train.location} is the GSM8K "
                f"question that evaluated items of {evaluation.location} were made from; "
                "exemplars must not show an evaluated question's original. Use GSM8K's train "
                "split (the default) as fewshot_dataset."
            )
        solution, answer = (sample.metadata or {})["solution"], str(sample.target)
        if mode == "pal":
            program = program_from_solution(solution, answer)
            if program is not None:
                exemplars.append(Exemplar(str(sample.input), program_response(program)))
            continue
        steps = solution if annotations else strip_annotations(solution)
        exemplars.append(Exemplar(str(sample.input), chain_of_thought_response(steps, answer)))
    if len(exemplars) < fewshot:
        raise ValueError(
            f"fewshot={fewshot}: only {len(exemplars)} train records of {train.location} have "
            "calculator annotations that reproduce their answer as a program; pass fewer."
        )
    return exemplars, train


def forbidden_questions(samples: list[Sample]) -> frozenset[str]:
    """Questions no exemplar may be: every evaluated question and its GSM8K original."""
    questions = {normalize_question(str(sample.input)) for sample in samples}
    for sample in samples:
        original = (sample.metadata or {}).get("original_question")
        if isinstance(original, str):
            questions.add(normalize_question(original))
    return frozenset(questions)


def exemplar_source(source: str) -> str:
    """Where examples come from when ``fewshot_dataset`` is not given: the evaluated dataset's
    own train split, else GSM8K's (the default dataset's: the bundled copy unless
    ``$GSM8K_DATA_DIR`` names another)."""
    if source == BUNDLED_SOURCE:
        return BUNDLED_SOURCE
    if is_hub_source(source):
        named = HUB_DATASETS[source].exemplar_source
        return _socratic_train_stand_in(named) or named
    path = resolve_path(source)
    if path is not None and is_gsm8k_layout(source):
        return str(path)
    fallback = default_source()
    return fallback if fallback != source else BUNDLED_SOURCE


def _socratic_train_stand_in(named: str) -> str | None:
    """The local copy's ``train.jsonl`` for GSM8K-Socratic's exemplars when the copy beside
    ``$GSM8K_DATA_DIR`` has the Socratic test file but not ``train_socratic.jsonl`` (a copy of
    openai/grade-school-math's main files plus ``test_socratic.jsonl``): the same train
    questions and answers, the solutions without the Socratic sub-questions. The log records the
    file used (``fewshot_dataset``), so such a run is never taken for one with Socratic exemplars.
    """
    if named != SOCRATIC or local_copy(SOCRATIC, EXEMPLAR_SPLIT) is not None:
        return None
    if local_copy(SOCRATIC, "test") is None:
        return None  # no local Socratic copy at all: the hub, as for any other split
    train = local_copy(BUNDLED_SOURCE, EXEMPLAR_SPLIT)
    if train is None:
        return None
    logger.warning(
        f"{DATA_DIR_ENV} has no train_socratic.jsonl: GSM8K-Socratic's exemplars come from "
        f"{train} (same questions; solutions without the Socratic sub-questions). Add "
        "train_socratic.jsonl from openai/grade-school-math for Socratic exemplars."
    )
    return str(train)
