"""The methods card: the paragraph and table a paper needs, written from the logs alone.

For each run it states the evaluated set and its revision, the variant, the exemplars (how many,
from where, picked how, with which seed), the prompt (the task's own or a preset, and where the
exemplars are placed), how answers were extracted and graded (and by which task version), the
decoding settings, votes, how many questions and completions, and accuracy with its 95% interval
(Wilson for one completion per question; with several, a t interval over per-question means for
mean accuracy and Wilson for maj@k); for a preset, also its original's rule and decoding.
Scores of the other scorers the log holds (Inspect's ``match(numeric=True)``, a preset's
original rule) are reported beside the grader's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import mean
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log, read_eval_log_sample_summaries

from gsm8k.compare.display import display_value
from gsm8k.compare.results import GRADER, PAL_GRADER, Run
from gsm8k.compare.settings import GENERATION_OPERATIONAL_FIELDS
from gsm8k.compare.stats import summarize, wilson_interval
from gsm8k.data.bundled import is_bundled_location
from gsm8k.metrics.keys import MATCH
from gsm8k.prompting.presets.registry import PRESETS

OTHER_RULES = {
    "lm_eval_strict_match": "lm-eval strict-match",
    "lm_eval_flexible_extract": "lm-eval flexible-extract",
    "kojima_match": "Kojima et al.'s rule",
    "simple_evals_mgsm_match": "simple-evals' MGSM rule",
    "match": "Inspect match(numeric=True)",
}
"""Scorers besides the grader whose accuracy the card reports, and how it names them."""

PLACEMENTS = {
    "user": "in the user message, before the question",
    "system": "in a system message",
    "turns": "as alternating user/assistant turns",
}
GRADER_RULE = (
    "inspect-gsm8k's exact grader (gsm8k_grader): the last 'ANSWER: <number>' line, else fixed "
    "fallbacks (JSON answer, <answer> tag, '#### N', \\boxed{}, 'the answer is N' in the MGSM "
    "languages, a final 'A: N', the last number unless the output was cut off), compared with "
    "the gold as exact numbers"
)
PAL_RULE = (
    "inspect-gsm8k's program grader (pal_grader): the model's solution() is run in a sandbox "
    "and its return value compared with the gold as an exact number"
)
DECODING_FIELDS = (
    "temperature",
    "top_p",
    "top_k",
    "max_tokens",
    "stop_seqs",
    "seed",
    "reasoning_effort",
    "reasoning_tokens",
    "system_message",
)


@dataclass(frozen=True)
class Card:
    """One run's setup and results, each in the order the card shows them."""

    label: str
    setup: dict[str, str]
    results: dict[str, str]


def card(run: Run) -> Card:
    """The methods card of one run, from its logs."""
    s = run.settings
    header = read_eval_log(run.logs[-1], header_only=True)
    summary = summarize(run)
    preset = PRESETS.get(str(s.get("preset")))
    samples = list(run.samples.values())
    questions = len(samples)
    setup: dict[str, str] = {
        "Model": run.model,
        "Dataset": _dataset(s),
        "Revision": _revision(s),
        "Variant": str(s.get("variant") or "-"),
        "Prompt": _prompt(s, preset),
        "Shots": str(s.get("fewshot", "-")),
        "Shot source": _shot_source(s, preset),
        "Shot seed": display_value(s.get("fewshot_seed")) if s.get("fewshot") else "-",
        "Placement": _placement(s, preset),
        "Extraction and grading": _grading(run),
        "Grader version": _versions(s, header),
        "Decoding": _decoding(run, header),
        "Votes": _votes(run.epochs),
    }
    if preset is not None:
        setup["Original rule"] = preset.original_rule
        setup["Original decoding"] = _original_decoding(preset)
    results: dict[str, str] = {
        "Questions": _questions(run),
        "Completions": f"{questions * run.epochs:,} ({questions:,} × {run.epochs})",
        "Accuracy (95% CI)": _accuracy(summary.accuracy, summary.ci_low, summary.ci_high, run),
    }
    if run.epochs > 1:
        majority = sum(sample.majority_correct for sample in samples)
        low, high = wilson_interval(majority, questions)
        results[f"maj@{run.epochs} (95% Wilson)"] = (
            f"{majority / questions:.1%} ({low:.1%}–{high:.1%})"
        )
    if summary.strict_accuracy is not None and preset is None:
        results["Strict accuracy (ANSWER: line)"] = f"{summary.strict_accuracy:.1%}"
    for name, value in other_rules(run).items():
        results[OTHER_RULES[name]] = value
    return Card(run.label, setup, results)


def other_rules(run: Run) -> dict[str, str]:
    """Accuracy under each other scorer the run's logs hold, over the run's samples (a newer
    log's (sample, epoch) replaces an older one's, as for the grader)."""
    values: dict[str, dict[tuple[Any, int], float]] = {}
    for location in run.logs:
        for sample in read_eval_log_sample_summaries(location):
            if sample.error is not None:
                continue
            for name, value in rule_values(sample.scores or {}).items():
                values.setdefault(name, {})[(sample.id, sample.epoch)] = value
    shown: dict[str, str] = {}
    for name in OTHER_RULES:
        if name not in values:
            continue
        per_question = []
        for sample_id in run.samples:
            epochs = [values[name].get((sample_id, e)) for e in range(1, run.epochs + 1)]
            if all(value is not None for value in epochs):
                per_question.append(mean(float(value or 0.0) for value in epochs))
        if not per_question:
            continue
        accuracy = mean(per_question)
        if run.epochs == 1:
            low, high = wilson_interval(round(sum(per_question)), len(per_question))
            shown[name] = f"{accuracy:.1%} ({low:.1%}–{high:.1%})"
        else:
            shown[name] = f"{accuracy:.1%} (mean over {run.epochs} completions)"
    return shown


def rule_values(scores: dict[str, Any]) -> dict[str, float]:
    """One sample's verdict under each other rule: a scorer of its own, or ``match`` carried in
    the grader's value (from task version 1.4.0 on; earlier logs have a ``match`` scorer)."""
    found = {name: _as_number(score.value) for name, score in scores.items() if name in OTHER_RULES}
    grader = scores.get(GRADER)
    if grader is not None and isinstance(grader.value, dict) and MATCH in grader.value:
        found.setdefault(MATCH, _as_number(grader.value[MATCH]))
    return found


def markdown(runs: Sequence[Run]) -> str:
    """The methods section: a paragraph, the setup all runs share, then a results table with a
    row per run (and a column for each setting in which runs differ, the prompt first)."""
    cards = [card(run) for run in runs]
    names = list(dict.fromkeys(name for each in cards for name in each.setup))
    first = cards[0].setup
    shared = {
        name: first[name]
        for name in names
        if name != "Model" and all(each.setup.get(name) == first.get(name) for each in cards)
    }
    differing = sorted(
        (name for name in names if name not in shared and name != "Model"),
        key=lambda name: COLUMN_ORDER.index(name) if name in COLUMN_ORDER else len(COLUMN_ORDER),
    )
    lines = ["## Methods", "", _paragraph(cards, shared, differing), ""]
    lines += ["| Setting | Value |", "|---|---|"]
    lines += [f"| {name} | {_cell(value)} |" for name, value in shared.items()]
    columns = differing + list(dict.fromkeys(name for each in cards for name in each.results))
    lines += ["", "| Run | " + " | ".join(columns) + " |", "|---|" + "---|" * len(columns)]
    for each in cards:
        values = each.setup | each.results
        lines.append(
            f"| {_cell(each.label)} | "
            + " | ".join(_cell(values.get(name, "-")) for name in columns)
            + " |"
        )
    lines += [
        "",
        "Intervals are 95%: Wilson score intervals for a share of questions; with several "
        "completions per question, mean accuracy has a t interval over per-question means.",
    ]
    return "\n".join(lines) + "\n"


COLUMN_ORDER = (
    "Prompt",
    "Variant",
    "Shots",
    "Placement",
    "Decoding",
    "Votes",
    "Shot source",
    "Shot seed",
    "Dataset",
    "Revision",
)
"""Setup rows that differ between runs become results-table columns in this order: what a
reader compares first (the prompt or preset, the variant, the exemplars, decoding) leads."""


def _paragraph(cards: Sequence[Card], shared: dict[str, str], differing: Sequence[str]) -> str:
    """The paragraph a paper needs: what every run shares, stated once; what differs, named once
    and left to the results table."""
    models = ", ".join(dict.fromkeys(each.setup["Model"] for each in cards))
    runs = f" ({len(cards)} runs)" if len(cards) > len(set(c.setup["Model"] for c in cards)) else ""
    opening = f"We evaluated {models}{runs}"
    if "Dataset" in shared:
        extras = [shared[name] for name in ("Variant", "Revision") if name in shared]
        opening += f" on {shared['Dataset']}" + (f" ({'; '.join(extras)})" if extras else "")
    opening += " with inspect-gsm8k"
    if "Grader version" in shared:
        opening += f" ({shared['Grader version']})"
    sentences = [opening]
    if "Prompt" in shared:
        sentences.append(f"Prompt: {shared['Prompt']}")
    if "Shots" in shared:
        sentences.append(_exemplars(shared))
    if "Decoding" in shared:
        sentences.append(f"Decoding: {shared['Decoding']}")
    if "Votes" in shared:
        sentences.append(shared["Votes"])
    if "Extraction and grading" in shared:
        sentences.append(f"Answers were graded by {shared['Extraction and grading']}")
    if differing:
        sentences.append(
            f"The runs differ in {_listed([name.lower() for name in differing])} (see the "
            "results table)"
        )
    accuracy = "; ".join(
        f"{each.label} {each.results['Accuracy (95% CI)']} on {each.results['Questions']}"
        for each in cards
    )
    sentences.append(f"Accuracy: {accuracy}")
    text = ". ".join(sentences) + "."
    others = [name for name in OTHER_RULES.values() if any(name in c.results for c in cards)]
    if others:
        text += f" The results table adds, on the same completions: {', '.join(others)}."
    return text


def _exemplars(shared: dict[str, str]) -> str:
    shots = shared["Shots"]
    where = f", placed {shared['Placement']}" if "Placement" in shared else ""
    if shots == "0":
        return f"Zero-shot{where}"
    details = [shared[name] for name in ("Shot source",) if name in shared]
    if shared.get("Shot seed", "-") != "-":
        details.append(f"seed {shared['Shot seed']}")
    about = f" ({'; '.join(details)})" if details else ""
    return f"{shots} exemplars{about}{where}"


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _dataset(s: dict[str, Any]) -> str:
    location = str(s.get("dataset") or "-")
    split = s.get("split")
    return f"{location} (split {split})" if split and f"/{split}" not in location else location


def _revision(s: dict[str, Any]) -> str:
    if s.get("dataset_revision"):
        return f"revision {s['dataset_revision']}"
    if s.get("dataset_sha256"):
        kind = "bundled copy" if is_bundled_location(s.get("dataset")) else "local file"
        return f"{kind}, sha256 {s['dataset_sha256']}"
    return "revision not recorded"


def _questions(run: Run) -> str:
    done = len(run.samples)
    if run.complete:
        return f"{done:,} questions"
    return f"{done:,} of {len(run.planned):,} questions (incomplete run)"


def _prompt(s: dict[str, Any], preset: Any) -> str:
    if preset is not None:
        return f"the exact prompt of {preset.origin} (preset {preset.name})"
    mode = s.get("mode", "cot")
    tools = s.get("tools", "none")
    kind = (
        "write a Python solution() (program-aided)"
        if mode == "pal"
        else "reason step by step and end with 'ANSWER: <number>'"
    )
    extra = f", with the {tools} tool" if tools not in (None, "none") else ""
    return f"inspect-gsm8k's own prompt (mode {mode}: {kind}{extra})"


def _shot_source(s: dict[str, Any], preset: Any) -> str:
    if not s.get("fewshot"):
        return "-"
    if preset is not None:
        source = preset.fewshot_source
    elif str(s.get("variant", "")).startswith("mgsm"):
        source = "MGSM's own exemplars for the language, in the paper's order"
    else:
        annotations = "kept" if s.get("calculator_annotations") else "removed"
        source = (
            "train records, the first n of numpy.random.default_rng(seed).permutation; "
            f"calculator annotations {annotations}"
        )
    where = s.get("fewshot_dataset")
    return f"{source}; from {where}" if where else source


def _placement(s: dict[str, Any], preset: Any) -> str:
    placement = str(s.get("placement", "-"))
    if preset is not None:
        return f"{placement}: {preset.placements.get(placement, '-')}"
    return PLACEMENTS.get(placement, placement)


def _grading(run: Run) -> str:
    return PAL_RULE if run.grader == PAL_GRADER else GRADER_RULE


def decoding(log: EvalLog) -> dict[str, Any]:
    """The generation settings a log's samples ran with, as Inspect applies them: the eval's
    settings (task defaults, then command line) over the model's own."""
    config = log.eval.model_generate_config
    if log.plan is not None:
        config = config.merge(log.plan.config)
    settings = config.model_dump(exclude_none=True)
    return {
        name: value for name, value in settings.items() if name not in GENERATION_OPERATIONAL_FIELDS
    }


def _versions(s: dict[str, Any], log: EvalLog) -> str:
    inspect_version = (log.eval.packages or {}).get("inspect_ai")
    version = f"task version {s.get('task_version', '-')}"
    return f"{version}, inspect_ai {inspect_version}" if inspect_version else version


def _decoding(run: Run, log: EvalLog) -> str:
    g = decoding(log)
    shown = [f"{name}={display_value(g[name])}" for name in DECODING_FIELDS if name in g]
    shown += [
        f"{name}={display_value(value)}" for name, value in g.items() if name not in DECODING_FIELDS
    ]
    shown += [
        f"{name}={display_value(value)}"
        for name, value in run.model_args.items()
        if value is not None  # what a log could not record (a function) says nothing
    ]
    return ", ".join(shown) if shown else "the provider's defaults (nothing set)"


def _original_decoding(preset: Any) -> str:
    """What the preset's original sends with each request (the run's defaults, which its
    Decoding row shows as they ran, command-line overrides included)."""
    sent = preset.generation.model_dump(exclude_none=True)
    shown = ", ".join(f"{name}={display_value(value)}" for name, value in sent.items())
    return f"{shown or 'nothing set'}; from {preset.generation_source}"


def _votes(epochs: int) -> str:
    if epochs == 1:
        return "One completion per question"
    return f"{epochs} completions per question (self-consistency by majority vote on the answer)"


def _accuracy(value: float, low: float, high: float, run: Run) -> str:
    kind = "Wilson" if run.epochs == 1 else "t over per-question means"
    return f"{value:.1%} ({low:.1%}–{high:.1%}, {kind}; n={len(run.samples):,})"


def _as_number(value: Any) -> float:
    if value in ("C", True):
        return 1.0
    if value in ("I", False, None):
        return 0.0
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
