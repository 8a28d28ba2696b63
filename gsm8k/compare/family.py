"""The GSM family report: how much of a model's GSM8K score survives each variant.

Given a GSM8K run and runs of the same model and settings on variants (GSM-Symbolic, GSM-Plus,
MGSM, Platinum, ...), every variant item is paired with the GSM8K test question it was made from
(the sample id starts with the GSM8K index: ``473``, ``0473-07``, ``0473-critical-thinking``):

* accuracy per variant with a 95% interval: Wilson when each original has one item, else a
  Wilson interval at the effective sample size that the standard error clustered by original
  question implies (instances of one template are not independent draws);
* the paired drop on the same originals: per original, GSM8K correctness minus the mean over its
  variant items; the mean drop with a paired t interval, and an exact sign test on the originals
  that got worse versus better (McNemar's exact test when each original has one item);
* GSM-Symbolic: accuracy per instance index (one full draw of every template), and the spread of
  those accuracies (mean, standard deviation, min, max) as the GSM-Symbolic paper reports it;
* GSM-Plus: a row per perturbation type; MGSM: a row per language (one run per language).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from statistics import mean, stdev
from typing import Any

from inspect_ai.log import read_eval_log
from scipy import stats

from gsm8k.compare.family_render import drop_plot, markdown
from gsm8k.compare.family_stats import (
    Drop,
    clustered_interval,
    clustered_standard_error,
    paired_drop,
)
from gsm8k.compare.results import Run
from gsm8k.compare.runs import COMPARABILITY_FIELDS
from gsm8k.compare.stats import CONFIDENCE
from gsm8k.grading.printable import printable, say

BASELINE = "gsm8k"
DATA_FIELDS = frozenset(
    {
        "dataset",
        "dataset_revision",
        "dataset_sha256",
        "split",
        "fewshot_dataset",
        "fewshot_revision",
        "variant",
        "language",
        "paired_with_gsm8k",
    }
)
"""Settings that name the data, so they differ between variants by design."""


@dataclass(frozen=True)
class Item:
    """One evaluated sample: the GSM8K question it pairs with, its group, and its accuracy."""

    gsm8k_index: int
    group: str | None
    """Instance (``07``) for GSM-Symbolic, perturbation (``critical-thinking``) for GSM-Plus."""
    accuracy: float


@dataclass
class FamilyRun:
    run: Run
    variant: str
    language: str | None
    paired: bool
    items: list[Item] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.variant


@dataclass(frozen=True)
class Row:
    name: str
    samples: int
    originals: int
    accuracy: float
    ci_low: float
    ci_high: float
    interval: str
    """``wilson`` or ``clustered`` (normal interval, standard error clustered by original)."""
    clustered_se: float
    drop: Drop | None


@dataclass(frozen=True)
class Spread:
    """GSM-Symbolic: accuracy of each instance index (one draw of every template)."""

    variant: str
    draws: int
    mean: float
    sd: float
    min: float
    max: float
    per_draw: list[float]
    names: list[str] = field(default_factory=list)
    """Each draw's instance index as the sample ids give it (``0107-03``: draw ``03``)."""
    templates: list[int] = field(default_factory=list)
    """Templates (originals) each draw covers."""
    all_templates: int = 0
    """Templates in the run; a draw covering fewer is partial (``--limit``, ``--sample-id``)."""


def family_runs(runs: list[Run]) -> list[FamilyRun]:
    """Each run with its variant name (from the log's metadata) and its items."""
    result = []
    for run in runs:
        metadata = read_eval_log(run.logs[-1], header_only=True).eval.metadata or {}
        variant = metadata.get("variant")
        family = FamilyRun(
            run,
            str(variant) if variant else f"unknown ({run.settings.get('dataset')})",
            metadata.get("language"),
            bool(metadata.get("paired_with_gsm8k")) and variant is not None,
        )
        if family.paired:
            family.items = [
                _item(str(sample_id), s.accuracy) for sample_id, s in run.samples.items()
            ]
        result.append(family)
    return result


def _item(sample_id: str, accuracy: float) -> Item:
    """The GSM8K index and group a sample id names (``473``, ``0473-07``, ``0473-distraction``)."""
    index, _, group = sample_id.partition("-")
    return Item(int(index), group or None, accuracy)


def problems(runs: list[FamilyRun]) -> list[str]:
    """Why these runs cannot be paired: different models, settings, or unpaired samples."""
    found = []
    models = sorted({f.run.model for f in runs})
    if len(models) > 1:
        found.append(f"the runs are of different models ({', '.join(models)})")
    for name in [n for n in COMPARABILITY_FIELDS if n not in DATA_FIELDS]:
        values = {str(f.run.settings.get(name)) for f in runs}
        if len(values) > 1:
            detail = "; ".join(f"{f.label}: {f.run.settings.get(name)}" for f in runs)
            found.append(f"`{name}` differs ({detail})")
    generations = {str(sorted(f.run.generation.items())) for f in runs}
    if len(generations) > 1:
        detail = "; ".join(f"{f.label}: {f.run.generation}" for f in runs)
        found.append(f"generation settings differ ({detail})")
    model_args = {str(sorted(getattr(f.run, "model_args", {}).items())) for f in runs}
    if len(model_args) > 1:
        found.append("the runs' model arguments (-M) differ")
    if len({f.run.epochs for f in runs}) > 1:
        found.append("the runs have different numbers of epochs")
    for f in runs:
        if not f.paired:
            found.append(f"{f.label}: its samples are not GSM8K test questions or their variants")
    labels = [f.label for f in runs]
    for label in sorted({x for x in labels if labels.count(x) > 1}):
        found.append(f"several runs of {label} (one per variant, please)")
    return found


def build(runs: list[Run], allow_mismatch: bool = False) -> dict[str, Any]:
    """Every number of the family report.

    Raises:
        ValueError: when there is no GSM8K run to pair the variants with.
    """
    families = family_runs(runs)
    baseline = next((f for f in families if f.variant == BASELINE and f.paired), None)
    if baseline is None:
        found = ", ".join(f.label for f in families) or "none"
        raise ValueError(
            f"no GSM8K run (dataset gsm8k, test split) among the runs ({found}); the family "
            "report pairs each variant with GSM8K."
        )
    if not baseline.items:
        raise ValueError(
            f"the GSM8K run ({baseline.label}) has no completed sample: complete it (its logs: "
            f"{', '.join(baseline.run.logs)}) before pairing variants with it"
        )
    issues = problems(families)
    paired = not issues or allow_mismatch
    gold = {item.gsm8k_index: item.accuracy for item in baseline.items}
    notes = [_incomplete_note(f) for f in families if f.paired and f.run.missing]
    variants = sorted(
        (f for f in families if f is not baseline and f.paired and f.items),
        key=lambda f: (f.variant.startswith("mgsm"), f.variant),
    )
    if not variants:
        notes.append(
            f"no variant run of {baseline.run.model} to pair with its GSM8K run: run one with "
            "-T dataset=gsm-symbolic-p2 (or another variant) and the same settings"
        )
    rows, perturbations, spreads = [], [], []
    for family in variants:
        rows.append(asdict(_row(family.variant, family.items, gold if paired else None)))
        if family.variant.startswith("gsm-plus"):
            by_type: dict[str, list[Item]] = defaultdict(list)
            for item in family.items:
                by_type[item.group or "-"].append(item)
            for name in sorted(by_type):
                row = _row(f"{family.variant} {name}", by_type[name], gold if paired else None)
                perturbations.append(asdict(row))
        if family.variant.startswith("gsm-symbolic"):
            spread = _spread(family)
            if spread is not None:
                spreads.append(asdict(spread))
    return {
        "confidence": CONFIDENCE,
        "unpaired": unpaired_originals(baseline, variants),
        "model": baseline.run.model,
        "settings": {k: v for k, v in baseline.run.settings.items() if k not in DATA_FIELDS},
        "generation": baseline.run.generation,
        "warnings": issues,
        "notes": notes,
        "paired": paired,
        "baseline": asdict(_row(BASELINE, baseline.items, None)),
        "variants": rows,
        "perturbations": perturbations,
        "symbolic_spread": spreads,
    }


def _incomplete_note(family: FamilyRun) -> str:
    """What a run lacks: the report uses the samples it completed, or leaves it out."""
    run = family.run
    done, planned = len(run.samples), len(run.planned)
    if not done:
        return f"{family.label}: no completed sample of {planned}; left out of the report"
    return (
        f"{family.label}: {done} of {planned} samples completed; its row uses those "
        f"({len(run.missing)} missing: complete the run with `inspect eval-retry`)"
    )


def unpaired_originals(baseline: FamilyRun, variants: list[FamilyRun]) -> list[dict[str, Any]]:
    """Per variant, the GSM8K questions its items come from that the GSM8K run did not
    complete (a ``--limit``-ed run of either takes different originals), with the
    ``--sample-id`` values that complete the pairing: the GSM8K ids to run, and the variant's
    ids (all items of each original the GSM8K run has) to run."""
    done = {item.gsm8k_index for item in baseline.items}
    result = []
    for family in variants:
        originals = {item.gsm8k_index for item in family.items}
        missing = sorted(originals - done)
        if not missing:
            continue
        result.append(
            {
                "variant": family.variant,
                "language": family.language,
                "originals": len(originals),
                "missing": missing,
                "log_dir": baseline.run.logs[-1].removeprefix("file://").rpartition("/")[0],
                "command": baseline.run.rerun,
            }
        )
    return result


def _row(name: str, items: list[Item], gold: dict[int, float] | None) -> Row:
    if not items:
        raise ValueError(f"{name}: no completed samples")
    accuracy = mean(item.accuracy for item in items)
    clusters: dict[int, list[float]] = defaultdict(list)
    for item in items:
        clusters[item.gsm8k_index].append(item.accuracy)
    se = clustered_standard_error(list(clusters.values()))
    if all(len(values) == 1 for values in clusters.values()) and all(
        item.accuracy in (0.0, 1.0) for item in items
    ):
        interval = stats.binomtest(round(sum(i.accuracy for i in items)), len(items))
        ci = interval.proportion_ci(CONFIDENCE, "wilson")
        low, high, kind = float(ci.low), float(ci.high), "wilson"
    else:
        low, high = clustered_interval(clusters)
        kind = "clustered"
    return Row(
        name=name,
        samples=len(items),
        originals=len(clusters),
        accuracy=accuracy,
        ci_low=low,
        ci_high=high,
        interval=kind,
        clustered_se=se,
        drop=None if gold is None else paired_drop(clusters, gold),
    )


def _spread(family: FamilyRun) -> Spread | None:
    draws: dict[str, list[float]] = defaultdict(list)
    covered: dict[str, set[int]] = defaultdict(set)
    for item in family.items:
        if item.group is not None:
            draws[item.group].append(item.accuracy)
            covered[item.group].add(item.gsm8k_index)
    if not draws:
        return None
    names = sorted(draws)
    per_draw = [mean(draws[k]) for k in names]
    return Spread(
        variant=family.variant,
        draws=len(per_draw),
        mean=mean(per_draw),
        sd=stdev(per_draw) if len(per_draw) > 1 else 0.0,
        min=min(per_draw),
        max=max(per_draw),
        per_draw=per_draw,
        names=names,
        templates=[len(covered[k]) for k in names],
        all_templates=len(set().union(*covered.values())),
    )


def main(argv: list[str] | None = None) -> int:
    """``gsm8k-family LOG_DIR``: the family report for one model's GSM8K and variant runs."""
    import argparse
    import json
    import sys
    from pathlib import Path

    from gsm8k.compare.locations import add_selection_arguments
    from gsm8k.compare.outputs import first_output_problem
    from gsm8k.compare.runs import load_runs, select_runs

    parser = argparse.ArgumentParser(
        prog="gsm8k-family",
        description="Pair one model's GSM-family runs with its GSM8K run: accuracy per variant, "
        "the paired drop on the same original questions, GSM-Symbolic's spread across draws.",
    )
    parser.add_argument(
        "log_dir",
        nargs="*",
        default=["logs"],
        help="where the Inspect logs are: folders, log files or URIs such as s3://bucket/logs "
        "(default: logs)",
    )
    parser.add_argument("--png", type=Path, help="write a plot of the drops here")
    parser.add_argument("--json", type=Path, help="write the report's numbers here as JSON")
    parser.add_argument(
        "--allow-mismatch",
        action="store_true",
        help="pair runs even when their models or settings differ",
    )
    add_selection_arguments(parser, variant=False)
    args = parser.parse_args(argv)
    problem = first_output_problem({"--json": args.json, "--png": args.png})
    if problem:
        say("gsm8k-family", f"{problem}")
        return 2
    try:  # a location that cannot be read is a ValueError too (LogLocationError)
        runs = select_runs(load_runs(args.log_dir, "gsm8k-family"), args.model, None)
        report = build(runs, args.allow_mismatch)
    except ValueError as error:
        say("gsm8k-family", f"{error}")
        return 2
    sys.stdout.write(printable(markdown(report), lines=True))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=str) + "\n", encoding="utf-8")
    if args.png:
        drop_plot(report, args.png)
    return 0 if report["paired"] else EXIT_NOT_PAIRED


EXIT_NOT_PAIRED = 3


if __name__ == "__main__":
    raise SystemExit(main())
