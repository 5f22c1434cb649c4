"""The peers (pgmpy, pyAgrum) and the notebook packages are optional: no module of bnstudio imports them at
module level, only inside the functions that need them (docs/architecture.md §1: interop/, display/)."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "bnstudio"
OPTIONAL = {"pgmpy", "pyagrum", "pyAgrum", "nbformat", "nbclient", "ipykernel", "IPython", "graphviz"}


def module_level_imports(path: Path) -> set[str]:
    """Roots imported outside any function or class body (module level, including under if/try)."""
    roots: set[str] = set()
    todo = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(node, ast.Import):
            roots.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
        todo.extend(ast.iter_child_nodes(node))
    return roots


def test_optional_packages_are_imported_inside_functions_only():
    offenders = [f"{p.relative_to(PACKAGE)}: {sorted(module_level_imports(p) & OPTIONAL)}"
                 for p in sorted(PACKAGE.rglob("*.py")) if module_level_imports(p) & OPTIONAL]
    assert not offenders, "optional packages imported at module level: " + "; ".join(offenders)


def test_the_scan_can_fail(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("try:\n    import pyagrum\nexcept ImportError:\n    pass\n"
                   "def f():\n    import pgmpy\n")
    assert module_level_imports(bad) == {"pyagrum"}
