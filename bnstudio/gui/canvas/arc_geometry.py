"""Every arc of the canvas placed in one pass: the node boxes gathered into arrays, the border points and the
hub routes computed with numpy (:mod:`bnstudio.display.routes`), then one ``set_points`` per arc. The scene
calls it after any change that moves or resizes many nodes (open, layout, zoom switching the node style), with
node items holding back their own per-arc updates meanwhile (:class:`~bnstudio.gui.canvas.arc_item.Deferral`).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import numpy as np
from PySide6.QtCore import QPointF, QRectF

from bnstudio.display.routes import border_points, detour_routes, hub_routes
from bnstudio.gui.canvas.arc_item import ArcItem, Deferral
from bnstudio.gui.canvas.node_item import NodeItem


@contextmanager
def deferred() -> Iterator[None]:
    """Hold back per-arc updates of node items (and new arcs' first geometry) inside the block."""
    Deferral.depth += 1
    try:
        yield
    finally:
        Deferral.depth -= 1


def node_boxes(nodes: dict[str, NodeItem]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Names, centres (n, 2) and sizes (n, 2) of the node items, in scene units."""
    boxes = np.array([(item.x(), item.y(), item.box_width, item.box_height) for item in nodes.values()],
                     dtype=float).reshape(-1, 4)
    return list(nodes), boxes[:, :2], boxes[:, 2:]


def nodes_rect(nodes: dict[str, NodeItem], extra: list | tuple = ()) -> QRectF:
    """The bounding rectangle of the node boxes and of the ``extra`` items (empty when there are none); the
    arcs lie within it (they join node borders; routes run at most a channel outside a hub's block)."""
    _, centres, sizes = node_boxes(nodes)
    rect = QRectF()
    if len(centres):
        low, high = (centres - sizes / 2).min(axis=0), (centres + sizes / 2).max(axis=0)
        rect = QRectF(QPointF(*low), QPointF(*high))
    for item in extra:
        rect = rect.united(item.sceneBoundingRect())
    return rect


def place_arcs(nodes: dict[str, NodeItem], arcs: dict[tuple[str, str], ArcItem]) -> None:
    """Set the geometry of every arc: hub arcs that would cross nodes along their routes, other arcs that would
    enter a node around it (one bend), the others straight from border to border; arcs to or from other items (utility nodes) and overlay items one by one."""
    index = {name: k for k, name in enumerate(nodes)}
    boxed = [(key, arc) for key, arc in arcs.items()
             if isinstance(arc.source, NodeItem) and isinstance(arc.target, NodeItem) and key[0] in index
             and key[1] in index]
    done = {id(arc) for _, arc in boxed}
    for arc in arcs.values():
        if id(arc) not in done:
            arc.adjust()
    for item in nodes.values():
        for arc in item.arcs:
            if not isinstance(arc, ArcItem):
                arc.adjust()   # e.g. a proposed structure's overlay arcs
    if not boxed:
        return
    names, centres, sizes = node_boxes(nodes)
    routes = hub_routes(names, centres, sizes, [key for key, _ in boxed])
    routes.update(detour_routes(names, centres, sizes, [key for key, _ in boxed if key not in routes]))
    parent = np.array([index[key[0]] for key, _ in boxed])
    child = np.array([index[key[1]] for key, _ in boxed])
    first = np.array([routes[key][0] if key in routes else centres[index[key[1]]] for key, _ in boxed], dtype=float)
    last = np.array([routes[key][-1] if key in routes else centres[index[key[0]]] for key, _ in boxed], dtype=float)
    starts = border_points(centres[parent], sizes[parent] / 2, first)
    ends = border_points(centres[child], sizes[child] / 2, last)
    for k, (key, arc) in enumerate(boxed):
        bends = [QPointF(x, y) for x, y in routes.get(key, ())]
        arc.set_points([QPointF(*starts[k]), *bends, QPointF(*ends[k])])
