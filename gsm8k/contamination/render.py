"""The contamination report as Markdown and as a plot of the signals (``gsm8k-contamination``)."""

from __future__ import annotations

from typing import Any

from gsm8k.grading.printable import printable

VERDICT_TITLES = {
    "memorization indicated": "Memorization indicated",
    "no evidence of memorization": "No evidence of memorization at this size",
    "inconclusive": "Inconclusive",
}


def markdown(report: dict[str, Any]) -> str:
    """The report as Markdown: the verdict first, then each signal, its limits and the runs."""
    overall = report["overall"]
    lines = [f"# Contamination report: {report['model']}", ""]
    if report["warnings"]:
        lines += ["> **Warning: runs that are not comparable were read together.**", ">"]
        lines += [f"> - {problem}" for problem in report["warnings"]]
        lines.append("")
    lines += [
        f"**Overall: {VERDICT_TITLES[overall['verdict']]}.** {_capital(overall['reading'])}",
        "",
    ]
    primary = [s for s in report["signals"] if s["primary"]]
    supporting = [s for s in report["signals"] if not s["primary"]]
    if primary:
        lines += ["## Signals", ""]
        lines += [f"- **{_title(s)}: {s['verdict']}.** {_capital(s['reading'])}" for s in primary]
        lines += ["", *_table(primary), ""]
    if supporting:
        lines += ["## Supporting measures", ""]
        lines += [
            "Not part of the verdict: exact match and n-gram accuracy beside ROUGE-L, and the "
            "train control where fresh texts decide.",
            "",
            *_table(supporting),
            "",
        ]
    lines += ["## What this cannot show", ""]
    lines += [f"- {limit}" for limit in report["cannot_show"]]
    if report["notes"]:
        lines += ["", "## Notes", ""]
        lines += [f"- {note}" for note in report["notes"]]
    lines += ["", "## Runs", ""]
    for run in report["runs"]:
        settings = ", ".join(
            f"{k}={v}" for k, v in {**run["settings"], **run["model_args"]}.items() if v is not None
        )
        generation = ", ".join(f"{k}={v}" for k, v in run["generation"].items())
        lines += [
            f"**{run['role']}**: {run['samples']} of {run['planned']} samples completed, "
            f"{len(run['logs'])} log(s).",
            "",
            f"Settings: {settings}" + (f"; generation: {generation}" if generation else ""),
            "",
            "```",
            run["command"],
            "```",
            "",
        ]
    lines += [
        "Each difference is the first minus the second (positive: the memorization direction), "
        f"with a {report['confidence']:.0%} interval. Paired signals have one difference per "
        "template (the original's value minus the mean over its fresh instances): a paired t "
        "interval over templates, so instances of one template are never counted as independent, "
        "and a sign-flip permutation test over templates. Test against train compares different "
        "questions: Welch's interval and a label-permutation test. 'Detectable' is the smallest "
        f"difference found {report['power']:.0%} of the time at the two-sided "
        f"{report['significance']:.0%} level, from the observed spread (never below six "
        "templates moving by the whole scale). Signals in the verdict are Holm-adjusted "
        "together; see docs/contamination.md.",
    ]
    return "\n".join(lines) + "\n"


def _table(signals: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| signal | compared | units | first | second | difference (95% CI) | p | detectable |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for s in signals:
        fmt = "{:.1%}" if s["key"] == "accuracy" else "{:.3f}"
        unit = "templates" if s["design"] == "paired" else "texts"
        p = s["p_value"] if s["p_adjusted"] is None else s["p_adjusted"]
        lines.append(
            f"| {s['name']} | {s['first']} vs {s['second']} | {s['units']} {unit} | "
            f"{fmt.format(s['first_value'])} | {fmt.format(s['second_value'])} | "
            f"{100 * s['difference']:+.1f} ({100 * s['ci_low']:+.1f} to {100 * s['ci_high']:+.1f}) "
            f"| {p:.3g} | {100 * s['detectable']:.1f} |"
        )
    return lines


def _title(signal: dict[str, Any]) -> str:
    return f"{signal['name']} ({signal['first']} vs {signal['second']})"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def signal_plot(report: dict[str, Any], path: Any) -> None:
    """Each signal's difference with its interval and detectable size, to a PNG/SVG/PDF file."""
    import matplotlib

    matplotlib.use("Agg")
    # Labels are model names and settings from logs: plain text, never TeX (a "$" in a name
    # would otherwise be parsed as mathematics and can stop the plot).
    matplotlib.rcParams["text.parse_math"] = False
    import matplotlib.pyplot as plt

    rows = list(reversed(report["signals"]))
    figure, axes = plt.subplots(figsize=(9, 1.6 + 0.45 * max(1, len(rows))))
    positions = list(range(len(rows)))
    for position, s in zip(positions, rows, strict=True):
        colour = "tab:red" if s["verdict"] == "memorization indicated" else "tab:blue"
        if not s["primary"]:
            colour = "tab:grey"
        difference = 100 * s["difference"]
        axes.errorbar(
            [difference],
            [position],
            xerr=[[difference - 100 * s["ci_low"]], [100 * s["ci_high"] - difference]],
            fmt="o",
            capsize=4,
            color=colour,
        )
        axes.plot([100 * s["detectable"]], [position], marker="|", markersize=14, color="black")
    axes.axvline(0, color="grey", linewidth=1)
    axes.set_yticks(positions, [f"{s['name']}: {s['first']} − {s['second']}" for s in rows])
    axes.set_xlabel(
        f"difference, points ({report['confidence']:.0%} CI; right = memorization direction; "
        "| = detectable)"
    )
    model = printable(report["model"])  # an escape in a name is no glyph of any font
    axes.set_title(f"Contamination signals: {model} ({report['overall']['verdict']})")
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=150)
    plt.close(figure)
