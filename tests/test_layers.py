"""The layer map (docs/architecture.md §1) as a test over the ast import graph of bnstudio/.

Order, lowest first; a module imports only its own layer and those below (function-level imports and
``from bnstudio import x`` count; the facade's ``__version__`` is no dependency):

    core (errors, defaults, lazy_names, resources, jobs, hooks) -> inference -> learn, uncertainty, decision -> data, io, interop, sampling, temporal, sklearn
    -> experiment, evaluate -> display -> the package facade (bnstudio/__init__.py) -> front ends

The front ends are ordered too: figures, then the Qt-free application model (app: the document, its undo
history, the panels' models), then the desktop app (gui, which may import app; app never imports gui), then the
command line.

Within a layer the units are ordered too (a unit imports only those listed before it), so the top-level units
cannot import each other in a circle. Where a lower layer needs a higher one (a network drawn in a notebook, a
DataFrame given to a learner) it calls a hook of bnstudio.hooks, which the facade connects. Besides the order: a
file reader runs no inference (a reader is any io module but the open path's judge, JUDGE: readers report the
rows of zeros they made uniform and bnstudio.io.open_file has the judge say whether they change anything), and
front-end code lives in a front-end package. What the code
does today against these rules is listed in EXEMPT, each entry named with its reason, so that it can be removed
when the code is fixed: an exemption that no longer matches anything fails the test.
"""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "bnstudio"
LAYERS = (
    ("errors", "defaults", "lazy_names", "resources", "jobs", "hooks", "core"),
    ("inference",),
    ("learn", "uncertainty", "decision"),
    ("io", "data", "interop", "sampling", "temporal", "sklearn"),
    ("evaluate", "experiment"),
    ("display",),
    ("__init__",),
    ("figures", "app", "gui", "cli", "__main__"),
)
FRONT_END_PACKAGES = ("cli", "figures", "app", "gui")
#: The one io module that runs inference: the open path's judge of the rows of zeros readers report.
JUDGE = "io/judging.py"
#: (importing file, imported unit) -> why it is allowed for now
EXEMPT: dict[tuple[str, str], str] = {}


def unit_of(rel: Path) -> str:
    return rel.parts[0].removesuffix(".py")


def imported_modules(node: ast.AST, package: Path) -> list[str]:
    """The bnstudio modules an import statement loads: ``from bnstudio import hooks`` is bnstudio.hooks, a name
    of the facade (``from bnstudio import Network``, ``import bnstudio``) is the facade, bnstudio.__init__;
    the facade's metadata (``__version__``) is no dependency."""
    if isinstance(node, ast.Import):
        return [alias.name if alias.name != "bnstudio" else "bnstudio.__init__" for alias in node.names]
    if not isinstance(node, ast.ImportFrom) or not node.module or node.level != 0:
        return []
    if node.module != "bnstudio":
        return [node.module]
    submodule = {a.name for a in node.names if (package / a.name).is_dir() or (package / f"{a.name}.py").is_file()}
    facade = ["bnstudio.__init__"] if any(a.name not in submodule and not a.name.startswith("__")
                                          for a in node.names) else []
    return [f"bnstudio.{name}" for name in sorted(submodule)] + facade


def import_edges(package: Path = PACKAGE) -> dict[tuple[str, str], set[str]]:
    """(importing file relative to the package, imported bnstudio module) pairs, every import form."""
    edges: dict[tuple[str, str], set[str]] = defaultdict(set)
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            for module in imported_modules(node, package):
                parts = module.split(".")
                if parts[0] == "bnstudio" and len(parts) > 1:
                    edges[(rel.as_posix(), parts[1])].add(module)
    return edges


def layer_of(unit: str) -> int | None:
    return next((k for k, units in enumerate(LAYERS) if unit in units), None)


def position(unit: str) -> tuple[int, int]:
    layer = layer_of(unit)
    assert layer is not None
    return layer, LAYERS[layer].index(unit)


def violations(package: Path = PACKAGE) -> list[tuple[str, str, str]]:
    """(file, what, rule) for every import against the rules, exempt or not."""
    found = []
    for file, target in import_edges(package):
        source = unit_of(Path(file))
        for unit in (source, target):
            if layer_of(unit) is None:
                found.append((file, unit, "unit without a layer"))
        if source == target or layer_of(source) is None or layer_of(target) is None:
            continue
        if position(target)[0] > position(source)[0]:
            found.append((file, target, "imports a higher layer"))
        elif position(target) > position(source):
            found.append((file, target, "imports a unit listed after it in its layer (a cycle)"))
        if (source, target) == ("io", "inference") and file != JUDGE:
            found.append((file, target, "a reader runs inference"))
    for path in package.glob("*.py"):
        if path.stem in LAYERS[-1] and path.name != "__main__.py":
            found.append((path.name, "front end at the root", "front-end code outside a front-end package"))
    return sorted(set(found))


def test_every_import_follows_the_layers_or_is_a_named_exemption():
    found = violations()
    offenders = [f"{file} -> {what}: {rule}" for file, what, rule in found if (file, what) not in EXEMPT]
    assert not offenders, "layer rules broken (docs/architecture.md §1):\n" + "\n".join(offenders)


def test_every_exemption_is_still_needed():
    used = {(file, what) for file, what, _ in violations()}
    stale = sorted(set(EXEMPT) - used)
    assert not stale, f"exemptions that no longer apply (remove them): {stale}"


def test_every_top_level_unit_has_a_layer():
    units = {unit_of(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")}
    assert not [u for u in sorted(units) if layer_of(u) is None]


def test_the_layer_check_can_fail(tmp_path):
    """Each rule catches a planted file."""
    for folder, text in (("core", "def f():\n    from bnstudio.learn.params import make_learner\n"),
                         ("io", "from bnstudio.inference import InferenceEngine\nimport bnstudio.data.tables\n"),
                         ("data", "import bnstudio.experiment\n"),
                         ("experiment", "from bnstudio.data import x\n"),
                         ("extras", "from bnstudio.core import x\n"),
                         ("decision", "from bnstudio import __version__, display\n"),
                         ("inference", "from bnstudio import Network\nimport bnstudio\n"),
                         ("display", "from bnstudio import hooks, __version__\n"),
                         ("app", "from bnstudio.gui.document import Document\n")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "a.py").write_text(text)
    (tmp_path / "io" / "judging.py").write_text("from bnstudio.inference import InferenceEngine\n")  # the judge
    (tmp_path / "gui.py").write_text("x = 1\n")
    (tmp_path / "hooks.py").write_text("x = 1\n")
    found = {(file, what, rule) for file, what, rule in violations(tmp_path)}
    assert found == {("core/a.py", "learn", "imports a higher layer"),
                     ("io/a.py", "inference", "a reader runs inference"),
                     ("io/a.py", "data", "imports a unit listed after it in its layer (a cycle)"),
                     ("data/a.py", "experiment", "imports a higher layer"),
                     ("extras/a.py", "extras", "unit without a layer"),
                     ("decision/a.py", "display", "imports a higher layer"),
                     ("inference/a.py", "__init__", "imports a higher layer"),
                     ("app/a.py", "gui", "imports a unit listed after it in its layer (a cycle)"),
                     ("gui.py", "front end at the root", "front-end code outside a front-end package")}
