"""An arc between two node items: a straight line from border to border with an arrow head at the child.

Each end item says where a line towards a point leaves it (``border_point``): a rectangle for chance and
decision nodes, a diamond for utility nodes."""
from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPainterPath, QPainterPathStroker, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyle

from bnstudio.gui.canvas import style as st

ARROW = 9.0


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


class ArcItem(QGraphicsItem):
    """parent -> child; selectable (for delete/reverse), recomputed when either node moves or resizes."""

    def __init__(self, source, target) -> None:
        super().__init__()
        self.source, self.target = source, target
        self.line = QLineF()
        self.setFlags(QGraphicsItem.ItemIsSelectable)
        self.setZValue(0)
        source.arcs.append(self)
        target.arcs.append(self)
        self.adjust()

    @property
    def key(self) -> tuple[str, str]:
        return self.source.name, self.target.name

    def detach(self) -> None:
        for node in (self.source, self.target):
            if self in node.arcs:
                node.arcs.remove(self)

    def adjust(self) -> None:
        start = self.source.border_point(self.target.pos())
        end = self.target.border_point(self.source.pos())
        self.prepareGeometryChange()
        self.line = QLineF(start, end)

    def boundingRect(self) -> QRectF:  # Qt override
        return QRectF(self.line.p1(), self.line.p2()).normalized().adjusted(-ARROW, -ARROW, ARROW, ARROW)

    def shape(self) -> QPainterPath:  # Qt override
        path = QPainterPath(self.line.p1())
        path.lineTo(self.line.p2())
        stroker = QPainterPathStroker()
        stroker.setWidth(8)
        return stroker.createStroke(path)

    def arrow_head(self) -> QPolygonF:
        line = self.line
        if line.length() < 1:
            return QPolygonF()
        angle = math.atan2(line.dy(), line.dx())
        tip = line.p2()
        left = QPointF(tip.x() - ARROW * math.cos(angle - 0.42), tip.y() - ARROW * math.sin(angle - 0.42))
        right = QPointF(tip.x() - ARROW * math.cos(angle + 0.42), tip.y() - ARROW * math.sin(angle + 0.42))
        return QPolygonF([tip, left, right])

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if self.line.length() < 1:
            return
        selected = bool(option.state & QStyle.State_Selected)
        colour = st.SELECTED if selected else st.ARC
        painter.setRenderHint(QPainter.Antialiasing)
        head = self.arrow_head()
        # stop the line at the arrow's base so the tip stays sharp
        shaft = QLineF(self.line.p1(), self.line.pointAt(max(0.0, 1 - (ARROW * 0.8) / self.line.length())))
        painter.setPen(QPen(colour, 2.4 if selected else 1.3, Qt.SolidLine, Qt.RoundCap))
        painter.drawLine(shaft)
        painter.setPen(Qt.NoPen)
        painter.setBrush(colour)
        painter.drawPolygon(head)
