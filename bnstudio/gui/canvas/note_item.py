"""A text note on the canvas (an annotation, as GeNIe's and Hugin's text boxes): its text wrapped at the note's
width on a pale yellow card. The item only draws and can be moved and selected; the scene turns moves,
double-clicks and deletions into undo commands on ``document.notes`` (:mod:`bnstudio.app.commands.notes`)."""
from __future__ import annotations

from typing import cast

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsTextItem, QStyle, QStyleOptionGraphicsItem, QWidget

from bnstudio.gui.canvas import style as st
from bnstudio.io.project.notes import Note

NOTE_FILL = QColor("#FFF9C4")
NOTE_BORDER = QColor("#C9B458")
NOTE_PADDING = 4.0


class NoteItem(QGraphicsTextItem):
    """Note number ``index`` of ``document.notes``; its ``pos()`` is the note's top-left corner."""

    def __init__(self, index: int, note: Note) -> None:
        super().__init__()
        self.index = index
        self.note = note
        self.setPlainText(note.text)
        self.setTextWidth(note.width)
        self.setDefaultTextColor(st.TEXT)
        font = st.state_font()
        font.setPixelSize(12)
        self.setFont(font)
        self.document().setDocumentMargin(NOTE_PADDING)
        self.setPos(note.x, note.y)
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsMovable | QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setZValue(2)      # over arcs and nodes: a note is put where it is meant to be read
        self.setToolTip("Note: double-click to edit, right-click for more")

    @property
    def moved(self) -> bool:
        return abs(self.pos().x() - self.note.x) > 1e-6 or abs(self.pos().y() - self.note.y) > 1e-6

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        rect = QRectF(self.boundingRect())
        painter.fillRect(rect, NOTE_FILL)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.setPen(QPen(st.SELECTED, 2.0) if selected else QPen(NOTE_BORDER, 1.0))
        painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5))
        option.state &= ~QStyle.StateFlag.State_Selected   # no dashed selection frame from the text item
        option.state &= ~QStyle.StateFlag.State_HasFocus
        # cast: Qt passes no widget when the scene is rendered to an image or a printer (export), and
        # QGraphicsTextItem::paint accepts that, but its stub asks for a QWidget (QGraphicsItem's allows None)
        super().paint(painter, option, cast(QWidget, widget))
