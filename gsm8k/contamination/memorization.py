"""Has the model seen GSM8K's test set? A verbatim-continuation probe that works with any provider.

The model is shown the first part of a text and asked to continue it word for word: GSM8K test
questions and their reference solutions, fresh instances of the GSM-Symbolic templates made from
those same questions (generated at run time, so no model can have seen them), and GSM8K train
questions as a control. ``gsm8k-contamination`` compares how closely each is continued
(docs/contamination.md).

    GSM_SYMBOLIC_TEMPLATES=path/to/templates inspect eval gsm8k/gsm8k_memorization \\
      --model openai/gpt-4o-mini
    inspect eval gsm8k/contamination/memorization.py -T templates=path/to/templates -T points=3 \\
      --model gguf/smollm2 --limit 24
"""

from __future__ import annotations

import inspect
from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate

from gsm8k.contamination.probe import PARTS, recitation
from gsm8k.contamination.texts import probe_dataset
from gsm8k.settings.arguments import RecordedTask, refuse_unknown
from gsm8k.settings.errors import one_line_errors

MEMORIZATION_VERSION = "1.0.0"
DEFAULT_FRESH_PER_TEMPLATE = 1
DEFAULT_TRAIN = 100
DEFAULT_POINTS = 1
MAX_POINTS = 10
PROBE_MAX_TOKENS = 320
"""Longer than any GSM8K solution's second half (a continuation past it is not scored)."""


@task
def gsm8k_memorization(
    templates: str | None = None,
    fresh_seed: int = 0,
    fresh_per_template: int = DEFAULT_FRESH_PER_TEMPLATE,
    train: int = DEFAULT_TRAIN,
    parts: Literal["question", "solution", "both"] = "both",
    points: int = DEFAULT_POINTS,
    dataset: str | None = None,
    **unknown: Any,
) -> Task:
    """Verbatim continuation of GSM8K test texts, against fresh instances and train questions.

    Args:
        templates: GSM-Symbolic's ``templates`` folder (default ``$GSM_SYMBOLIC_TEMPLATES``).
            The test texts are the templates' GSM8K originals; without templates there are no
            fresh texts and the test texts are the first 100 test questions.
        fresh_seed: Seed of the fresh instances (the same seed gives the same texts).
        fresh_per_template: Fresh instances of each template.
        train: GSM8K train questions probed as a control (a seeded choice; 0 for none).
        parts: Which texts to continue: ``question``, ``solution`` (shown after its question)
            or ``both``.
        points: Places each text is cut at, spread evenly (1: halfway).
        dataset: GSM8K's location, as for ``gsm8k/gsm8k`` (default ``$GSM8K_DATA_DIR``, else
            the hub).
    """
    with one_line_errors():
        refuse_unknown(unknown, MEMORIZATION_PARAMETERS, "gsm8k_memorization")
        if not 1 <= points <= MAX_POINTS:
            raise ValueError(f"-T points={points}: must be between 1 and {MAX_POINTS}.")
        if train < 0:
            raise ValueError(f"-T train={train}: must be 0 or more.")
        if parts not in (*PARTS, "both"):
            raise ValueError(f"-T parts={parts!r}: must be question, solution or both.")
        probe = probe_dataset(
            templates,
            fresh_seed,
            fresh_per_template,
            train,
            PARTS if parts == "both" else (parts,),
            points,
            dataset,
        )
    return RecordedTask(
        resolved=probe.arguments,
        dataset=MemoryDataset(probe.samples, name="gsm8k-memorization", location=probe.location),
        solver=[generate()],
        scorer=recitation(),
        # Greedy, and long enough for the rest of any text: a verbatim probe asks for the
        # model's most likely continuation.
        config=GenerateConfig(temperature=0.0, max_tokens=PROBE_MAX_TOKENS),
        version=MEMORIZATION_VERSION,
        name="gsm8k_memorization",
        metadata=probe.metadata,
    )


MEMORIZATION_PARAMETERS = tuple(
    name for name in inspect.signature(gsm8k_memorization).parameters if name != "unknown"
)
