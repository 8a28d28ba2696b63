"""Old module paths, from before the package was split into subsystems, still import.

``import gsm8k.numbers`` (or ``from gsm8k.scorer import gsm8k_grader``) gives the module at its
new place, the same object, with a ``DeprecationWarning`` naming the new path and the release
that drops the old one (:data:`REMOVED_IN`), so code and notebooks written against earlier
releases keep working while they move.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

REMOVED_IN = "2.0.0"
"""The release without the old paths: removing an import path breaks callers, so it waits for
the next major version."""

MOVED = {
    "gsm8k.numbers": "gsm8k.grading.numbers",
    "gsm8k.sections": "gsm8k.grading.sections",
    "gsm8k.reader": "gsm8k.grading.reader",
    "gsm8k.phrases": "gsm8k.grading.phrases",
    "gsm8k.fallback": "gsm8k.grading.fallback",
    "gsm8k.extract": "gsm8k.grading.extract",
    "gsm8k.reasons": "gsm8k.grading.reasons",
    "gsm8k.scorer": "gsm8k.grading.scorer",
    "gsm8k.grade": "gsm8k.grading.cli",
    "gsm8k.fewshot": "gsm8k.prompting.fewshot",
    "gsm8k.exemplars": "gsm8k.prompting.exemplars",
    "gsm8k.presets": "gsm8k.prompting.presets",
    "gsm8k.variants": "gsm8k.data.variants",
    "gsm8k.family": "gsm8k.data.family",
    "gsm8k.family.sources": "gsm8k.data.family.sources",
    "gsm8k.family.samples": "gsm8k.data.family.samples",
    "gsm8k.family.answers": "gsm8k.grading.golds",
    "gsm8k.family.mgsm": "gsm8k.prompting.mgsm",
    "gsm8k.rates": "gsm8k.metrics.rates",
    "gsm8k.intervals": "gsm8k.metrics.intervals",
    "gsm8k.votes": "gsm8k.metrics.votes",
    "gsm8k.reducers": "gsm8k.metrics.reducers",
    "gsm8k.code_policy": "gsm8k.execution.policy",
    "gsm8k.parameters": "gsm8k.settings.checks",
    "gsm8k.provenance": "gsm8k.settings.record",
    "gsm8k.errors": "gsm8k.settings.errors",
}
"""Old module path -> new one. ``gsm8k.data`` kept its name as a package; its old module's
names are in ``gsm8k.data.splits``."""


class _Alias(importlib.abc.Loader):
    def __init__(self, new: str) -> None:
        self.new = new
        self.spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} moved to {self.new}; import it from there "
            f"(the old path is removed in {REMOVED_IN}).",
            DeprecationWarning,
            # Past this loader to the importing line (the import machinery's frames are
            # skipped): attributed to a script's __main__, Python's default filters show it.
            stacklevel=2,
        )
        module = importlib.import_module(self.new)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """The module was executed at its new place already; importing it under the old name
        set the old name's spec on it, which would break its resource files (``importlib.resources``
        reads them through the spec's loader)."""
        module.__spec__ = self.spec


class _MovedFinder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname) or _presets_submodule(fullname)
        if new is None:
            return None
        is_package = any(other.startswith(fullname + ".") for other in MOVED) or fullname.endswith(
            ".presets"
        )
        return importlib.machinery.ModuleSpec(fullname, _Alias(new), is_package=is_package)


def _presets_submodule(fullname: str) -> str | None:
    prefix = "gsm8k.presets."
    if not fullname.startswith(prefix):
        return None
    return "gsm8k.prompting.presets." + fullname[len(prefix) :]


def install() -> None:
    """Resolve the old paths (once per interpreter)."""
    if not any(isinstance(finder, _MovedFinder) for finder in sys.meta_path):
        # First: under an old package name (gsm8k.family), the path finder would otherwise load
        # the new package's files a second time as different modules.
        sys.meta_path.insert(0, _MovedFinder())
