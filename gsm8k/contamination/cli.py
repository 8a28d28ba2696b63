"""``gsm8k-contamination [LOG_DIR ...]``: is this model's GSM8K score memorized?

Exit codes: 0 report written; 2 no usable logs or bad arguments; 3 runs that cannot be read
together (several models, or runs of one kind with different settings) and no report
(``--allow-mismatch`` reports the newest run of each kind anyway).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from gsm8k.compare.locations import add_locations_argument
from gsm8k.grading.printable import printable, say

EXIT_NOT_COMPARABLE = 3
DESCRIPTION = (
    "Is a GSM8K score memorized? Reads one model's fresh-question runs (gsm8k/gsm8k "
    "-T dataset=gsm-symbolic-fresh) and memorization-probe runs (gsm8k/gsm8k_memorization) and "
    "prints each signal with its interval, its power and a verdict, and an overall verdict with "
    "what the evidence cannot show (docs/contamination.md)."
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gsm8k-contamination", description=DESCRIPTION)
    add_locations_argument(parser)
    parser.add_argument("--json", type=Path, help="write the report's numbers here as JSON")
    parser.add_argument("--png", type=Path, help="write a plot of the signals here")
    parser.add_argument(
        "--model", help="only this model's runs, named as in the logs (openai/gpt-4o-mini)"
    )
    parser.add_argument(
        "--allow-mismatch",
        action="store_true",
        help="report even when runs of one kind differ in settings (the newest of each is used)",
    )
    args = parser.parse_args(argv)

    from gsm8k.compare.outputs import first_output_problem
    from gsm8k.contamination.render import markdown, signal_plot
    from gsm8k.contamination.report import NotComparable, build

    problem = first_output_problem({"--json": args.json, "--png": args.png})
    if problem:
        say("gsm8k-contamination", f"{problem}")
        return 2
    try:
        report = build(args.log_dir, args.model, args.allow_mismatch)
    except NotComparable as error:
        for line in error.problems:
            say("gsm8k-contamination", f"{line}")
        print(
            "gsm8k-contamination: no report: these runs are not comparable (--allow-mismatch "
            "reports them anyway)",
            file=sys.stderr,
        )
        return EXIT_NOT_COMPARABLE
    except ValueError as error:  # no logs, an unreadable location, an unknown --model
        say("gsm8k-contamination", f"{error}")
        return 2
    sys.stdout.write(printable(markdown(report), lines=True))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=str) + "\n", encoding="utf-8")
    if args.png:
        signal_plot(report, args.png)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
