"""``gsm8k/family_set.py``'s tasks are the task itself with a dataset chosen: their logs record
the same arguments as ``gsm8k/task.py -T dataset=...``, so runs of either merge and rank together,
and ``-T`` names are checked as the task's are."""

from __future__ import annotations

from pathlib import Path

import pytest

from gsm8k.compare.rerun import rerun_prefix
from gsm8k.compare.runs import read_runs
from gsm8k.family_set import gsm_plus_mini
from tests.conftest import FIXTURES
from tests.scripted import run_eval, scripted_model

ROOT = Path(__file__).parent.parent
FAMILY_SET = "gsm8k/family_set.py@gsm_symbolic_p2"
TASK = "gsm8k/task.py"


@pytest.fixture(autouse=True)
def _family_data(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # task files named as on the command line
    monkeypatch.setenv("GSM8K_DATA_DIR", str(FIXTURES / "family" / "gsm8k"))
    monkeypatch.delenv("GSM8K_FAMILY_DIR", raising=False)


def _answer(prompt: str) -> str:
    return "ANSWER: 1"


@pytest.mark.slow
def test_a_family_set_log_records_what_the_task_with_that_dataset_records(tmp_path: Path) -> None:
    model = scripted_model(_answer, "same")
    ours = run_eval(FAMILY_SET, model, task_args={"fewshot": 0}, log_dir=str(tmp_path), limit=3)
    theirs = run_eval(
        TASK,
        scripted_model(_answer, "same"),
        task_args={"fewshot": 0, "dataset": "gsm-symbolic-p2"},
        log_dir=str(tmp_path),
        sample_id=[sample.id for sample in ours.samples],
    )
    assert ours.eval.task_args == theirs.eval.task_args
    assert ours.eval.task_args["preset"] == "default"
    assert ours.eval.task_args["dataset"] == "gsm-symbolic-p2"
    # One model, one dataset, one set of settings: one run, each sample once.
    scan = read_runs(str(tmp_path))
    assert len(scan.runs) == 1, [run.label for run in scan.runs]
    # Its re-run command is the entry point's task with the family task's dataset, which loads
    # from any folder (a family task's file path would not).
    words = rerun_prefix(ours).split()
    assert words[words.index("eval") + 1] == "gsm8k/gsm8k" and "dataset=gsm-symbolic-p2" in words


def test_a_mistyped_option_is_refused_as_for_the_task(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"-T fewshots=1: .*did you mean fewshot\?"):
        run_eval(
            FAMILY_SET,
            scripted_model(_answer),
            task_args={"fewshot": 0, "fewshots": 1},
            log_dir=str(tmp_path),
            limit=1,
        )
    assert not list(tmp_path.iterdir())  # nothing ran, no log


def test_another_dataset_is_refused_and_its_own_is_accepted() -> None:
    with pytest.raises(ValueError, match=r"-T dataset: gsm8k/family_set.py@gsm_plus_mini"):
        gsm_plus_mini(dataset="gsm8k")
    assert gsm_plus_mini(dataset="gsm-plus-mini", fewshot=0).dataset.name == "gsm-plus-mini"
