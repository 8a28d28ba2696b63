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

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gsm8k.grading.imports.jsonlines import MAX_RECORD_BYTES, parse_json
from gsm8k.grading.imports.rows import Imported, ImportedRow, ImportProblem, final_answer
from gsm8k.grading.reasons import TRUNCATION_STOP_REASONS

HARNESS = "inspect"
SUFFIXES = (".eval", ".json")
ACCURACY_KEY = "accuracy"
CARRIED = {"match": ("gsm8k_grader", "match_answer")}
"""Verdicts this project's grader carries as a value (``match``), with its answer's metadata key."""


MAX_LOG_INFLATED = 1024 * 1024 * 1024
"""The most a ``.eval`` log's members may inflate to in all (1 GiB): a GSM8K test run's log
inflates to some tens of MB; past this, the samples left are each reported, not read."""
_CHUNK = 1024 * 1024
SAMPLES_DIR = "samples/"
HEADER_MEMBERS = ("header.json", "_journal/start.json")
"""Where a ``.eval`` log keeps its eval spec and results: a finished log's header, else the
start record of a log still being written."""


@dataclass(frozen=True)
class _Sample:
    """One sample's rows, one per scorer it holds (text only: the sample itself is dropped)."""

    place: str
    id: str
    order: tuple[int, str]
    rows: dict[str, ImportedRow | ImportProblem]
    scorers: list[str]


def read(path: Path, original: str | None = None) -> Imported:
    """Every sample of the log, with scorer ``original``'s verdict (default: the headline's).

    A ``.eval`` log is read one sample at a time, each member no larger than
    :data:`~gsm8k.grading.imports.jsonlines.MAX_RECORD_BYTES` inflated; a ``.json`` log of at
    most that size is read whole.

    Raises:
        ValueError: when the log cannot be read, holds no samples, or has no scorer
            ``original``.
    """
    if path.suffix == ".eval":
        task, status, headline, samples = _read_eval(path)
    else:
        task, status, headline, samples = _read_json(path)
    if not samples:
        raise ValueError(f"{path}: the log holds no samples (status {status})")
    kept = [sample for sample in samples if isinstance(sample, _Sample)]
    scorers = list(dict.fromkeys(name for sample in kept for name in sample.scorers))
    scorers += [
        name
        for name in CARRIED
        if name not in scorers and any(name in sample.rows for sample in kept)
    ]
    chosen = original or headline or (scorers[0] if scorers else None)
    if not kept:  # every sample is a problem: each is reported on its own line
        chosen = chosen or "no scorer"
    elif chosen is None or chosen not in scorers:
        have = ", ".join(scorers) or "none"
        raise ValueError(f"{path}: no scorer {chosen!r} in the samples' scores; they have {have}")
    imported = Imported(HARNESS, f"{task} {chosen}", choices=scorers)
    for sample in samples:
        if isinstance(sample, ImportProblem):
            imported.add(sample)
        else:
            missing = ImportProblem(sample.place, sample.id, f"no {chosen!r} score on this sample")
            imported.add(sample.rows.get(chosen, missing))
    return imported


_Contents = tuple[str, str, "str | None", "list[_Sample | ImportProblem]"]
"""A log's task, status, headline scorer and samples."""


def _read_json(path: Path) -> _Contents:
    from inspect_ai.log import read_eval_log

    size = path.stat().st_size
    if size > MAX_RECORD_BYTES:
        raise ValueError(
            f"{path}: a .json log of {size:,} bytes, more than the {MAX_RECORD_BYTES:,} read "
            "whole; convert it to .eval, which is read a sample at a time: "
            f"inspect log convert {path} --to eval --output-dir DIR"
        )
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
    samples: list[_Sample | ImportProblem] = [_slim(sample) for sample in log.samples or []]
    return log.eval.task, log.status, _headline_scorer(log), samples


def _read_eval(path: Path) -> _Contents:
    """A ``.eval`` log read with :mod:`zipfile`, which stops inflating a member at its recorded
    size (Inspect's own reader inflates whatever a member holds)."""
    import zipfile

    import zipfile_zstd  # noqa: F401  (Inspect writes zstd members)
    from inspect_ai.log import EvalSample

    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as error:
        raise ValueError(
            f"{path}: not a readable Inspect log (not a zip archive: {error})"
        ) from error
    with archive:
        names = set(archive.namelist())
        header_name = next((name for name in HEADER_MEMBERS if name in names), None)
        if header_name is None:
            raise ValueError(f"{path}: not an Inspect log (no {' or '.join(HEADER_MEMBERS)})")
        header, problem = _member_json(archive, archive.getinfo(header_name))
        if problem or not isinstance(header, dict) or not isinstance(header.get("eval"), dict):
            raise ValueError(
                f"{path}: not a readable Inspect log ({header_name}: {problem or 'no eval'})"
            )
        budget = MAX_LOG_INFLATED
        samples: list[_Sample | ImportProblem] = []
        # A re-logged sample is a second member of the same name; getinfo reads the last.
        for name in sorted(n for n in names if n.startswith(SAMPLES_DIR) and n.endswith(".json")):
            info = archive.getinfo(name)
            if info.file_size > MAX_RECORD_BYTES:
                samples.append(ImportProblem(name, None, _member_json(archive, info)[1] or ""))
                continue
            if info.file_size > budget:
                samples.append(
                    ImportProblem(
                        name,
                        None,
                        f"not read: the log's members inflate "
                        f"to more than {MAX_LOG_INFLATED:,} bytes in all",
                    )
                )
                continue
            budget -= info.file_size
            data, problem = _member_json(archive, info)
            if problem is None:
                try:
                    samples.append(_slim(EvalSample.model_validate(data)))
                    continue
                except Exception as error:  # a member that is not a sample: its own line
                    problem = f"not an Inspect sample ({type(error).__name__}: {str(error)[:200]})"
            samples.append(ImportProblem(name, None, problem))
    samples.sort(key=lambda s: s.order if isinstance(s, _Sample) else (0, s.place))
    spec = header["eval"]
    results = header.get("results") if isinstance(header.get("results"), dict) else {}
    declared = spec.get("headline_metric")
    headline = declared.get("scorer") if isinstance(declared, dict) else None
    first = (results.get("scores") or [None])[0] if isinstance(results, dict) else None
    if headline is None and isinstance(first, dict):
        headline = first.get("scorer")
    return str(spec.get("task")), str(header.get("status", "started")), headline, samples


def _member_json(archive: Any, info: Any) -> tuple[Any, str | None]:
    """A member's JSON, read no further than its recorded size, or why it cannot be read."""
    if info.file_size > MAX_RECORD_BYTES:
        return None, (
            f"inflates to {info.file_size:,} bytes, more than the {MAX_RECORD_BYTES:,} read"
        )
    try:
        chunks, size = [], 0
        with archive.open(info) as member:
            # In small reads: one large read inflates that much before it is cut to the size
            # the member records.
            while size <= MAX_RECORD_BYTES and (chunk := member.read(_CHUNK)):
                chunks.append(chunk)
                size += len(chunk)
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as error:
        return None, f"not UTF-8 at byte {error.start}"
    except Exception as error:  # a corrupt member (bad CRC, unknown compression): its own line
        return None, f"cannot be inflated ({type(error).__name__}: {str(error)[:200]})"
    return parse_json(text)


def _slim(sample: Any) -> _Sample | ImportProblem:
    """A sample's rows for every scorer it holds, carried verdicts included."""
    place = f"sample {sample.id} epoch {sample.epoch}"
    if sample.error is not None:
        return ImportProblem(place, str(sample.id), "the sample ended in an error, no output")
    scores = sample.scores or {}
    names = list(scores) + [n for n in CARRIED if n not in scores and _carries(sample, n)]
    key = sample.id if isinstance(sample.id, str) else str(sample.id).zfill(20)
    return _Sample(
        place,
        str(sample.id),
        (sample.epoch, key),
        {n: _row(sample, n) for n in names},
        list(scores),
    )


def _carries(sample: Any, name: str) -> bool:
    """Whether the sample's host scorer holds ``name`` among its values."""
    score = (sample.scores or {}).get(CARRIED[name][0])
    return score is not None and isinstance(score.value, dict) and name in score.value


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
        content, _ = parse_json(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return False
    return isinstance(content, dict) and {"results", "configs"} <= set(content)


def _question(input: Any) -> str | None:
    """The sample's input text (the question, for a GSM8K dataset)."""
    if isinstance(input, str):
        return input
    users = [m for m in input if getattr(m, "role", None) == "user"]
    return users[-1].text if users else None
