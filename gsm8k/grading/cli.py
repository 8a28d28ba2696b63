"""Grade completions produced elsewhere: the ``gsm8k-grade`` command.

Its input, output, program and other-harness formats are in :data:`HELP_EPILOG` (``--help``):
JSON lines of completions, an lm-evaluation-harness ``--log_samples`` file or an Inspect log
(:mod:`gsm8k.grading.imports`); one output line per input row, a failed row gets an ``error``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from gsm8k.grading import imports
from gsm8k.grading.cli_rows import Failed, ProgramGrader, TargetLookup, grade_line, program_grader
from gsm8k.grading.imports.jsonlines import MAX_RECORD_BYTES, read_lines
from gsm8k.grading.printable import printable, say
from gsm8k.grading.verdict import Graded
from gsm8k.grading.verdict import grade_completion as grade_completion  # the old gsm8k.grade

EXIT_ALL_GRADED = 0
EXIT_SOME_FAILED = 1
"""At least one line could not be graded; each has an ``error`` field, the summary counts them."""
EXIT_USAGE = 2
"""Bad arguments, or the input file cannot be opened: nothing was graded."""
NOT_JSON = ("not valid JSON", "not readable JSON", "not UTF-8", "empty line")
"""How a line's error starts when the line is not JSON at all (see ``parse_line``)."""
MAX_ERRORS_SHOWN = 10
"""Failed lines named one by one on stderr; the rest are counted (all are in the output)."""

HELP_EPILOG = f"""\
input:   one JSON object per line: {{"id": 17, "completion": "...", "target": "42"}}
         Without "target", the id is looked up in --dataset as a test index (17, or
         test-17 as older logs write it). An optional "question" (else the
         dataset's, when the target is looked up) lets the grader tell a number
         copied from the question from the answer. "truncated": true, or
         "stop_reason": "max_tokens" / "model_length" (as Inspect records it), marks a completion
         cut off at the token limit (the last number in it is then not used).
output:  one JSON line per input line, in order: line, id, correct, answer, target,
         rule, format_followed, truncated. A line that cannot be graded (not JSON,
         a missing field, a target that is not a number, text that is not UTF-8,
         over {MAX_RECORD_BYTES // 2**20} MiB) gets line, id and error instead; the other
         lines are still graded.
programs: with --run-programs each line's program runs in the sandbox mode=pal uses
         ("program": code, or the code in "completion") and its result is graded
         (rule "program", plus the run's status and error). The result is read as
         solution(), simple_math_problem(), ans/answer/result, solver(), else the
         last printed line when it is a number.
other harnesses: an lm-eval --log_samples file (samples_<task>_<date>.jsonl) or an
         Inspect log (.eval, .json) is recognised (or name it with --format). Each row
         is output with original_correct and original_answer beside the new verdict;
         stderr gives the accuracy before and after, the paired difference with its 95%
         interval and the exact McNemar test. --original picks the verdicts compared
         against: an lm-eval filter (default flexible-extract) or an Inspect scorer
         (default the log's headline scorer).
exit status: {EXIT_ALL_GRADED} every line graded; {EXIT_SOME_FAILED} some lines could not be graded
         (stderr says how many and which); {EXIT_USAGE} bad arguments or an unreadable
         file (nothing graded).
python:  from gsm8k.grading import grade
         grade(text, "42").correct
"""


@dataclass
class Tally:
    """Counts of graded completions: what the summary needs, in constant memory."""

    total: int = 0
    correct: int = 0
    strict: int = 0
    followed: int = 0
    missing: int = 0

    def add(self, graded: Graded) -> None:
        self.total += 1
        self.correct += graded.correct
        self.strict += graded.correct and graded.format_followed
        self.followed += graded.format_followed
        self.missing += graded.answer is None


def summary(graded: Sequence[Graded] | Tally, failed: int = 0) -> str:
    if not isinstance(graded, Tally):
        tally = Tally()
        for one in graded:
            tally.add(one)
        graded = tally
    total = graded.total
    unreadable = (
        f"; {failed} line{'s' if failed != 1 else ''} could not be graded" if failed else ""
    )
    if total == 0:
        return f"graded 0 completions{unreadable}"

    def rate(count: int) -> str:
        return f"{count}/{total} ({count / total:.1%})"

    return (
        f"graded {total} completions: accuracy {rate(graded.correct)}, strict accuracy "
        f"{rate(graded.strict)}, format followed {rate(graded.followed)}, no answer "
        f"{rate(graded.missing)}{unreadable}"
    )


def main(argv: Sequence[str] | None = None, stdin: IO[bytes] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="gsm8k-grade",
        description="Grade model completions of GSM8K questions with the task's exact grader.",
        epilog=HELP_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="JSONL file of completions, or - for standard input")
    parser.add_argument(
        "--dataset",
        default=None,
        help="where to look up missing targets: a directory with test.jsonl, a .jsonl file, "
        "gsm8k (the copy inside the package), or openai/gsm8k / gsm8k-platinum from the hub "
        "(default: $GSM8K_DATA_DIR, else gsm8k)",
    )
    parser.add_argument("--split", default="test", help="split to look up ids in (default: test)")
    parser.add_argument(
        "--run-programs",
        action="store_true",
        help="run each line's program ('program', or the code in 'completion') in the sandbox "
        "mode=pal uses and grade its result",
    )
    parser.add_argument(
        "--trust-model-code",
        action="store_true",
        help="with --run-programs where bubblewrap cannot run: run programs as plain local "
        "processes that can read whatever your user can",
    )
    parser.add_argument(
        "--format",
        choices=imports.FORMATS,
        default="auto",
        help="the input's format (default: recognised from the file)",
    )
    parser.add_argument(
        "--original",
        metavar="NAME",
        help="lm-eval filter or Inspect scorer whose verdicts are the 'before' "
        "(default: flexible-extract; the log's headline scorer)",
    )
    args = parser.parse_args(argv)
    chosen = args.format
    path = Path(args.file)
    problem = None if args.file == "-" else imports.compressed(path) or imports.not_lines(path)
    if problem:
        say("gsm8k-grade", f"{problem}")
        return EXIT_USAGE
    if chosen == "auto":
        chosen = "jsonl" if args.file == "-" else imports.detect(Path(args.file))
    if chosen != "jsonl":
        if args.file == "-" or args.run_programs:
            print(
                f"gsm8k-grade: --format {chosen} reads a file, without --run-programs",
                file=sys.stderr,
            )
            return EXIT_USAGE
        return regrade_file(Path(args.file), chosen, args.original)
    programs: ProgramGrader | None = None
    if args.run_programs:
        # Inspect (~2 s to import) is loaded only for the inputs that use it: programs and logs.
        from inspect_ai._util.error import PrerequisiteError

        try:
            programs = program_grader(args.trust_model_code)
        except PrerequisiteError as error:
            say("gsm8k-grade", f"--run-programs: {error}")
            return EXIT_USAGE
    name = "<stdin>" if args.file == "-" else args.file
    source: AbstractContextManager[IO[bytes]]
    try:
        if args.file == "-":
            source = nullcontext(stdin or sys.stdin.buffer)
        else:
            source = Path(args.file).open("rb")  # noqa: SIM115 (closed by the with below)
    except OSError as error:
        say("gsm8k-grade", f"cannot read {name}: {error.strerror or error}")
        return EXIT_USAGE
    lookup = TargetLookup(args.dataset, args.split)
    # Counts and the first failures only: memory stays flat however many lines the file has.
    tally = Tally()
    failed: list[Failed] = []
    failures = 0
    out = sys.stdout
    with source as stream:
        for line in read_lines(stream):
            result = grade_line(line, lookup, programs)
            if isinstance(result, Failed):
                failures += 1
                if len(failed) < MAX_ERRORS_SHOWN:
                    failed.append(result)
                out.write(json.dumps(result.to_json()) + "\n")
            else:
                tally.add(result)
                out.write(json.dumps({"line": line.number, **result.to_json()}) + "\n")
    if lookup.error:
        # Named as the user gave it: an option they passed, or the default they did not choose.
        place = "--dataset" if args.dataset else "the default dataset (no --dataset given)"
        say("gsm8k-grade", f"{place}: {lookup.error}")
    for failure in failed:
        say("gsm8k-grade", f"{name}:{failure.line}: {failure.error}")
    if failures > MAX_ERRORS_SHOWN:
        print(
            f"gsm8k-grade: … and {failures - MAX_ERRORS_SHOWN} more lines with an 'error' "
            "field in the output",
            file=sys.stderr,
        )
    if tally.total == 0 and failures == 0:  # standard input that held nothing
        say("gsm8k-grade", f"{name}: empty, no completions to grade; {imports.FORMATS_READ}")
        return EXIT_USAGE
    if tally.total == 0 and all(f.error.startswith(NOT_JSON) for f in failed):
        say("gsm8k-grade", f"{name}: no line is JSON; {imports.FORMATS_READ}")
    print(printable(summary(tally, failures)), file=sys.stderr)
    return EXIT_SOME_FAILED if failures else EXIT_ALL_GRADED


def regrade_file(path: Path, format: str, original: str | None) -> int:
    """Re-grade an lm-eval samples file or an Inspect log: rows to stdout, headline to stderr."""
    # The paired statistics need scipy (~2 s to import): loaded only for these formats.
    from gsm8k.grading.imports.regrade import Regraded, describe, headline, regrade_row

    try:
        imported = imports.read(path, format, original)
    except (OSError, ValueError) as error:
        say("gsm8k-grade", f"{error}")
        return EXIT_USAGE
    problems = list(imported.problems)
    regraded: list[Regraded] = []
    for row in imported.rows:
        result = regrade_row(row)
        if isinstance(result, Regraded):
            regraded.append(result)
            sys.stdout.write(json.dumps(result.to_json()) + "\n")
        else:
            problems.append(result)
    for problem in problems:
        sys.stdout.write(json.dumps(problem.__dict__) + "\n")
    for problem in problems[:MAX_ERRORS_SHOWN]:
        say("gsm8k-grade", f"{path}: {problem.place}: {problem.error}")
    print(summary([r.graded for r in regraded], len(problems)), file=sys.stderr)
    if regraded:
        for line in describe(headline(regraded), imported.original):
            print(printable(line), file=sys.stderr)
    return EXIT_SOME_FAILED if problems or not regraded else EXIT_ALL_GRADED


if __name__ == "__main__":
    raise SystemExit(main())
