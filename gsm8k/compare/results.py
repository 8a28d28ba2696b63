"""A run's results: the grader's verdict on each completion, each sample's epochs, and the run
that merges them over its logs (see :mod:`gsm8k.compare.runs` for how logs are read into runs)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from gsm8k.metrics.reducers import majority_vote

GRADER = "gsm8k_grader"
PAL_GRADER = "pal_grader"
GRADERS = (GRADER, PAL_GRADER)
"""Scorers whose verdicts a run is measured by: the text grader (``cot``) or the program grader
(``pal``). Each log is read with the one it has."""

SampleId = int | str


@dataclass(frozen=True)
class EpochResult:
    """The grader's verdict on one completion.

    ``strict``, ``format_followed`` and ``execution_error`` are ``None`` where the grader does not
    measure them (the program grader has no answer format; the text grader runs no program).
    """

    correct: bool
    strict: bool | None
    format_followed: bool | None
    no_answer: bool
    truncated: bool
    answer: str | None
    tokens: int
    reasoning_tokens: int | None = None
    execution_error: bool | None = None


@dataclass
class SampleResult:
    """One sample of one run, all epochs in epoch order."""

    sample_id: SampleId
    epochs: list[EpochResult]

    @property
    def accuracy(self) -> float:
        return sum(e.correct for e in self.epochs) / len(self.epochs)

    def rate(self, attribute: str) -> float | None:
        """Share of epochs where ``attribute`` holds; ``None`` where the grader does not
        measure it."""
        values = [getattr(e, attribute) for e in self.epochs]
        if any(value is None for value in values):
            return None
        return sum(bool(value) for value in values) / len(values)

    @property
    def tokens(self) -> int:
        return sum(e.tokens for e in self.epochs)

    @property
    def reasoning_tokens(self) -> int | None:
        """Reasoning tokens over all epochs; ``None`` when the provider reported none."""
        counts = [e.reasoning_tokens for e in self.epochs if e.reasoning_tokens is not None]
        return sum(counts) if counts else None

    @property
    def majority_correct(self) -> bool:
        """maj@k: whether the most frequent answer (ties: the first seen) is correct."""
        winner = majority_vote([e.answer for e in self.epochs])
        return winner is not None and next(e.correct for e in self.epochs if e.answer == winner)


@dataclass
class Run:
    """A model under one configuration, merged over all of its logs.

    ``settings`` are the task's settings, ``generation`` the generation and eval settings that
    change outputs, ``model_args`` the output-affecting model arguments; together with the model
    they identify the run (``identity``, ``key``).
    """

    model: str
    settings: dict[str, Any]
    generation: dict[str, Any]
    epochs: int
    model_args: dict[str, Any] = field(default_factory=dict)
    logs: list[str] = field(default_factory=list)
    statuses: dict[str, str] = field(default_factory=dict)
    periods: list[tuple[float, float]] = field(default_factory=list)
    """When each of its logs ran (POSIX seconds, start and end)."""
    label: str = ""
    grader: str = GRADER
    results: dict[SampleId, dict[int, EpochResult]] = field(default_factory=dict)
    planned: set[SampleId] = field(default_factory=set)
    unscored: set[SampleId] = field(default_factory=set)
    """Samples a log left unscored (engine or sandbox failure), whether or not a later log
    completed them; :attr:`missing` says which still lack a result."""
    rerun: str = ""
    """``inspect eval ...`` as the run's newest log ran, without sample ids (see ``rerun.py``)."""
    selection: str = ""
    """``--limit N`` / ``--sample-id ...`` as the newest log chose its samples (empty: all)."""
    environment: dict[str, str] = field(default_factory=dict)
    """``GSM8K_DATA_DIR`` / ``GSM8K_FAMILY_DIR`` as the newest log's run had them, where it
    read a local copy through them (see ``rerun.data_environment``)."""
    _samples: tuple[tuple[int, int], dict[SampleId, SampleResult]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def wall_seconds(self) -> float:
        """Time during which any of its logs was running: a log and its retry add up, while
        time two logs share (a log and its converted copy, logs run side by side) counts once."""
        total, reached = 0.0, float("-inf")
        for start, end in sorted(self.periods):
            total += max(0.0, end - max(start, reached))
            reached = max(reached, end)
        return total

    @property
    def identity(self) -> dict[str, Any]:
        """Every output-affecting setting by name (task, generation, ``model_args.*``)."""
        return self.settings | self.generation | self.model_args

    @property
    def key(self) -> str:
        return json.dumps([self.model, self.identity], sort_keys=True, default=str)

    @property
    def samples(self) -> dict[SampleId, SampleResult]:
        """Samples with every epoch complete (a partly finished sample does not count yet),
        in id order. Computed once per state of ``results``."""
        state = (len(self.results), sum(len(epochs) for epochs in self.results.values()))
        if self._samples is None or self._samples[0] != state:
            ordered = sorted(self.results.items(), key=lambda item: id_order(item[0]))
            samples = {
                sample_id: SampleResult(sample_id, [epochs[e] for e in sorted(epochs)])
                for sample_id, epochs in ordered
                if len(epochs) >= self.epochs
            }
            self._samples = (state, samples)
        return self._samples[1]

    @property
    def missing(self) -> list[SampleId]:
        """Samples its logs set out to run that no log completed, in id order."""
        return sorted(self.planned - set(self.samples), key=id_order)

    @property
    def complete(self) -> bool:
        return not self.missing


def id_order(sample_id: SampleId) -> tuple[int, int, str]:
    """Sort key for sample ids: integers numerically, then strings."""
    if isinstance(sample_id, int):
        return (0, sample_id, "")
    return (1, 0, sample_id)
