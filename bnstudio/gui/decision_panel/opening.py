"""Opening an influence-diagram JSON file into a document, writing it back, and the bundled example.

The file is read by the CLI's reader (``bnstudio decide`` reads the same files: one line naming the file for
every problem). Nodes get a layered layout of the whole diagram (informational and utility arcs included);
utility nodes keep their positions in the document's decision part.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bnstudio.cli.decide import load_diagram
from bnstudio.decision import InfluenceDiagram
from bnstudio.errors import ValidationError
from bnstudio.gui.canvas import style as st
from bnstudio.gui.commands.decisions import DecisionPart
from bnstudio.gui.document import Document
from bnstudio.gui.layout import layered_layout
from bnstudio.gui.resources import resource_root
from bnstudio.io import write_influence_diagram

EXTENSION = ".json"


def oil_wildcatter_path() -> Path:
    """The bundled example (Raiffa 1968; MEU 22.5, test first)."""
    return resource_root() / "decision" / "oil_wildcatter.json"


def example_diagrams() -> list[Path]:
    """The bundled influence diagrams, for the Examples menu."""
    return sorted((resource_root() / "decision").glob("*.json"))


def is_bundled_diagram(path: str | Path) -> bool:
    """Whether ``path`` is a bundled influence diagram (opened as an untitled copy)."""
    try:
        return Path(path).resolve().parent == (resource_root() / "decision").resolve()
    except OSError:
        return False


def diagram_layout(diagram: InfluenceDiagram) -> dict[str, tuple[float, float]]:
    """Layered centre positions of every node of the diagram (parents above children)."""
    net = diagram.network
    sizes = {v: st.node_size(v, net.cardinality(v), st.BARS) for v in net.variables}
    sizes.update({u: (st.UTILITY_WIDTH, st.UTILITY_HEIGHT) for u in diagram.utility_names})
    graph = diagram.graph()
    return layered_layout(list(net.variables) + list(diagram.utility_names), graph.edges, sizes)


def show_diagram(document: Document, diagram: InfluenceDiagram, path: str | Path | None = None,
                 untitled_name: str = "", project: Any = None, evidence: dict[str, Any] | None = None) -> None:
    """Make ``diagram`` the document's network and decision part (a fresh undo history, nothing unsaved), with
    the ``project`` and ``evidence`` it was read with (a .bnsproj)."""
    net = diagram.network
    positions = diagram_layout(diagram)
    net.positions.update({v: positions[v] for v in net.variables if v not in net.positions})
    part = DecisionPart.of(diagram, {u: positions[u] for u in diagram.utility_names})
    document.replace_network(net, path, project, evidence, decisions=part)
    if untitled_name:
        document.untitled_name = untitled_name
        document.path_changed.emit()


def open_influence_diagram(document: Document, path: str | Path, example: bool = False) -> InfluenceDiagram:
    """Read ``path`` (a ``bnstudio-influence-diagram`` JSON file) into ``document``; a FormatError names the
    file and changes nothing. A bundled example opens untitled, so Save never overwrites it."""
    path = Path(path)
    diagram = load_diagram(str(path))
    if example:
        show_diagram(document, diagram, None, f"{diagram.name} (example)")
    else:
        show_diagram(document, diagram, path)
    return diagram


def save_influence_diagram(document: Document, path: str | Path) -> None:
    """Write the document's influence diagram as JSON (atomically) and mark it saved; a diagram that does not
    validate is a ValidationError and writes nothing."""
    if document.decisions is None:
        raise ValidationError("the document has no decisions or utility nodes: save it as a network")
    write_influence_diagram(document.decisions.diagram(document.network), path)
    document.path = Path(path)
    document.mark_saved()
    document.path_changed.emit()
