"""GSM8K inside the package: the default source, checked against its published checksums, the
same records as the hub's pinned revision and as openai/grade-school-math's files."""

from __future__ import annotations

import gzip
import hashlib
import re
import shutil
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from gsm8k.data import bundled
from gsm8k.data.bundled import (
    BUNDLED_DIR,
    SHA256,
    BundledDataError,
    bundled_location,
    bundled_split,
    gsm8k_test_record,
)
from gsm8k.data.splits import DatasetUnavailableError, default_source, load_split
from gsm8k.settings.errors import TaskInputError
from gsm8k.task import gsm8k

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def damaged_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The bundled folder copied, for a test to damage; the per-process cache emptied around it."""
    copy = tmp_path / "grade_school_math"
    shutil.copytree(BUNDLED_DIR, copy)
    monkeypatch.setattr(bundled, "BUNDLED_DIR", copy)
    bundled_split.cache_clear()
    yield copy
    bundled_split.cache_clear()


def test_the_default_source_is_the_bundled_copy() -> None:
    assert default_source() == "gsm8k"
    test, train = load_split("gsm8k", "test"), load_split("gsm8k", "train")
    assert (len(test.records), len(train.records)) == (1319, 7473)
    assert test.records[0]["question"].startswith("Janet\u2019s ducks lay 16 eggs per day.")
    assert test.sha256 == SHA256["test"] and train.sha256 == SHA256["train"]
    assert test.location == bundled_location("test") and test.revision is None
    assert test.location.startswith("bundled://openai/grade-school-math@3101c7d")
    assert test.where(5) == f"{test.location}:6"


def test_a_run_with_no_data_folder_records_the_bundled_copy_and_its_checksum() -> None:
    task = gsm8k(fewshot=2)
    metadata = task.metadata or {}
    assert metadata["dataset"] == bundled_location("test")
    assert metadata["dataset_sha256"] == SHA256["test"]
    assert metadata["dataset_revision"] is None
    assert metadata["fewshot_dataset"] == bundled_location("train")
    assert metadata["variant"] == "gsm8k" and metadata["paired_with_gsm8k"]
    assert len(task.dataset) == 1319 and task.dataset[0].target == "18"


def test_each_caller_gets_its_own_records() -> None:
    first = load_split("gsm8k", "test")
    first.records[0]["question"] = "changed"
    assert load_split("gsm8k", "test").records[0]["question"] != "changed"
    assert gsm8k_test_record(0)["question"] != "changed"


def test_a_test_item_by_index() -> None:
    assert gsm8k_test_record(1318)["answer"].endswith("#### 14")
    with pytest.raises(IndexError, match="test items 0 to 1318, not 1319"):
        gsm8k_test_record(1319)


def test_a_split_the_package_does_not_ship_is_refused_with_what_to_pass() -> None:
    with pytest.raises(TaskInputError, match=r"splits test, train, not 'test_socratic'.*socratic"):
        gsm8k(split="test_socratic")


def test_an_edited_copy_is_refused_not_read(damaged_copy: Path) -> None:
    file = damaged_copy / "test.jsonl.gz"
    text = gzip.decompress(file.read_bytes()).replace(b"#### 18", b"#### 19", 1)
    file.write_bytes(gzip.compress(text))
    with pytest.raises(BundledDataError, match=rf"{re.escape(str(file))}: its content has sha256"):
        load_split("gsm8k", "test")
    with pytest.raises(BundledDataError, match="--force-reinstall"):
        gsm8k()  # a PrerequisiteError: Inspect's CLI prints it as one message


def test_a_missing_or_truncated_copy_is_one_clear_error(damaged_copy: Path) -> None:
    (damaged_copy / "train.jsonl.gz").unlink()
    with pytest.raises(BundledDataError, match=r"train\.jsonl\.gz: cannot read"):
        load_split("gsm8k", "train")
    test = damaged_copy / "test.jsonl.gz"
    test.write_bytes(test.read_bytes()[:1000])
    with pytest.raises(BundledDataError, match=r"test\.jsonl\.gz: cannot read"):
        load_split("gsm8k", "test")


def test_the_hub_is_one_parameter_away_and_its_offline_error_names_the_bundled_copy(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(DatasetUnavailableError) as raised:
        gsm8k(dataset="openai/gsm8k")
    assert "openai/gsm8k@cc7b047b" in str(raised.value)
    assert "The same records ship with the package: -T dataset=gsm8k." in str(raised.value)


def test_the_shipped_files_are_the_documented_ones() -> None:
    """The package data the build includes, the checksums the loader checks and the ones its
    README publishes agree; the license travels with the files."""
    readme = (BUNDLED_DIR / "README.md").read_text(encoding="utf-8")
    for split, digest in SHA256.items():
        file = BUNDLED_DIR / f"{split}.jsonl.gz"
        row = next(line for line in readme.splitlines() if line.startswith(f"| `{file.name}`"))
        assert digest in row
        assert hashlib.sha256(file.read_bytes()).hexdigest() in row
    assert "Copyright (c) 2021 OpenAI" in (BUNDLED_DIR / "LICENSE").read_text(encoding="utf-8")
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["gsm8k.data"]
    package = ROOT / "gsm8k" / "data"
    shipped = {path for pattern in patterns for path in package.glob(pattern)}
    assert shipped == {p for p in BUNDLED_DIR.iterdir() if p.is_file()}


def test_the_bundled_copy_is_byte_for_byte_the_local_one(real_data_dir: Path) -> None:
    for split in SHA256:
        local = (real_data_dir / f"{split}.jsonl").read_bytes()
        assert gzip.decompress((BUNDLED_DIR / f"{split}.jsonl.gz").read_bytes()) == local


@pytest.mark.network
def test_the_hubs_pinned_revision_holds_the_bundled_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "hub"))
    for split in SHA256:
        hub = load_split("openai/gsm8k", split)
        assert hub.location.startswith("hf://openai/gsm8k@cc7b047b")
        assert hub.records == load_split("gsm8k", split).records
