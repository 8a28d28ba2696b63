"""numpy and sympy inside the sandbox: importable where installed, read-only, and nothing else of
the evaluator's site-packages visible; the prompt says what a program may import."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from gsm8k.execution.container import COMPOSE_FILE
from gsm8k.execution.packages import (
    PACKAGES_ROOT,
    available_packages,
    describe,
    program_packages,
)
from gsm8k.execution.runner import Limits, run_program
from gsm8k.task import gsm8k
from tests.scripted import run_eval, scripted_model

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the OS sandbox needs Linux namespaces"
)
FAST = Limits(timeout_seconds=10.0, cpu_seconds=5)
INSTALLED = {p.name for p in available_packages()}
needs = {
    name: pytest.mark.skipif(name not in INSTALLED, reason=f"{name} is not installed")
    for name in ("numpy", "sympy")
}


@needs["numpy"]
@pytest.mark.parametrize(
    ("program", "value"),
    [
        pytest.param("import numpy as np\nans = np.array([16, 3, 4]) @ np.array([1, -1, -1]) * 2",
                     "18", id="numpy-int64"),
        pytest.param("import numpy as np\nans = np.float32(18.5)", "18.5", id="numpy-float32"),
        pytest.param("import numpy as np\nans = np.mean([17, 19])", "18.0", id="numpy-mean"),
    ],
)  # fmt: skip
def test_numpy_programs_run_in_the_sandbox(program: str, value: str) -> None:
    result = run_program(program, FAST)
    assert (result.status, result.value) == ("ok", value), result


@needs["sympy"]
def test_sympy_programs_run_in_the_sandbox() -> None:
    result = run_program(
        "from sympy import Rational, solve, symbols\n"
        "x = symbols('x')\n"
        "ans = solve(2 * x - Rational(37, 1), x)[0]\n",
        FAST,
    )
    assert result.status == "ok" and result.value is not None, result
    assert float(result.value) == 18.5


@needs["numpy"]
def test_only_the_packages_are_visible_and_read_only() -> None:
    numpy_home = next(p for p in available_packages() if p.name == "numpy").directories[0]
    planted = f"{PACKAGES_ROOT}/numpy/planted.py"
    result = run_program(
        "import json, os, sys\n"
        f"found = {{'listing': sorted(os.listdir({PACKAGES_ROOT!r})),\n"
        f"         'site': os.path.exists({str(numpy_home.parent)!r}),\n"
        "         'path': [p for p in sys.path if 'site-packages' in p]}\n"
        "for name in ('yaml', 'inspect_ai', 'gsm8k', 'pip'):\n"
        "    try:\n"
        "        __import__(name)\n"
        "        found[name] = 'imported'\n"
        "    except ImportError:\n"
        "        found[name] = 'missing'\n"
        "try:\n"
        f"    open({planted!r}, 'w')\n"
        "    found['write'] = 'written'\n"
        "except OSError as error:\n"
        "    found['write'] = error.errno\n"
        "print(json.dumps(found))\n"
        "ans = 1\n",
        FAST,
    )
    assert result.status == "ok", result
    found = json.loads(result.stdout)
    expected = sorted(d.name for p in available_packages() for d in p.directories)
    assert found["listing"] == expected
    assert found["site"] is False and found["path"] == []
    assert {found[n] for n in ("yaml", "inspect_ai", "gsm8k", "pip")} == {"missing"}
    assert found["write"] == 30  # EROFS


def test_the_prompt_names_the_packages_found() -> None:
    assert describe([]) == "the standard library"
    assert describe(["numpy", "sympy"]) == "the standard library, numpy and sympy"


@pytest.mark.slow
@needs["numpy"]
@needs["sympy"]
@pytest.mark.parametrize(
    ("settings", "phrase"),
    [
        ({"mode": "pal"}, "Use only the standard library, numpy, scipy and sympy"),
        (
            {"tools": "python"},
            "short Python programs (the standard library, numpy, scipy and sympy)",
        ),
    ],
    ids=["pal", "python-tool"],
)
def test_the_prompt_says_what_a_program_may_import(
    mini_data: Path, tmp_path: Path, settings: dict[str, str], phrase: str
) -> None:
    task = gsm8k(dataset=str(mini_data), fewshot=0, **settings)
    assert task.metadata is not None
    assert task.metadata["program_packages"] == ["numpy", "scipy", "sympy"]
    log = run_eval(task, scripted_model(lambda _: "ANSWER: 18"), limit=1, log_dir=str(tmp_path))
    assert phrase in log.samples[0].messages[0].text


def test_the_container_image_installs_the_same_packages_where_the_bootstrap_looks() -> None:
    dockerfile = (COMPOSE_FILE.parent / "Dockerfile").read_text()
    assert f"--target {PACKAGES_ROOT}" in dockerfile
    for name in program_packages(in_container=True):
        assert f" {name}==" in dockerfile
