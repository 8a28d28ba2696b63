"""A forest plot of run accuracies with their confidence intervals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gsm8k.grading.printable import printable


def forest_plot(report: dict[str, Any], path: Path) -> None:
    """Draw runs sorted by accuracy (best on top), each with its interval, to a PNG/SVG/PDF file."""
    import matplotlib

    matplotlib.use("Agg")
    # Labels are model names and settings from logs: plain text, never TeX (a "$" in a name
    # would otherwise be parsed as mathematics and can stop the plot).
    matplotlib.rcParams["text.parse_math"] = False
    import matplotlib.pyplot as plt

    runs = list(reversed(report["runs"]))  # the report's ranking, best at the top
    labels = [
        f"{r['label']}  (n={r['samples']}{'' if r.get('complete', True) else ', incomplete'})"
        for r in runs
    ]
    accuracy = [100 * r["accuracy"] for r in runs]
    below = [100 * (r["accuracy"] - r["ci_low"]) for r in runs]
    above = [100 * (r["ci_high"] - r["accuracy"]) for r in runs]
    figure, axes = plt.subplots(figsize=(9, 1.2 + 0.6 * len(runs)))
    positions = list(range(len(runs)))
    axes.errorbar(
        accuracy,
        positions,
        xerr=[below, above],
        fmt="o",
        color="tab:blue",
        ecolor="tab:blue",
        elinewidth=2,
        capsize=5,
        markersize=7,
    )
    for y, value in zip(positions, accuracy, strict=True):
        axes.annotate(
            f"{value:.1f}%",
            (value, y),
            textcoords="offset points",
            xytext=(0, 8),
            ha="center",
            fontsize=9,
        )
    axes.set_yticks(positions, [printable(label) for label in labels])
    axes.set_ylim(-0.7, len(runs) - 0.3)
    axes.set_xlim(0, 100)
    axes.set_xlabel(f"GSM8K accuracy, % ({int(100 * report['confidence'])}% confidence interval)")
    title = "GSM8K accuracy by model"
    if not report["ranked"]:
        title += " — settings differ, not comparable"
    axes.set_title(printable(title))
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=150)
    plt.close(figure)
