"""Few-shot exemplars: which train records are shown, and how they are written into the prompt."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser

Placement = Literal["user", "system", "turns"]
PLACEMENTS: tuple[Placement, ...] = ("user", "system", "turns")

_CALCULATOR_ANNOTATION = re.compile(r"<<[^<>]*>>")


@dataclass(frozen=True)
class Exemplar:
    """One worked example: the question and the response a model should give to it."""

    question: str
    response: str


def seeded_order(population: int, seed: int) -> list[int]:
    """All train indices in the seeded order exemplars are drawn in (see :func:`select_indices`)."""
    return [int(index) for index in np.random.default_rng(seed).permutation(population)]


def select_indices(population: int, count: int, seed: int) -> list[int]:
    """Indices of ``count`` exemplars out of ``population`` train records, fixed by ``seed``.

    The permutation is ``numpy.random.default_rng(seed).permutation``, the one
    ``datasets.Dataset.shuffle(seed=...)`` uses, so the first ``count`` records are those that
    Inspect's ``hf_dataset(shuffle=True, seed=seed, limit=count)`` would return.
    """
    return seeded_order(population, seed)[:count] if count else []


def strip_annotations(solution: str) -> str:
    """Remove GSM8K calculator annotations: ``48/2 = <<48/2=24>>24`` becomes ``48/2 = 24``."""
    return _CALCULATOR_ANNOTATION.sub("", solution)


def chain_of_thought_response(solution: str, answer: str) -> str:
    """The response a chain-of-thought exemplar shows: the steps, then the ``ANSWER:`` line."""
    return f"{solution}\nANSWER: {answer}"


def program_response(program: str) -> str:
    """The response a program-aided exemplar shows: one fenced Python block."""
    return f"```python\n{program.rstrip()}\n```"


def format_exemplar(exemplar: Exemplar) -> str:
    return f"Question: {exemplar.question}\nSolution:\n{exemplar.response}"


def build_messages(
    question: str,
    exemplars: Sequence[Exemplar],
    placement: Placement,
    prompt_template: str,
    examples_heading: str,
) -> list[ChatMessage]:
    """The messages for one sample; everything before its question is the same for every sample,
    so a server's prefix cache processes the exemplars once per run.

    Args:
        question: The sample's question.
        exemplars: Worked examples, in the order they are shown.
        placement: ``user`` puts them in the user message before the question, ``system`` in a
            system message, ``turns`` as alternating user/assistant turns.
        prompt_template: The prompt for one question, with a ``{question}`` field.
        examples_heading: The line that introduces the examples (``user``/``system``).
    """
    prompt = prompt_template.format(question=question)
    if not exemplars:
        return [ChatMessageUser(content=prompt)]
    examples = "\n\n".join(format_exemplar(exemplar) for exemplar in exemplars)
    if placement == "system":
        return [
            ChatMessageSystem(content=f"{examples_heading}\n\n{examples}"),
            ChatMessageUser(content=prompt),
        ]
    if placement == "user":
        return [ChatMessageUser(content=f"{examples_heading}\n\n{examples}\n\n{prompt}")]
    messages: list[ChatMessage] = []
    for exemplar in exemplars:
        messages.append(ChatMessageUser(content=prompt_template.format(question=exemplar.question)))
        messages.append(ChatMessageAssistant(content=exemplar.response))
    messages.append(ChatMessageUser(content=prompt))
    return messages
