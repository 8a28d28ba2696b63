"""Checks on the real GSM8K files; they run when GSM8K_DATA_DIR points at a local copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from gsm8k.data.splits import load_split
from gsm8k.grading.numbers import parse_gold
from gsm8k.task import gsm8k, records_to_samples


@pytest.mark.parametrize(
    ("split", "count"), [("test", 1319), ("train", 7473), ("test_socratic", 1319)]
)
def test_every_record_loads_with_a_numeric_target(
    real_data_dir: Path, split: str, count: int
) -> None:
    samples = records_to_samples(load_split(str(real_data_dir), split))
    assert len(samples) == count
    assert len({sample.id for sample in samples}) == count
    for sample in samples:
        parse_gold(str(sample.target))


def test_known_finals_are_parsed_exactly(real_data_dir: Path) -> None:
    targets = [str(s.target) for s in records_to_samples(load_split(str(real_data_dir), "test"))]
    assert targets[0] == "18"
    assert sorted(t for t in targets if t.startswith("-")) == ["-10", "-3"]
    assert max(int(t) for t in targets) == 2_880_000
    assert not any("," in t or "." in t for t in targets)


def test_full_task_builds_offline_with_fewshot(real_data_dir: Path) -> None:
    task = gsm8k(dataset=str(real_data_dir), fewshot=10, fewshot_seed=42)
    assert len(task.dataset) == 1319
    assert task.metadata is not None
    assert task.metadata["dataset_sha256"] == (
        "3730d312f6e3440559ace48831e51066acaca737f6eabec99bccb9e4b3c39d14"
    )


def test_platinum_copy_loads_with_gsm8k_train_exemplars(
    real_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    platinum = real_data_dir.parent / "gsm8k-platinum"
    if not (platinum / "test.jsonl").is_file():
        pytest.skip("no gsm8k-platinum copy beside GSM8K_DATA_DIR")
    monkeypatch.setenv("GSM8K_DATA_DIR", str(real_data_dir))
    task = gsm8k(dataset=str(platinum), fewshot=5)
    assert len(task.dataset) == 1209
    assert task.metadata is not None
    assert task.metadata["fewshot_dataset"] == str((real_data_dir / "train.jsonl").resolve())
