"""The verbatim-continuation probe: show the first part of a text, ask for the rest word for word.

Each text (a GSM8K test question or its reference solution, a fresh instance of the same
GSM-Symbolic template, a GSM8K train question) is cut at ``points`` places spread evenly through
its words; each cut is one sample whose target is the rest of the text. A model that saw the
test set in training continues test texts closer to the truth than fresh texts of the same
template, which it cannot have seen; train texts show whether it saw GSM8K's train split.

Solutions are shown after their question (a solution's beginning alone is ambiguous). The cut
falls at a word boundary of the text as published, line breaks and calculator annotations kept;
a solution ends before its final ``#### N`` line, as fresh instances' solutions are kept.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import mean
from typing import Any, Literal

from inspect_ai.dataset import Sample
from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    metric,
    scorer,
)
from inspect_ai.solver import TaskState

from gsm8k.contamination.overlap import overlap

Source = Literal["test", "fresh", "train"]
Part = Literal["question", "solution"]
SOURCES: tuple[Source, ...] = ("test", "fresh", "train")
PARTS: tuple[Part, ...] = ("question", "solution")
MEASURES = ("exact", "rouge_l", "ngram")

QUESTION_PROMPT = (
    "The text below is the beginning of a grade-school math word problem from a published "
    "dataset. Continue it from exactly where it stops, word for word as it appears in the "
    "dataset. Write only the continuation, nothing else.\n\n{shown}"
)
SOLUTION_PROMPT = (
    "Below are a grade-school math word problem from a published dataset and the beginning of "
    "its reference solution. Continue the solution from exactly where it stops, word for word as "
    "it appears in the dataset. Write only the continuation, nothing else.\n\n"
    "Problem: {question}\n\nSolution: {shown}"
)
SHOWN_CHARACTERS = 2_000
"""A score's ``answer`` keeps this much of the continuation (the log keeps all of it)."""

_CHUNK = re.compile(r"\S+")


@dataclass(frozen=True)
class ProbeText:
    """One text to probe and where it comes from."""

    source: Source
    part: Part
    key: str
    """The GSM8K index (test, train) or ``<template>-<instance>`` (fresh)."""
    text: str
    question: str = ""
    """Shown before a solution's beginning."""
    template: str | None = None
    original_index: int | None = None


def cut(text: str, fraction: float) -> tuple[str, str] | None:
    """``text`` split before the word at ``fraction`` of its words: (shown, rest); ``None`` when
    the text is too short to leave a word on each side."""
    chunks = list(_CHUNK.finditer(text))
    if len(chunks) < 2:
        return None
    position = min(max(1, round(fraction * len(chunks))), len(chunks) - 1)
    start = chunks[position].start()
    return text[:start].rstrip(), text[start:].strip()


def cut_points(points: int) -> list[float]:
    """``points`` fractions spread evenly inside the text: 1 → ½; 3 → ¼, ½, ¾."""
    return [(j + 1) / (points + 1) for j in range(points)]


def probe_samples(texts: Sequence[ProbeText], points: int) -> list[Sample]:
    """One sample per text and cut point; ids ``<source>-<part>-<key>-<point>``."""
    samples = []
    for text in texts:
        for point, fraction in enumerate(cut_points(points)):
            pieces = cut(text.text, fraction)
            if pieces is None:
                raise ValueError(
                    f"{text.source} {text.part} {text.key}: fewer than two words, nothing to "
                    "continue"
                )
            shown, rest = pieces
            prompt = (
                QUESTION_PROMPT.format(shown=shown)
                if text.part == "question"
                else SOLUTION_PROMPT.format(question=text.question, shown=shown)
            )
            samples.append(
                Sample(
                    id=f"{text.source}-{text.part}-{text.key}-{point}",
                    input=prompt,
                    target=rest,
                    metadata={
                        "source": text.source,
                        "part": text.part,
                        "key": text.key,
                        "point": point,
                        "shown": shown,
                        "template": text.template,
                        "original_index": text.original_index,
                    },
                )
            )
    return samples


@metric
def recitation_by_source() -> Metric:
    """Mean of each measure per source and part: ``test_question_rouge_l``, ... (the report
    compares them with intervals; these are for a glance in ``inspect view``)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        groups: dict[str, list[float]] = defaultdict(list)
        for item in scores:
            value = item.score.value
            metadata = item.sample_metadata or {}
            if not isinstance(value, dict):
                continue
            for measure in MEASURES:
                name = f"{metadata.get('source')}_{metadata.get('part')}_{measure}"
                groups[name].append(float(value[measure]))
        return {name: mean(values) for name, values in sorted(groups.items())}

    return compute


@scorer(metrics=[recitation_by_source()])
def recitation() -> Scorer:
    """How much of the rest of the text the model's continuation reproduces: exact match,
    ROUGE-L and n-gram accuracy on words (see :mod:`gsm8k.contamination.overlap`)."""

    async def score(state: TaskState, target: Target) -> Score:
        continuation = state.output.completion
        shown = str(state.metadata.get("shown", ""))
        result = overlap(continuation, target.text, shown)
        value: dict[str, Any] = {
            "exact": result.exact,
            "rouge_l": result.rouge_l,
            "ngram": result.ngram,
        }
        return Score(
            value=value,
            answer=continuation[:SHOWN_CHARACTERS],
            explanation=(
                f"exact {result.exact:.0f}, ROUGE-L {result.rouge_l:.3f}, "
                f"n-gram {result.ngram:.0f} against the text's rest"
            ),
        )

    return score
