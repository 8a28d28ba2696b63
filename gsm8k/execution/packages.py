"""Third-party packages a model's program may import: numpy, scipy and sympy, where installed.

Program-of-Thoughts style programs start with ``import numpy as np`` or use sympy to solve an
equation; without them an honest, correct program fails on its first line. The sandbox still does
not see the evaluator's site-packages: each of these packages' own directories (and the shared
libraries numpy's wheel ships beside it) is copied into the sandbox's read-only runtime image
(:mod:`gsm8k.execution.image`) under :data:`PACKAGES_ROOT`, a directory of its own that the
bootstrap puts on ``sys.path``. Nothing else installed is visible.
Install them with ``pip install 'inspect-gsm8k[pal]'`` (numpy is already a dependency).
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
from dataclasses import dataclass
from pathlib import Path

PACKAGES_ROOT = "/opt/packages"
"""Where the packages appear inside the sandbox (read-only)."""
PROGRAM_PACKAGES = ("numpy", "scipy", "sympy")
"""What the prompt offers; each brings the directories in :data:`DIRECTORIES`."""
DIRECTORIES = {
    "numpy": ("numpy", "numpy.libs"),
    "scipy": ("scipy", "scipy.libs"),
    "sympy": ("sympy", "mpmath"),
}
"""Top-level directories each package needs (numpy.libs: its wheel's BLAS; mpmath: sympy's one
dependency)."""
THREAD_ENVIRONMENT = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""One BLAS thread: a BLAS sizing its pool by the machine's cores would exceed the sandbox's
process limit (and its memory limit) on a large machine."""


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    directories: tuple[Path, ...]
    """Each directory the package needs, as installed here."""


def _directory(name: str) -> Path | None:
    """Where top-level package (or plain directory) ``name`` is installed, without importing it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        location = Path(next(iter(spec.submodule_search_locations)))
        return location if location.is_dir() else None
    return None


@functools.cache
def available_packages() -> tuple[Package, ...]:
    """The program packages installed for this interpreter, with every directory they need."""
    found = []
    for name in PROGRAM_PACKAGES:
        main = _directory(name)
        if main is None:
            continue
        directories = [main]
        for extra in DIRECTORIES[name][1:]:
            sibling = main.parent / extra
            located = sibling if sibling.is_dir() else _directory(extra)
            if located is not None:
                directories.append(located)
            elif not extra.endswith(".libs"):  # only wheels ship them; system builds link BLAS
                break
        else:
            try:
                version = importlib.metadata.version(name)
            except importlib.metadata.PackageNotFoundError:
                version = "unknown"
            found.append(Package(name, version, tuple(directories)))
    return tuple(found)


def process_paths(packages: tuple[Package, ...]) -> list[str]:
    """``sys.path`` entries for the trusted plain process (no mounts: the directories' parents)."""
    return sorted({str(d.parent) for p in packages for d in p.directories})


def describe(names: list[str]) -> str:
    """How a prompt names what a program may import: ``the standard library, numpy and sympy``."""
    parts = ["the standard library", *names]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


CONTAINER_PACKAGES = ("numpy", "sympy")
"""What the docker image installs under :data:`PACKAGES_ROOT` (see its Dockerfile)."""


def program_packages(in_container: bool) -> list[str]:
    """The names of the packages a program may import where it will run."""
    if in_container:
        return list(CONTAINER_PACKAGES)
    return [p.name for p in available_packages()]
