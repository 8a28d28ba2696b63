"""The comparison as Markdown and as JSON."""

from __future__ import annotations

from dataclasses import asdict
from itertools import combinations
from pathlib import Path
from typing import Any

from gsm8k.compare.checks import comparability_problems, setting_names
from gsm8k.compare.display import display_value, id_ranges, short_path
from gsm8k.compare.rerun import rerun_command
from gsm8k.compare.rerun import retry_command as retry_eval
from gsm8k.compare.results import Run
from gsm8k.compare.runs import SkippedLog
from gsm8k.compare.stats import CONFIDENCE, PairedComparison, RunSummary, compare, summarize


def build(
    runs: list[Run],
    allow_mismatch: bool,
    skipped: list[SkippedLog] | None = None,
    log_dir: str | Path | None = None,
) -> dict[str, Any]:
    """Every number of the report; ``ranked`` is false when mismatched runs were not ranked.

    Runs without a single completed sample are listed under ``empty_runs`` and left out of the
    table and the tests. ``log_dir`` shortens the log paths the report shows.
    """
    measured = [run for run in runs if run.samples]
    empty = [run for run in runs if not run.samples]
    summaries = sorted((summarize(run) for run in measured), key=lambda s: -s.accuracy)
    problems = comparability_problems(measured)
    ranked = not problems or allow_mismatch
    by_label = {run.label: run for run in measured}
    pairs: list[PairedComparison] = []
    if ranked:
        for first, second in combinations(summaries, 2):
            pairs.append(compare(by_label[first.label], by_label[second.label]))
    base = log_dir if log_dir is not None else "."
    return {
        "confidence": CONFIDENCE,
        "runs": [asdict(s) for s in summaries],
        "pairwise": [asdict(p) for p in pairs],
        "warnings": problems,
        "ranked": ranked,
        "settings": {run.label: run.identity for run in runs},
        "common_settings": _common_settings(runs),
        "empty_runs": {
            run.label: {short_path(log, base): status for log, status in run.statuses.items()}
            for run in empty
        },
        "skipped_logs": [
            {"path": short_path(s.path, base), "reason": s.reason} for s in skipped or []
        ],
    }


def markdown(report: dict[str, Any], log_dir: str | Path | None = None) -> str:
    """The report for people: warnings first, then the runs table and the pairwise tests."""
    runs = [RunSummary(**r) for r in report["runs"]]
    base = log_dir if log_dir is not None else "."
    lines = ["# GSM8K model comparison", ""]
    if report["warnings"]:
        lines += ["> **Warning: these runs are not directly comparable.** They differ in:", ">"]
        lines += [f"> - {problem}" for problem in report["warnings"]]
        if not report["ranked"]:
            lines += [
                ">",
                "> Not ranked. Re-run with matching settings, or pass "
                "`--allow-mismatch` to rank anyway.",
            ]
        lines.append("")
    lines += _incomplete_block(runs, report.get("empty_runs", {}), base)
    lines += _skipped_block(report.get("skipped_logs", []))
    common = report.get("common_settings", {})
    if common:
        lines += [
            "Settings all runs share: " + ", ".join(f"{k}={v}" for k, v in common.items()),
            "",
        ]
    pal = any(run.execution_error is not None for run in runs)
    lines += [
        f"## Runs ({'ranked by accuracy' if report['ranked'] else 'not ranked'})",
        "",
        "| model | samples | accuracy (95% CI) | strict | format followed | no answer | truncated "
        + ("| program errors " if pal else "")
        + "| maj@k | tokens/sample | reasoning tokens/sample | wall time |",
        "|---|---|---|---|---|---|---|" + ("---|" if pal else "") + "---|---|---|---|",
    ]
    for run in runs:
        majority = (
            f"{run.majority_accuracy:.1%} (k={run.epochs})"
            if run.majority_accuracy is not None
            else "-"
        )
        samples = (
            str(run.samples)
            if run.complete
            else f"{run.samples} of {run.planned_samples} (incomplete)"
        )
        lines.append(
            f"| {run.label} | {samples} "
            f"| {run.accuracy:.1%} ({run.ci_low:.1%}–{run.ci_high:.1%}) "
            f"| {_percent(run.strict_accuracy)} | {_percent(run.format_followed)} "
            f"| {run.no_answer:.1%} | {run.truncated:.1%} "
            + (f"| {_percent(run.execution_error)} " if pal else "")
            + f"| {majority} | {run.tokens_per_sample:.0f} "
            f"| {_number(run.reasoning_tokens_per_sample)} | {run.wall_seconds:.0f} s |"
        )
    if report["pairwise"]:
        lines += [
            "",
            "## Pairwise (paired on common samples)",
            "",
            "| A | B | common | same answer | A − B (95% CI) | only A right | only B right "
            "| McNemar p | verdict |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for pair in (PairedComparison(**p) for p in report["pairwise"]):
            lines.append(
                f"| {pair.first} | {pair.second} | {pair.common_samples} "
                f"| {pair.same_answer} ({pair.same_answer / pair.common_samples:.0%}) "
                f"| {pair.difference:+.1%} ({pair.ci_low:+.1%} to {pair.ci_high:+.1%}) "
                f"| {pair.first_only_correct} | {pair.second_only_correct} "
                f"| {pair.mcnemar_p:.3g} | {pair.verdict} |"
            )
    lines += [
        "",
        "Accuracy intervals are Wilson intervals (one epoch) or t intervals over per-question "
        "means (several epochs; Wilson over the questions when those do not vary). Differences "
        "use a paired t interval (Wilson bounds when every question moved alike); McNemar's "
        "exact test counts the "
        "questions only one model got right (maj@k outcome when epochs > 1). Same answer counts "
        "the common questions where both runs extracted the same answer (both unanswered "
        "included), right or wrong: two copies of one greedy model should agree on all. "
        "Runs are scored by the grader their logs have: `gsm8k_grader` (cot) or `pal_grader` "
        "(pal, where strict and format rates do not apply). Reasoning tokens are as the "
        "provider reported them (`-`: none reported).",
    ]
    return "\n".join(lines) + "\n"


def _incomplete_block(
    runs: list[RunSummary], empty: dict[str, dict[str, str]], base: str | Path
) -> list[str]:
    """Runs whose logs set out to run samples that were never completed, and which they have."""
    entries = []
    for run in runs:
        if run.complete:
            continue
        statuses = ", ".join(
            f"{short_path(log, base)} ({status})" for log, status in run.log_statuses.items()
        )
        failed = [i for i in run.missing_samples if i not in run.unscored_missing]
        steps = []
        if failed:
            running = "started" in run.log_statuses.values()
            steps.append(
                f"Complete it with `{retry_command(run.log_statuses, base, run.environment)}`"
                + (
                    " once it has stopped (a log marked started is still running, or crashed)."
                    if running
                    else "."
                )
            )
        if run.unscored_missing:
            # Not errors, so eval-retry keeps them as they are: run them again instead.
            folder = str(Path(retry_command_log(run.log_statuses, base)).parent)
            count = len(run.unscored_missing)
            steps.append(
                f"{'It has' if failed else 'Its missing are'} {count} sample(s) left unscored by "
                "an engine or sandbox failure, which eval-retry does not re-run; run them again "
                f"with `{rerun_command(run.rerun, run.unscored_missing, folder)}`."
            )
        entries.append(
            f"> - {run.label}: {run.samples} of {run.planned_samples} samples completed "
            f"({id_ranges(run.sample_ids)}); missing {id_ranges(run.missing_samples)}. "
            f"Logs: {statuses}. {' '.join(steps)}"
        )
    for label, logs in empty.items():
        statuses = ", ".join(f"{log} ({status})" for log, status in logs.items())
        entries.append(f"> - {label}: no completed sample, left out. Logs: {statuses}")
    if not entries:
        return []
    return [
        "> **Incomplete runs** (cancelled, crashed, or with failed or unscored samples; numbers "
        "cover the completed samples only):",
        ">",
        *entries,
        "",
    ]


def retry_command(
    statuses: dict[str, str], base: str | Path, environment: dict[str, str] | None = None
) -> str:
    """``inspect eval-retry`` on a run's newest unfinished log, writing beside it (without
    ``--log-dir`` the retry would go to ./logs, away from the logs it completes), with the data
    ``environment`` the run read its files through. Runs verbatim in a new shell."""
    log = retry_command_log(statuses, base)
    return retry_eval(log, str(Path(log).parent), environment)


def retry_command_log(statuses: dict[str, str], base: str | Path) -> str:
    """The run's newest unfinished log (else its newest), as a path from ``base``."""
    unfinished = [log for log, status in statuses.items() if status != "success"]
    newest = (unfinished or list(statuses))[-1]
    relative = short_path(newest, base)
    return relative if Path(relative).is_absolute() else str(Path(base) / relative)


def _skipped_block(skipped: list[dict[str, str]]) -> list[str]:
    if not skipped:
        return []
    return [
        "> **Logs skipped:**",
        ">",
        *(f"> - {entry['path']}: {entry['reason']}" for entry in skipped),
        "",
    ]


def _common_settings(runs: list[Run]) -> dict[str, str]:
    """Settings with one value across all runs, as shown (paths relative to the working
    directory when below it, hashes shortened)."""
    common = {}
    for name in setting_names(runs):
        values = {display_value(run.identity.get(name)) for run in runs}
        if len(values) == 1:
            [value] = values
            if value != "-":
                common[name] = _relative(value)
    return common


def _relative(value: str) -> str:
    if value.startswith("/"):
        return short_path(value, Path.cwd())
    return value


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"
