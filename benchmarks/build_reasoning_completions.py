"""Labelled reasoning-model completions: the labels this project ships, the text rebuilt locally.

Source: the language-forcing artifacts of "Crosslingual Reasoning through Test-Time Scaling"
(Yong et al., 2025), github.com/BatsResearch/crosslingual-s1 at commit
:data:`SOURCE_COMMIT`, ``experiments/language_forcing/artifacts/<size>_<experiment>/<lang>/
s1_infer_8000*.jsonl``: s1.1 models (Qwen2.5 3B–32B finetuned on DeepSeek-R1 traces) on the 250
MGSM questions in 11 languages, greedy, with budget forcing (8,000 thinking tokens, then
"Final Answer:" is appended and the model writes its answer, up to 27,440 more tokens).
That repository carries no license, so its outputs are not shipped here: the project keeps only
its labels (:data:`LABELS`), each naming the source file, line and the sha256 of the text.

    python -m benchmarks.build_reasoning_completions [SOURCE]           # rebuild the text
    python -m benchmarks.build_reasoning_completions --labels SOURCE    # redo the labels

SOURCE (else ``$S1_OUTPUTS_DIR``) is a checkout of crosslingual-s1 at :data:`SOURCE_COMMIT` or
its git directory (a bare mirror works: files are read with ``git show COMMIT:path``). The
rebuild writes :data:`OUT` (git-ignored), each row of :data:`LABELS` with its ``completion`` —
what the model wrote after ``<|im_start|>assistant`` (the prompt removed) — checked against the
row's sha256. ``test_index`` is the MGSM line (line k is GSM8K test k for k < 250).

Labels (see ``benchmarks/data/reasoning/README.md``) come from a reading procedure written apart
from the grader's code, then from reading (both in :mod:`benchmarks.reasoning_labels`).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from benchmarks.reasoning_labels import READ_LABELS, reference_label

SOURCE_COMMIT = "1607cf19862db70d84e0bd237993bd21fbfb6b52"
ARTIFACTS = "experiments/language_forcing/artifacts/"
HERE = Path(__file__).parent / "data" / "reasoning"
LABELS = HERE / "s1-mgsm-labels.jsonl.gz"
OUT = HERE / ".cache" / "s1-mgsm.jsonl.gz"
BUILD_COMMAND = "python -m benchmarks.build_reasoning_completions /path/to/crosslingual-s1"
PER_STRATUM = 30
"""Rows drawn at random per (model size, language)."""
SEED = 18

Row = dict[str, Any]


class SourceError(ValueError):
    """The crosslingual-s1 source is missing a file or holds different text than labelled."""


def _is_git_dir(source: Path) -> bool:
    return (source / "HEAD").is_file() and (source / "objects").is_dir()


def read_source(source: Path, path: str) -> str:
    """The text of ``path`` at :data:`SOURCE_COMMIT`, from a git directory or a checkout.

    Raises:
        SourceError: naming the file when it is missing or kept outside git (an LFS pointer).
    """
    if _is_git_dir(source):
        blob = subprocess.run(
            ["git", "--git-dir", str(source), "show", f"{SOURCE_COMMIT}:{path}"],
            capture_output=True,
        )
        if blob.returncode:
            error = blob.stderr.decode(errors="replace").strip()
            raise SourceError(f"{source}: {path} at {SOURCE_COMMIT[:7]}: {error}")
        data = blob.stdout
    else:
        try:
            data = (source / path).read_bytes()
        except OSError as error:
            message = f"{source / path}: {error.strerror}; check out {SOURCE_COMMIT}"
            raise SourceError(message) from error
    if data.startswith(b"version https://git-lfs"):
        raise SourceError(f"{source}: {path} is a git-lfs pointer, not the outputs")
    return data.decode("utf-8")


def source_paths(source: Path) -> list[str]:
    """Every artifact file of the source, as paths inside the repository."""
    if _is_git_dir(source):
        listing = subprocess.run(
            ["git", "--git-dir", str(source), "ls-tree", "-r", "--name-only", SOURCE_COMMIT],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split("\n")
    else:
        listing = [p.relative_to(source).as_posix() for p in (source / ARTIFACTS).rglob("*")]
    return sorted(p for p in listing if p.startswith(ARTIFACTS) and p.endswith(".jsonl"))


def completion_of(line: str) -> str:
    """What the model wrote: the source record's ``output`` after the last assistant turn."""
    output: str = json.loads(line)["output"]
    start = output.rfind("<|im_start|>assistant\n")
    return output[start + len("<|im_start|>assistant\n") :]


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def source_rows(source: Path) -> list[Row]:
    """Every completion of the source with its gold answer (used to redo the labels)."""
    rows: list[Row] = []
    for path in source_paths(source):
        try:
            lines = read_source(source, path).splitlines()
        except SourceError:
            continue  # a file kept outside git (LFS): its rows are not part of the sample
        experiment, language_dir, name = path[len(ARTIFACTS) :].split("/")
        for index, line in enumerate(lines):
            record = json.loads(line)
            rows.append(
                {
                    "id": f"{experiment}/{language_dir}/{name.removesuffix('.jsonl')}/{index}",
                    "model": "s1.1-" + experiment.split("_")[0],
                    "experiment": experiment,
                    "language": record["language"],
                    "test_index": index,
                    "target": str(record["gold_answer"]),
                    "completion": completion_of(line),
                    "source_path": path,
                    "source_line": index + 1,
                }
            )
    return rows


def labelled(row: Row) -> Row:
    if row["id"] in READ_LABELS:
        label, reason = READ_LABELS[row["id"]]
        return {**row, "label": label, "label_source": f"read: {reason}"}
    label, part = reference_label(row["completion"], row["target"])
    return {**row, "label": label, "label_source": f"procedure: {part}"}


def sample(rows: list[Row]) -> list[Row]:
    """:data:`PER_STRATUM` rows per (model size, language), plus every row read by hand."""
    strata: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for row in rows:
        strata[(row["model"], row["language"])].append(row)
    chosen = {row["id"] for row in rows if row["id"] in READ_LABELS}
    generator = random.Random(SEED)
    for key in sorted(strata):
        members = strata[key]
        chosen.update(r["id"] for r in generator.sample(members, min(PER_STRATUM, len(members))))
    return [labelled(row) for row in rows if row["id"] in chosen]


def label_record(row: Row) -> Row:
    """What the project ships for a row: everything but the text, which the sha256 stands for."""
    record = {key: value for key, value in row.items() if key != "completion"}
    return {**record, "sha256": sha256(row["completion"])}


def rebuild(source: Path, labels: Path = LABELS) -> list[Row]:
    """The rows of ``labels`` with their completions read from ``source`` and verified.

    Raises:
        SourceError: naming every row (file and line) whose text is missing or whose sha256
            differs, so a wrong checkout is never used.
    """
    records = [json.loads(line) for line in read_jsonl_text(labels).splitlines()]
    files: dict[str, list[str]] = {}
    rows: list[Row] = []
    wrong: list[str] = []
    for line_number, record in enumerate(records, start=1):
        path, number = record["source_path"], record["source_line"]
        if not path.startswith(ARTIFACTS) or ".." in path.split("/"):
            raise SourceError(f"{labels}:{line_number}: {path!r} is not an artifact file")
        if path not in files:
            files[path] = read_source(source, path).splitlines()
        lines = files[path]
        completion = _completion_at(lines, number)
        if completion is None or sha256(completion) != record["sha256"]:
            wrong.append(f"{path}:{number} ({record['id']})")
            continue
        fields = {k: v for k, v in record.items() if k != "sha256"}
        rows.append({**fields, "completion": completion})
    if wrong:
        raise SourceError(
            f"{source}: {len(wrong)} of {len(records)} rows differ from their sha256, first "
            f"{wrong[0]}; use crosslingual-s1 at commit {SOURCE_COMMIT}"
        )
    return rows


def _completion_at(lines: list[str], number: int) -> str | None:
    """The completion on line ``number`` (from 1), or None when there is no such record."""
    if not 0 < number <= len(lines):
        return None
    try:
        return completion_of(lines[number - 1])
    except (ValueError, KeyError, TypeError):
        return None  # not a record of the source: reported as a row that differs


def read_jsonl_text(path: Path) -> str:
    data = path.read_bytes()
    return (gzip.decompress(data) if path.suffix == ".gz" else data).decode("utf-8")


def write_jsonl(path: Path, rows: list[Row]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    if path.suffix != ".gz":
        path.write_text(text, encoding="utf-8")
        return
    with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write(text.encode("utf-8"))  # mtime 0: the same rows give the same bytes


def main(argv: list[str]) -> int:
    redo_labels = argv[:1] == ["--labels"]
    arguments = argv[1:] if redo_labels else argv
    given = arguments[0] if len(arguments) == 1 else os.environ.get("S1_OUTPUTS_DIR")
    if len(arguments) > 1 or not given:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        print(
            "SOURCE: a crosslingual-s1 checkout or git directory, or $S1_OUTPUTS_DIR",
            file=sys.stderr,
        )
        return 2
    source = Path(given)
    if not source.is_dir():
        print(
            f"{source}: not a directory (a crosslingual-s1 checkout or its git directory)",
            file=sys.stderr,
        )
        return 2
    try:
        if redo_labels:
            rows = sample(source_rows(source))
            write_jsonl(LABELS, [label_record(row) for row in rows])
            print(f"{LABELS}: {len(rows)} rows, {sum(r['label'] for r in rows)} correct")
        rows = rebuild(source, LABELS)
    except SourceError as error:
        print(error, file=sys.stderr)
        return 1
    write_jsonl(OUT, rows)
    print(f"{OUT}: {len(rows)} rows, sha256 verified, {sum(r['label'] for r in rows)} correct")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
