"""Glue between the Qt-free layered layout and the canvas: node sizes per view style, placing the nodes of
a file that carries no positions, and the undoable "Automatic layout" command."""
from __future__ import annotations

from bnstudio.core.network import Network
from bnstudio.gui import commands as cmd
from bnstudio.gui.canvas import style as st
from bnstudio.gui.layout import layered_layout

GRID_GAP = 40.0


def sizes_for(net: Network, node_style: str = st.BARS) -> dict[str, tuple[float, float]]:
    return {v: st.node_size(v, net.cardinality(v), node_style) for v in net.variables}


def layout_positions(net: Network, node_style: str = st.BARS) -> dict[str, tuple[float, float]]:
    """Layered positions (node centres) for every variable."""
    return layered_layout(net.variables, net.arcs(), sizes_for(net, node_style))


def fill_missing_positions(net: Network, node_style: str = st.BARS) -> list[str]:
    """Give positions to the variables that have none (all of them: a full layout; some: a row below the
    others). Positions a file carries are kept. Returns the names placed."""
    missing = [v for v in net.variables if v not in net.positions]
    if not missing:
        return []
    if len(missing) == len(net):
        net.positions.update(layout_positions(net, node_style))
        return missing
    sizes = sizes_for(net, node_style)
    bottom = max(y + sizes[v][1] / 2 for v, (x, y) in net.positions.items() if v in sizes)
    left = min(x - sizes[v][0] / 2 for v, (x, y) in net.positions.items() if v in sizes)
    for v in missing:
        w, h = sizes[v]
        net.positions[v] = (left + w / 2, bottom + GRID_GAP + h / 2)
        left += w + GRID_GAP
    return missing


def auto_layout_command(document, node_style: str = st.BARS) -> cmd.MoveNodes:
    net = document.network
    new = layout_positions(net, node_style)
    old = {v: net.positions.get(v, new[v]) for v in new}
    return cmd.MoveNodes(document, old, new, "Automatic layout")
