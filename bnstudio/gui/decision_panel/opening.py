"""Showing an influence diagram in a document, and writing it back as JSON.

Every diagram file (NET, XDSL, XMLBIF, JSON, a project) is read where every other file is
(:meth:`~bnstudio.gui.file_controller.FileController.open_path` through :func:`bnstudio.gui.file_io.read_file`);
:func:`show_diagram` is its last step for a diagram. Nodes get a layered layout of the whole diagram
(informational and utility arcs included); utility nodes keep their positions in the document's decision part.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bnstudio.decision import InfluenceDiagram
from bnstudio.errors import ValidationError
from bnstudio.gui.canvas import style as st
from bnstudio.gui.commands.decisions import DecisionPart
from bnstudio.gui.document import Document
from bnstudio.gui.layout import layered_layout
from bnstudio.io import write_influence_diagram


def diagram_layout(diagram: InfluenceDiagram) -> dict[str, tuple[float, float]]:
    """Layered centre positions of every node of the diagram (parents above children)."""
    net = diagram.network
    sizes = {v: st.node_size(v, net.cardinality(v), st.BARS) for v in net.variables}
    sizes.update({u: (st.UTILITY_WIDTH, st.UTILITY_HEIGHT) for u in diagram.utility_names})
    graph = diagram.graph()
    return layered_layout(list(net.variables) + list(diagram.utility_names), graph.edges, sizes)


def show_diagram(document: Document, diagram: InfluenceDiagram, path: str | Path | None = None,
                 project: Any = None, evidence: dict[str, Any] | None = None) -> None:
    """Make ``diagram`` the document's network and decision part (a fresh undo history, nothing unsaved), with
    the ``project`` and ``evidence`` it was read with (a .bnsproj)."""
    net = diagram.network
    positions = diagram_layout(diagram)
    net.positions.update({v: positions[v] for v in net.variables if v not in net.positions})
    part = DecisionPart.of(diagram, {u: positions[u] for u in diagram.utility_names})
    document.replace_network(net, path, project, evidence, decisions=part)


def save_influence_diagram(document: Document, path: str | Path) -> None:
    """Write the document's influence diagram as JSON (atomically) and mark it saved; a diagram that does not
    validate is a ValidationError and writes nothing."""
    if document.decisions is None:
        raise ValidationError("the document has no decisions or utility nodes: save it as a network")
    write_influence_diagram(document.decisions.diagram(document.network), path)
    document.path = Path(path)
    document.mark_saved()
    document.path_changed.emit()
