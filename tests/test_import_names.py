"""No name inside ``gsm8k/`` shadows a package: Inspect puts a task file's folder on ``sys.path``
(``inspect eval gsm8k/task.py``), so every module and folder there is importable under its own
name, ahead of the installed packages. A ``gsm8k/mcp`` once made ``import mcp`` find this
project's own subpackage, and a user without the ``mcp`` extra got a long traceback instead of
the one line that says to install it; the slow test runs that demo without the extra."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from gsm8k.mcp_tools.startup import EXTRA

ROOT = Path(__file__).resolve().parent.parent
EXPOSED = ROOT / "gsm8k"
"""The folder of ``gsm8k/task.py``: what ``inspect eval gsm8k/task.py`` adds to ``sys.path``."""


def exposed_names(folder: Path = EXPOSED) -> set[str]:
    """The top-level names ``folder`` on ``sys.path`` would give: its modules and its folders
    (a folder without ``__init__.py`` still imports, as a namespace package)."""
    names = set()
    for entry in folder.iterdir():
        if entry.name.startswith((".", "__")):
            continue
        if entry.is_dir():
            names.add(entry.name)
        elif entry.suffix in (".py", ".pyc", ".so", ".pyd"):
            names.add(entry.name.split(".", 1)[0])
    return names


def clashes(names: Iterable[str]) -> list[str]:
    """Of ``names``, those of a standard-library module or of a top-level package installed
    in this environment."""
    installed = set(importlib.metadata.packages_distributions())
    return sorted(n for n in names if n in sys.stdlib_module_names or n in installed)


def test_no_name_inside_the_task_folder_is_a_package_or_stdlib_name() -> None:
    names = exposed_names()
    assert {"task", "mcp_tools", "grading"} <= names  # the listing sees the package itself
    # The check itself finds a shadow (one test: reading the installed packages takes a second).
    shadows = ["inspect_ai", "json", "pytest"]
    assert clashes([*names, *shadows]) == shadows, "rename these: they shadow a package"


HIDE_MCP = '''\
"""Start-up hook for the test: Python as if the mcp extra were not installed."""
import importlib.machinery
import importlib.metadata
import sys


class HideInstalledMcp:
    """``mcp`` is looked for on sys.path without site-packages: a folder of that name
    elsewhere on the path is found, as it would be without the extra; nothing else is."""

    def find_spec(self, name, path=None, target=None):
        if name != "mcp" and not name.startswith("mcp."):
            return None
        if path is None:
            path = [entry for entry in sys.path if "site-packages" not in entry]
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return spec


_from_name = importlib.metadata.Distribution.from_name.__func__


def from_name(cls, name):
    if name.lower() == "mcp":
        raise importlib.metadata.PackageNotFoundError(name)
    return _from_name(cls, name)


importlib.metadata.Distribution.from_name = classmethod(from_name)
sys.meta_path.insert(0, HideInstalledMcp())
'''


def without_mcp(tmp_path: Path) -> dict[str, str]:
    """The environment of a user who skipped the extra: a start-up hook on ``PYTHONPATH``
    hides the installed package (cheaper than a second virtual environment)."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(HIDE_MCP, encoding="utf-8")
    # A wide terminal, so that the line is not wrapped.
    return os.environ | {"PYTHONPATH": str(hook), "INSPECT_DISPLAY": "plain", "COLUMNS": "400"}


@pytest.mark.slow
def test_the_docs_demo_without_the_extra_says_so_in_one_line(tmp_path: Path) -> None:
    """The docs' demo, by path and by the installed name, gives the documented line."""
    environment = without_mcp(tmp_path)
    hidden = subprocess.run(
        [sys.executable, "-c", "import mcp"], env=environment, capture_output=True, text=True
    )
    assert hidden.returncode == 1 and "No module named 'mcp'" in hidden.stderr
    inspect = Path(sys.executable).with_name("inspect")
    line = f"the MCP client is not installed (mcp is missing): {EXTRA} (nothing was run)."
    for task in ("gsm8k/task.py", "gsm8k/gsm8k"):
        command = [str(inspect), "eval", task, "--model", "plumbing-demo/tool-caller"]
        command += ["--limit", "2", "-T", "mcp=gsm8k-mcp", "--log-dir", str(tmp_path / "logs")]
        done = subprocess.run(
            command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300
        )
        said = done.stdout + done.stderr
        assert done.returncode == 1, (task, said[-3000:])
        assert f"mcp=gsm8k-mcp: {line}" in said, (task, said[-3000:])
        assert "Traceback" not in said and "PackageNotFoundError" not in said, (task, said)
    assert not (tmp_path / "logs").exists()  # nothing was run
