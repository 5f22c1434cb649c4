"""A utility node on the canvas: a diamond with its name and its expected utility under the current evidence
(the optimal policies followed). Like :class:`~bnstudio.gui.canvas.node_item.NodeItem`, it only draws; its
position is its centre, kept in the document's decision part."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyle

from bnstudio.gui.canvas import style as st


class UtilityItem(QGraphicsItem):
    """One utility node; ``value`` is E[U | e] (None while unknown)."""

    kind = "utility"

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.value: float | None = None
        self.arcs: list = []
        self._rect = QRectF(-st.UTILITY_WIDTH / 2, -st.UTILITY_HEIGHT / 2, st.UTILITY_WIDTH, st.UTILITY_HEIGHT)
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsMovable | QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
                      | QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges)
        self.setZValue(1)
        self.setToolTip(f"{name}: utility node (its table is in the Decisions panel)")

    def set_value(self, value: float | None) -> None:
        self.value = value
        self.update()

    def rect(self) -> QRectF:
        return QRectF(self._rect)

    def title_rect(self) -> QRectF:
        """Where the name is written (the rename editor goes over it)."""
        r = self._rect
        return QRectF(r.left() + r.width() / 5, r.center().y() - 19, r.width() * 3 / 5, 18)

    def diamond(self) -> QPolygonF:
        r = self._rect
        return QPolygonF([QPointF(r.center().x(), r.top()), QPointF(r.right(), r.center().y()),
                          QPointF(r.center().x(), r.bottom()), QPointF(r.left(), r.center().y())])

    def border_point(self, towards: QPointF) -> QPointF:
        """Where the segment from the centre to ``towards`` (scene coordinates) leaves the diamond:
        |dx|/(w/2) + |dy|/(h/2) = 1 along the ray."""
        c = self.pos()
        dx, dy = towards.x() - c.x(), towards.y() - c.y()
        extent = abs(dx) / (self._rect.width() / 2) + abs(dy) / (self._rect.height() / 2)
        if extent <= 1.0:
            return QPointF(c)
        return QPointF(c.x() + dx / extent, c.y() + dy / extent)

    def boundingRect(self) -> QRectF:  # Qt override
        return self._rect.adjusted(-2, -2, 2, 2)

    def shape(self) -> QPainterPath:  # Qt override
        path = QPainterPath()
        path.addPolygon(self.diamond())
        path.closeSubpath()
        return path

    def paint(self, painter: QPainter, option, widget=None) -> None:  # Qt override
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(st.SELECTED if selected else st.UTILITY_BORDER, 2.4 if selected else 1.3))
        painter.setBrush(st.UTILITY_FILL)
        painter.drawPolygon(self.diamond())
        r, title = self._rect, self.title_rect()
        painter.setPen(st.TEXT)
        painter.setFont(st.title_font())
        name = painter.fontMetrics().elidedText(self.name, Qt.TextElideMode.ElideRight, int(title.width()))
        painter.drawText(title, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom, name)
        painter.setFont(st.state_font())
        painter.setPen(st.TEXT if self.value is not None else st.MUTED_TEXT)
        painter.drawText(QRectF(title.left(), r.center().y() + 1, title.width(), 16),
                         Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                         f"EU {st.format_utility(self.value)}")

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: Any) -> Any:  # Qt override
        if change == QGraphicsItem.GraphicsItemChange.ItemPositionHasChanged:
            for arc in self.arcs:
                arc.adjust()
        return super().itemChange(change, value)
