"""gsm8k_memorization: its samples, its refusals and its scorer on scripted continuations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gsm8k.contamination.memorization import gsm8k_memorization
from gsm8k.contamination.probe import QUESTION_PROMPT
from gsm8k.data.fresh import fresh_samples
from gsm8k.settings.errors import TaskInputError
from tests.contamination_support import question, solution, write_gsm8k, write_templates
from tests.scripted import run_eval, scripted_model


@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.delenv("GSM_SYMBOLIC_TEMPLATES", raising=False)
    data = write_gsm8k(tmp_path / "gsm8k", 3, train=5)
    monkeypatch.setenv("GSM8K_DATA_DIR", str(data))
    return data, write_templates(tmp_path / "templates", 3)


def _ids(task: Any) -> list[str]:
    return [str(sample.id) for sample in task.dataset]


def test_samples_interleave_test_fresh_and_train_texts(folders: tuple[Path, Path]) -> None:
    _, templates = folders
    task = gsm8k_memorization(templates=str(templates), fresh_per_template=2, train=2)
    # Per template: its test question and solution, each fresh instance's, one train text.
    assert _ids(task)[:8] == [
        "test-question-0-0",
        "test-solution-0-0",
        "fresh-question-0000-0-0",
        "fresh-solution-0000-0-0",
        "fresh-question-0000-1-0",
        "fresh-solution-0000-1-0",
        "train-question-0-0",
        "train-solution-0-0",
    ]
    assert len(task.dataset) == 3 * (2 + 2 * 2) + 2 * 2
    first = task.dataset[0]
    words = question(0).split()
    assert first.input == QUESTION_PROMPT.format(shown=" ".join(words[: round(len(words) / 2)]))
    assert first.target == " ".join(words[round(len(words) / 2) :])
    # A solution ends before its "#### N" line, as the fresh instances' solutions do.
    assert "####" not in str(task.dataset[1].target)
    assert str(task.dataset[1].target) in solution(0)


def test_fresh_texts_are_the_fresh_datasets_own_instances(folders: tuple[Path, Path]) -> None:
    _, templates = folders
    task = gsm8k_memorization(templates=str(templates), fresh_seed=7, train=0, parts="question")
    drawn = {
        s.metadata["template"]: str(s.input)
        for s in fresh_samples(templates / "symbolic", 7, 1, include_originals=False)
    }
    for sample in task.dataset:
        if sample.metadata and sample.metadata["source"] == "fresh":
            text = drawn[sample.metadata["template"]]
            assert text.startswith(sample.metadata["shown"])
            assert text.endswith(str(sample.target))
    other = gsm8k_memorization(templates=str(templates), fresh_seed=8, train=0, parts="question")
    assert [s.target for s in other.dataset] != [s.target for s in task.dataset]


def test_without_templates_the_test_texts_are_the_first_test_questions(
    folders: tuple[Path, Path],
) -> None:
    task = gsm8k_memorization(train=1, parts="question", points=3)
    assert _ids(task) == [
        "test-question-0-0",
        "test-question-0-1",
        "test-question-0-2",
        "train-question-0-0",
        "train-question-0-1",
        "train-question-0-2",
        "test-question-1-0",
        "test-question-1-1",
        "test-question-1-2",
        "test-question-2-0",
        "test-question-2-1",
        "test-question-2-2",
    ]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        pytest.param({"templates": "no/such/folder"}, "no such folder", id="missing-templates"),
        pytest.param({"fresh_seed": "abc"}, "fresh_seed='abc'", id="seed-not-a-number"),
        pytest.param({"fresh_per_template": 1000}, "at most 100", id="too-many-instances"),
        pytest.param({"points": 0}, "-T points=0", id="no-cut-point"),
        pytest.param({"train": 10_000}, "-T train=10000", id="more-train-than-there-is"),
        pytest.param({"parts": "answer"}, "-T parts='answer'", id="unknown-part"),
        pytest.param({"point": 2}, "did you mean points?", id="misspelt-parameter"),
    ],
)
def test_bad_input_is_one_line_before_anything_runs(
    folders: tuple[Path, Path], arguments: dict[str, Any], message: str
) -> None:
    _, templates = folders
    arguments = {"templates": str(templates), **arguments}
    with pytest.raises(TaskInputError) as raised:
        gsm8k_memorization(**arguments)
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_malformed_template_is_named(folders: tuple[Path, Path]) -> None:
    _, templates = folders
    broken = templates / "symbolic" / "0001.json"
    record = json.loads(broken.read_text())
    record["question_annotated"] = record["question_annotated"].replace("#answer:", "#anwser:")
    broken.write_text(json.dumps(record))
    with pytest.raises(TaskInputError, match="0001"):
        gsm8k_memorization(templates=str(templates))


@pytest.mark.slow
def test_a_verbatim_reciter_scores_one_and_a_paraphraser_does_not(
    folders: tuple[Path, Path],
) -> None:
    _, templates = folders
    task = gsm8k_memorization(templates=str(templates), train=0, parts="question")
    rest = {str(s.input): str(s.target) for s in task.dataset}
    log = run_eval(task, scripted_model(lambda prompt: f"Sure, here it is: {rest[prompt]}"))
    metrics = log.results.scores[0].metrics
    assert metrics["test_question_exact"].value == 1.0
    assert metrics["fresh_question_rouge_l"].value == 1.0
    log = run_eval(task, scripted_model(lambda prompt: "It asks how many there are in all."))
    metrics = log.results.scores[0].metrics
    assert metrics["test_question_exact"].value == 0.0
    assert metrics["test_question_rouge_l"].value < 0.5
