"""eval.yaml, the task's entry for the Inspect Evals register, agrees with the code."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai._util.registry import registry_info

from gsm8k.data.catalog import GSM8K_REVISION, HUB_DATASETS
from gsm8k.data.family.sources import VARIANTS
from gsm8k.data.splits import load_split
from gsm8k.task import TASK_VERSION, gsm8k
from tests.conftest import REAL_DATA_DIR

ROOT = Path(__file__).resolve().parent.parent
REQUIRED = ("title", "description", "arxiv", "group", "version", "tasks", "external_assets")
GSM8K_TEST_QUESTIONS = 1319


@pytest.fixture(scope="module")
def listing() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "eval.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_it_has_the_register_fields(listing: dict[str, Any]) -> None:
    assert [field for field in REQUIRED if not listing.get(field)] == []
    assert "id" not in listing, "the register derives id from its folder name"
    for deprecated in ("contributors", "tags"):
        assert deprecated not in listing
    assert listing["arxiv"].startswith("https://arxiv.org/abs/")


def test_its_task_is_the_task_the_path_defines(listing: dict[str, Any]) -> None:
    (entry,) = listing["tasks"]
    path = ROOT / entry["task_path"]
    assert path.is_file()
    assert re.search(rf"^@task\ndef {entry['name']}\(", path.read_text(encoding="utf-8"), re.M)
    assert registry_info(gsm8k).name.rsplit("/", 1)[-1] == entry["name"]


def test_its_version_is_the_task_version(listing: dict[str, Any]) -> None:
    assert listing["version"] == TASK_VERSION
    assert isinstance(listing["version"], str)


def test_its_sample_count_is_gsm8k_test_split(listing: dict[str, Any]) -> None:
    (entry,) = listing["tasks"]
    assert entry["dataset_samples"] == GSM8K_TEST_QUESTIONS
    assert len(load_split("gsm8k", "test").records) == entry["dataset_samples"]  # the bundled copy
    if REAL_DATA_DIR:  # the local copy CI reads
        lines = (Path(REAL_DATA_DIR) / "test.jsonl").read_text(encoding="utf-8").splitlines()
        assert sum(bool(line.strip()) for line in lines) == entry["dataset_samples"]


def _pins() -> dict[str, str]:
    """Every hub dataset the code pins to a commit, by repository."""
    pinned = {d.repo_id: d.revision for d in HUB_DATASETS.values()}
    pinned |= {v.repo_id: v.revision for v in VARIANTS.values()}
    return {repo: rev for repo, rev in pinned.items() if re.fullmatch(r"[0-9a-f]{40}", rev)}


def test_its_pinned_datasets_are_the_revisions_the_code_reads(listing: dict[str, Any]) -> None:
    assets = {asset["source"]: asset for asset in listing["external_assets"]}
    assert set(assets) == set(_pins()), json.dumps(sorted(assets))
    for repo, revision in _pins().items():
        asset = assets[repo]
        assert asset["type"] == "huggingface" and asset["state"] == "pinned"
        assert re.findall(r"\b[0-9a-f]{40}\b", asset["comment"]) == [revision], repo
    assert GSM8K_REVISION in assets["openai/gsm8k"]["comment"]


def test_unpinned_datasets_are_said_to_be_recorded_instead(listing: dict[str, Any]) -> None:
    unpinned = [d for d in HUB_DATASETS.values() if d.repo_id not in _pins()]
    unpinned_variants = [v for v in VARIANTS.values() if v.repo_id not in _pins()]
    assert unpinned or unpinned_variants
    assert "recorded in every log" in listing["description"]
