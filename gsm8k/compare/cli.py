"""``gsm8k-compare [LOG_DIR ...]``: which model is better on GSM8K, by how much, and how sure.

Exit codes: 0 report written; 2 no usable logs or bad arguments; 3 runs differ in settings or
samples and were not ranked (``--allow-mismatch`` ranks them anyway), or no run has a completed
sample.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gsm8k.compare.locations import add_selection_arguments
from gsm8k.grading.printable import printable, say

EXIT_NOT_COMPARABLE = 3
DESCRIPTION = (
    "Which model is better on GSM8K, by how much, and how sure: reads the Inspect logs in "
    "LOG_DIR (folders, log files or URIs such as s3://bucket/logs), merges retried and resumed "
    "logs of the same run, and prints a Markdown report. "
    "Runs that differ in any setting that changes outputs (task settings, temperature and other "
    "generation settings) are flagged and not ranked unless --allow-mismatch is given."
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gsm8k-compare", description=DESCRIPTION)
    parser.add_argument(
        "log_dir",
        nargs="*",
        default=["logs"],
        help="where the Inspect logs are: folders, log files or URIs such as s3://bucket/logs "
        "(default: logs)",
    )
    parser.add_argument("--png", type=Path, help="write a forest plot of the accuracies here")
    parser.add_argument("--json", type=Path, help="write the report's numbers here as JSON")
    parser.add_argument(
        "--methods",
        type=Path,
        help="write the methods card (paragraph and table for a paper) here as Markdown",
    )
    parser.add_argument(
        "--allow-mismatch",
        action="store_true",
        help="rank runs even when their settings or samples differ",
    )
    parser.add_argument(
        "--mcp",
        action="store_true",
        help="report one model with and without an MCP server (-T mcp=<server> and -T mcp=none) "
        "as one experiment: does the server help?",
    )
    parser.add_argument(
        "--prices",
        metavar="IN,OUT",
        help="with --mcp: dollars per million input and per million output tokens, for the "
        "cost per sample and per correct answer (e.g. 0.15,0.60)",
    )
    add_selection_arguments(parser)
    args = parser.parse_args(argv)

    from gsm8k.compare.locations import LogLocationError
    from gsm8k.compare.outputs import first_output_problem
    from gsm8k.compare.report import build, markdown
    from gsm8k.compare.runs import read_runs, select_runs

    problem = first_output_problem(
        {"--json": args.json, "--png": args.png, "--methods": args.methods}
    )
    if args.mcp and (args.png or args.methods):
        problem = "--mcp writes its report on stdout and to --json only (no --png, --methods)"
    if args.prices and not args.mcp:
        problem = "--prices goes with --mcp"
    prices = None
    if args.prices and not problem:
        from gsm8k.compare.mcp_report import parse_prices

        try:
            prices = parse_prices(args.prices)
        except ValueError as error:
            problem = str(error)
    if problem:
        say("gsm8k-compare", f"{problem}")
        return 2

    # One location: paths in the report are shown relative to it.
    base = args.log_dir[0] if len(args.log_dir) == 1 else "."
    try:
        scan = read_runs(args.log_dir)
    except LogLocationError as error:
        say("gsm8k-compare", f"{error}")
        return 2
    for line in skipped_lines(scan.skipped, base):
        say("gsm8k-compare", f"warning: {line}")
    if scan.other_tasks:
        say("gsm8k-compare", f"{scan.other_tasks} log(s) of other tasks ignored")
    if not scan.runs:
        where = ", ".join(args.log_dir)
        say("gsm8k-compare", f"no GSM8K logs with samples under {where}")
        return 2
    try:
        runs = select_runs(scan.runs, args.model, args.variant)
        if args.mcp:
            from gsm8k.compare.mcp_report import write

            return write(runs, args.json, base, prices)
        report = build(runs, args.allow_mismatch, scan.skipped, base)
    except ValueError as error:
        say("gsm8k-compare", f"{error}")
        return 2
    sys.stdout.write(printable(markdown(report, base), lines=True))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=str) + "\n", encoding="utf-8")
    measured = [run for run in runs if run.samples]
    if args.methods and measured:
        from gsm8k.compare.methods import markdown as methods_card

        args.methods.write_text(methods_card(measured), encoding="utf-8")
    if args.png:
        from gsm8k.compare.plot import forest_plot

        forest_plot(report, args.png)
    if not measured:
        # Every run failed before completing a sample (a bad key, an unreachable server): the
        # report lists what each is missing, and there is nothing to rank or describe.
        unwritten = " (no methods card written)" if args.methods else ""
        print(
            f"gsm8k-compare: no run has a completed sample{unwritten}; the report above says "
            "what each is missing",
            file=sys.stderr,
        )
        return EXIT_NOT_COMPARABLE
    return 0 if report["ranked"] else EXIT_NOT_COMPARABLE


LISTED_FILES = 3
"""Skipped files named per reason; the report's "Logs skipped" block lists them all."""


def skipped_lines(skipped: Sequence[Any], log_dir: str) -> list[str]:
    """One line per reason a log was skipped, naming a few of the files."""
    from gsm8k.compare.display import short_path

    by_reason: dict[str, list[str]] = {}
    for entry in skipped:
        by_reason.setdefault(entry.reason, []).append(short_path(entry.path, log_dir))
    lines = []
    for reason, paths in by_reason.items():
        named = ", ".join(paths[:LISTED_FILES])
        more = f" and {len(paths) - LISTED_FILES} more" if len(paths) > LISTED_FILES else ""
        lines.append(f"skipped {named}{more}: {reason}")
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
