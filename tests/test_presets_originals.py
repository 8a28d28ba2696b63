"""Presets against the installed originals on real GSM8K items (the ``bench`` extra).

Each preset's prompt for the first 25 GSM8K test items is compared byte for byte with what the
original's own code builds: lm-evaluation-harness 0.4.13 (its request builder and
``fewshot_context`` on the task YAML it ships) and inspect_evals 0.26.0 (its task and solvers).
simple-evals is not on PyPI: its published ``mgsm_eval.py`` is read from a checkout named by
``SIMPLE_EVALS_DIR``; Kojima et al.'s code calls the OpenAI API, so their prompt is built from
their ``main.py``'s statements and their scoring run from ``utils.py`` in ``KOJIMA_DIR``.

Then a scripted run per preset: real completions (``../completions`` beside ``GSM8K_DATA_DIR``)
are replayed through the task, and the log's original-rule score must equal, item by item, what
the original harness scores on the same completions.

Needs ``GSM8K_DATA_DIR``, lm-eval and inspect-evals; skips cleanly without them. Marked ``bench``:
deselected by default, run with the slow tier where the extra is installed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gsm8k.metrics.keys import MATCH
from gsm8k.task import gsm8k
from tests.preset_support import (
    REPLY,
    kojima_verdict,
    lm_eval_scores,
    original_inspect_evals,
    original_kojima,
    original_lm_eval,
    original_simple_evals,
    read_jsonl,
    rendered,
    simple_evals_namespace,
)
from tests.scripted import run_eval, scripted_model

pytestmark = pytest.mark.bench
pytest.importorskip("lm_eval", reason="lm-eval comes with the bench extra")
pytest.importorskip("inspect_evals", reason="inspect-evals comes with the bench extra")

ITEMS = 25
REPLAYED = 60


def _checkout(variable: str) -> Path:
    value = os.environ.get(variable)
    if not value:
        pytest.skip(f"{variable} is not set (a checkout of the original's repository)")
    return Path(value)


@pytest.mark.parametrize(
    ("preset", "placement"),
    [
        ("lm-eval-gsm8k", "user"),
        ("lm-eval-gsm8k", "turns"),
        ("lm-eval-gsm8k-cot", "user"),
        ("lm-eval-gsm8k-cot", "turns"),
        ("lm-eval-gsm8k-cot-zeroshot", "user"),
    ],
)
def test_lm_eval_prompts(preset: str, placement: str, real_data_dir: Path, tmp_path: Path) -> None:
    task = gsm8k(preset=preset, dataset=str(real_data_dir), placement=placement)
    ours = list(rendered(task, ITEMS).values())
    assert ours == original_lm_eval(preset, real_data_dir, ITEMS, placement, tmp_path)


def test_inspect_evals_prompt(real_data_dir: Path, tmp_path: Path) -> None:
    ours = list(rendered(gsm8k(preset="inspect-evals", dataset=str(real_data_dir)), ITEMS).values())
    assert ours == original_inspect_evals(real_data_dir, ITEMS, tmp_path)


def test_kojima_prompts(real_data_dir: Path) -> None:
    task = gsm8k(preset="kojima-zero-shot-cot", dataset=str(real_data_dir))
    ours = list(rendered(task, ITEMS).values())
    questions = [str(r["question"]).strip() for r in read_jsonl(real_data_dir / "test.jsonl")]
    assert ours == original_kojima(questions[:ITEMS], REPLY)


def _mgsm_dir(real_data_dir: Path) -> Path:
    path = real_data_dir.parent / "mgsm"
    if not (path / "mgsm_en.tsv").is_file():
        pytest.skip(f"no MGSM copy at {path}")
    return path


def test_simple_evals_prompts_every_language(
    real_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkout = _checkout("SIMPLE_EVALS_DIR")
    mgsm = _mgsm_dir(real_data_dir)
    monkeypatch.setenv("GSM8K_FAMILY_DIR", str(mgsm.parent))
    for language in simple_evals_namespace(checkout)["LANG_TO_INSTRUCTIONS"]:
        task = gsm8k(preset="simple-evals-mgsm", dataset="mgsm", language=language)
        ours = list(rendered(task, ITEMS).values())
        lines = (mgsm / f"mgsm_{language}.tsv").read_text(encoding="utf-8").splitlines()
        questions = [line.strip().split("\t")[0] for line in lines[:ITEMS]]
        assert ours == original_simple_evals(checkout, questions, language), language


# --- scripted runs: the original-rule score equals the original's on the same completions ----


def _completions(real_data_dir: Path) -> list[str]:
    """One real completion for each of the first REPLAYED test items, cycling through the
    models and formats of the labelled completions (GPT-3 '####', ToRA, JSON answers)."""
    folder = real_data_dir.parent / "completions"
    if not folder.is_dir():
        pytest.skip(f"no labelled completions at {folder}")
    by_item: dict[int, list[str]] = {}
    for name in sorted(folder.glob("*.jsonl")):
        for row in read_jsonl(name):
            if row["test_index"] < REPLAYED:
                by_item.setdefault(row["test_index"], []).append(row["completion"])
    return [by_item[k][k % len(by_item[k])] for k in range(REPLAYED)]


def _replay(questions: list[str], replies: list[str]) -> Callable[[str], str]:
    def reply(prompt: str) -> str:
        tail = prompt[-1200:]
        found = [k for k, question in enumerate(questions) if question in tail]
        assert found, f"no item for prompt ending {prompt[-200:]!r}"
        return replies[max(found, key=lambda k: tail.rfind(questions[k]))]

    return reply


def _per_sample(log: Any, scorer: str) -> list[float]:
    samples = sorted(log.samples, key=lambda sample: sample.id)
    return [float(sample.scores[scorer].value) for sample in samples]


@pytest.mark.parametrize(
    "preset", ["lm-eval-gsm8k", "lm-eval-gsm8k-cot", "lm-eval-gsm8k-cot-zeroshot"]
)
def test_lm_eval_rule_equals_lm_eval_on_the_same_completions(
    preset: str, real_data_dir: Path, tmp_path: Path
) -> None:
    replies = _completions(real_data_dir)
    questions = [str(r["question"]) for r in read_jsonl(real_data_dir / "test.jsonl")[:REPLAYED]]
    task = gsm8k(preset=preset, dataset=str(real_data_dir))
    log = run_eval(task, scripted_model(_replay(questions, replies)), limit=REPLAYED)
    theirs = lm_eval_scores(preset, real_data_dir, replies, tmp_path)
    assert _per_sample(log, "lm_eval_strict_match") == theirs["strict-match"]
    assert _per_sample(log, "lm_eval_flexible_extract") == theirs["flexible-extract"]
    assert 0 < sum(theirs["flexible-extract"]) < REPLAYED  # the replay has right and wrong


def test_inspect_evals_rule_equals_inspect_evals_on_the_same_completions(
    real_data_dir: Path, tmp_path: Path
) -> None:
    replies = _completions(real_data_dir)
    questions = [str(r["question"]) for r in read_jsonl(real_data_dir / "test.jsonl")[:REPLAYED]]
    model = scripted_model(_replay(questions, replies))
    task = gsm8k(preset="inspect-evals", dataset=str(real_data_dir))
    ours = run_eval(task, model, limit=REPLAYED)
    theirs = _inspect_evals_log(real_data_dir, tmp_path, model)
    by_question = {s.input: float(s.scores["match"].value == "C") for s in theirs.samples}
    # The rule's verdict is the `match` value inside the grader's score (one scorer entry).
    mine = {s.input: float(s.scores["gsm8k_grader"].value[MATCH]) for s in ours.samples}
    assert set(ours.samples[0].scores) == {"gsm8k_grader"}
    assert mine == by_question
    assert 0 < sum(mine.values()) < REPLAYED


def _inspect_evals_log(data_dir: Path, cache: Path, model: Any) -> Any:
    """inspect_evals' own gsm8k task on the same items and model."""
    import importlib

    import inspect_ai.dataset as inspect_dataset
    from inspect_ai.dataset._sources import hf

    module = importlib.import_module("inspect_evals.gsm8k.gsm8k")
    files = {"train": str(data_dir / "train.jsonl"), "test": str(data_dir / "test.jsonl")}

    def local(path: str, split: str, **kwargs: Any) -> Any:
        kwargs.pop("revision", None)
        kwargs.pop("data_dir", None)
        return inspect_dataset.hf_dataset(
            "json", split=split, data_files=files, cache_dir=str(cache), **kwargs
        )

    def cache_dir(subdir: str | None, create: bool = True) -> Path:
        return cache / (subdir or "inspect")

    saved = module.hf_dataset, hf.inspect_cache_dir
    module.hf_dataset, hf.inspect_cache_dir = local, cache_dir
    try:
        task = module.gsm8k()
    finally:
        module.hf_dataset, hf.inspect_cache_dir = saved
    return run_eval(task, model, limit=REPLAYED)


def test_kojima_rule_equals_their_code_on_the_same_completions(real_data_dir: Path) -> None:
    checkout = _checkout("KOJIMA_DIR")
    replies = _completions(real_data_dir)
    records = read_jsonl(real_data_dir / "test.jsonl")[:REPLAYED]
    questions = [str(r["question"]) for r in records]
    answer_step = _replay(questions, replies)

    def reply(prompt: str) -> str:
        # The reasoning step gets a fixed text; the answer step gets the item's real completion.
        return answer_step(prompt) if prompt.endswith("(arabic numerals) is") else " Let me see."

    task = gsm8k(preset="kojima-zero-shot-cot", dataset=str(real_data_dir))
    log = run_eval(task, scripted_model(reply), limit=REPLAYED)
    theirs = [
        float(kojima_verdict(checkout, replies[k], str(r["answer"]).split("#### ")[-1]))
        for k, r in enumerate(records)
    ]
    assert _per_sample(log, "kojima_match") == theirs


def test_simple_evals_rule_equals_their_code_on_the_same_completions(
    real_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkout = _checkout("SIMPLE_EVALS_DIR")
    mgsm = _mgsm_dir(real_data_dir)
    monkeypatch.setenv("GSM8K_FAMILY_DIR", str(mgsm.parent))
    namespace = simple_evals_namespace(checkout)
    replies = _completions(real_data_dir)
    # Some replies in simple-evals' own format, so the rule has answers to read.
    replies = [f"{r}\nAnswer: {r[-3:]}" if k % 3 == 0 else r for k, r in enumerate(replies)]
    lines = (mgsm / "mgsm_en.tsv").read_text(encoding="utf-8").splitlines()[:REPLAYED]
    rows = [line.strip().split("\t") for line in lines]
    task = gsm8k(preset="simple-evals-mgsm", dataset="mgsm", language="en")
    log = run_eval(task, scripted_model(_replay([q for q, _ in rows], replies)), limit=REPLAYED)
    theirs = [
        float(namespace["score_mgsm"](target, namespace["parse_answer"](reply, "Answer")))
        for (_, target), reply in zip(rows, replies, strict=True)
    ]
    assert _per_sample(log, "simple_evals_mgsm_match") == theirs
