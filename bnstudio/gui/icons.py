"""Small toolbar icons drawn with QPainter (no image files to ship, crisp at any scale), in the ink of the window's
scheme (:data:`bnstudio.display.themes.ICONS`: slate strokes on a light toolbar, light ones on a dark toolbar);
draw them again when the palette changes (:meth:`bnstudio.gui.actions.Actions.refresh_icons`)."""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap, QPolygonF

from bnstudio.app.resources import icon_path
from bnstudio.display import themes
from bnstudio.gui import theme

ACCENT = QColor("#3F7CC8")
SIZE = 32


def ink() -> QColor:
    """The strokes' colour on the toolbar as the window is now (light or dark)."""
    return theme.colour(themes.ICONS, "ink")


def fill() -> QColor:
    """The fill of the icons' little node boxes."""
    return theme.colour(themes.ICONS, "fill")


def _icon(draw: Callable[[QPainter], None]) -> QIcon:
    pixmap = QPixmap(SIZE, SIZE)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(ink(), 2.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
    draw(painter)
    painter.end()
    return QIcon(pixmap)


def _arrow_head(p: QPainter, tip: QPointF, dx: float, dy: float) -> None:
    p.setBrush(ink())
    p.drawPolygon(QPolygonF([tip, QPointF(tip.x() - 6 * dx + 4 * dy, tip.y() - 6 * dy - 4 * dx),
                             QPointF(tip.x() - 6 * dx - 4 * dy, tip.y() - 6 * dy + 4 * dx)]))


def select() -> QIcon:
    def draw(p: QPainter) -> None:
        p.setBrush(ink())
        p.drawPolygon(QPolygonF([QPointF(9, 5), QPointF(9, 25), QPointF(14, 20), QPointF(18, 28), QPointF(21, 26),
                                 QPointF(17, 19), QPointF(24, 19)]))
    return _icon(draw)


def add_node() -> QIcon:
    def draw(p: QPainter) -> None:
        p.setBrush(fill())
        p.drawRoundedRect(QRectF(3, 9, 20, 14), 3, 3)
        p.setPen(QPen(ACCENT, 2.6))
        p.drawLine(QPointF(25, 4), QPointF(25, 14))
        p.drawLine(QPointF(20, 9), QPointF(30, 9))
    return _icon(draw)


def add_arc() -> QIcon:
    def draw(p: QPainter) -> None:
        p.setBrush(fill())
        p.drawRoundedRect(QRectF(2, 3, 13, 9), 2, 2)
        p.drawRoundedRect(QRectF(17, 20, 13, 9), 2, 2)
        p.drawLine(QPointF(10, 12), QPointF(20, 19))
        _arrow_head(p, QPointF(21, 20), 0.8, 0.6)
    return _icon(draw)


def layout() -> QIcon:
    def draw(p: QPainter) -> None:
        p.setBrush(fill())
        for r in (QRectF(11, 3, 10, 7), QRectF(3, 22, 10, 7), QRectF(19, 22, 10, 7)):
            p.drawRoundedRect(r, 2, 2)
        p.drawLine(QPointF(14, 10), QPointF(9, 22))
        p.drawLine(QPointF(18, 10), QPointF(23, 22))
    return _icon(draw)


def fit() -> QIcon:
    def draw(p: QPainter) -> None:
        for x, y, dx, dy in ((4, 4, 1, 1), (28, 4, -1, 1), (4, 28, 1, -1), (28, 28, -1, -1)):
            p.drawLine(QPointF(x, y), QPointF(x + 7 * dx, y))
            p.drawLine(QPointF(x, y), QPointF(x, y + 7 * dy))
        p.setBrush(fill())
        p.drawRoundedRect(QRectF(10, 11, 12, 10), 2, 2)
    return _icon(draw)


def bars() -> QIcon:
    def draw(p: QPainter) -> None:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(ACCENT)
        for i, w in enumerate((20, 9, 14)):
            p.drawRect(QRectF(5, 6 + 8 * i, w, 5))
    return _icon(draw)


def compact() -> QIcon:
    def draw(p: QPainter) -> None:
        p.setBrush(fill())
        p.drawRoundedRect(QRectF(3, 10, 26, 12), 4, 4)
    return _icon(draw)


def clear_evidence() -> QIcon:
    def draw(p: QPainter) -> None:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#E07020"))
        p.drawRect(QRectF(4, 8, 16, 6))
        p.setBrush(QColor("#C9D3E0"))
        p.drawRect(QRectF(4, 18, 10, 6))
        p.setPen(QPen(QColor("#B3261E"), 2.6, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        p.drawLine(QPointF(21, 17), QPointF(29, 25))
        p.drawLine(QPointF(29, 17), QPointF(21, 25))
    return _icon(draw)


def _curved(flip: bool) -> QIcon:
    def draw(p: QPainter) -> None:
        if flip:
            p.translate(SIZE, 0)
            p.scale(-1, 1)
        path = QPainterPath(QPointF(26, 24))
        path.cubicTo(QPointF(26, 10), QPointF(14, 8), QPointF(8, 14))
        p.drawPath(path)
        _arrow_head(p, QPointF(6, 16), -0.7, 0.7)
    return _icon(draw)


def undo() -> QIcon:
    return _curved(False)


def redo() -> QIcon:
    return _curved(True)


def app_icon() -> QIcon:
    path = icon_path("bnstudio.svg")
    return QIcon(str(path)) if path.exists() else layout()
