"""The contamination report's inputs read from logs: accuracy on originals and on fresh
instances (``gsm8k/gsm8k`` runs), and the memorization probe's scores (``gsm8k_memorization``).

Accuracy runs are read as ``gsm8k-compare`` reads them (:mod:`gsm8k.compare.runs`: retries
merged, each (sample, epoch) once); the sample metadata that says which template and instance a
sample is (``template``, ``original_index``, ``instance``) comes from the logs' sample summaries.
Probe logs are merged the same way: one run per model and settings, the newest log's result for
each sample.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.log import read_eval_log, read_eval_log_sample_summaries

from gsm8k.compare.inflation import oversized_member
from gsm8k.compare.locations import LogLocations, list_logs
from gsm8k.compare.rerun import rerun_prefix, sample_selection
from gsm8k.compare.results import Run, SampleId
from gsm8k.compare.runs import SkippedLog
from gsm8k.compare.settings import generation_settings, model_args, task_settings
from gsm8k.contamination.probe import MEASURES

PROBE_TASK = "gsm8k_memorization"
PROBE_SCORER = "recitation"
ORIGINAL = "original"
"""A fresh-dataset sample's ``instance`` when it is the template's GSM8K original itself."""


@dataclass
class ProbeResult:
    source: str
    part: str
    key: str
    template: str | None
    values: dict[str, float]


@dataclass
class ProbeRun:
    """One model's probe under one set of settings, merged over its logs."""

    model: str
    settings: dict[str, Any]
    generation: dict[str, Any]
    model_args: dict[str, Any]
    label: str = ""
    logs: list[str] = field(default_factory=list)
    rerun: str = ""
    selection: str = ""
    results: dict[SampleId, ProbeResult] = field(default_factory=dict)
    planned: set[SampleId] = field(default_factory=set)

    @property
    def identity(self) -> dict[str, Any]:
        return self.settings | self.generation | self.model_args

    @property
    def key(self) -> str:
        return json.dumps([self.model, self.identity], sort_keys=True, default=str)

    @property
    def missing(self) -> list[SampleId]:
        return sorted(self.planned - set(self.results), key=str)


def read_probe_runs(locations: LogLocations) -> tuple[list[ProbeRun], list[SkippedLog]]:
    """Every ``gsm8k_memorization`` run at ``locations``; unreadable logs are listed, never
    fatal."""
    runs: dict[str, ProbeRun] = {}
    skipped = []
    for info in list_logs(locations):
        too_large = oversized_member(info.name)
        if too_large is not None:
            skipped.append(SkippedLog(info.name, too_large))
            continue
        try:
            log = read_eval_log(info, header_only=True)
            name = (log.eval.task_registry_name or log.eval.task).rsplit("/", 1)[-1]
            if name != PROBE_TASK:
                continue
            summaries = read_eval_log_sample_summaries(info)
        except Exception as error:  # one unreadable file must not stop the report
            skipped.append(SkippedLog(info.name, f"cannot be read ({type(error).__name__})"))
            continue
        run = ProbeRun(
            model=log.eval.model,
            settings=task_settings(log),
            generation=generation_settings(log),
            model_args=model_args(log),
        )
        run = runs.setdefault(run.key, run)
        run.logs.append(log.location)
        run.rerun = rerun_prefix(log)
        run.selection = sample_selection(log)
        run.planned.update(log.eval.dataset.sample_ids or [s.id for s in summaries])
        for sample in summaries:
            score = (sample.scores or {}).get(PROBE_SCORER)
            if sample.error is not None or score is None or not isinstance(score.value, dict):
                continue  # failed or unscored: its retry counts instead
            values = {m: _measure(score.value.get(m)) for m in MEASURES}
            if any(value is None for value in values.values()):
                continue  # a measure missing, None or not a finite number: unscored
            metadata = sample.metadata or {}
            template = metadata.get("template")
            run.results[sample.id] = ProbeResult(
                source=str(metadata.get("source")),
                part=str(metadata.get("part")),
                key=str(metadata.get("key")),
                template=None if template is None else str(template),
                values={m: float(v) for m, v in values.items() if v is not None},
            )
    return list(runs.values()), skipped


def _measure(value: Any) -> float | None:
    """A probe measure as a finite float, or ``None`` (a log from elsewhere may hold anything:
    ``None``, text, or an integer too large for a float)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


@dataclass
class AccuracyPairs:
    """Per template: accuracy on its GSM8K original, and on each fresh instance."""

    originals: dict[str, float] = field(default_factory=dict)
    fresh: dict[str, list[float]] = field(default_factory=dict)
    template_of: dict[int, str] = field(default_factory=dict)
    """GSM8K test index → template, for pairing with a separate GSM8K run."""


def sample_metadata(run: Run) -> dict[SampleId, dict[str, Any]]:
    """Each sample's metadata as its newest log recorded it (the summaries' short fields)."""
    found: dict[SampleId, dict[str, Any]] = {}
    for location in run.logs:
        for sample in read_eval_log_sample_summaries(location):
            found[sample.id] = dict(sample.metadata or {})
    return found


def accuracy_pairs(fresh_run: Run, gsm8k_run: Run | None) -> AccuracyPairs:
    """Originals and fresh instances of a fresh-dataset run, by template. An original comes
    from the run itself (``instance`` = ``original``) or else from ``gsm8k_run``'s sample of
    the same GSM8K test index."""
    pairs = AccuracyPairs()
    metadata = sample_metadata(fresh_run)
    for sample_id, result in fresh_run.samples.items():
        meta = metadata.get(sample_id, {})
        template = meta.get("template")
        if template is None:
            continue
        template = str(template)
        index = meta.get("original_index")
        if isinstance(index, int) and not isinstance(index, bool):
            pairs.template_of[index] = template
        if meta.get("instance") == ORIGINAL:
            pairs.originals[template] = result.accuracy
        else:
            pairs.fresh.setdefault(template, []).append(result.accuracy)
    if not pairs.originals and gsm8k_run is not None:
        for index, template in pairs.template_of.items():
            sample = gsm8k_run.samples.get(index)
            if sample is not None:
                pairs.originals[template] = sample.accuracy
    return pairs
