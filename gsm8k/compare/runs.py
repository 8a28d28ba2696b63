"""Read GSM8K logs into one record per run, merging retried and resumed logs.

Nothing is counted twice, and nothing is dropped without saying so.

A *run* is one model under one set of output-affecting settings (see
:mod:`gsm8k.compare.settings`). Several logs can belong to the same run (an interrupted eval and
its ``inspect eval-retry``, an ``eval-set`` that was resumed); each (sample, epoch) counts once,
taken from the newest log that completed it. A run whose logs planned samples that no log
completed (a cancelled or crashed eval, failed samples) is *incomplete*, and says which samples
it has.

Logs are read through Inspect's sample summaries (scores, token usage, errors), which read several
times faster than whole samples; whole samples are read only where summaries fall short (a
``pal_grader`` log's stop reasons, an answer the summary shortened).

Entry points for other reports: :func:`read_runs` (runs plus the logs that could not be read),
:func:`load_runs` (runs, with unreadable logs reported on stderr); a run's results are
:class:`gsm8k.compare.results.Run` and its ``samples``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from inspect_ai.log import (
    EvalLog,
    EvalSample,
    EvalSampleSummary,
    read_eval_log,
    read_eval_log_sample_summaries,
)
from inspect_ai.scorer import Score

from gsm8k.compare.display import short_path
from gsm8k.compare.inflation import oversized_member
from gsm8k.compare.labels import assign_labels
from gsm8k.compare.locations import LogLocations, as_list, list_logs
from gsm8k.compare.rerun import data_environment, rerun_prefix, sample_selection
from gsm8k.compare.results import (
    GRADER,
    GRADERS,
    PAL_GRADER,
    EpochResult,
    Run,
    SampleId,
)
from gsm8k.compare.settings import (
    TASK_SETTINGS_ORDER,
    generation_settings,
    model_args,
    task_settings,
)
from gsm8k.family_set import FAMILY_SET_TASKS
from gsm8k.grading.printable import say

TASK_NAMES = frozenset({"gsm8k", "gsm8k/gsm8k", *FAMILY_SET_TASKS})
TRUNCATED_STOP_REASONS = frozenset({"max_tokens", "model_length"})
INCOMPLETE_STATUSES = frozenset({"started", "cancelled", "error"})

# Task settings that must agree for accuracies to be comparable (kept for callers; a run's
# identity is every output-affecting setting, see gsm8k.compare.settings).
COMPARABILITY_FIELDS = TASK_SETTINGS_ORDER

# Sample fields a report never reads: skipping them keeps memory small on large logs.
UNREAD_SAMPLE_FIELDS = frozenset({"messages", "events", "store", "attachments"})


@dataclass(frozen=True)
class SkippedLog:
    """A log file that could not be used, and why."""

    path: str
    reason: str


@dataclass
class LogScan:
    """What a log directory held: GSM8K runs, unusable logs, and how many logs of other tasks."""

    runs: list[Run]
    skipped: list[SkippedLog]
    other_tasks: int = 0


def read_runs(log_dir: LogLocations, task_names: Iterable[str] = TASK_NAMES) -> LogScan:
    """Every run of the named tasks at ``log_dir``: a folder, a log file, a URI Inspect reads
    (``s3://…``), or a list of these (see :mod:`gsm8k.compare.locations`); logs are folded in
    oldest first.

    A log that cannot be read (corrupt, truncated, not a log) or has no samples is listed in
    ``skipped`` with the reason; it never stops the others from being read.

    Raises:
        LogLocationError: a location that does not exist or cannot be reached.
    """
    names = frozenset(task_names)
    runs: dict[str, Run] = {}
    skipped: list[SkippedLog] = []
    other_tasks = 0
    for info in list_logs(log_dir):
        too_large = oversized_member(info.name)
        if too_large is not None:
            skipped.append(SkippedLog(info.name, too_large))
            continue
        try:
            log = read_eval_log(info, header_only=True)
            if _task_name(log) not in names and log.eval.task not in names:
                other_tasks += 1
                continue
            # Sample summaries carry scores, usage and errors, and read several times faster
            # than whole samples.
            summaries: Sequence[EvalSample | EvalSampleSummary]
            summaries = read_eval_log_sample_summaries(info)
            stop_reasons: dict[tuple[SampleId, int], str] = {}
            if _needs_whole_samples(summaries):
                too_large = oversized_member(info.name, samples=True)
                if too_large is not None:
                    skipped.append(SkippedLog(info.name, too_large))
                    continue
                whole = read_eval_log(info, exclude_fields=set(UNREAD_SAMPLE_FIELDS)).samples
                summaries = whole or []
                stop_reasons = {(s.id, s.epoch): s.output.stop_reason for s in whole or []}
        except Exception as error:  # any failure to read one file must not stop the report
            reason = f"cannot be read ({_describe(error, info.name)})"
            skipped.append(SkippedLog(info.name, reason))
            continue
        if not summaries:
            skipped.append(SkippedLog(info.name, f"has no samples (status: {log.status})"))
            continue
        foreign = _foreign_scorers(summaries)
        if foreign is not None:
            reason = f"scored by {foreign}, not by {' or '.join(GRADERS)} (another GSM8K task?)"
            skipped.append(SkippedLog(info.name, reason))
            continue
        try:
            skeleton = _run_skeleton(log)
            content = _log_content(log, summaries, stop_reasons)
        except Exception as error:  # a readable log with unexpected contents: same rule
            skipped.append(SkippedLog(info.name, f"cannot be used ({_describe(error, info.name)})"))
            continue
        _merge(runs.setdefault(skeleton.key, skeleton), log, content)
    result = list(runs.values())
    assign_labels(result)
    return LogScan(result, skipped, other_tasks)


def load_runs(log_dir: LogLocations, program: str = "gsm8k-compare") -> list[Run]:
    """Every GSM8K run found at ``log_dir`` (as for :func:`read_runs`); unusable logs are named
    on stderr, each line starting with ``program``.

    Raises:
        ValueError: when the locations hold no GSM8K log with samples, or one cannot be read.
    """
    scan = read_runs(log_dir)
    where = as_list(log_dir)
    base = where[0] if len(where) == 1 else "."
    for skipped in scan.skipped:
        say(program, f"warning: skipped {short_path(skipped.path, base)}: {skipped.reason}")
    if not scan.runs:
        raise ValueError(f"no GSM8K logs with samples under {', '.join(where)}")
    return scan.runs


def select_runs(runs: Sequence[Run], model: str | None, variant: str | None) -> list[Run]:
    """The runs of ``model`` on ``variant`` (``None``: any), for a store that holds an eval set of
    several models and variants.

    Raises:
        ValueError: when no run matches; the message names what the store holds.
    """
    chosen = [
        run
        for run in runs
        if (model is None or run.model == model)
        and (variant is None or run.settings.get("variant") == variant)
    ]
    if not chosen:
        flags = (("--model", model), ("--variant", variant))
        asked = " on ".join(f"{flag} {value!r}" for flag, value in flags if value is not None)
        models = ", ".join(sorted({run.model for run in runs}))
        variants = ", ".join(sorted({str(run.settings.get("variant")) for run in runs}))
        held = f"the logs hold models {models}; datasets {variants}"
        raise ValueError(f"no runs match {asked}: {held}")
    if len(chosen) < len(runs):
        assign_labels(chosen)  # labels name what differs among the runs reported, no others
    return chosen


def _task_name(log: EvalLog) -> str:
    """The task function's name: the log's task name says the variant and preset too."""
    return (log.eval.task_registry_name or log.eval.task).rsplit("/", 1)[-1]


def _run_skeleton(log: EvalLog) -> Run:
    generation = generation_settings(log)
    return Run(
        model=log.eval.model,
        settings=task_settings(log),
        generation=generation,
        model_args=model_args(log),
        epochs=int(generation["epochs"]),
    )


@dataclass
class _LogContent:
    """What one log contributes to its run."""

    planned: list[SampleId]
    results: list[tuple[SampleId, int, EpochResult]]
    grader: str | None
    unscored: list[SampleId]


def _log_content(
    log: EvalLog,
    summaries: Sequence[EvalSample | EvalSampleSummary],
    stop_reasons: dict[tuple[SampleId, int], str],
) -> _LogContent:
    """The samples a log set out to run and the graded (sample, epoch) results it completed."""
    split = str((log.eval.metadata or {}).get("split", ""))
    planned = log.eval.dataset.sample_ids
    if planned is None:
        planned = [sample.id for sample in summaries]
    results = []
    unscored = []
    used = None
    for sample in summaries:
        grader = next((name for name in GRADERS if name in (sample.scores or {})), None)
        if sample.error is None and grader is not None and _unscored(sample.scores, grader):
            # A failure that is not the model's (engine, sandbox): never counted wrong, and not
            # an error either, so only running the sample again completes it.
            unscored.append(_sample_key(sample.id, split))
            continue
        if sample.error is not None or grader is None:
            continue  # unfinished or failed: a retry of this sample counts instead
        used = grader
        stop_reason = stop_reasons.get((sample.id, sample.epoch))
        result = _epoch_result(sample, grader, stop_reason)
        results.append((_sample_key(sample.id, split), sample.epoch, result))
    return _LogContent([_sample_key(i, split) for i in planned], results, used, unscored)


def _unscored(scores: dict[str, Score] | None, grader: str) -> bool:
    """Whether the grader left this sample out (``Score.unscored()``: a NaN value)."""
    value = (scores or {})[grader].value
    return isinstance(value, float) and math.isnan(value)


def _needs_whole_samples(summaries: Sequence[EvalSampleSummary]) -> bool:
    """Whether summaries lack what the report needs: why each completion stopped, for
    ``pal_grader`` (which does not record truncation itself), or an answer Inspect shortened
    in the summary (over 1,024 characters, ending ``...``), which majority votes must see whole."""
    for sample in summaries:
        scores = sample.scores or {}
        if PAL_GRADER in scores:
            return True
        answer = scores[GRADER].answer if GRADER in scores else None
        if answer is not None and answer.endswith("..."):
            return True
    return False


def _merge(run: Run, log: EvalLog, content: _LogContent) -> None:
    """Fold one log into a run: a newer log's (sample, epoch) replaces an older one's."""
    run.logs.append(log.location)
    run.statuses[log.location] = log.status
    period = _period(log)
    if period is not None:
        run.periods.append(period)
    run.planned.update(content.planned)
    run.unscored.update(content.unscored)
    run.rerun = rerun_prefix(log)  # the newest log's: logs are folded in oldest first
    run.selection = sample_selection(log)
    run.environment = data_environment(log)
    run.grader = content.grader or run.grader
    for sample_id, epoch, result in content.results:
        run.results.setdefault(sample_id, {})[epoch] = result
    run._samples = None  # a replaced (sample, epoch) leaves the counts unchanged


def _foreign_scorers(summaries: Sequence[EvalSample | EvalSampleSummary]) -> str | None:
    """The scorers of a log whose scored samples carry none of this task's graders (a GSM8K
    from another package has the same task name); ``None`` when the log is this task's."""
    scored = [sample.scores for sample in summaries if sample.scores]
    if not scored or any(name in scores for scores in scored for name in GRADERS):
        return None
    return ", ".join(sorted({name for scores in scored for name in scores}))


def _sample_key(sample_id: SampleId, split: str) -> SampleId:
    """The GSM8K test index for ids written as ``<split>-<index>`` (task versions before 1.1.0),
    so that old and new logs of the same questions pair up."""
    if isinstance(sample_id, str) and split:
        found = re.fullmatch(rf"{re.escape(split)}-(\d+)", sample_id)
        if found:
            return int(found.group(1))
    return sample_id


def _epoch_result(
    sample: EvalSample | EvalSampleSummary, grader: str, stop_reason: str | None = None
) -> EpochResult:
    score = (sample.scores or {})[grader]
    value = score.value if isinstance(score.value, dict) else {}
    usages = list((sample.model_usage or {}).values())
    reasoning = [u.reasoning_tokens for u in usages if u.reasoning_tokens is not None]
    stopped_at_limit = stop_reason in TRUNCATED_STOP_REASONS
    is_pal = grader == PAL_GRADER
    return EpochResult(
        correct=bool(value.get("accuracy")),
        strict=None if is_pal else bool(value.get("strict_accuracy")),
        format_followed=None if is_pal else bool(value.get("format_followed")),
        no_answer=score.answer is None if is_pal else bool(value.get("no_answer")),
        truncated=bool(value.get("truncated", stopped_at_limit)),
        answer=score.answer,
        tokens=sum(usage.total_tokens for usage in usages),
        reasoning_tokens=sum(reasoning) if reasoning else None,
        execution_error=bool(value.get("execution_error")) if is_pal else None,
    )


def _period(log: EvalLog) -> tuple[float, float] | None:
    if not log.stats.started_at or not log.stats.completed_at:
        return None
    started = datetime.fromisoformat(log.stats.started_at).timestamp()
    return started, max(started, datetime.fromisoformat(log.stats.completed_at).timestamp())


def _describe(error: BaseException, path: str) -> str:
    """The error's type and first line, without the file's path (the report names it)."""
    text = str(error).strip().splitlines()
    detail = text[0] if text else ""
    for form in (path, path.removeprefix("file://")):
        detail = detail.replace(f": {form}", "").replace(form, "the file")
    if len(detail) > 160:
        detail = detail[:157] + "..."
    return f"{type(error).__name__}: {detail}" if detail else type(error).__name__
