"""The package's shape: the grader importable on its own, no import circles, old paths working."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import pytest

from benchmarks.import_graph import LINE_LIMIT, circles, collect, long_modules
from gsm8k._moved import MOVED, REMOVED_IN

ROOT = Path(__file__).resolve().parent.parent


def test_the_grading_api_loads_neither_inspect_nor_the_rest_of_the_package() -> None:
    script = (
        "import sys\n"
        "from gsm8k.grading import grade\n"
        "verdict = grade('9 * 2 = 18 dollars.\\nANSWER: $18', '18', question='How much?')\n"
        "assert (verdict.correct, verdict.answer, verdict.rule) == (True, '18', 'answer_line')\n"
        "loaded = sorted(m for m in sys.modules if m.startswith(('inspect_ai', 'gsm8k')))\n"
        "print(' '.join(loaded))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True
    )
    loaded = done.stdout.split()
    assert not [m for m in loaded if m.startswith("inspect_ai")]
    outside = [m for m in loaded if m.startswith("gsm8k.") and not m.startswith("gsm8k.grading")]
    assert outside == ["gsm8k._moved"]


def test_no_module_of_the_package_imports_itself_back() -> None:
    graph = collect(ROOT)
    assert len(graph) > 50  # the whole package was read
    assert circles(graph) == []


def test_no_module_grows_past_the_line_limit() -> None:
    assert long_modules(ROOT) == {}


def test_the_line_limit_counts_the_package_the_benchmarks_and_the_test_helpers(
    tmp_path: Path,
) -> None:
    over = "x = 1\n" * (LINE_LIMIT + 1)
    for path in ("gsm8k/a.py", "benchmarks/b.py", "tests/helper.py", "tests/test_table.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(over, encoding="utf-8")
    (tmp_path / "gsm8k" / "short.py").write_text("x = 1\n" * LINE_LIMIT, encoding="utf-8")
    assert long_modules(tmp_path) == {
        "benchmarks/b.py": LINE_LIMIT + 1,
        "gsm8k/a.py": LINE_LIMIT + 1,
        "tests/helper.py": LINE_LIMIT + 1,
    }


def test_the_grading_core_imports_nothing_else_of_the_package() -> None:
    """Only the Inspect scorer, the command line and its readers of other harnesses' files reach
    outside the grading package."""
    graph = collect(ROOT)
    applications = (
        "gsm8k.grading.scorer",
        "gsm8k.grading.cli",
        "gsm8k.grading.cli_rows",
        "gsm8k.grading.imports",
    )
    core = [m for m in graph if m.startswith("gsm8k.grading.") and not m.startswith(applications)]
    assert "gsm8k.grading.verdict" in core
    reaching_out = {
        module: sorted(t for t in graph[module] if not t.startswith("gsm8k.grading"))
        for module in core
    }
    assert {m: t for m, t in reaching_out.items() if t} == {}


def test_the_top_level_holds_only_the_task_its_registry_and_the_package_face() -> None:
    top = sorted(path.name for path in (ROOT / "gsm8k").glob("*.py"))
    assert len(top) <= 6, top
    assert "task.py" in top and "_registry.py" in top
    lines = (ROOT / "gsm8k" / "task.py").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, "task.py shows the design at a glance; move machinery out"


def test_the_task_body_reads_at_a_glance() -> None:
    """The @task function: its statements (after the docstring) fit in 50 lines; the machinery
    lives in the modules it calls."""
    tree = ast.parse((ROOT / "gsm8k" / "task.py").read_text(encoding="utf-8"))
    task = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "gsm8k")
    first = task.body[1] if ast.get_docstring(task) else task.body[0]
    assert task.end_lineno is not None
    assert task.end_lineno - first.lineno + 1 <= 50


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_module_path_is_the_module_at_its_new_place_with_a_warning(old: str) -> None:
    new = importlib.import_module(MOVED[old])
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    assert module is new
    assert module.__spec__.name == MOVED[old]  # its resource files still found through its spec
    said = [str(w.message) for w in caught if w.category is DeprecationWarning]
    assert any(MOVED[old] in message and REMOVED_IN in message for message in said), said


def test_an_old_presets_submodule_warns_with_its_new_place() -> None:
    """``gsm8k.presets.<name>`` is mapped by prefix, not listed in MOVED."""
    importlib.import_module("gsm8k.prompting.presets.registry")
    for old in ("gsm8k.presets.registry", "gsm8k.presets"):
        sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module("gsm8k.presets.registry")
    assert module is sys.modules["gsm8k.prompting.presets.registry"]
    said = [str(w.message) for w in caught if w.category is DeprecationWarning]
    assert any("gsm8k.prompting.presets.registry" in message for message in said), said


def test_a_script_importing_an_old_path_shows_the_warning_under_default_filters() -> None:
    """Python shows a DeprecationWarning by default only when it is attributed to ``__main__``:
    the warning must point at the importing line, past the import machinery."""
    done = subprocess.run(
        [sys.executable, "-c", "import gsm8k.numbers"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert "<string>:1: DeprecationWarning: gsm8k.numbers moved to gsm8k.grading.numbers" in (
        done.stderr
    )
    assert REMOVED_IN in done.stderr


def test_the_old_paths_are_gone_by_the_release_that_removes_them() -> None:
    """The warning promises removal in REMOVED_IN: that release must not ship them."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    version = tuple(int(part) for part in project["project"]["version"].split("."))
    removed_in = tuple(int(part) for part in REMOVED_IN.split("."))
    assert version < removed_in, f"release {REMOVED_IN} removes gsm8k/_moved.py and its tests"


def test_old_names_people_import_still_work() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from gsm8k.grade import grade_completion
        from gsm8k.presets.registry import PRESETS
        from gsm8k.reducers import majority_answer
        from gsm8k.scorer import gsm8k_grader
    assert grade_completion("ANSWER: 18", "18").correct
    assert "lm-eval-gsm8k" in PRESETS
    assert callable(majority_answer) and callable(gsm8k_grader)
