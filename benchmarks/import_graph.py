"""The package's import graph: modules per folder, import circles, floors, packages' edges, and
the modules over the line limit.

    python -m benchmarks.import_graph            # this checkout
    python -m benchmarks.import_graph /tmp/old   # a folder holding another release's gsm8k/

Every ``import gsm8k...`` / ``from gsm8k... import`` counts, at module level or inside a function
(a deferred import is still a dependency). A circle is a strongly connected set of two or more
modules; the floor of a module is one more than the highest floor it imports (modules that import
nothing of the package are on floor 1), so the number of floors is the longest import chain.
"""

from __future__ import annotations

import argparse
import ast
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

PACKAGE = "gsm8k"
LINE_LIMIT = 400
"""A module holds one job and fits on a screen or two; longer ones split along their seam."""
HELPER_FOLDERS = ("benchmarks", "tests")
"""Besides the package, their modules count, test files (``test_*.py``, tables of cases) aside."""


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def collect(root: Path) -> dict[str, set[str]]:
    """Each module of the package and the package modules it imports."""
    files = sorted((root / PACKAGE).rglob("*.py"))
    modules = {module_name(root, path): path for path in files}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # `from gsm8k.grading import reasons` imports the module gsm8k.grading.reasons.
                targets = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
            for target in targets:
                resolved = _resolve(target, modules)
                if resolved and resolved != name and resolved.startswith(PACKAGE + "."):
                    graph[name].add(resolved)
    return graph


def long_modules(root: Path, limit: int = LINE_LIMIT) -> dict[str, int]:
    """Modules of the package, the benchmarks and the tests' helpers over ``limit`` lines, by
    path relative to ``root``."""
    files = [*(root / PACKAGE).rglob("*.py")]
    for folder in HELPER_FOLDERS:
        files += [f for f in (root / folder).rglob("*.py") if not f.name.startswith("test_")]
    lengths = {
        path.relative_to(root).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(files)
    }
    return {path: lines for path, lines in lengths.items() if lines > limit}


def _resolve(target: str, modules: dict[str, Path]) -> str | None:
    while target:
        if target in modules:
            return target
        target = target.rpartition(".")[0]
    return None


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of two or more modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def floors(graph: dict[str, set[str]]) -> dict[str, int]:
    """Longest-chain layering; modules inside a circle share a floor."""
    memo: dict[str, int] = {}

    def floor(node: str, seen: frozenset[str]) -> int:
        if node in memo:
            return memo[node]
        below = [floor(n, seen | {node}) for n in graph[node] if n not in seen and n != node]
        memo[node] = 1 + max(below, default=0)
        return memo[node]

    return {node: floor(node, frozenset()) for node in graph}


def subsystem(module: str, packages: set[str]) -> str:
    """``gsm8k.grading`` for anything inside it; ``gsm8k`` for the top-level modules."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 or module in packages else PACKAGE


EXAMPLE = "She sells 16 - 3 - 4 = 9 eggs, for 9 * 2 = 18 dollars.\nANSWER: $18"


def grading_calls(root: Path) -> list[tuple[str, str]]:
    """The calls between package modules while one completion is graded, in the order first made
    (caller, callee): the grader's path through the package."""
    import importlib
    import sys

    sys.path.insert(0, str(root))
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]
    if (root / PACKAGE / "grading" / "verdict.py").is_file():
        grade = importlib.import_module(f"{PACKAGE}.grading.verdict").extract_and_compare
    else:  # releases before the grading package
        grade = importlib.import_module(f"{PACKAGE}.scorer").grade
    calls: list[tuple[str, str]] = []

    def profile(frame: Any, event: str, arg: object) -> None:
        callee = frame.f_globals.get("__name__", "")
        caller = frame.f_back.f_globals.get("__name__", "") if frame.f_back else ""
        edge = (caller, callee)
        inside = all(m.startswith(PACKAGE + ".") for m in edge)
        if event == "call" and inside and caller != callee and edge not in calls:
            calls.append(edge)

    sys.setprofile(profile)
    try:
        grade(EXAMPLE, "18")
    finally:
        sys.setprofile(None)
    return calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", type=Path, default=Path(__file__).parent.parent)
    args = parser.parse_args(argv)
    graph = collect(args.root)
    packages = {
        module_name(args.root, path.parent / "__init__.py")
        for path in (args.root / PACKAGE).rglob("__init__.py")
    }
    levels = floors(graph)
    per_folder = Counter(
        f"{path.parent.relative_to(args.root)}/" for path in (args.root / PACKAGE).rglob("*.py")
    )
    print(f"{len(graph)} modules on {max(levels.values())} floors")
    print("modules per folder: " + ", ".join(f"{f} {n}" for f, n in sorted(per_folder.items())))
    found = circles(graph)
    print(f"circles: {len(found)}" + "".join(f"\n  {' <-> '.join(c)}" for c in found))
    long = long_modules(args.root)
    shown = ", ".join(f"{path} {lines}" for path, lines in long.items()) or "none"
    print(f"modules over {LINE_LIMIT} lines: {shown}")
    edges: dict[tuple[str, str], int] = defaultdict(int)
    for module, targets in graph.items():
        for target in targets:
            a, b = subsystem(module, packages), subsystem(target, packages)
            if a != b:
                edges[(a, b)] += 1
    both_ways = sorted({tuple(sorted(e)) for e in edges if (e[1], e[0]) in edges})
    pairs = ", ".join(" <-> ".join(pair) for pair in both_ways) or "none"
    print(f"subsystems importing each other: {pairs}")
    calls = grading_calls(args.root)
    short = [(a.removeprefix(PACKAGE + "."), b.removeprefix(PACKAGE + ".")) for a, b in calls]
    upward = [(a, b) for a, b in calls if levels[b] > levels[a]]
    folders = {a.rpartition(".")[0] for edge in calls for a in edge}
    print(
        f"one completion's grading: {len(calls)} module-to-module calls in {len(folders)} "
        f"folder(s), {len(upward)} to a higher floor: " + ", ".join(f"{a}>{b}" for a, b in short)
    )
    for (a, b), n in sorted(edges.items()):
        print(f"  {a} -> {b} ({n})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
