"""The house's layers (README.md, "Architecture"), kept true: which layer may import which,
no import circle among the package's modules, few modules at the top of the package and
no module over 800 lines but the listed ones.

Every import counts as an arrow: at module level and inside functions (a lazy import is
still a dependency). Imports under ``if TYPE_CHECKING:`` are left out: they are for the
type checker, never run, and name types across layers the way documentation does.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "shengji"

#: Each module's layer: the longest prefix of its dotted name listed here.
LAYER_OF = {
    "shengji": "facade",  # the package's own names, re-exported from the rules and game
    "shengji.errors": "base",
    "shengji.kernel": "kernel",
    "shengji.rules": "rules",
    "shengji.engine": "engine",  # the kernel driven with the rules' objects
    "shengji.words": "words",
    "shengji.extras": "words",  # a missing optional extra, worded for people
    "shengji.game": "game",
    "shengji.bots": "bots",
    "shengji.env": "env",
    "shengji.server": "server",
    "shengji.tui": "tui",
    "shengji.tools": "tools",
}

#: Each layer and the layers it may import (besides itself), bottom to top.
MAY_IMPORT: dict[str, set[str]] = {
    "base": set(),
    "kernel": {"base"},
    "rules": {"base", "kernel"},
    "engine": {"base", "kernel", "rules"},
    "words": {"base", "kernel", "rules"},
    "game": {"base", "kernel", "rules", "engine", "words"},
    "bots": {"base", "kernel", "rules", "engine", "words", "game"},
    "env": {"base", "kernel", "rules", "engine", "words", "game", "bots"},
    "server": {"base", "kernel", "rules", "engine", "words", "game", "bots"},
    "tui": {"base", "kernel", "rules", "engine", "words", "game", "bots"},
    "tools": {
        "base",
        "kernel",
        "rules",
        "engine",
        "words",
        "game",
        "bots",
        "env",
        "server",
        "tui",
    },
    "facade": {"base", "kernel", "rules", "engine", "words", "game"},
}

#: Arrows that break the table today, with their reason; the list may only shrink (empty
#: since the kernel's match and rollout drivers moved up to ``shengji.engine``).
KNOWN: set[tuple[str, str]] = set()

#: Modules allowed over MAX_LINES: word catalogues (the kernel's core is a package of
#: modules under it, compiled together: docs/kernel.md).
LONG_MODULES = {
    "shengji.words.i18n",  # the message catalogue in two languages: data, not logic
}
MAX_LINES = 800
#: Modules directly under src/shengji (``__init__.py`` counts; packages do not).
MAX_TOP_MODULES = 12


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return skip


def _targets(module: str, path: Path) -> Iterator[str]:
    """The package's modules that ``module`` imports (its own name left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_nodes(tree)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                base_name = ".".join([*base, *([node.module] if node.module else [])])
            else:
                base_name = node.module or ""
            for alias in node.names:
                sub = f"{base_name}.{alias.name}"
                names.append(sub if sub in MODULES else base_name)
        for name in names:
            parts = name.split(".")
            for i in range(len(parts), 0, -1):  # the longest prefix that is a module
                candidate = ".".join(parts[:i])
                if candidate in MODULES:
                    if candidate != module:
                        yield candidate
                    break


def import_graph() -> dict[str, set[str]]:
    """Every module of the package and the package's modules it imports."""
    return {module: set(_targets(module, path)) for module, path in MODULES.items()}


def layer(module: str) -> str:
    parts = module.split(".")
    for i in range(len(parts), 0, -1):
        hit = LAYER_OF.get(".".join(parts[:i]))
        if hit is not None:
            return hit
    raise AssertionError(f"{module} is in no layer: add it to LAYER_OF")


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_every_layer_imports_only_layers_below_it() -> None:
    bad = set()
    for module, targets in import_graph().items():
        for target in targets:
            a, b = layer(module), layer(target)
            if a != b and b not in MAY_IMPORT[a]:
                bad.add((module, target))
    assert sorted(bad - KNOWN) == [], "imports across layers the table forbids"
    assert sorted(KNOWN - bad) == [], "fixed: take these off KNOWN"


def test_no_import_circle() -> None:
    assert circles(import_graph()) == []


def test_few_modules_at_the_top() -> None:
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, top


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_long_module(module: str) -> None:
    lines = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    if module in LONG_MODULES:
        return
    assert lines <= MAX_LINES, f"{module} has {lines} lines: split it along its seams"


def test_the_layer_tables_agree() -> None:
    assert set(LAYER_OF.values()) == set(MAY_IMPORT)
    for module in MODULES:
        layer(module)  # every module has one
    for name in LONG_MODULES:
        assert name in MODULES, f"{name} is gone: take it off LONG_MODULES"


def test_the_kernel_loads_nothing_above_it() -> None:
    """The kernel alone (its package, ``access``, ``loader``, the core) loads no module of
    a layer above it, lazy ones by ``import_module`` included (the table above reads only
    ``import`` statements): nor does it name the engine's API."""
    import subprocess
    import sys

    code = (
        "import sys, shengji.kernel, shengji.kernel.access, shengji.kernel.loader\n"
        "shengji.kernel.access.core()\n"
        "names = [n for n in ('Kernel', 'from_table', 'play_out') if hasattr(shengji.kernel, n)]\n"
        "print(sorted(m for m in sys.modules if m.startswith('shengji.') and not "
        "m.startswith(('shengji.kernel', 'shengji.errors'))), names)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[] []"
