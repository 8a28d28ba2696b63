"""The s1-mgsm labels ship without the model outputs; the rebuild verifies every text it reads."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks import build_reasoning_completions as build

FIELDS = {
    "id", "model", "experiment", "language", "test_index", "target", "label", "label_source",
    "source_path", "source_line", "sha256",
}  # fmt: skip
FILE = build.ARTIFACTS + "14B_NxN/de/s1_infer_8000_en.jsonl"
TEXTS = ["<|im_start|>think16 - 7 = 9\n<|im_start|>answer\n\\boxed{18}", "Final Answer: 3"]


def test_shipped_labels_hold_no_model_output() -> None:
    records = [json.loads(line) for line in gzip.decompress(build.LABELS.read_bytes()).splitlines()]
    assert len(records) == 1078 and sum(r["label"] for r in records) == 881
    assert all(set(r) == FIELDS for r in records)
    assert all(len(r["sha256"]) == 64 and r["source_line"] == r["test_index"] + 1 for r in records)
    # Labels' reasons quote at most a few words of an answer, never the text.
    assert max(len(r["label_source"]) for r in records) < 120


def _source_file(texts: list[str]) -> str:
    records = [
        {
            "output": f"<|im_start|>user\nQ<|im_end|>\n<|im_start|>assistant\n{text}",
            "language": "de",
        }
        for text in texts
    ]
    return "".join(json.dumps(record) + "\n" for record in records)


def _labels(tmp_path: Path, texts: list[str]) -> Path:
    rows = [
        {
            "id": f"14B_NxN/de/s1_infer_8000_en/{index}",
            "test_index": index,
            "target": "18",
            "label": True,
            "source_path": FILE,
            "source_line": index + 1,
            "sha256": build.sha256(text),
        }
        for index, text in enumerate(texts)
    ]
    path = tmp_path / "labels.jsonl.gz"
    build.write_jsonl(path, rows)
    return path


def test_rebuild_from_a_checkout_restores_the_text(tmp_path: Path) -> None:
    checkout = tmp_path / "crosslingual-s1"
    (checkout / FILE).parent.mkdir(parents=True)
    (checkout / FILE).write_text(_source_file(TEXTS), encoding="utf-8")
    rows = build.rebuild(checkout, _labels(tmp_path, TEXTS))
    assert [row["completion"] for row in rows] == TEXTS
    assert "sha256" not in rows[0] and rows[1]["source_line"] == 2


def test_rebuild_refuses_text_that_differs_from_its_sha256(tmp_path: Path) -> None:
    checkout = tmp_path / "crosslingual-s1"
    (checkout / FILE).parent.mkdir(parents=True)
    (checkout / FILE).write_text(_source_file([TEXTS[0], "Final Answer: 4"]), encoding="utf-8")
    with pytest.raises(build.SourceError, match=rf"1 of 2 rows .* first {FILE}:2 "):
        build.rebuild(checkout, _labels(tmp_path, TEXTS))


def test_rebuild_names_a_missing_file_and_the_commit(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(build.SourceError, match=rf"{FILE}: .*check out {build.SOURCE_COMMIT}"):
        build.rebuild(tmp_path / "empty", _labels(tmp_path, TEXTS))


def test_rebuild_refuses_a_git_lfs_pointer(tmp_path: Path) -> None:
    checkout = tmp_path / "crosslingual-s1"
    (checkout / FILE).parent.mkdir(parents=True)
    (checkout / FILE).write_text("version https://git-lfs.github.com/spec/v1\n", encoding="utf-8")
    with pytest.raises(build.SourceError, match="git-lfs pointer"):
        build.rebuild(checkout, _labels(tmp_path, TEXTS))


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_rebuild_from_a_bare_mirror_reads_the_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / "work"
    (work / FILE).parent.mkdir(parents=True)
    (work / FILE).write_text(_source_file(TEXTS), encoding="utf-8")

    def git(*args: str, cwd: Path = work) -> str:
        command = ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args]
        return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=True).stdout

    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "outputs")
    commit = git("rev-parse", "HEAD").strip()
    (work / FILE).write_text(_source_file(["changed after the commit"] * 2), encoding="utf-8")
    git("clone", "-q", "--bare", str(work), str(tmp_path / "mirror.git"), cwd=tmp_path)
    monkeypatch.setattr(build, "SOURCE_COMMIT", commit)
    rows = build.rebuild(tmp_path / "mirror.git", _labels(tmp_path, TEXTS))
    assert [row["completion"] for row in rows] == TEXTS


def test_main_reads_the_source_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    checkout = tmp_path / "crosslingual-s1"
    (checkout / FILE).parent.mkdir(parents=True)
    (checkout / FILE).write_text(_source_file(TEXTS), encoding="utf-8")
    monkeypatch.setattr(build, "LABELS", _labels(tmp_path, TEXTS))
    monkeypatch.setattr(build, "OUT", tmp_path / "cache" / "s1-mgsm.jsonl.gz")
    monkeypatch.setenv("S1_OUTPUTS_DIR", str(checkout))
    assert build.main([]) == 0
    rebuilt = gzip.decompress((tmp_path / "cache" / "s1-mgsm.jsonl.gz").read_bytes())
    assert [json.loads(line)["completion"] for line in rebuilt.splitlines()] == TEXTS
    assert "sha256 verified" in capsys.readouterr().out


def test_main_without_a_source_says_how_to_give_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("S1_OUTPUTS_DIR", raising=False)
    assert build.main([]) == 2
    assert "S1_OUTPUTS_DIR" in capsys.readouterr().err


def test_rebuild_reports_a_line_that_is_not_a_record(tmp_path: Path) -> None:
    checkout = tmp_path / "crosslingual-s1"
    (checkout / FILE).parent.mkdir(parents=True)
    (checkout / FILE).write_text(_source_file(TEXTS[:1]) + "{not json\n", encoding="utf-8")
    with pytest.raises(build.SourceError, match=rf"1 of 2 rows .* first {FILE}:2 "):
        build.rebuild(checkout, _labels(tmp_path, TEXTS))


def test_rebuild_reads_only_artifact_files(tmp_path: Path) -> None:
    labels = tmp_path / "labels.jsonl"
    row = {"id": "x", "source_path": build.ARTIFACTS + "../../../etc/passwd", "source_line": 1}
    labels.write_text(json.dumps({**row, "sha256": "0" * 64}) + "\n", encoding="utf-8")
    with pytest.raises(build.SourceError, match=rf"{labels}:1: .* is not an artifact file"):
        build.rebuild(tmp_path, labels)
