"""Every number of the contamination report, and what each says.

Signals (each a :class:`gsm8k.contamination.stats.Difference`, positive in the memorization
direction):

* **accuracy drop**: accuracy on a template's GSM8K original minus the mean over its fresh
  instances, paired by template (a ``-T dataset=gsm-symbolic-fresh`` run, with the originals in
  it or in a GSM8K run of the same settings);
* **recitation** (``gsm8k_memorization``): ROUGE-L of the continuation of test texts minus that of
  fresh instances of the same templates, paired by template, for questions and for solutions;
  without fresh texts, test minus train questions (two groups). Exact match and n-gram accuracy
  are reported beside it as supporting measures;
* **train control**: test minus train texts, context for reading the rest (a model trained on
  GSM8K's train split continues train texts well without having seen the test set).

The signals that decide the verdict (the drop and ROUGE-L per part) are tested together: their
p-values are Holm-adjusted so that the chance of any false alarm stays at 5%.
"""

from __future__ import annotations

import shlex
from dataclasses import asdict
from pathlib import Path
from statistics import mean
from typing import Any

from gsm8k.compare.checks import setting_names, who_has_what
from gsm8k.compare.display import shown_values
from gsm8k.compare.family import DATA_FIELDS
from gsm8k.compare.locations import LogLocations
from gsm8k.compare.results import Run
from gsm8k.compare.runs import read_runs
from gsm8k.compare.stats import CONFIDENCE, SIGNIFICANCE
from gsm8k.contamination.logs import (
    ProbeRun,
    accuracy_pairs,
    read_probe_runs,
)
from gsm8k.contamination.probe import PARTS
from gsm8k.contamination.readings import CANNOT_SHOW, overall, supporting_reading, verdict
from gsm8k.contamination.stats import (
    POWER,
    Difference,
    group_difference,
    paired_difference,
)
from gsm8k.data.fresh.samples import FRESH_SOURCE, TEMPLATES_ENV

BASELINE = "gsm8k"
PRIMARY_MEASURE = "rouge_l"
SUPPORTING_MEASURES = ("exact", "ngram")
MEASURE_NAMES = {"rouge_l": "ROUGE-L", "exact": "exact match", "ngram": "n-gram accuracy"}
FRESH_PREFIXES = ("fresh_", "templates", "originals")
"""Settings that name which fresh instances ran and where their originals were read
(``fresh_seed``, ``templates_sha256``, ``originals``, ...): they differ from a GSM8K run's by
design."""


class NotComparable(ValueError):
    """Runs that cannot be read together; ``problems`` says how they differ."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def build(
    locations: LogLocations, model: str | None = None, allow_mismatch: bool = False
) -> dict[str, Any]:
    """The report for one model's fresh-question and probe runs at ``locations``.

    Raises:
        ValueError: no fresh-question or probe run there (or none of ``model``).
        NotComparable: runs of several models, or runs of one kind whose settings differ
            (unless ``allow_mismatch``: then the newest run of each kind is used and the
            differences are listed as warnings).
    """
    scan = read_runs(locations)
    probes, skipped = read_probe_runs(locations)
    fresh_runs = [r for r in scan.runs if _variant(r) == FRESH_SOURCE]
    baselines = [
        r for r in scan.runs if _variant(r) == BASELINE and r.settings.get("split") == "test"
    ]
    models = sorted({r.model for r in fresh_runs} | {p.model for p in probes})
    if model is not None:
        if model not in models:
            held = ", ".join(models) or "none"
            raise ValueError(
                f"--model {model!r}: no fresh-question or probe run of it (models: {held})"
            )
        models = [model]
    if not models:
        unusable = list({s.path: s for s in [*scan.skipped, *skipped]}.values())
        why = (
            f"; {len(unusable)} log(s) skipped, the first: "
            f"{unusable[0].path.removeprefix('file://')}: {unusable[0].reason}"
            if unusable
            else ""
        )
        raise ValueError(
            "no fresh-question run (gsm8k/gsm8k -T dataset=gsm-symbolic-fresh) and no probe run "
            f"(gsm8k/gsm8k_memorization) in the logs{why}"
        )
    if len(models) > 1:
        raise NotComparable(
            [f"the logs hold runs of several models ({', '.join(models)}): pick one with --model"]
        )
    chosen = models[0]
    fresh_runs = [r for r in fresh_runs if r.model == chosen]
    probes = [p for p in probes if p.model == chosen]
    baselines = [r for r in baselines if r.model == chosen]
    problems = _differences(fresh_runs, "fresh-question runs") + _differences(probes, "probe runs")
    fresh_run = fresh_runs[-1] if fresh_runs else None
    probe = probes[-1] if probes else None
    pairs = accuracy_pairs(fresh_run, None) if fresh_run is not None else None
    baseline = None
    if pairs is not None and not pairs.originals:  # originals from a GSM8K run, if any
        baseline, baseline_problems = _baseline(fresh_run, baselines)
        problems += baseline_problems
        pairs = accuracy_pairs(fresh_run, baseline) if fresh_run is not None else None
    if problems and not allow_mismatch:
        raise NotComparable(problems)

    signals: list[dict[str, Any]] = []
    notes = [f"{s.path}: skipped, {s.reason}" for s in [*scan.skipped, *skipped]]
    if fresh_run is not None and pairs is not None:
        drop = paired_difference(pairs.originals, pairs.fresh)
        if drop is None:
            notes.append(
                "the fresh-question run has no template with both its original and a fresh "
                "instance completed: run the originals too (they are part of "
                "-T dataset=gsm-symbolic-fresh) or a GSM8K run of the same settings"
            )
        else:
            signals.append(
                _signal("accuracy", "accuracy drop", "originals", "fresh instances", drop, True)
            )
        if fresh_run.missing:
            notes.append(
                f"fresh-question run: {len(fresh_run.missing)} of {len(fresh_run.planned)} "
                "samples not completed; the signal uses the completed ones (`inspect eval-retry` "
                "completes it)"
            )
    else:
        notes.append(
            "no fresh-question run: the accuracy drop is not measured (run gsm8k/gsm8k "
            "-T dataset=gsm-symbolic-fresh with the same model)"
        )
    if probe is not None:
        signals += _probe_signals(probe)
        if probe.missing:
            notes.append(
                f"probe run: {len(probe.missing)} of {len(probe.planned)} samples not completed; "
                "its signals use the completed ones"
            )
    else:
        notes.append(
            "no probe run: recitation is not measured (run gsm8k/gsm8k_memorization with the same "
            "model)"
        )
    _judge(signals)
    return {
        "model": chosen,
        "confidence": CONFIDENCE,
        "significance": SIGNIFICANCE,
        "power": POWER,
        "signals": signals,
        "overall": overall(signals),
        "cannot_show": list(CANNOT_SHOW),
        "runs": _runs(fresh_run, baseline, probe),
        "warnings": problems,
        "notes": notes,
    }


def _variant(run: Run) -> str | None:
    value = run.settings.get("variant")
    return str(value) if value is not None else None


def _differences(runs: list[Any], kind: str) -> list[str]:
    """One line per setting on which several runs of one kind (``Run`` or ``ProbeRun``: both
    have a label, an identity and logs) differ."""
    if len(runs) < 2:
        return []
    for index, run in enumerate(runs):
        if not run.label:
            run.label = f"{kind.split()[0]} {index + 1}"
    lines = []
    for name in setting_names(runs):
        values = [run.identity.get(name) for run in runs]
        if len(set(shown_values(values))) > 1:
            lines.append(f"{kind} differ in `{name}`: {who_has_what(runs, values)}")
    if not lines:
        lines.append(f"{kind}: {len(runs)} runs of the same settings in separate logs")
    return [
        f"{line} (report one run of each kind: pass its logs only)" for line in lines[:1]
    ] + lines[1:]


def _baseline(fresh: Run | None, baselines: list[Run]) -> tuple[Run | None, list[str]]:
    """The GSM8K run whose settings match the fresh run's (needed when the fresh run lacks the
    originals), with what differs when none matches."""
    if fresh is None or not baselines:
        return None, []
    mismatches = []
    for run in reversed(baselines):
        differing = [
            name
            for name in sorted(set(run.identity) | set(fresh.identity))
            if name not in DATA_FIELDS
            and not name.startswith(FRESH_PREFIXES)
            and str(run.identity.get(name)) != str(fresh.identity.get(name))
        ]
        if not differing:
            return run, []
        mismatches.append(differing)
    shown = ", ".join(f"`{name}`" for name in mismatches[0])
    return baselines[-1], [f"the GSM8K run and the fresh-question run differ in {shown}"]


def _probe_signals(probe: ProbeRun) -> list[dict[str, Any]]:
    signals = []
    by_text: dict[tuple[str, str, str], list[dict[str, float]]] = {}
    templates: dict[tuple[str, str, str], str | None] = {}
    for result in probe.results.values():
        key = (result.source, result.part, result.key)
        by_text.setdefault(key, []).append(result.values)
        templates[key] = result.template
    for part in PARTS:
        texts = {k: v for k, v in by_text.items() if k[1] == part}
        if not texts:
            continue
        for measure in (PRIMARY_MEASURE, *SUPPORTING_MEASURES):
            per_text = {k: mean(v[measure] for v in values) for k, values in texts.items()}
            test = {templates[k] or k[2]: value for k, value in per_text.items() if k[0] == "test"}
            fresh: dict[str, list[float]] = {}
            for k, value in per_text.items():
                if k[0] == "fresh" and templates[k] is not None:
                    fresh.setdefault(str(templates[k]), []).append(value)
            train = [value for k, value in per_text.items() if k[0] == "train"]
            primary = measure == PRIMARY_MEASURE
            name = f"{part} recitation, {MEASURE_NAMES[measure]}"
            paired = paired_difference(test, fresh) if fresh else None
            if paired is not None:
                signals.append(
                    _signal(f"{part}-{measure}-fresh", name, "test", "fresh", paired, primary)
                )
            versus_train = group_difference(list(test.values()), train)
            if versus_train is not None:
                # Decides only where there is no fresh control (no templates).
                signals.append(
                    _signal(
                        f"{part}-{measure}-train",
                        name,
                        "test",
                        "train",
                        versus_train,
                        primary and paired is None,
                    )
                )
    return signals


def _signal(
    key: str, name: str, first: str, second: str, difference: Difference, primary: bool
) -> dict[str, Any]:
    return {
        "key": key,
        "name": name,
        "first": first,
        "second": second,
        "primary": primary,
        **asdict(difference),
    }


def _judge(signals: list[dict[str, Any]]) -> None:
    """Holm-adjusted p-values for the primary signals, and each signal's verdict and reading."""
    primary = sorted((s for s in signals if s["primary"]), key=lambda s: s["p_value"])
    running = 0.0
    for rank, signal in enumerate(primary):
        running = max(running, min(1.0, (len(primary) - rank) * signal["p_value"]))
        signal["p_adjusted"] = running
    for signal in signals:
        if not signal["primary"]:
            signal["p_adjusted"] = None
            signal["verdict"] = "supporting"
            signal["reading"] = supporting_reading(signal)
            continue
        signal["verdict"], signal["reading"] = verdict(signal)


def _runs(fresh: Run | None, baseline: Run | None, probe: ProbeRun | None) -> list[dict[str, Any]]:
    rows = []
    for role, run in (("fresh questions", fresh), ("GSM8K originals", baseline)):
        if run is None:
            continue
        rows.append(
            {
                "role": role,
                "samples": len(run.samples),
                "planned": len(run.planned),
                "logs": list(run.logs),
                "command": _command(run),
                "settings": _shown_settings(run.settings),
                "generation": run.generation,
                "model_args": run.model_args,
            }
        )
    if probe is not None:
        rows.append(
            {
                "role": "memorization probe",
                "samples": len(probe.results),
                "planned": len(probe.planned),
                "logs": list(probe.logs),
                "command": _command(probe),
                "settings": probe.settings,
                "generation": probe.generation,
                "model_args": probe.model_args,
            }
        )
    return rows


def _command(run: Run | ProbeRun) -> str:
    """The command that reproduces a run, with ``$GSM_SYMBOLIC_TEMPLATES`` set where the run read
    its templates through it (no ``-T templates`` on the command)."""
    templates = run.settings.get("templates")
    by_variable = "-T templates=" not in run.rerun and f"{TEMPLATES_ENV}=" not in run.rerun
    command = " ".join(part for part in (run.rerun, run.selection) if part)  # --limit kept
    if isinstance(templates, str) and Path(templates).is_absolute() and by_variable:
        return f"{TEMPLATES_ENV}={shlex.quote(templates)} {command}"
    return command


def _shown_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """A fresh-question run's settings with its dataset by name: the log records the templates
    folder as the dataset's location, which ``templates=`` already shows."""
    if settings.get("variant") == FRESH_SOURCE:
        return {**settings, "dataset": FRESH_SOURCE}
    return settings
