"""Showing an opened influence diagram in a document.

Every diagram file (NET, XDSL, XMLBIF, JSON, a project) is read where every other file is
(:meth:`~bnstudio.gui.file_controller.FileController.open_path` through :func:`bnstudio.gui.file_io.read_file`);
:func:`show_diagram` is its last step for a diagram. Nodes get a layered layout of the whole diagram
(informational and utility arcs included); utility nodes keep their positions in the document's decision part.
Saving goes through :meth:`~bnstudio.gui.document.Document.save` for every format, as opening does.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bnstudio.decision import InfluenceDiagram
from bnstudio.gui.canvas import style as st
from bnstudio.gui.commands.decisions import DecisionPart
from bnstudio.gui.document import Document
from bnstudio.gui.layout import layered_layout


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
