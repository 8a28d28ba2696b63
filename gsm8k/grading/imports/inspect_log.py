"""Inspect logs of GSM8K tasks (``.eval`` or ``.json``), as written: inspect_evals' ``gsm8k``,
this project's own, or any task whose samples hold the question, the gold and the output.

Each sample (and epoch) gives the completion (``output.completion``: the text parts, not the
reasoning), the target, whether generation stopped at the token limit (``stop_reason``), and its
scorers' verdicts. The original verdict is the log's headline scorer's unless ``--original``
names another; ``C``/``I`` and numbers are read with Inspect's ``value_to_float``, and a scorer
that stores a dict (this project's grader) is read at its ``accuracy`` key. ``--original match``
on this project's logs from task version 1.4.0 reads the ``match`` value the grader carries.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gsm8k.grading.imports.rows import Imported, ImportedRow, ImportProblem, final_answer
from gsm8k.grading.reasons import TRUNCATION_STOP_REASONS

HARNESS = "inspect"
SUFFIXES = (".eval", ".json")
ACCURACY_KEY = "accuracy"
CARRIED = {"match": ("gsm8k_grader", "match_answer")}
"""Verdicts this project's grader carries as a value (``match``), with its answer's metadata key."""


def read(path: Path, original: str | None = None) -> Imported:
    """Every sample of the log, with scorer ``original``'s verdict (default: the headline's).

    Raises:
        ValueError: when the log cannot be read, holds no samples, or has no scorer
            ``original``.
    """
    from inspect_ai.log import read_eval_log

    try:
        log = read_eval_log(str(path))
    except Exception as error:  # a broken or foreign file: one line naming it
        if _lm_eval_results(path):
            raise ValueError(
                f"{path}: an lm-eval results summary, which has no per-question rows; pass the "
                "samples_<task>_<date>.jsonl beside it (written with --log_samples)"
            ) from error
        raise ValueError(
            f"{path}: not a readable Inspect log ({type(error).__name__}: {str(error)[:200]})"
        ) from error
    if not log.samples:
        raise ValueError(f"{path}: the log holds no samples (status {log.status})")
    scorers = list(dict.fromkeys(name for s in log.samples for name in (s.scores or {})))
    scorers += [name for name in CARRIED if name not in scorers and _carries(log.samples, name)]
    headline = _headline_scorer(log)
    chosen = original or headline or (scorers[0] if scorers else None)
    if chosen is None or chosen not in scorers:
        have = ", ".join(scorers) or "none"
        raise ValueError(f"{path}: no scorer {chosen!r} in the samples' scores; they have {have}")
    imported = Imported(HARNESS, f"{log.eval.task} {chosen}", choices=scorers)
    for sample in log.samples:
        row = _row(sample, chosen)
        imported.add(row)
    return imported


def _carries(samples: list[Any], name: str) -> bool:
    """Whether a sample's host scorer holds ``name`` among its values."""
    host = CARRIED[name][0]
    for sample in samples:
        score = (sample.scores or {}).get(host)
        if score is not None and isinstance(score.value, dict) and name in score.value:
            return True
    return False


def _headline_scorer(log: Any) -> str | None:
    """The scorer whose number the log shows first: the task's declared headline metric, else
    the first score's (a scorer that returns a dict has one score per key, each naming it)."""
    declared = getattr(log.eval, "headline_metric", None)
    if declared is not None and declared.scorer:
        return str(declared.scorer)
    if log.results and log.results.scores:
        return str(log.results.scores[0].scorer)
    return None


def _row(sample: Any, scorer: str) -> ImportedRow | ImportProblem:
    from inspect_ai.scorer import value_to_float

    place = f"sample {sample.id} epoch {sample.epoch}"
    if sample.error is not None:
        return ImportProblem(place, str(sample.id), "the sample ended in an error, no output")
    score = (sample.scores or {}).get(scorer)
    answer = score.answer if score is not None else None
    value: Any = score.value if score is not None else None
    if score is None and scorer in CARRIED:
        host, answer_key = CARRIED[scorer]
        score = (sample.scores or {}).get(host)
        value = (
            score.value.get(scorer) if score is not None and isinstance(score.value, dict) else None
        )
        answer = (score.metadata or {}).get(answer_key) if score is not None else None
    if score is None:
        return ImportProblem(place, str(sample.id), f"no {scorer!r} score on this sample")
    if isinstance(value, dict):
        value = value.get(ACCURACY_KEY)
    if value is None:
        return ImportProblem(place, str(sample.id), f"the {scorer!r} score has no verdict")
    target = sample.target if isinstance(sample.target, str) else (sample.target or [""])[0]
    return ImportedRow(
        place=place,
        id=str(sample.id),
        epoch=sample.epoch,
        completion=sample.output.completion,
        target=final_answer(target),
        question=_question(sample.input),
        truncated=sample.output.stop_reason in TRUNCATION_STOP_REASONS,
        original_correct=value_to_float()(value) == 1.0,
        original_answer=answer,
    )


def _lm_eval_results(path: Path) -> bool:
    """Whether ``path`` is lm-eval's ``results_<date>.json`` (its aggregate, not its samples)."""
    try:
        content = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return False
    return isinstance(content, dict) and {"results", "configs"} <= set(content)


def _question(input: Any) -> str | None:
    """The sample's input text (the question, for a GSM8K dataset)."""
    if isinstance(input, str):
        return input
    users = [m for m in input if getattr(m, "role", None) == "user"]
    return users[-1].text if users else None
