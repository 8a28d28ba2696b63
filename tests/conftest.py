"""Shared fixtures: a tiny GSM8K-layout directory, and isolation from the user's environment.

Nothing the suite runs writes into the checkout or the user's home: hypothesis keeps no example
database and its other files (``.hypothesis/``) in a temporary folder, and so do Inspect's trace
files (``$XDG_DATA_HOME/inspect_ai/traces``) and matplotlib's font cache (``$MPLCONFIGDIR``); the
folder is removed when the session ends. The variables are set here, before any test module
imports Inspect, so processes the tests start inherit them.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from _pytest.nodeid import NodeId
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

SCRATCH = Path(tempfile.mkdtemp(prefix="gsm8k-tests-"))
atexit.register(shutil.rmtree, SCRATCH, ignore_errors=True)
os.environ["XDG_DATA_HOME"] = str(SCRATCH / "data")
os.environ["MPLCONFIGDIR"] = str(SCRATCH / "matplotlib")
set_hypothesis_home_dir(SCRATCH / "hypothesis")  # its constants cache, else ./.hypothesis
# The same examples on every run, so that a pass or a failure reproduces (CI included);
# `HYPOTHESIS_PROFILE=explore pytest ...` draws new ones to hunt for fresh failures.
settings.register_profile("no-database", database=None, derandomize=True)
settings.register_profile("explore", database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "no-database"))

FIXTURES = Path(__file__).parent / "fixtures"
MINI_DATA = FIXTURES / "mini"
PROJECT_LOGS = Path(__file__).resolve().parent.parent / "logs"


@pytest.fixture(autouse=True)
def _no_ambient_data_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests choose their data explicitly; a developer's GSM8K_DATA_DIR must not leak in."""
    monkeypatch.delenv("GSM8K_DATA_DIR", raising=False)


@pytest.fixture(autouse=True)
def _logs_in_a_temporary_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Inspect writes to ./logs unless told otherwise; a test that forgets --log-dir (or a CLI it
    starts, which inherits the environment) must not put logs where `inspect view` and
    `gsm8k-compare logs` would show them."""
    monkeypatch.setenv("INSPECT_LOG_DIR", str(tmp_path_factory.mktemp("inspect-logs")))


@pytest.fixture(autouse=True, scope="session")
def _project_logs_untouched() -> Iterator[None]:
    """Fails the session when a test left anything new in the project's logs/ folder."""
    before = _project_logs()
    yield
    added = sorted(_project_logs() - before)
    assert not added, f"tests wrote into {PROJECT_LOGS}: {', '.join(added)}"


def _project_logs() -> set[str]:
    return {path.name for path in PROJECT_LOGS.iterdir()} if PROJECT_LOGS.is_dir() else set()


@pytest.fixture
def mini_data() -> Path:
    return MINI_DATA


@pytest.fixture
def real_data_dir() -> Path:
    """The real GSM8K files, when GSM8K_DATA_DIR pointed at them before the tests started."""
    value = REAL_DATA_DIR
    if not value:
        pytest.skip("GSM8K_DATA_DIR is not set; real-data tests need a local copy of GSM8K")
    path = Path(value)
    if not (path / "test.jsonl").is_file():
        pytest.fail(f"GSM8K_DATA_DIR={value} has no test.jsonl")
    return path


REAL_DATA_DIR = os.environ.get("GSM8K_DATA_DIR")

SPREAD = frozenset(("test_recipes.py",))
"""Files whose tests share nothing and each run for minutes (the documented recipes, run
verbatim): under ``--dist loadgroup`` each is a group of its own."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The slow tier's worker groups (``--dist loadgroup``): a file's tests stay on one worker,
    so that a module-scoped eval, server or model runs once, as ``--dist loadfile`` would keep
    them; the files in :data:`SPREAD` are spread test by test, so that the longest of them is
    no longer the whole tier's critical path. Without ``loadgroup`` the marks do nothing."""
    for item in items:
        name = item.path.name
        group = re.sub(r"\W", "_", item.name) if name in SPREAD else name
        item.add_marker(pytest.mark.xdist_group(group))
        if getattr(config.option, "loadgroup", False) and hasattr(item, "_id"):
            # The id xdist schedules by (`nodeid@group`). pytest-xdist 3.8 writes it to
            # `item._nodeid`, which pytest 9.2 no longer reads (the id is `item._id`): every
            # group was spread over the workers, and a file's module-scoped evals ran on each
            # (the compare reports' logs were made four times on four workers).
            item._id = NodeId.parse(f"{item.nodeid}@{group}")
