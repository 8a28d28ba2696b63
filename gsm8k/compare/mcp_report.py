"""``gsm8k-compare --mcp``: does an MCP server help the model? One model, with and without it.

Reads the pair (see :mod:`gsm8k.compare.mcp_pair`) as one experiment and reports, for each side:
accuracy with its Wilson interval, the extraction-failure rate (no answer found), tool calls per
sample and the share of calls that failed, tokens (input and output) per sample and per correct
answer and, given prices, their cost; the server's start-up per sample apart from the solving
time, the solving time per sample and per correct answer, and the run's wall time. Then the
paired difference with its interval and exact McNemar p (the same statistics as the ordinary
comparison), the questions solved only with the server and only without it, the smallest
effect this many questions could detect, and a verdict: ``helps``, ``hurts`` or ``no effect
detectable at this n``. Samples the server failed (unscored) are listed with the command that
runs them again.

The smallest detectable effect is the paired difference a two-sided test at 5% would find with
80% power, ``(z(0.975) + z(0.8)) * sqrt(d / n)``, where ``d`` is the share of questions that came
out differently with and without the server (at least one question in ``n``: with none, the
least this ``n`` can show).

A side with a server whose model made no tool call gets a line saying so: the pair then measures
what offering the tools did (their descriptions in the prompt), not what using them did.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from scipy import stats as scipy_stats

from gsm8k.compare.display import id_ranges
from gsm8k.compare.mcp_pair import Pair, SampleUse
from gsm8k.compare.rerun import rerun_command
from gsm8k.compare.results import Run, SampleId, id_order
from gsm8k.compare.stats import CONFIDENCE, SIGNIFICANCE, compare, summarize

POWER = 0.8
VERDICTS = ("helps", "hurts", "no effect detectable at this n")


@dataclass(frozen=True)
class Prices:
    """US dollars per million input and per million output tokens (``--prices IN,OUT``)."""

    input: float
    output: float

    def cost(self, input_tokens: float, output_tokens: float) -> float:
        return (input_tokens * self.input + output_tokens * self.output) / 1_000_000


def parse_prices(text: str) -> Prices:
    """``IN,OUT`` in dollars per million tokens.

    Raises:
        ValueError: naming ``--prices`` and the form it takes.
    """
    parts = text.split(",")
    try:
        values = [float(part) for part in parts]
    except ValueError:
        values = []
    if len(values) != 2 or not all(math.isfinite(v) and v >= 0 for v in values):
        raise ValueError(
            f"--prices {text!r}: give the price per million input and per million output tokens "
            "in dollars, as IN,OUT (e.g. --prices 0.15,0.60)"
        )
    return Prices(values[0], values[1])


@dataclass(frozen=True)
class Side:
    """One run of the pair, as the report shows it."""

    label: str
    samples: int
    accuracy: float
    ci_low: float
    ci_high: float
    extraction_failure: float
    tool_calls_per_sample: float
    tool_error_rate: float | None
    """Failed calls over all calls; ``None`` with no calls."""
    tokens_per_sample: float
    tokens_per_correct: float | None
    input_tokens_per_sample: float
    output_tokens_per_sample: float
    cost_per_sample: float | None
    """Dollars, given ``--prices``; else ``None``."""
    cost_per_correct: float | None
    start_seconds_per_sample: float | None
    """The server's start-up (its wait for a turn included); ``None`` without a server."""
    solving_seconds_per_sample: float
    """Wall time without the server's start-up."""
    solving_seconds_per_correct: float | None
    seconds_per_sample: float
    """Wall time, start to score, server start-up included."""
    run_seconds: float
    """The run's own wall time, from its logs' start to end (its retries added, time two logs
    share counted once): with samples run at once, what the user waited for the side."""
    unscored: list[SampleId]
    rerun: str
    server_died: int = 0
    """Samples graded after their server died during or because of the model's calls."""


def side(
    run: Run,
    use: dict[tuple[SampleId, int], SampleUse],
    folder: str,
    prices: Prices | None = None,
) -> Side:
    """The figures of one run over its completed samples."""
    summary = summarize(run)
    completed = [
        (sample_id, epoch + 1, result)
        for sample_id, sample in run.samples.items()
        for epoch, result in enumerate(sample.epochs)
    ]
    used = [use.get((sample_id, epoch), SampleUse(0, 0, 0.0)) for sample_id, epoch, _ in completed]
    correct = sum(result.correct for _, _, result in completed)
    calls = sum(u.calls for u in used)
    tokens = sum(result.tokens for _, _, result in completed)
    seconds = sum(u.seconds for u in used)
    starts = [u.start_seconds for u in used if u.start_seconds is not None]
    solving = seconds - sum(starts)
    input_tokens = sum(u.input_tokens for u in used)
    output_tokens = sum(u.output_tokens for u in used)
    cost = prices.cost(input_tokens, output_tokens) if prices else None
    unscored = [i for i in run.missing if i in run.unscored]
    return Side(
        label=run.label,
        samples=summary.samples,
        accuracy=summary.accuracy,
        ci_low=summary.ci_low,
        ci_high=summary.ci_high,
        extraction_failure=summary.no_answer,
        tool_calls_per_sample=calls / len(completed),
        tool_error_rate=sum(u.errors for u in used) / calls if calls else None,
        tokens_per_sample=tokens / len(completed),
        tokens_per_correct=tokens / correct if correct else None,
        input_tokens_per_sample=input_tokens / len(completed),
        output_tokens_per_sample=output_tokens / len(completed),
        cost_per_sample=cost / len(completed) if cost is not None else None,
        cost_per_correct=cost / correct if cost is not None and correct else None,
        start_seconds_per_sample=sum(starts) / len(starts) if starts else None,
        solving_seconds_per_sample=solving / len(completed),
        solving_seconds_per_correct=solving / correct if correct else None,
        seconds_per_sample=seconds / len(completed),
        run_seconds=run.wall_seconds,
        unscored=unscored,
        rerun=rerun_command(run.rerun, unscored, folder) if unscored and run.rerun else "",
        server_died=sum(u.server_died for u in used),
    )


def smallest_detectable(discordant: int, common: int) -> float:
    """The smallest paired difference (a share of questions) detectable at 5%, 80% power."""
    share = max(discordant, 1) / common
    z = float(scipy_stats.norm.ppf(1 - SIGNIFICANCE / 2) + scipy_stats.norm.ppf(POWER))
    return min(1.0, z * math.sqrt(share / common))


def build(pair: Pair, folder: str | Path = ".", prices: Prices | None = None) -> dict[str, Any]:
    """Every figure of the report, as plain values (the JSON output)."""
    with_run, without_run = pair.with_server, pair.without
    paired = compare(with_run, without_run)
    common = sorted(set(with_run.samples) & set(without_run.samples), key=id_order)
    only_with = [i for i in common if _right(with_run, i) and not _right(without_run, i)]
    only_without = [i for i in common if _right(without_run, i) and not _right(with_run, i)]
    detectable = smallest_detectable(len(only_with) + len(only_without), len(common))
    if paired.mcnemar_p < SIGNIFICANCE and paired.difference > 0:
        verdict = VERDICTS[0]
    elif paired.mcnemar_p < SIGNIFICANCE and paired.difference < 0:
        verdict = VERDICTS[1]
    else:
        verdict = VERDICTS[2]
    return {
        "server": pair.server,
        "model": with_run.model,
        "confidence": CONFIDENCE,
        "prices_per_million_tokens": asdict(prices) if prices else None,
        "with_server": asdict(side(with_run, pair.with_use, str(folder), prices)),
        "without_server": asdict(side(without_run, pair.without_use, str(folder), prices)),
        "common_samples": len(common),
        "difference": paired.difference,
        "difference_ci": [paired.ci_low, paired.ci_high],
        "mcnemar_p": paired.mcnemar_p,
        "solved_only_with_server": only_with,
        "solved_only_without_server": only_without,
        "smallest_detectable_difference": detectable,
        "verdict": verdict,
    }


def _right(run: Run, sample_id: SampleId) -> bool:
    """The per-question outcome the paired test uses (maj@k over several epochs)."""
    sample = run.samples[sample_id]
    return sample.epochs[0].correct if run.epochs == 1 else sample.majority_correct


def markdown(report: dict[str, Any]) -> str:
    """The report for people: the verdict line first, then the side-by-side table."""
    with_side, without_side = Side(**report["with_server"]), Side(**report["without_server"])
    low, high = report["difference_ci"]
    detectable = report["smallest_detectable_difference"]
    lines = [
        f"# Does `{report['server']}` help `{report['model']}` on GSM8K?",
        "",
        f"**Verdict: {report['verdict']}.** With the server minus without: "
        f"{report['difference']:+.1%} ({low:+.1%} to {high:+.1%}, 95% CI), exact McNemar "
        f"p = {report['mcnemar_p']:.3g} on {report['common_samples']} paired questions; the "
        f"smallest difference this n could detect is ±{detectable:.1%}.",
        "",
        "| | with the server | without |",
        "|---|---|---|",
    ]
    rows: list[tuple[str, str, str]] = [
        ("samples scored", str(with_side.samples), str(without_side.samples)),
        ("accuracy (95% CI)", _accuracy(with_side), _accuracy(without_side)),
        (
            "extraction failures",
            f"{with_side.extraction_failure:.1%}",
            f"{without_side.extraction_failure:.1%}",
        ),
        (
            "tool calls / sample",
            f"{with_side.tool_calls_per_sample:.2f}",
            f"{without_side.tool_calls_per_sample:.2f}",
        ),
        (
            "tool error rate",
            _share(with_side.tool_error_rate),
            _share(without_side.tool_error_rate),
        ),
        (
            "tokens / sample (input + output)",
            _tokens(with_side),
            _tokens(without_side),
        ),
        (
            "tokens / correct answer",
            _amount(with_side.tokens_per_correct, "{:.0f}"),
            _amount(without_side.tokens_per_correct, "{:.0f}"),
        ),
    ]
    if report.get("prices_per_million_tokens"):
        rows += [
            (
                "cost / sample",
                _amount(with_side.cost_per_sample, "${:.6f}"),
                _amount(without_side.cost_per_sample, "${:.6f}"),
            ),
            (
                "cost / correct answer",
                _amount(with_side.cost_per_correct, "${:.6f}"),
                _amount(without_side.cost_per_correct, "${:.6f}"),
            ),
        ]
    rows += [
        (
            "server start-up / sample",
            _amount(with_side.start_seconds_per_sample, "{:.2f} s"),
            _amount(without_side.start_seconds_per_sample, "{:.2f} s"),
        ),
        (
            "solving time / sample",
            f"{with_side.solving_seconds_per_sample:.2f} s",
            f"{without_side.solving_seconds_per_sample:.2f} s",
        ),
        (
            "solving time / correct answer",
            _amount(with_side.solving_seconds_per_correct, "{:.2f} s"),
            _amount(without_side.solving_seconds_per_correct, "{:.2f} s"),
        ),
        ("run, wall time", _duration(with_side.run_seconds), _duration(without_side.run_seconds)),
    ]
    if with_side.server_died or without_side.server_died:
        rows.append(
            (
                "server died under the model's calls (graded)",
                str(with_side.server_died),
                str(without_side.server_died),
            )
        )
    lines += [f"| {name} | {first} | {second} |" for name, first, second in rows]
    if with_side.tool_calls_per_sample == 0:
        lines += [
            "",
            f"**The model made no tool call with the server** ({with_side.samples} samples): the "
            "difference measures offering the tools (their names and descriptions in the "
            "prompt), not using them.",
        ]
    only_with, only_without = (
        report["solved_only_with_server"],
        report["solved_only_without_server"],
    )
    lines += [
        "",
        f"Solved only with the server: {len(only_with)} ({id_ranges(only_with) or 'none'}). "
        f"Solved only without it: {len(only_without)} ({id_ranges(only_without) or 'none'}).",
    ]
    for name, shown in (("with the server", with_side), ("without", without_side)):
        if shown.unscored:
            again = f" Run them again with `{shown.rerun}`." if shown.rerun else ""
            lines += [
                "",
                f"Unscored {name} (the server or the engine failed them, not the model): "
                f"{len(shown.unscored)} ({id_ranges(shown.unscored)}).{again}",
            ]
    lines += [
        "",
        "Accuracy intervals are Wilson intervals; the difference uses a paired t interval and "
        "McNemar's exact test on the questions only one side got right, as `gsm8k-compare` does. "
        "Extraction failures are completions with no answer the grader could find. Tool calls "
        "count every call the model made; the error rate is the share that came back as an "
        "error (a timeout included). Input tokens include cached ones; costs price them at the "
        "given input price. Server start-up is the time from a sample asking for its server until "
        "the tools were listed (its wait for a turn included); solving time is the rest of the "
        "sample's wall time, from start to score. The run's wall time is from its log's start to "
        "its end (samples run at once, so it is not the sum of theirs), each log of a rerun "
        "added. The "
        "smallest detectable difference is the paired difference a two-sided test at 5% finds "
        "with 80% power given the share of questions that came out differently (at least one).",
    ]
    return "\n".join(lines) + "\n"


def _duration(seconds: float) -> str:
    """``42.1 s``, ``3 min 07 s``, ``1 h 02 min``."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {rest:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def _tokens(shown: Side) -> str:
    return (
        f"{shown.tokens_per_sample:.0f} ({shown.input_tokens_per_sample:.0f} + "
        f"{shown.output_tokens_per_sample:.0f})"
    )


def _accuracy(shown: Side) -> str:
    return f"{shown.accuracy:.1%} ({shown.ci_low:.1%}–{shown.ci_high:.1%})"


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _amount(value: float | None, form: str) -> str:
    return "-" if value is None else form.format(value)


def write(
    runs: list[Run], json_path: Path | None, folder: str, prices: Prices | None = None
) -> int:
    """Print the report on stdout (and its numbers to ``json_path``): 0 when written, 2 when the
    runs are not one pair, 3 when the pair differs in more than the server."""
    import json
    import sys

    from gsm8k.compare.mcp_pair import MismatchError, PairError, find_pair

    try:
        pair = find_pair(runs)
    except MismatchError as error:
        print(f"gsm8k-compare --mcp: {error}", file=sys.stderr)
        return 3
    except PairError as error:
        print(f"gsm8k-compare --mcp: {error}", file=sys.stderr)
        return 2
    if not pair.with_server.samples or not pair.without.samples:
        print("gsm8k-compare --mcp: a run of the pair has no scored sample", file=sys.stderr)
        return 3
    report = build(pair, folder, prices)
    sys.stdout.write(markdown(report))
    if json_path is not None:
        json_path.write_text(json.dumps(report, indent=2, default=str) + "\n", encoding="utf-8")
    return 0
