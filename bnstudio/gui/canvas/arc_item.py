"""An arc between two node items: a line (or, for a hub's routed arc, a polyline along the gaps) from border to
border with an arrow head at the child.

Each end item says where a line towards a point leaves it (``border_point``): a rectangle for chance and
decision nodes, a diamond for utility nodes.

At size (a thousand arcs) the canvas's cost was one Python ``boundingRect`` call per arc for every index
update and repaint, and one geometry callback per arc per node change. So the item is a ``QGraphicsPathItem``
whose bounds Qt keeps in C++ (the path: shaft and head); :meth:`ArcItem.set_points` takes geometry that the
scene computes for all arcs at once (:mod:`bnstudio.display.routes`), and :meth:`ArcItem.adjust` is the single
arc's path used while a node is dragged. ``paint`` only draws the cached shaft and head.
"""
from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPainterPathStroker, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QStyle

from bnstudio.gui.canvas import style as st

ARROW = 9.0
_PEN = QPen(st.ARC, 1.3, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
_SELECTED_PEN = QPen(st.SELECTED, 2.4, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
# into a node set by do(): the arc is cut
_CUT_PEN = QPen(st.CUT_ARC, 1.3, Qt.PenStyle.DashLine, Qt.PenCapStyle.RoundCap)
_BOUNDS_PEN = QPen(st.ARC, 2 * ARROW)       # only sizes the bounds (Qt adds half the pen width): never drawn


class Deferral:
    """While ``depth`` > 0 (the scene is placing many items at once), node items do not recompute their arcs
    one by one and new arcs wait: the scene computes every arc in one pass afterwards."""

    depth = 0


def border_point(rect: QRectF, towards: QPointF) -> QPointF:
    """Where the segment from ``rect``'s centre to ``towards`` leaves the rectangle."""
    c = rect.center()
    dx, dy = towards.x() - c.x(), towards.y() - c.y()
    if dx == 0 and dy == 0:
        return c
    sx = (rect.width() / 2) / abs(dx) if dx else math.inf
    sy = (rect.height() / 2) / abs(dy) if dy else math.inf
    s = min(sx, sy, 1.0)
    return QPointF(c.x() + dx * s, c.y() + dy * s)


def arrow_head(tail: QPointF, tip: QPointF) -> QPolygonF:
    """The arrow head at ``tip`` of the segment from ``tail`` (empty when it is shorter than a pixel)."""
    dx, dy = tip.x() - tail.x(), tip.y() - tail.y()
    if math.hypot(dx, dy) < 1:
        return QPolygonF()
    angle = math.atan2(dy, dx)
    left = QPointF(tip.x() - ARROW * math.cos(angle - 0.42), tip.y() - ARROW * math.sin(angle - 0.42))
    right = QPointF(tip.x() - ARROW * math.cos(angle + 0.42), tip.y() - ARROW * math.sin(angle + 0.42))
    return QPolygonF([tip, left, right])


class ArcItem(QGraphicsPathItem):
    """parent -> child; selectable (for delete/reverse). ``line`` is the chord from the start to the arrow's
    tip; ``bends`` the route's interior points (scene coordinates; empty for a straight arc)."""

    def __init__(self, source, target) -> None:
        super().__init__()
        self.source, self.target = source, target
        self.line = QLineF()
        self.bends: list[QPointF] = []
        self._shaft = QPainterPath()
        self._head = QPolygonF()
        self._shape: QPainterPath | None = None
        self.cut = False    # the child is set by an intervention: this arc no longer acts
        self.look: tuple[QPen, QColor] | None = None   # (pen, head colour) an overlay asks for (temporal_plate.py)
        self.setPen(_BOUNDS_PEN)
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setZValue(0)
        source.arcs.append(self)
        target.arcs.append(self)
        if not Deferral.depth:
            self.adjust()

    @property
    def key(self) -> tuple[str, str]:
        return self.source.name, self.target.name

    def detach(self) -> None:
        for node in (self.source, self.target):
            if self in node.arcs:
                node.arcs.remove(self)

    def adjust(self) -> None:
        """Recompute this arc alone, straight (a node is being dragged; the scene routes arcs again in bulk
        once the move is committed)."""
        self.set_points([self.source.border_point(self.target.pos()), self.target.border_point(self.source.pos())])

    def set_points(self, points: list[QPointF]) -> None:
        """The arc through ``points``: the start on the parent's border, any bends, the end on the child's."""
        self.bends = list(points[1:-1])
        start, tail, tip = points[0], points[-2], points[-1]
        self.line = QLineF(start, tip)
        last = QLineF(tail, tip)
        shaft = QPainterPath(start)
        for point in points[1:-1]:
            shaft.lineTo(point)
        # stop the line at the arrow's base so the tip stays sharp
        shaft.lineTo(last.pointAt(max(0.0, 1 - (ARROW * 0.8) / last.length())) if last.length() >= 1 else tip)
        self._shaft, self._head = shaft, arrow_head(tail, tip)
        bounds = QPainterPath(shaft)
        bounds.lineTo(tip)
        self.setPath(bounds)
        # after setPath: its prepareGeometryChange may ask the old bounds, whose shape() would be cached for the
        # old path, and the bounds (computed from shape()) would stay those of the old path
        self._shape = None

    def set_cut(self, cut: bool) -> None:
        """Draw the arc dashed and faded while an intervention on its child cuts it."""
        if cut != self.cut:
            self.cut = cut
            self.update()

    def set_look(self, look: tuple[QPen, QColor] | None) -> None:
        """Draw the arc with this (pen, head colour) instead of the usual one (None: the usual one)."""
        if look != self.look:
            self.look = look
            self.update()

    def arrow_head(self) -> QPolygonF:
        return QPolygonF(self._head)

    def shape(self) -> QPainterPath:  # Qt override: what a click hits (computed on the first hit test)
        if self._shape is None:
            stroker = QPainterPathStroker()
            stroker.setWidth(8)
            self._shape = stroker.createStroke(self.path())
        return self._shape

    def paint(self, painter: QPainter, option, widget=None) -> None:  # Qt override
        if self._head.isEmpty():
            return
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        pen, head = self.look or (_PEN, st.ARC)
        painter.setPen(_SELECTED_PEN if selected else _CUT_PEN if self.cut else pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self._shaft)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(st.SELECTED if selected else st.CUT_ARC if self.cut else head)
        painter.drawPolygon(self._head)
