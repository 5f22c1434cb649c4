"""Toolbar icons of the influence-diagram tools: a decision rectangle and a utility diamond, each with a plus
(drawn like the other tool icons of :mod:`bnstudio.gui.icons`)."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QIcon, QPainter, QPen, QPolygonF

from bnstudio.gui import icons
from bnstudio.gui.canvas import style as st


def _plus(p: QPainter) -> None:
    p.setPen(QPen(icons.ACCENT, 2.6))
    p.drawLine(QPointF(25, 4), QPointF(25, 14))
    p.drawLine(QPointF(20, 9), QPointF(30, 9))


def add_decision() -> QIcon:
    def draw(p: QPainter) -> None:
        p.setBrush(st.DECISION_HEADER)
        p.drawRect(QRectF(3, 11, 20, 14))
        _plus(p)
    return icons._icon(draw)


def add_utility() -> QIcon:
    def draw(p: QPainter) -> None:
        p.setBrush(st.UTILITY_FILL)
        p.setPen(QPen(st.UTILITY_BORDER, 2.2))
        p.drawPolygon(QPolygonF([QPointF(13, 9), QPointF(24, 19), QPointF(13, 29), QPointF(2, 19)]))
        _plus(p)
    return icons._icon(draw)
