"""The family report as Markdown and as a plot of the drops (``gsm8k-family``'s outputs)."""

from __future__ import annotations

import shlex
from typing import Any

from gsm8k.compare.rerun import rerun_command
from gsm8k.grading.printable import printable
from gsm8k.settings.commands import inspect_program


def markdown(report: dict[str, Any]) -> str:
    """The report as Markdown."""
    lines = [f"# GSM family report: {report['model']}", ""]
    if report["warnings"]:
        lines += ["> **Warning: these runs cannot be paired as they are.**", ">"]
        lines += [f"> - {problem}" for problem in report["warnings"]]
        if not report["paired"]:
            lines += [
                ">",
                "> No drops computed. Re-run with matching settings, or pass `--allow-mismatch`.",
            ]
        lines.append("")
    if report.get("notes"):
        lines += ["> **Notes:**", ">"]
        lines += [f"> - {note}" for note in report["notes"]]
        lines.append("")
    settings = ", ".join(f"{k}={v}" for k, v in report["settings"].items() if v is not None)
    generation = ", ".join(f"{k}={v}" for k, v in report["generation"].items())
    lines += [f"Settings: {settings}" + (f"; generation: {generation}" if generation else ""), ""]
    lines += ["## Accuracy and paired drop from GSM8K", ""]
    lines += _table([report["baseline"], *report["variants"]])
    lines += _unpaired_block(report.get("unpaired", []), report.get("model"))
    if report["perturbations"]:
        lines += ["", "## GSM-Plus by perturbation", ""]
        lines += _table(report["perturbations"])
    for spread in report["symbolic_spread"]:
        lines += [
            "",
            f"## {spread['variant']}: accuracy across {spread['draws']} draws",
            "",
            _draw_coverage(spread) + f" Mean {spread['mean']:.1%}, "
            f"sd {spread['sd']:.1%}, min {spread['min']:.1%}, max {spread['max']:.1%}.",
            "",
            "| draw | " + " | ".join(_draw_names(spread)) + " |",
            "|---|" + "---|" * len(spread["per_draw"]),
            "| accuracy | " + " | ".join(f"{a:.0%}" for a in spread["per_draw"]) + " |",
        ]
    lines += [
        "",
        "Drop = GSM8K accuracy − variant accuracy on the same original questions (per original: "
        "the mean over its variant items), with a paired t interval; worse/better count the "
        "originals whose variant mean fell below/rose above their GSM8K result; p is the exact "
        "sign test on those counts (McNemar's exact test with one item per original). Accuracy "
        "intervals are Wilson intervals; when an original has several items (marked c), at the "
        "effective sample size implied by the standard error clustered by original question, "
        "with Student's t on originals − 1 degrees of freedom: the log's own wilson_ci.",
    ]
    return "\n".join(lines) + "\n"


MAX_IDS = 40
"""Sample ids listed in one ``--sample-id`` before the list is cut (the JSON has them all)."""


def _unpaired_block(unpaired: list[dict[str, Any]], model: str | None) -> list[str]:
    """Why a drop is missing or covers fewer originals: the variant's items come from GSM8K
    questions the GSM8K run did not complete, and the command that runs those."""
    if not unpaired:
        return []
    lines = [
        "",
        "Drops pair only the originals both runs completed (`-`: none in common). To pair the "
        "rest, run GSM8K on them with the GSM8K run's model and settings:",
        "",
    ]
    for entry in unpaired:
        more = len(entry["missing"]) - MAX_IDS
        prefix = entry.get("command") or (
            f"{inspect_program()} eval gsm8k/gsm8k --model {shlex.quote(model or 'MODEL')}"
        )
        command = rerun_command(prefix, entry["missing"][:MAX_IDS], entry["log_dir"])
        lines.append(
            f"- {entry['variant']}: {len(entry['missing'])} of its {entry['originals']} originals "
            f"lack a GSM8K result: `{command}`"
            + (f" (and {more} more ids, in the JSON report)" if more > 0 else "")
        )
    lines += [
        "",
        "On a budget, run a variant on N originals with all their items by id pattern, e.g. "
        "`--sample-id '000[0-9]-*'` (GSM8K test questions 0–9), and GSM8K with `--limit 10`.",
    ]
    return lines


def _draw_names(spread: dict[str, Any]) -> list[str]:
    return list(spread.get("names") or (str(i) for i in range(len(spread["per_draw"]))))


def _draw_coverage(spread: dict[str, Any]) -> str:
    """Whether the draws can be compared: each one instance of the same templates, or (a run of
    part of the set) draws over different templates, whose mean is not the accuracy."""
    templates, every = spread.get("templates") or [], spread.get("all_templates") or 0
    if all(count == every for count in templates):
        return f"Each draw is one instance of every template in the run ({every})."
    return (
        f"A partial run: draws cover {min(templates)} to {max(templates)} of the run's {every} "
        "templates, so they differ in which questions they ask, and their mean is not the "
        "accuracy; run whole draws (all templates, `--sample-id '*-03'`) to compare them."
    )


def _table(rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| dataset | samples | originals | accuracy (95% CI) | drop (95% CI) | worse | better "
        "| p | verdict |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        drop = row["drop"]
        accuracy = f"{row['accuracy']:.1%} ({row['ci_low']:.1%}–{row['ci_high']:.1%})"
        if row["interval"] == "clustered":
            accuracy += " c"
        if drop is None:
            paired = "| - | - | - | - | - |"
        else:
            paired = (
                f"| {100 * drop['drop']:+.1f} pp ({100 * drop['ci_low']:+.1f} to "
                f"{100 * drop['ci_high']:+.1f}) | {drop['worse']} | {drop['better']} "
                f"| {drop['p_value']:.3g} | {drop['verdict']} |"
            )
        lines.append(
            f"| {row['name']} | {row['samples']} | {row['originals']} | {accuracy} {paired}"
        )
    return lines


def drop_plot(report: dict[str, Any], path: Any) -> None:
    """Each variant's (and perturbation's) drop with its interval, to a PNG/SVG/PDF file."""
    import matplotlib

    matplotlib.use("Agg")
    # Labels are model names and settings from logs: plain text, never TeX (a "$" in a name
    # would otherwise be parsed as mathematics and can stop the plot).
    matplotlib.rcParams["text.parse_math"] = False
    import matplotlib.pyplot as plt

    rows = [r for r in [*report["variants"], *report["perturbations"]] if r["drop"]]
    rows.reverse()
    figure, axes = plt.subplots(figsize=(9, 1.4 + 0.45 * max(1, len(rows))))
    positions = list(range(len(rows)))
    drops = [100 * r["drop"]["drop"] for r in rows]
    below = [100 * (r["drop"]["drop"] - r["drop"]["ci_low"]) for r in rows]
    above = [100 * (r["drop"]["ci_high"] - r["drop"]["drop"]) for r in rows]
    axes.errorbar(drops, positions, xerr=[below, above], fmt="o", capsize=4, color="tab:red")
    axes.axvline(0, color="grey", linewidth=1)
    axes.set_yticks(positions, [f"{r['name']} (n={r['drop']['originals']})" for r in rows])
    axes.set_xlabel(
        f"drop from GSM8K, percentage points ({int(100 * report['confidence'])}% CI; "
        "right = worse on the variant)"
    )
    axes.set_title(f"GSM family: {printable(report['model'])}")
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=150)
    plt.close(figure)
