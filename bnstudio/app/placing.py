"""Placing nodes without a window: the sizes of bar-chart nodes (the canvas's default view, whose size needs no
font metrics: :func:`bnstudio.display.look.bar_node_size`) and the positions of variables that have none
(docs/architecture.md §7)."""
from __future__ import annotations

from bnstudio.core.network import Network
from bnstudio.display import look
from bnstudio.display.placement import place_missing


def bar_sizes(net: Network) -> dict[str, tuple[float, float]]:
    """(width, height) of every variable's bar-chart node."""
    return {v: look.bar_node_size(net.cardinality(v)) for v in net.variables}


def place_bar_nodes(net: Network) -> list[str]:
    """Give positions to the variables of ``net`` that have none, sized as bar-chart nodes
    (:func:`bnstudio.display.placement.place_missing`). Returns the names placed."""
    return place_missing(net, bar_sizes(net))
