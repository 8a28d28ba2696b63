"""Hub datasets: read from a warm Hugging Face cache with no network, and (marked) from the hub."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from gsm8k.data.bundled import bundled_location, gsm8k_test_record
from gsm8k.data.catalog import GSM8K_REVISION
from gsm8k.data.splits import load_split
from gsm8k.task import gsm8k

ROWS = {
    "question": ["Tom has 3 apples and buys 4. How many?", "A 5 m rope is cut in half. How long?"],
    "answer": ["3 + 4 = <<3+4=7>>7\n#### 7", "5 / 2 = <<5/2=2.5>>2.5\n#### 2.5"],
}


def warm_cache(
    cache: Path,
    repo: str,
    revision: str,
    files: dict[str, dict[str, list[str]]],
    ref: str | None = None,
) -> None:
    """Lay files out as huggingface_hub's cache does: snapshots/<commit>/..., refs/<name>."""
    root = cache / f"datasets--{repo.replace('/', '--')}"
    for name, columns in files.items():
        path = root / "snapshots" / revision / name
        path.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.table(columns), path)
    if ref is not None:
        (root / "refs").mkdir(parents=True, exist_ok=True)
        (root / "refs" / ref).write_text(revision)


@pytest.fixture
def offline_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "hub"
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(cache))
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_OFFLINE", True)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr("huggingface_hub.constants.ENDPOINT", "http://127.0.0.1:9")
    return cache


def test_pinned_dataset_loads_from_warm_cache_offline(offline_cache: Path) -> None:
    warm_cache(
        offline_cache,
        "openai/gsm8k",
        GSM8K_REVISION,
        {"main/test-00000-of-00001.parquet": ROWS, "main/train-00000-of-00001.parquet": ROWS},
    )
    loaded = load_split("openai/gsm8k", "test")
    assert loaded.location == f"hf://openai/gsm8k@{GSM8K_REVISION}/main/test"
    assert loaded.revision == GSM8K_REVISION
    assert [r["question"] for r in loaded.records] == ROWS["question"]


def test_platinum_records_the_commit_main_resolved_to(offline_cache: Path) -> None:
    commit = "0123456789abcdef0123456789abcdef01234567"
    # Platinum's rows are paired with GSM8K test items by question (the bundled copy's 1 and 3).
    originals = [gsm8k_test_record(1), gsm8k_test_record(3)]
    warm_cache(
        offline_cache,
        "madrylab/gsm8k-platinum",
        commit,
        {
            "main/test-00000-of-00001.parquet": {
                "question": [r["question"] for r in originals],
                "answer": [r["answer"] for r in originals],
                "cleaning_status": ["consensus"] * 2,
            }
        },
        ref="main",
    )
    task = gsm8k(dataset="gsm8k-platinum", fewshot=1)
    assert task.metadata is not None
    assert task.metadata["dataset"] == f"hf://madrylab/gsm8k-platinum@{commit}/main/test"
    assert task.metadata["dataset_revision"] == commit
    # Its examples come from GSM8K's train split: the copy inside the package, no hub needed.
    assert task.metadata["fewshot_dataset"] == bundled_location("train")
    assert task.metadata["fewshot_revision"] is None
    assert [s.target for s in task.dataset] == ["3", "540"]
    assert [s.id for s in task.dataset] == [1, 3]


@pytest.mark.network
def test_hub_download_of_the_pinned_revision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "hub"))
    test = load_split("openai/gsm8k", "test")
    assert len(test.records) == 1319
    assert test.records[0]["question"].startswith("Janet\u2019s ducks lay 16 eggs per day.")
    assert len(load_split("openai/gsm8k", "train").records) == 7473
    assert len(load_split("gsm8k-platinum", "test").records) == 1209
