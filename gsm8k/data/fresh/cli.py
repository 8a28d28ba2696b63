"""``gsm8k-fresh``: check the template interpreter against GSM8K, or print fresh questions.

    gsm8k-fresh --templates ml-gsm-symbolic/templates/symbolic   # a clone of apple/ml-gsm-symbolic
    gsm8k-fresh --json check.json          # templates from $GSM_SYMBOLIC_TEMPLATES
    gsm8k-fresh --draw --seed 7 --per-template 2 --template 0042

By default it instantiates every template with its slots at their defaults and reports how many
give back their GSM8K original exactly, listing each that does not with the reason. ``--draw``
prints fresh questions with their answers and bindings instead. Exit 2 on bad input (a missing
folder, a malformed template).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gsm8k.data.fresh.check import CheckResult, self_check
from gsm8k.data.fresh.instances import InstantiationError
from gsm8k.data.fresh.samples import (
    DEFAULT_FRESH_SEED,
    TEMPLATES_ENV,
    fresh_instances,
    templates_folder,
    validate_fresh_arguments,
)
from gsm8k.data.fresh.templates import TemplateError, load_templates
from gsm8k.grading.printable import printable, say


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="gsm8k-fresh", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--templates", help=f"templates folder (default ${TEMPLATES_ENV})")
    parser.add_argument("--json", help="also write every template's check result to this file")
    parser.add_argument(
        "--no-gsm8k",
        action="store_true",
        help="do not compare the templates' copies of their questions with GSM8K's test split",
    )
    parser.add_argument("--draw", action="store_true", help="print fresh questions instead")
    parser.add_argument("--seed", type=int, default=DEFAULT_FRESH_SEED, help="with --draw")
    parser.add_argument("--per-template", type=int, default=1, help="with --draw")
    parser.add_argument(
        "--template", action="append", help="with --draw: only this file stem (0042); repeatable"
    )
    args = parser.parse_args(argv)
    try:
        folder = templates_folder(args.templates)
        if not args.draw:
            return _check(folder, args.json, not args.no_gsm8k)
        validate_fresh_arguments(args.seed, args.per_template)
        return _draw(folder, args.seed, args.per_template, args.template)
    except (TemplateError, ValueError) as error:
        say("gsm8k-fresh", f"{error}")
        return 2


def _check(folder: Path, json_path: str | None, with_gsm8k: bool) -> int:
    templates = load_templates(folder)
    questions = _gsm8k_questions() if with_gsm8k else None
    results = self_check(templates, questions)
    print(printable(report(results, str(folder), questions is not None), lines=True))
    if json_path:
        with open(json_path, "w", encoding="utf-8") as handle:
            json.dump([result_json(r) for r in results], handle, indent=2)
            handle.write("\n")
    return 0


def _gsm8k_questions() -> list[str] | None:
    from gsm8k.data.variants import gsm8k_test_questions

    try:
        return gsm8k_test_questions("gsm-symbolic-fresh")
    except Exception as error:  # no GSM8K copy and no hub: the check runs without it
        say("gsm8k-fresh", f"GSM8K's test split is not available, not compared: {error}")
        return None


def report(results: Sequence[CheckResult], folder: str, compared: bool) -> str:
    """The check as Markdown: the figures, then every template that does not reproduce."""
    total = len(results)
    exact = sum(r.reproduces for r in results)
    pasted = sum(r.text_matches and r.answer == r.gold for r in results)
    answers = sum(r.answer is not None and r.answer == r.gold for r in results)
    spacing = sum(
        r.answer == r.gold and any("in spacing only" in reason for reason in r.reasons)
        for r in results
    )
    lines = [
        f"# Template self-check ({folder})",
        "",
        f"- reproduce their original exactly (question written from the default values, and "
        f"answer): **{exact} of {total}**",
        f"- the same up to spacing (the template collapsed GSM8K's double spaces): "
        f"{exact + spacing} of {total}",
        f"- question text with each slot's default pasted in, and answer: {pasted} of {total}",
        f"- `#answer:` at the defaults equals the gold answer: {answers} of {total}",
    ]
    if compared:
        same = sum(bool(r.matches_gsm8k) for r in results)
        lines.append(
            f"- the template's copy of its question is GSM8K's test record: {same} of {total}"
        )
    broken = sum(bool(r.failed_conditions) for r in results)
    lines += [
        f"- originals that break one of their template's own conditions: {broken} of {total} "
        "(this does not stop a template from reproducing)",
        "",
        "| template | GSM8K index | why it does not reproduce |",
        "|---|---:|---|",
    ]
    for result in results:
        if not result.reproduces:
            why = "; ".join(result.reasons).replace("|", "\\|")
            lines.append(f"| {result.template} | {result.original_index} | {why} |")
    return "\n".join(lines)


def result_json(result: CheckResult) -> dict[str, Any]:
    return {
        "template": result.template,
        "original_index": result.original_index,
        "reproduces": result.reproduces,
        "question_matches": result.question_matches,
        "text_matches": result.text_matches,
        "gold": str(result.gold),
        "answer": None if result.answer is None else str(result.answer),
        "solution_answer": None if result.solution_answer is None else str(result.solution_answer),
        "failed_conditions": list(result.failed_conditions),
        "reasons": list(result.reasons),
        "remarks": list(result.remarks),
        "matches_gsm8k": result.matches_gsm8k,
    }


def _draw(folder: Path, seed: int, per_template: int, only: list[str] | None) -> int:
    """Exit 0 when a question was drawn, 1 when every template asked for was skipped."""
    drawn = 0
    templates = load_templates(folder)
    missing = sorted(set(only or ()) - {template.name for template in templates})
    if missing:
        say("gsm8k-fresh", f"--template {', '.join(missing)}: no such template in {folder}")
        return 2
    for template in templates:
        if only and template.name not in only:
            continue
        try:
            samples = fresh_instances(template, seed, per_template)
        except InstantiationError as error:
            say("gsm8k-fresh", f"skipped: {error}")
            continue
        drawn += len(samples)
        for sample in samples:
            metadata = sample.metadata or {}
            bindings = json.dumps(metadata.get("bindings"), ensure_ascii=False)
            print(printable(f"## {sample.id} (template {template.name})\n", lines=True))
            print(printable(sample.input, lines=True))
            print(f"\nanswer: {sample.target}")
            print(printable(f"bindings: {bindings}\n", lines=True))
    return 0 if drawn else 1


if __name__ == "__main__":
    raise SystemExit(main())
