from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from inspect_ai._util.error import PrerequisiteError

from gsm8k.data.bundled import bundled_location
from gsm8k.data.splits import DatasetUnavailableError, load_split, read_jsonl
from gsm8k.task import gsm8k


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_directory_source_reads_split_and_records_checksum(mini_data: Path) -> None:
    loaded = load_split(str(mini_data), "test")
    assert len(loaded.records) == 6
    assert loaded.location == str((mini_data / "test.jsonl").resolve())
    assert loaded.sha256 is not None and len(loaded.sha256) == 64
    assert loaded.revision is None


def test_single_file_is_its_own_split(mini_data: Path) -> None:
    loaded = load_split(str(mini_data / "train.jsonl"), "test")
    assert loaded.split == "train"
    assert len(loaded.records) == 12


def test_bad_json_line_names_file_and_line(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "test.jsonl", ['{"question": "Q", "answer": "#### 1"}', "{oops"])
    with pytest.raises(ValueError, match=r"test\.jsonl:2: not valid JSON"):
        read_jsonl(path)


def test_text_that_is_not_utf8_names_file_line_and_byte(tmp_path: Path) -> None:
    path = tmp_path / "test.jsonl"
    good = b'{"question": "Q", "answer": "#### 1"}\n'
    path.write_bytes(good + '{"question": "Caf\xe9?", "answer": "#### 2"}\n'.encode("latin-1"))
    offset = len(good) + len(b'{"question": "Caf')
    message = rf"test\.jsonl:2: not UTF-8 \(byte 0xe9 at byte offset {offset}\); save"
    with pytest.raises(ValueError, match=message):
        gsm8k(dataset=str(tmp_path), fewshot=0)


def test_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "test.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"question": "Q", "answer": "#### 1"}\n')
    assert read_jsonl(path) == [{"question": "Q", "answer": "#### 1"}]


def test_non_object_line_is_an_error(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "x.jsonl", ["[1, 2]"])
    with pytest.raises(ValueError, match=r"x\.jsonl:1: expected a JSON object, got list"):
        read_jsonl(path)


def test_bad_gold_in_file_names_file_and_record(tmp_path: Path) -> None:
    rows = [{"question": "A?", "answer": "#### 1"}, {"question": "B?", "answer": "no final"}]
    # A blank line is allowed, so the bad record (index 1) sits on line 3.
    write_lines(tmp_path / "test.jsonl", [json.dumps(rows[0]), "", json.dumps(rows[1])])
    with pytest.raises(ValueError, match=r"test\.jsonl:3: record 1: 'answer' has no '####"):
        gsm8k(dataset=str(tmp_path), fewshot=0)


def test_missing_path_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"dataset='.*nowhere' is neither a known dataset"):
        gsm8k(dataset=str(tmp_path / "nowhere"))


def test_a_missing_data_dir_names_the_environment_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The user passed no dataset: the message must name where the path came from.
    monkeypatch.setenv("GSM8K_DATA_DIR", str(tmp_path / "nowhere"))
    with pytest.raises(ValueError, match=r"^GSM8K_DATA_DIR='.*nowhere' \(the default dataset\)"):
        gsm8k()


def test_directory_without_the_split_lists_available_splits(mini_data: Path) -> None:
    with pytest.raises(ValueError, match=r"has no validation\.jsonl; splits there: test, train"):
        gsm8k(dataset=str(mini_data), split="validation")


def test_directory_without_jsonl_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"without any \.jsonl file"):
        gsm8k(dataset=str(tmp_path))


def test_unknown_hub_split_is_rejected_before_any_download() -> None:
    with pytest.raises(ValueError, match="has no split 'validation'"):
        load_split("gsm8k-platinum", "validation")


def test_unreachable_hub_fails_fast_with_offline_recipe(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # An empty cache and an endpoint nobody listens on: the probe must give up at once.
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr("huggingface_hub.constants.ENDPOINT", "http://127.0.0.1:9")
    started = time.monotonic()
    with pytest.raises(DatasetUnavailableError, match=r"-T dataset=PATH"):
        load_split("openai/gsm8k", "test")
    assert time.monotonic() - started < 10


def test_offline_mode_without_cache_says_how_to_run_offline(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    with pytest.raises(DatasetUnavailableError, match="offline mode is on"):
        load_split("openai/gsm8k", "train")


def test_data_dir_environment_variable_is_the_default(
    monkeypatch: pytest.MonkeyPatch, mini_data: Path
) -> None:
    monkeypatch.setenv("GSM8K_DATA_DIR", str(mini_data))
    task = gsm8k(fewshot=1)
    assert task.metadata is not None
    assert task.metadata["dataset"] == str((mini_data / "test.jsonl").resolve())
    assert task.metadata["fewshot_dataset"] == str((mini_data / "train.jsonl").resolve())


def test_test_only_directory_takes_exemplars_from_default_source(
    monkeypatch: pytest.MonkeyPatch, mini_data: Path, tmp_path: Path
) -> None:
    # Like ../shared/data/gsm8k-platinum: a test.jsonl and no train.jsonl.
    (tmp_path / "test.jsonl").write_text((mini_data / "test.jsonl").read_text())
    monkeypatch.setenv("GSM8K_DATA_DIR", str(mini_data))
    task = gsm8k(dataset=str(tmp_path), fewshot=2)
    assert task.metadata is not None
    assert task.metadata["fewshot_dataset"] == str((mini_data / "train.jsonl").resolve())


def test_a_test_only_copy_takes_its_examples_from_the_bundled_train_split_offline(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A GSM8K-Platinum copy has no train split: its examples come from GSM8K's, which ships
    with the package, so it runs with the hub off and nothing cached."""
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    platinum = tmp_path / "platinum"
    platinum.mkdir()
    (platinum / "test.jsonl").write_text(
        json.dumps({"question": "What is 2 + 2?", "answer": "2 + 2 = 4\n#### 4"}) + "\n"
    )
    task = gsm8k(dataset=str(platinum), fewshot=2)
    assert (task.metadata or {})["fewshot_dataset"] == bundled_location("train")


def test_missing_examples_offline_name_their_source_not_the_given_dataset(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Examples asked of the hub, offline: the error points at that exemplar source
    (fewshot_dataset), not at -T dataset= which the user already gave."""
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    platinum = tmp_path / "platinum"
    platinum.mkdir()
    (platinum / "test.jsonl").write_text(
        json.dumps({"question": "What is 2 + 2?", "answer": "2 + 2 = 4\n#### 4"}) + "\n"
    )
    with pytest.raises(DatasetUnavailableError) as raised:
        gsm8k(dataset=str(platinum), fewshot=2, fewshot_dataset="openai/gsm8k")
    message = str(raised.value)
    assert "-T fewshot_dataset=PATH" in message
    assert "train split of openai/gsm8k" in message
    assert "The same records ship with the package: -T fewshot_dataset=gsm8k." in message
    assert "-T dataset=" not in message
    assert isinstance(raised.value, PrerequisiteError)


def test_offline_hint_uses_the_callers_option_syntax(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(DatasetUnavailableError, match=r"pass a local copy: --dataset PATH"):
        load_split("openai/gsm8k", "test", parameter="--dataset")


@pytest.mark.slow
def test_offline_cli_error_is_one_message_without_traceback(tmp_path: Path) -> None:
    """The real `inspect eval` command on the hub's copy, offline with nothing cached: Inspect
    prints a PrerequisiteError as a short message instead of a long traceback."""
    import os
    import shutil
    import subprocess
    import sys

    root = Path(__file__).parents[1]
    inspect_cli = shutil.which("inspect", path=str(Path(sys.executable).parent)) or "inspect"
    environment = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "HF_HUB_CACHE": str(tmp_path / "cache"),
        "PWD": str(root),
        "COLUMNS": "200",
    }
    environment.pop("GSM8K_DATA_DIR", None)
    result = subprocess.run(
        [inspect_cli, "eval", "gsm8k/task.py", "-T", "dataset=openai/gsm8k", "--model",
         "mockllm/model", "--limit", "1", "--log-dir", str(tmp_path / "logs"), "--display",
         "plain"],
        cwd=root, env=environment, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "Traceback" not in output
    assert "offline mode is on" in output and "-T dataset=PATH" in output
    assert len(output.strip().splitlines()) < 15, output
