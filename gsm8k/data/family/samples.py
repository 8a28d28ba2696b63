"""How rows of GSM-Symbolic, GSM-Plus and MGSM become samples paired with GSM8K.

Sample ids name the GSM8K test question first, zero-padded so that text order is numeric order:
``0473-07`` is instance 7 of the GSM-Symbolic template made from GSM8K test item 473;
``0473-critical-thinking`` is GSM-Plus's critical-thinking perturbation of item 473; MGSM ids are
the GSM8K test index itself (MGSM item k is GSM8K test item k).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from inspect_ai.dataset import Sample

from gsm8k.data.family.sources import MGSM_SIZE, Variant
from gsm8k.data.splits import LoadedSplit
from gsm8k.grading.golds import UNANSWERABLE
from gsm8k.grading.numbers import normalize, parse_gold, parse_number

INDEX_WIDTH = 4
"""GSM8K test indices run to 1318: four digits keep string ids in numeric order."""

PLUS_PERTURBATIONS = (
    "numerical substitution",
    "digit expansion",
    "integer-decimal-fraction conversion",
    "adding operation",
    "reversing operation",
    "problem understanding",
    "distraction insertion",
    "critical thinking",
)


def normalize_question(text: str) -> str:
    """A question as compared across datasets: straight quotes, single spaces."""
    for curly, straight in (("\u2019", "'"), ("\u2018", "'"), ("\u201c", '"'), ("\u201d", '"')):
        text = text.replace(curly, straight)
    return " ".join(text.split())


def variant_samples(
    variant: Variant,
    loaded: LoadedSplit,
    gsm8k_test_questions: Callable[[], list[str]],
    language: str | None = None,
) -> list[Sample]:
    """Every row as a sample carrying ``metadata["gsm8k_index"]``; bad rows are errors.

    Args:
        gsm8k_test_questions: Returns the GSM8K test questions in order; called only for
            GSM-Plus, whose rows name their GSM8K question by its text.

    Raises:
        ValueError: naming the file (and line) of a row that cannot be read, or two rows that
            would get the same id.
    """
    index_of: dict[str, int] = {}
    if variant.family == "plus":
        index_of = {normalize_question(q): i for i, q in enumerate(gsm8k_test_questions())}
    samples: list[Sample] = []
    seen: dict[str, int] = {}
    for row, record in enumerate(loaded.records):
        where = (
            f"{loaded.location}:{loaded.line_numbers[row]}"
            if loaded.line_numbers
            else f"{loaded.location} row {row}"
        )
        try:
            if variant.family == "symbolic":
                sample = _symbolic_sample(record, variant)
            elif variant.family == "plus":
                sample = _plus_sample(record, variant, index_of)
            else:
                sample = _mgsm_sample(record, row, language or "")
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"{where}: {error}") from error
        key = str(sample.id)
        if key in seen:
            raise ValueError(
                f"{where}: sample id {key} repeats row {seen[key]}; each (GSM8K question, "
                "instance or perturbation) must appear once."
            )
        seen[key] = row
        samples.append(sample)
    return samples


def _symbolic_sample(record: dict[str, Any], variant: Variant) -> Sample:
    original, instance = _whole(record, "original_id"), _whole(record, "instance")
    question, answer = _text(record, "question"), _text(record, "answer")
    if "####" not in answer:
        raise ValueError("'answer' has no '#### <number>' final line.")
    solution, final = answer.rsplit("####", 1)
    return Sample(
        id=f"{original:0{INDEX_WIDTH}d}-{instance:02d}",
        input=question.strip(),
        target=normalize(parse_gold(final)),
        metadata={
            "gsm8k_index": original,
            "instance": instance,
            "template": record.get("id"),
            "variant": variant.name,
            "solution": solution.strip(),
            "original_question": record.get("original_question"),
        },
    )


def _plus_sample(record: dict[str, Any], variant: Variant, index_of: dict[str, int]) -> Sample:
    question, seed = _text(record, "question"), _text(record, "seed_question")
    perturbation = _text(record, "perturbation_type").strip()
    if perturbation not in PLUS_PERTURBATIONS:
        raise ValueError(
            f"unknown perturbation_type {perturbation!r}; expected one of "
            f"{', '.join(PLUS_PERTURBATIONS)}."
        )
    index = index_of.get(normalize_question(seed))
    if index is None:
        raise ValueError(
            f"seed_question {seed[:60]!r}... is not a GSM8K test question; the variant cannot "
            "be paired with its original."
        )
    return Sample(
        id=f"{index:0{INDEX_WIDTH}d}-{perturbation_slug(perturbation)}",
        input=question.strip(),
        target=plus_target(record.get("answer")),
        metadata={
            "gsm8k_index": index,
            "perturbation": perturbation,
            "variant": variant.name,
            "solution": record.get("solution"),
            "original_question": seed,
        },
    )


def _mgsm_sample(record: dict[str, Any], row: int, language: str) -> Sample:
    question = _text(record, "question")
    answer = record.get("answer_number")
    if answer is None or str(answer).strip() == "":
        raise ValueError("'answer_number' is missing.")
    if row >= MGSM_SIZE:
        raise ValueError(f"MGSM has {MGSM_SIZE} items per language; this is item {row + 1}.")
    return Sample(
        # MGSM item k is GSM8K test item k, so the id is the GSM8K index itself.
        id=row,
        input=question.strip(),
        target=normalize(parse_gold(str(answer))),
        metadata={"gsm8k_index": row, "language": language, "variant": f"mgsm-{language}"},
    )


def plus_target(answer: Any) -> str:
    """A GSM-Plus gold as the target text: ``NONE``, a fraction ``2/5``, or a number.

    Raises:
        ValueError: when the gold is none of these.
    """
    text = str(answer).strip() if answer is not None else "None"
    if text.lower() == "none":
        return UNANSWERABLE
    if re.fullmatch(r"-?\d+\s*/\s*\d+", text):
        if parse_number(text) is None:
            raise ValueError(f"answer {text!r} divides by zero.")
        return text.replace(" ", "")
    value = parse_gold(text)  # raises for anything that is not a number
    decimals = text.split(".", 1)[1] if "." in text else ""
    # A rounded decimal keeps its written precision (4.33, not 4.33000): the grader reads it.
    return text.replace(",", "") if decimals.rstrip("0") else normalize(value)


def perturbation_slug(perturbation: str) -> str:
    """``critical thinking`` → ``critical-thinking`` (sample ids, file names)."""
    return re.sub(r"[^a-z0-9]+", "-", perturbation.lower()).strip("-")


def _whole(record: dict[str, Any], field: str) -> int:
    value = record.get(field)
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).isdigit():
        raise ValueError(f"{field!r} must be a whole number, got {value!r}.")
    return int(value)


def _text(record: dict[str, Any], field: str) -> str:
    value = record.get(field)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{field!r} is missing or empty.")
    return value
