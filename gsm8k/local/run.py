"""``gsm8k-local``: GSM8K on a local GGUF model (the bundled SmolLM2 by default), one command.

The bundled SmolLM2-135M-Instruct scores near zero on GSM8K: it shows the pipeline working end to
end (prompt, generation, grading, log, viewer); it measures nothing about capability.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from gsm8k.compare.rerun import data_environment, retry_command
from gsm8k.local.bundled import BUNDLED_MODEL_NAME, ModelFileError, resolve_model_file
from gsm8k.local.defaults import DEFAULT_MAX_TOKENS
from gsm8k.local.provider import PROVIDER_NAME
from gsm8k.local.timing import run_timings
from gsm8k.settings.commands import absolute_location, command_line, inspect_program

DEFAULT_LIMIT = 20
DEFAULT_LOG_DIR = "logs"
"""Inspect's own default, used when ``INSPECT_LOG_DIR`` is not set."""
EXIT_INTERRUPTED = 130  # the shell's code for a run stopped by Ctrl-C


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="gsm8k-local",
        description="Run GSM8K on a local GGUF model in-process (no API keys, no server).",
    )
    parser.add_argument(
        "--model-file",
        default=BUNDLED_MODEL_NAME,
        help=f"a .gguf file, or '{BUNDLED_MODEL_NAME}' for the bundled SmolLM2-135M-Instruct",
    )
    parser.add_argument("--limit", type=int, default=DEFAULT_LIMIT, help="samples to run (0: all)")
    parser.add_argument(
        "--max-tokens",
        type=int,
        default=None,
        help=f"new tokens per answer (default {DEFAULT_MAX_TOKENS}, the gguf provider's default)",
    )
    parser.add_argument(
        "--log-dir",
        default=os.environ.get("INSPECT_LOG_DIR") or DEFAULT_LOG_DIR,
        help="where the log goes (default: $INSPECT_LOG_DIR, else ./logs, as for inspect eval)",
    )
    parser.add_argument(
        "-T",
        dest="task_args",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="task parameter, as for `inspect eval` (e.g. -T fewshot=5 -T dataset=PATH)",
    )
    parser.add_argument(
        "-M",
        dest="model_args",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="model argument for the gguf provider: n_ctx (default 8192), n_threads (default "
        "auto: the cores idle at start; the count changes speed, not answers), chat_format, "
        "repeat_penalty",
    )
    return parser.parse_args(argv)


def parse_assignments(pairs: list[str], option: str) -> dict[str, object]:
    """``NAME=VALUE`` pairs to a dict, values read as YAML scalars like Inspect's CLI does."""
    import yaml

    parsed: dict[str, object] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise SystemExit(f"gsm8k-local: {option} {pair!r}: expected NAME=VALUE.")
        parsed[name] = yaml.safe_load(value)
    return parsed


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        model_file = resolve_model_file(args.model_file)
    except ModelFileError as error:
        print(f"gsm8k-local: {error}", file=sys.stderr)
        return 2
    if args.limit < 0:
        print("gsm8k-local: --limit must be 0 (all samples) or more.", file=sys.stderr)
        return 2

    from inspect_ai import eval as inspect_eval
    from inspect_ai._util.error import PrerequisiteError

    from gsm8k.task import gsm8k

    task_args = parse_assignments(args.task_args, "-T")
    model_args = parse_assignments(args.model_args, "-M")
    model_name = BUNDLED_MODEL_NAME if args.model_file == BUNDLED_MODEL_NAME else str(model_file)
    if model_name == BUNDLED_MODEL_NAME:
        print(
            "Note: SmolLM2-135M scores near 0% on GSM8K; this run demonstrates the pipeline, "
            "it does not measure capability.",
            file=sys.stderr,
        )
    try:
        task = gsm8k(**task_args)  # type: ignore[arg-type]
        # Generation settings (max tokens, stop, temperature, one request at a time) are the
        # gguf provider's own defaults, so this run and `inspect eval ... --model gguf/...` are
        # the same.
        logs = inspect_eval(
            task,
            model=f"{PROVIDER_NAME}/{model_name}",
            model_args=model_args,
            limit=args.limit or None,
            max_tokens=args.max_tokens,
            log_dir=args.log_dir,
        )
    except (TypeError, ValueError) as error:
        print(f"gsm8k-local: {error}", file=sys.stderr)
        return 2
    except PrerequisiteError as error:  # offline without data, llama.cpp missing, ...
        print(f"gsm8k-local: {error.message}", file=sys.stderr)
        return 2
    if not logs:
        # Interrupted (Ctrl-C): Inspect has already written what finished as a cancelled log.
        print(
            f"\nInterrupted. Completed samples are kept in {args.log_dir}; open them with: "
            f"{view_command(args.log_dir)}",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    log = logs[0]
    timings = run_timings(log)
    if timings is not None:
        print(f"\n{timings.summary()}")
    print(f"\nLog: {log.location}")
    print(f"Open it with: {view_command(args.log_dir)}")
    if log.status != "success":
        retry = retry_command(log.location, args.log_dir, data_environment(log))
        print(f"Run what did not finish with: {retry}")
    return 0 if log.status == "success" else 1


def view_command(log_dir: str) -> str:
    """The viewer command, runnable verbatim in a new shell: this environment's ``inspect`` by
    its path (a bare `inspect` is found only on an activated virtualenv's PATH) and the log
    folder as an absolute path."""
    return command_line([inspect_program(), "view", "--log-dir", absolute_location(log_dir)])


if __name__ == "__main__":
    raise SystemExit(main())
