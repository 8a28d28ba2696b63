"""The README and docs/ pages point at things that exist: files, anchors, commands and their
options, task parameters, model arguments; the README's commands are the ones CI runs."""

from __future__ import annotations

import contextlib
import inspect
import io
import re
from collections.abc import Callable
from importlib import import_module
from pathlib import Path

import pytest

from gsm8k.contamination.memorization import MEMORIZATION_PARAMETERS
from gsm8k.data.catalog import HUB_DATASETS
from gsm8k.data.family.sources import VARIANTS
from gsm8k.task import TASK_PARAMETERS, gsm8k

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]


def _pyproject_table(name: str) -> dict[str, str]:
    """A table of ``name = "value"`` lines in pyproject.toml (read as text: ``tomllib`` is not
    in Python 3.10, and the installed metadata lags the file until the next install)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    body = text.split(f"\n[{name}]\n", 1)[1].split("\n[", 1)[0]
    return dict(re.findall(r'^([\w-]+) = "([^"]+)"', body, re.MULTILINE))


SCRIPTS = _pyproject_table("project.scripts")
"""The console scripts pyproject.toml declares."""
README_MAX_LINES = 250

_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]+`")
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^#{1,6} (.+?)\s*$", re.MULTILINE)
_COMMAND = re.compile(r"(?<![\w-])(gsm8k-[a-z]+)\b")


def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def _prose(page: Path) -> str:
    """The page without code: links and headings are read from here."""
    return _INLINE_CODE.sub("", _FENCE.sub("", _text(page)))


def _code(page: Path) -> list[str]:
    """Every line of a fenced block and every inline code span of the page."""
    text = _text(page)
    lines = [line for block in _FENCE.findall(text) for line in block.splitlines()[1:-1]]
    return lines + [span.strip("`") for span in _INLINE_CODE.findall(_FENCE.sub("", text))]


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    return {anchor(heading) for heading in _HEADING.findall(_FENCE.sub("", _text(page)))}


def _relative_links() -> list[tuple[Path, str]]:
    return [
        (page, target)
        for page in PAGES
        for target in _LINK.findall(_prose(page))
        if not re.match(r"[a-z][a-z0-9+.-]*:", target)
    ]


@pytest.mark.parametrize(
    ("page", "target"), _relative_links(), ids=lambda v: v.name if isinstance(v, Path) else v
)
def test_every_relative_link_resolves(page: Path, target: str) -> None:
    path, _, fragment = target.partition("#")
    destination = (page.parent / path).resolve() if path else page
    assert destination.exists(), f"{page.name}: link to {target} names no file"
    if fragment:
        assert destination.suffix == ".md", f"{page.name}: anchor into {destination.name}"
        assert fragment in _anchors(destination), (
            f"{page.name}: {destination.name} has no heading for #{fragment}"
        )


def test_links_are_found_at_all() -> None:
    targets = {target for _, target in _relative_links()}
    assert "docs/grading.md" in targets and "CHANGELOG.md" in targets


def test_every_gsm8k_command_is_a_console_script() -> None:
    datasets = set(HUB_DATASETS) | set(VARIANTS)
    for page in PAGES:
        for line in _code(page):
            for name in _COMMAND.findall(line):
                assert name in SCRIPTS or name in datasets, (
                    f"{page.name}: `{name}` is neither a console script in pyproject.toml "
                    f"({', '.join(SCRIPTS)}) nor a dataset"
                )


def _main(script: str) -> Callable[[list[str]], int]:
    module, _, function = SCRIPTS[script].partition(":")
    main: Callable[[list[str]], int] = getattr(import_module(module), function)
    return main


def _help(script: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        _main(script)(["--help"])
    return out.getvalue()


def test_every_option_given_to_a_gsm8k_command_exists() -> None:
    used: dict[str, set[str]] = {}
    for page in PAGES:
        for line in _code(page):
            # Options belong to the command until the next shell separator or comment.
            for segment in re.split(r"&&|\|\||[;|#>]", line):
                words = segment.split()
                names = [w.rsplit("/", 1)[-1] for w in words if _COMMAND.search(w)]
                if names and names[0] in SCRIPTS:
                    options = {w.split("=")[0] for w in words if w.startswith("--")}
                    used.setdefault(names[0], set()).update(options)
    assert "gsm8k-compare" in used and "--png" in used["gsm8k-compare"]
    for script, options in used.items():
        text = _help(script)
        for option in options:
            assert re.search(rf"(?<![\w-]){re.escape(option)}\b", text), (
                f"{script} has no option {option}"
            )


def test_every_task_parameter_in_the_docs_is_in_the_task_signature() -> None:
    parameters = set(TASK_PARAMETERS) | set(MEMORIZATION_PARAMETERS)  # either task's -T
    found: set[str] = set()
    for page in PAGES:
        # A quoted refusal of a misspelt name ("-T x=1: gsm8k has no parameter 'x'") is no use.
        for name in re.findall(r"-T ([a-z_]+)=(?!.*has no parameter)", _text(page)):
            found.add(name)
            assert name in parameters, f"{page.name}: -T {name}= is not a task parameter"
    assert {"fewshot", "dataset", "language"} <= found


def test_the_readme_parameter_table_mirrors_the_task_signature() -> None:
    section = _text(README).split("## Parameters", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| ([^|]*) \|", section, re.MULTILINE)
    signature = inspect.signature(gsm8k).parameters
    assert [name for name, _ in rows] == list(TASK_PARAMETERS)  # **unknown names are refused
    for name, shown in rows:
        value = signature[name].default
        if value is None:
            expected = "unset"
        else:  # a bool shows as true/false, as -T takes it
            expected = f"`{str(value).lower() if isinstance(value, bool) else value}`"
        if re.fullmatch(r"`[^`]*`|unset", shown.strip()):
            assert shown.strip() == expected, f"README: {name} defaults to {expected}"


def test_every_gguf_model_argument_in_the_docs_is_read_by_the_provider() -> None:
    source = (ROOT / "gsm8k" / "local" / "llama.py").read_text(encoding="utf-8")
    checked = set()
    for page in PAGES:
        # -M belongs to the model's provider: check what is said of gguf/ (the passages that
        # name it, and local-models.md, whose served-model recipes pass no -M).
        for passage in re.split(r"\n\s*\n|\n- ", _text(page)):
            about_gguf = "gguf" in passage or "gsm8k-local" in passage
            if not about_gguf and page.name != "local-models.md":
                continue
            for name in re.findall(r"-M ([a-z_]+)=", passage):
                checked.add(name)
                assert f'model_args.get("{name}"' in source, f"{page.name}: -M {name}= is not read"
    assert "n_threads" in checked


def test_task_paths_in_commands_exist() -> None:
    for page in PAGES:
        for path in re.findall(r"inspect eval(?:-set)? ([\w./-]+\.py)", _text(page)):
            assert (ROOT / path).is_file(), f"{page.name}: {path} does not exist"
    registry = _pyproject_table("project.entry-points.inspect_ai")
    assert "gsm8k/gsm8k" in _text(README) and registry["gsm8k"] == "gsm8k._registry"


_REPO_PATH = re.compile(r"`((?:gsm8k|tests|benchmarks|docs)/[\w./-]*(?:\.[a-z]+|/))(?:::\w+)?`")
"""A file or folder of this repository in a code span (``gsm8k/gsm8k``, the task's name, has no
suffix and is not one)."""


def test_every_repository_path_named_in_code_exists() -> None:
    named: set[str] = set()
    for page in PAGES:
        for path in _REPO_PATH.findall(_text(page)):
            named.add(path)
            assert (ROOT / path).exists(), f"{page.name}: `{path}` does not exist"
    assert "gsm8k/task.py" in named and "gsm8k/data/variants.py" in named


def _bash_blocks(page: Path) -> list[str]:
    return re.findall(r"^```bash\n(.*?)^```", _text(page), re.MULTILINE | re.DOTALL)


def test_the_readme_test_commands_are_the_ones_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    commands = [block.strip() for block in _bash_blocks(README)]
    fast = next(line for line in ci if line.startswith("python3 -m venv"))
    assert fast in commands, "README's test command and .ci/run's fast tier differ"
    lines = {line for command in commands for line in command.splitlines()}
    stages = [line.removeprefix("stage ") for line in ci if line.startswith("stage .venv/")]
    slow, install, bench = stages
    assert '-m "slow or local_model"' in slow and slow in lines, "the slow tier differs"
    assert f"{install} && {bench}" in lines, "the bench stage differs"


def test_the_readme_quick_start_installs_what_the_set_up_benchmark_times() -> None:
    quick_start = _bash_blocks(README)[0].strip()
    timed = (ROOT / "benchmarks" / "setup_time.sh").read_text(encoding="utf-8")
    for step in quick_start.split(" && "):
        command = step.replace("python3 -m venv .venv", "").strip()
        if command.startswith("GSM8K_DATA_DIR="):
            command = command.split(" ", 1)[1]
        if command:
            assert command in timed, f"setup_time.sh does not run `{command}`"


def test_the_readme_is_read_in_five_minutes() -> None:
    assert len(_text(README).splitlines()) <= README_MAX_LINES


@pytest.mark.slow
def test_the_readme_example_prompt_is_what_the_task_renders() -> None:
    from tests.example_prompt import BEGIN, END, render

    text = _text(README)
    shown = text[text.index(BEGIN) : text.index(END) + len(END)]
    assert shown == render()  # GSM8K test question 0, from the bundled copy


def _table_rows(text: str) -> dict[str, list[str]]:
    """Rows of every Markdown table in ``text`` by their first cell (headers left out, bold
    marks dropped)."""
    rows: dict[str, list[str]] = {}
    lines = text.splitlines()
    for line, following in zip(lines, [*lines[1:], ""], strict=True):
        if line.startswith("| ") and not following.startswith("|---"):  # not a header
            cells = [cell.strip().replace("**", "") for cell in line.strip("|").split("|")]
            rows.setdefault(cells[0], cells[1:])
    return rows


def _tables(text: str) -> list[tuple[str, dict[str, list[str]]]]:
    """Each Markdown table in ``text``: its first header cell and its rows."""
    blocks = re.findall(r"^(\| [^\n]*\n\|---[^\n]*\n(?:\|[^\n]*\n?)*)", text, re.MULTILINE)
    return [(block.split("|")[1].strip(), _table_rows(block)) for block in blocks]


def _agreement_tables() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The benchmark's own figures (benchmarks/README.md), against the audited labels: by source,
    and by model (the first table of each after the generated-tables marker)."""
    text = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    tables = _tables(text.split("<!-- grading-tables -->", 1)[1])
    by_source = next(rows for header, rows in tables if header == "source")
    by_model = next(rows for header, rows in tables if header == "model")
    return by_source, by_model


def test_grader_agreement_figures_are_the_benchmarks_own() -> None:
    by_source, by_model = _agreement_tables()
    readme = _table_rows(_text(README).split("## Results", 1)[1].split("\n## ", 1)[0])
    assert {name.split(" (")[0] for name in readme} == set(by_source)
    for name, cells in readme.items():
        assert cells == by_source[name.split(" (")[0]], f"README results row {name}"
    section = _text(ROOT / "docs" / "grading.md").split("## How well the graders agree", 1)[1]
    grading = _table_rows(section)
    for name, cells in by_model.items():
        model = name.split(": ", 1)[-1]
        assert grading.get(model) == cells, f"docs/grading.md row {model}"


def test_the_readme_comparison_counts_add_up_from_the_benchmark() -> None:
    by_source, _ = _agreement_tables()
    counts = [re.fullmatch(r"([\d.]+)% \((\d+) / (\d+)\)", cell) for cell in by_source["all"][1:]]
    assert all(counts)
    why = _table_rows(_text(README).split("## Why this one", 1)[1].split("\n## ", 1)[0])
    misgraded = [f"{int(m[2]) + int(m[3])} ({m[1]}%)" for m in counts if m]
    accepted = [str(int(m[2])) for m in counts if m]
    assert why["completions misgraded"] == misgraded
    assert why["wrong answers accepted"] == accepted
