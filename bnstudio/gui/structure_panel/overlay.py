"""A proposed structure drawn over the canvas as a diff: added arcs (green), removed arcs (red, dashed) and
reversed arcs (orange, in their new direction). The overlay items live in the canvas's scene until the
proposal is accepted or discarded; the scene's own arcs that would go away are hidden meanwhile.

The items follow node moves (they register with the node items as the scene's arcs do). The scene may delete
every item when another network is opened, so nothing here is touched once Qt has deleted it.
"""
from __future__ import annotations

import math
from typing import Iterable

import shiboken6
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from bnstudio.gui.canvas.arc_item import ARROW, ArcItem, border_point
from bnstudio.gui.canvas.scene import NetworkScene

Arc = tuple[str, str]
ADDED, REMOVED, REVERSED = "added", "removed", "reversed"
COLOURS = {ADDED: QColor("#1E9E4A"), REMOVED: QColor("#D23A2A"), REVERSED: QColor("#E8890C")}
OVERLAY_Z = 0.5  # above the scene's arcs (0), below the nodes (1)


def structure_diff(current: Iterable[Arc], learned: Iterable[Arc]) -> dict[str, list[Arc]]:
    """Arcs to add, to remove, and to reverse (given in the learned direction), each sorted.

    >>> structure_diff([("A", "B"), ("B", "C")], [("B", "A"), ("A", "C")])
    {'added': [('A', 'C')], 'removed': [('B', 'C')], 'reversed': [('B', 'A')]}
    """
    cur, new = {(a, b) for a, b in current}, {(a, b) for a, b in learned}
    return {ADDED: sorted(a for a in new - cur if (a[1], a[0]) not in cur),
            REMOVED: sorted(a for a in cur - new if (a[1], a[0]) not in new),
            REVERSED: sorted(a for a in new - cur if (a[1], a[0]) in cur)}


class DiffArcItem(QGraphicsItem):
    """An arc of the diff, coloured by ``kind`` (dashed when removed). Deliberately not an ``ArcItem``, so the
    canvas's selection, menus and deletion never mistake it for an arc of the network. It registers with the
    node items (``node.arcs``) so that they call :meth:`adjust` when they move."""

    def __init__(self, source, target, kind: str) -> None:
        super().__init__()
        self.source, self.target, self.kind = source, target, kind
        self.line = QLineF()
        self.setZValue(OVERLAY_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setToolTip(f"{kind}: {source.name} -> {target.name}")
        source.arcs.append(self)
        target.arcs.append(self)
        self.adjust()

    @property
    def key(self) -> Arc:
        return self.source.name, self.target.name

    def detach(self) -> None:
        for node in (self.source, self.target):
            if shiboken6.isValid(node) and self in node.arcs:
                node.arcs.remove(self)

    def adjust(self) -> None:
        s_rect = self.source.rect().translated(self.source.pos())
        t_rect = self.target.rect().translated(self.target.pos())
        self.prepareGeometryChange()
        self.line = QLineF(border_point(s_rect, t_rect.center()), border_point(t_rect, s_rect.center()))

    def boundingRect(self) -> QRectF:  # Qt override
        return QRectF(self.line.p1(), self.line.p2()).normalized().adjusted(-ARROW, -ARROW, ARROW, ARROW)

    def arrow_head(self) -> QPolygonF:
        angle = math.atan2(self.line.dy(), self.line.dx())
        tip = self.line.p2()
        return QPolygonF([tip] + [QPointF(tip.x() - ARROW * math.cos(angle + d), tip.y() - ARROW * math.sin(angle + d))
                                  for d in (-0.42, 0.42)])

    def paint(self, painter: QPainter, option, widget=None) -> None:  # Qt override
        if self.line.length() < 1:
            return
        colour = COLOURS[self.kind]
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        shaft = QLineF(self.line.p1(), self.line.pointAt(max(0.0, 1 - (ARROW * 0.8) / self.line.length())))
        style = Qt.PenStyle.DashLine if self.kind == REMOVED else Qt.PenStyle.SolidLine
        painter.setPen(QPen(colour, 2.6, style, Qt.PenCapStyle.FlatCap))
        painter.drawLine(shaft)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawPolygon(self.arrow_head())


class DiffOverlay:
    """Shows one diff in ``scene`` (a :class:`~bnstudio.gui.canvas.NetworkScene`: ``nodes`` and ``arcs`` by
    name); :meth:`show` replaces what was shown, :meth:`clear` removes it and un-hides the scene's arcs."""

    def __init__(self, scene: NetworkScene) -> None:
        self.scene = scene
        self.items: list[DiffArcItem] = []
        self.hidden: list[ArcItem] = []
        self.diff: dict[str, list[Arc]] = {ADDED: [], REMOVED: [], REVERSED: []}

    def show(self, current: Iterable[Arc], learned: Iterable[Arc]) -> dict[str, list[Arc]]:
        self.clear()
        self.diff = structure_diff(current, learned)
        nodes = self.scene.nodes
        for kind, arcs in self.diff.items():
            for parent, child in arcs:
                if parent not in nodes or child not in nodes:
                    continue  # a variable the network does not have yet
                item = DiffArcItem(nodes[parent], nodes[child], kind)
                self.scene.addItem(item)
                self.items.append(item)
                old = (parent, child) if kind == REMOVED else (child, parent) if kind == REVERSED else None
                arc = self.scene.arcs.get(old) if old else None
                if arc is not None and arc.isVisible():
                    arc.hide()
                    self.hidden.append(arc)
        return self.diff

    def clear(self) -> None:
        for item in self.items:
            if shiboken6.isValid(item):
                item.detach()
                if item.scene() is not None:
                    item.scene().removeItem(item)
        for arc in self.hidden:
            if shiboken6.isValid(arc):
                arc.show()
        self.items, self.hidden = [], []
        self.diff = {ADDED: [], REMOVED: [], REVERSED: []}

    def shown(self) -> dict[str, list[Arc]]:
        """The arcs drawn now, by kind (what a test or the legend reads)."""
        out: dict[str, list[Arc]] = {ADDED: [], REMOVED: [], REVERSED: []}
        for item in self.items:
            if shiboken6.isValid(item) and item.scene() is not None:
                out[item.kind].append(item.key)
        return {k: sorted(v) for k, v in out.items()}
