"""``gsm8k-methods LOG``: the methods card of a run, from its log alone.

LOG is an Inspect log file, a directory of logs or a URI such as ``s3://bucket/logs`` (every
GSM8K run in it gets a column). Exit codes: 0 card written; 2 nothing usable (the reason on
stderr).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from gsm8k.compare.locations import LogLocationError, add_locations_argument
from gsm8k.grading.printable import printable, say

DESCRIPTION = (
    "Write the methods paragraph and table a paper needs for GSM8K runs, read from their "
    "Inspect logs: data and revision, variant, shots and their source and seed, prompt or "
    "preset and placement, extraction rule and grader version, decoding, votes, samples, "
    "accuracy with its 95% interval."
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gsm8k-methods", description=DESCRIPTION)
    add_locations_argument(parser, default=None)
    parser.add_argument("-o", "--output", type=Path, help="write the card here (Markdown)")
    args = parser.parse_args(argv)

    from gsm8k.compare.methods import markdown
    from gsm8k.compare.runs import read_runs

    try:
        scan = read_runs(args.log_dir)
    except LogLocationError as error:
        say("gsm8k-methods", f"{error}")
        return 2
    for skipped in scan.skipped:
        say("gsm8k-methods", f"warning: skipped {skipped.path}: {skipped.reason}")
    runs = [run for run in scan.runs if run.samples]
    if not runs:
        say("gsm8k-methods", "no GSM8K log with samples among the paths given")
        return 2
    text = markdown(runs)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(printable(text, lines=True))
    return 0
