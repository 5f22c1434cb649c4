"""The application model lives in bnstudio/app, free of Qt; bnstudio/gui keeps the Qt adapters
(docs/architecture.md §7).

A module of bnstudio/gui "uses Qt" when it names PySide6 (QtCore, QtWidgets, QtGui) or pyqtgraph, or imports a
bnstudio.gui module that uses Qt (so it cannot run without Qt either: the canvas's node sizes come from Qt's
font metrics). Every other module of bnstudio/gui is glue of at most MAX_QT_FREE_LINES lines: anything longer
belongs in bnstudio/app. And bnstudio.app imports, module by module, with Qt, pyqtgraph and matplotlib blocked.
"""
from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "bnstudio"
MAX_QT_FREE_LINES = 30
QT_NAMES = re.compile(r"PySide6|QtCore|QtWidgets|QtGui|pyqtgraph")
BLOCKED = ("PySide6", "pyqtgraph", "matplotlib", "shiboken6")


def _module_name(package: Path, path: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _gui_imports(path: Path, known: set[str]) -> set[str]:
    """The bnstudio.gui modules ``path`` imports (``from bnstudio.gui.x import y`` counts y when it is a module)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        found.update(n for n in names if n in known)
    return found


def qt_free_modules(package: Path = PACKAGE) -> dict[Path, int]:
    """The modules of ``package``/gui that do not use Qt (see the module docstring), with their line counts."""
    paths = {_module_name(package, p): p for p in sorted((package / "gui").rglob("*.py"))}
    uses_qt = {name for name, p in paths.items() if QT_NAMES.search(p.read_text(encoding="utf-8"))}
    imports = {name: _gui_imports(p, set(paths)) for name, p in paths.items()}
    grown = True
    while grown:
        more = {name for name, targets in imports.items() if name not in uses_qt and targets & uses_qt}
        uses_qt |= more
        grown = bool(more)
    return {p: len(p.read_text(encoding="utf-8").splitlines()) for name, p in paths.items() if name not in uses_qt}


def test_no_qt_free_module_of_the_gui_is_longer_than_glue():
    long = {p.relative_to(PACKAGE).as_posix(): n for p, n in qt_free_modules().items() if n > MAX_QT_FREE_LINES}
    assert not long, f"Qt-free modules in bnstudio/gui over {MAX_QT_FREE_LINES} lines (move them to bnstudio/app): {long}"


def test_the_size_rule_can_fail(tmp_path):
    gui = tmp_path / "bnstudio" / "gui"
    (gui / "panel").mkdir(parents=True)
    (gui / "__init__.py").write_text("")
    (gui / "widget.py").write_text("from PySide6.QtWidgets import QWidget\n" + "x = 1\n" * 40)
    (gui / "panel" / "__init__.py").write_text("")
    (gui / "panel" / "view.py").write_text("from bnstudio.gui.widget import QWidget\n" + "x = 1\n" * 40)
    (gui / "panel" / "model.py").write_text("import numpy\n" + "x = 1\n" * 40)
    (gui / "glue.py").write_text("import numpy\n" + "x = 1\n" * 5)
    found = {p.relative_to(gui).as_posix(): n for p, n in qt_free_modules(tmp_path / "bnstudio").items()}
    assert found == {"__init__.py": 0, "panel/__init__.py": 0, "panel/model.py": 41, "glue.py": 6}


def test_every_app_module_imports_with_qt_and_plotting_blocked():
    modules = sorted(_module_name(PACKAGE, p) for p in (PACKAGE / "app").rglob("*.py"))
    script = textwrap.dedent(f"""
        import importlib, sys

        class Blocker:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {BLOCKED!r}:
                    raise ImportError(f"blocked: {{name}}")
                return None

        sys.meta_path.insert(0, Blocker())
        for name in {modules!r}:
            importlib.import_module(name)
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in {BLOCKED!r} or m.startswith("bnstudio.gui"))
        assert not loaded, loaded
        print(len({modules!r}))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) == len(modules) > 30
