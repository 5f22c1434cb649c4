"""Glue between the Qt-free layered layout and the canvas: node sizes per view style, placing the nodes of
a file that carries no positions, spreading a file's positions drawn for smaller nodes, and the undoable
"Automatic layout" command."""
from __future__ import annotations

from bnstudio.app import commands as cmd
from bnstudio.app.commands.base import EditedDocument
from bnstudio.core.network import Network
from bnstudio.display.layout import layered_layout
from bnstudio.display.placement import place_missing, spread_positions
from bnstudio.gui.canvas import style as st


def sizes_for(net: Network, node_style: str = st.BARS) -> dict[str, tuple[float, float]]:
    return {v: st.node_size(v, net.cardinality(v), node_style) for v in net.variables}


def layout_positions(net: Network, node_style: str = st.BARS) -> dict[str, tuple[float, float]]:
    """Layered positions (node centres) for every variable."""
    return layered_layout(net.variables, net.arcs(), sizes_for(net, node_style))


def fill_missing_positions(net: Network, node_style: str = st.BARS) -> list[str]:
    """Give positions to the variables that have none (:func:`bnstudio.display.placement.place_missing` with
    this style's node sizes). Returns the names placed."""
    return place_missing(net, sizes_for(net, node_style))


def spread_overlapping(net: Network, node_style: str = st.BARS) -> bool:
    """Stretch a file's positions until no two nodes of ``node_style`` overlap
    (:func:`bnstudio.display.placement.spread_positions`). Returns whether anything moved."""
    return spread_positions(net, sizes_for(net, node_style))


def auto_layout_command(document: EditedDocument, node_style: str = st.BARS) -> cmd.MoveNodes:
    net = document.network
    new = layout_positions(net, node_style)
    old = {v: net.positions.get(v, new[v]) for v in new}
    return cmd.MoveNodes(document, old, new, "Automatic layout")
