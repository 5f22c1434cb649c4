"""The layer map (docs/architecture.md §1) as a test over the ast import graph of bnstudio/.

Order, lowest first; a module imports only its own layer and those below (function-level imports count):

    core -> inference -> learn, uncertainty, decision -> data, io, project, interop, sampling
    -> experiment, evaluate -> display -> the package facade (bnstudio/__init__.py) -> front ends

Within a layer the units are ordered too (a unit imports only those listed before it), so the top-level units
cannot import each other in a circle. Besides the order: a file reader runs no inference, there is one chunking
policy (bnstudio.inference.batching; bnstudio.learn.batches serves the learners), and front-end code lives in a
front-end package. What the code does today against these rules is listed in EXEMPT, each entry
named with its reason, so that it can be removed when the code is fixed: an exemption that no longer matches
anything fails the test.
"""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path


PACKAGE = Path(__file__).resolve().parents[1] / "bnstudio"
LAYERS = (
    ("errors", "jobs", "core"),
    ("inference",),
    ("learn", "uncertainty", "decision"),
    ("io", "project", "data", "interop", "sampling"),
    ("evaluate", "experiment"),
    ("display",),
    ("__init__",),
    ("window_docks", "figures", "gui", "cli", "__main__"),
)
FRONT_END_PACKAGES = ("cli", "figures", "gui")
#: (importing file, imported unit) -> why it is allowed for now
EXEMPT = {
    # notebooks: _repr_html_ draws with bnstudio.display, imported inside the method
    ("core/network.py", "display"): "Network._repr_html_ (notebooks) draws with display, lazily",
    ("learn/params/base.py", "display"): "FitResult._repr_html_ (notebooks) draws with display, lazily",
    ("uncertainty/errorbars.py", "display"): "ErrorBars._repr_html_ (notebooks) draws with display, lazily",
    # a reader that runs inference
    ("io/zero_rows.py", "inference"): "zero-row repair computes p(parents) with the engine inside a reader",
    # two chunking policies: learn.batches beside inference.batching
    ("uncertainty/delta.py", "learn.batches"): "chunking policy of learn used by uncertainty",
    ("uncertainty/montecarlo.py", "learn.batches"): "chunking policy of learn used by uncertainty",
    ("uncertainty/sensitivity.py", "learn.batches"): "chunking policy of learn used by uncertainty",
    ("evaluate/metrics.py", "learn.batches"): "chunking policy of learn used by evaluate",
    ("evaluate/blanket.py", "learn.batches"): "chunking policy of learn used by evaluate",
    # learners accept tables (DataFrame, Dataset, file): data codes them, imported only when given one
    ("learn/params/suffstats.py", "data"): "learners code a table with data.tables (lazily); belongs above learn",
    ("learn/structure/api.py", "data"): "structure learners code a table with data.tables (lazily)",
    # a GUI module at the package root: importing anything under bnstudio.gui loads Qt
    ("window_docks.py", "front end at the root"): "the dock layout is read without Qt by cli/screenshot",
}


def unit_of(rel: Path) -> str:
    return rel.parts[0].removesuffix(".py")


def import_edges(package: Path = PACKAGE) -> dict[tuple[str, str], set[str]]:
    """(importing file relative to the package, imported bnstudio module) pairs, every import form."""
    edges: dict[tuple[str, str], set[str]] = defaultdict(set)
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules = [node.module]
            else:
                continue
            for module in modules:
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
    for (file, target), modules in import_edges(package).items():
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
        if (source, target) == ("io", "inference"):
            found.append((file, target, "a reader runs inference"))
        if source != "learn" and any(m.startswith("bnstudio.learn.batches") for m in modules):
            found.append((file, "learn.batches", "second chunking policy"))
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
                         ("io", "from bnstudio.inference import InferenceEngine\nimport bnstudio.project.store\n"),
                         ("uncertainty", "from bnstudio.learn.batches import spans\n"),
                         ("data", "import bnstudio.experiment\n"),
                         ("experiment", "from bnstudio.data import x\n"),
                         ("extras", "from bnstudio.core import x\n")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "a.py").write_text(text)
    (tmp_path / "window_docks.py").write_text("x = 1\n")
    found = {(file, what, rule) for file, what, rule in violations(tmp_path)}
    assert found == {("core/a.py", "learn", "imports a higher layer"),
                     ("io/a.py", "inference", "a reader runs inference"),
                     ("io/a.py", "project", "imports a unit listed after it in its layer (a cycle)"),
                     ("uncertainty/a.py", "learn.batches", "second chunking policy"),
                     ("data/a.py", "experiment", "imports a higher layer"),
                     ("extras/a.py", "extras", "unit without a layer"),
                     ("window_docks.py", "front end at the root", "front-end code outside a front-end package")}
