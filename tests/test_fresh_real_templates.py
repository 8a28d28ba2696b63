"""GSM-Symbolic's own 100 templates, read from the local copy named by GSM_SYMBOLIC_TEMPLATES
(CC BY-NC-ND: never in this repository); skipped without it. The figures here are the ones
docs/fresh-questions.md states."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmarks.fresh_check import sample_problems
from gsm8k.data.fresh import fresh_set, load_templates, self_check

FOLDER = os.environ.get("GSM_SYMBOLIC_TEMPLATES", "")
pytestmark = pytest.mark.skipif(
    not FOLDER or not Path(FOLDER).is_dir(),
    reason="GSM_SYMBOLIC_TEMPLATES does not name a copy of GSM-Symbolic's templates/symbolic",
)


@pytest.fixture(scope="module")
def folder() -> Path:
    path = Path(FOLDER)
    return path / "symbolic" if (path / "symbolic").is_dir() else path


def test_the_self_check_figures_are_the_documented_ones(folder: Path) -> None:
    results = self_check(load_templates(folder))
    assert len(results) == 100
    assert sum(r.reproduces for r in results) == 42
    assert sum(r.answer == r.gold for r in results) == 99
    assert [r.template for r in results if r.answer != r.gold] == ["0062"]
    spacing = [r for r in results if "in spacing only" in " ".join(r.reasons)]
    assert len(spacing) == 10


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1])
def test_fresh_questions_pass_the_independent_check(folder: Path, seed: int) -> None:
    import json

    templates = {p.stem: json.loads(p.read_text("utf-8")) for p in folder.glob("*.json")}
    drawn = fresh_set(folder, seed=seed, per_template=2, include_originals=False)
    assert set(drawn.skipped) == {"0062"} and len(drawn.samples) == 198
    problems = {
        str(s.id): sample_problems(templates[(s.metadata or {})["template"]], s)
        for s in drawn.samples
    }
    assert {k: v for k, v in problems.items() if v} == {}


@pytest.mark.slow
def test_the_same_seed_draws_the_same_real_questions_and_another_seed_others(
    folder: Path,
) -> None:
    first = fresh_set(folder, seed=11, per_template=1, include_originals=False)
    again = fresh_set(folder, seed=11, per_template=1, include_originals=False)
    other = fresh_set(folder, seed=12, per_template=1, include_originals=False)
    assert [s.input for s in first.samples] == [s.input for s in again.samples]
    differing = sum(a.input != b.input for a, b in zip(first.samples, other.samples, strict=True))
    assert differing > 90
