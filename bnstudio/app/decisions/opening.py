"""Showing an opened influence diagram in a document.

Every diagram file (NET, XDSL, XMLBIF, JSON, a project) is read where every other file is
(:meth:`~bnstudio.gui.file_controller.FileController.open_path` through :func:`bnstudio.app.file_io.read_file`);
:func:`show_diagram` is its last step for a diagram. A file's positions are kept; the nodes it places nowhere
(every node of a file without positions) get a layered layout of the whole diagram (informational and utility
arcs included), and utility nodes, which the readers do not place, go under their parents in the file's
coordinates. Another tool's drawing is then stretched until no two nodes overlap
(:func:`~bnstudio.display.placement.spread`). Utility nodes keep their positions in the document's
decision part.
Saving goes through :meth:`~bnstudio.app.document.Document.save` for every format, as opening does.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

import numpy as np

from bnstudio.app.commands.decisions import DecisionPart
from bnstudio.app.placing import bar_sizes
from bnstudio.decision import InfluenceDiagram
from bnstudio.display import look
from bnstudio.display.layout import layered_layout
from bnstudio.display.placement import spread


class Opened(Protocol):
    """Where a diagram is shown: :class:`bnstudio.app.document.Document` or its Qt adapter."""

    def replace_network(self, net: Any, path: str | Path | None = None, project: Any = None,
                        evidence: dict[str, Any] | None = None, decisions: DecisionPart | None = None) -> None: ...


def node_sizes(diagram: InfluenceDiagram) -> dict[str, tuple[float, float]]:
    """(width, height) of every node of the diagram as the canvas draws it (bar-chart nodes, utility diamonds)."""
    sizes = bar_sizes(diagram.network)
    sizes.update({u: (look.UTILITY_WIDTH, look.UTILITY_HEIGHT) for u in diagram.utility_names})
    return sizes


def diagram_layout(diagram: InfluenceDiagram) -> dict[str, tuple[float, float]]:
    """Layered centre positions of every node of the diagram (parents above children)."""
    nodes = list(diagram.network.variables) + list(diagram.utility_names)
    return layered_layout(nodes, diagram.graph().edges, node_sizes(diagram))


def show_diagram(document: Opened, diagram: InfluenceDiagram, path: str | Path | None = None,
                 project: Any = None, evidence: dict[str, Any] | None = None) -> None:
    """Make ``diagram`` the document's network and decision part (a fresh undo history, nothing unsaved), with
    the ``project`` and ``evidence`` it was read with (a .bnsproj)."""
    net = diagram.network
    placed = {v: net.positions[v] for v in net.variables if v in net.positions}
    positions = diagram_layout(diagram) if not placed else _under_parents(diagram, placed)
    positions.update(placed)
    if project is None:   # a project's own layout is kept as saved
        _spread(diagram, positions)
    net.positions.update({v: positions[v] for v in net.variables})
    part = DecisionPart.of(diagram, {u: positions[u] for u in diagram.utility_names})
    document.replace_network(net, path, project, evidence, decisions=part)


UTILITY_DROP = 120.0  # a utility node drawn this far below its lowest parent (file coordinates)


def _under_parents(diagram: InfluenceDiagram, placed: dict[str, tuple[float, float]]
                   ) -> dict[str, tuple[float, float]]:
    """Positions for what the file left unplaced: the layered layout's for chance and decision nodes (shifted
    below the file's drawing), and each utility node under the mean of its placed parents."""
    layout = diagram_layout(diagram)
    bottom = max(y for _, y in placed.values())
    out = {v: (x, y + bottom + UTILITY_DROP) for v, (x, y) in layout.items() if v not in diagram.utility_names}
    for u in diagram.utility_names:
        parents = [at for p in diagram.parents(u) if (at := placed.get(p, out.get(p))) is not None]
        if parents:
            out[u] = (float(np.mean([x for x, _ in parents])), max(y for _, y in parents) + UTILITY_DROP)
        else:
            out[u] = (layout[u][0], layout[u][1] + bottom + UTILITY_DROP)
    return out


def _spread(diagram: InfluenceDiagram, positions: dict[str, tuple[float, float]]) -> None:
    """Stretch ``positions`` (in place) until no two of the diagram's nodes overlap."""
    names = list(positions)
    sizes = node_sizes(diagram)
    moved = spread(np.array([positions[v] for v in names], dtype=float),
                   np.array([sizes[v] for v in names], dtype=float))
    for v, (x, y) in zip(names, moved, strict=True):
        positions[v] = (float(x), float(y))
