"""The study's figures (scatter and convergence PNGs written by the report) in a scrolling grid, each with its
title below it, in as many columns as the width holds (recomputed when the view is resized)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

WIDTH = 420      # pixels per figure
SPACING = 12     # pixels between figures


class FigureGrid(QScrollArea):
    """Shows (title, PNG path) pairs; :meth:`set_figures` replaces them. ``columns`` is the current count."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.titles: list[str] = []
        self.boxes: list[QWidget] = []
        self.columns = 1
        self.grid = QGridLayout()
        self._fill([])

    def set_figures(self, figures: list[tuple[str, Path]]) -> None:
        self.titles = [title for title, _ in figures]
        self._fill(figures)

    def columns_for(self, width: int) -> int:
        """How many figures side by side fit in ``width`` pixels of viewport (at least one)."""
        margins = self.grid.contentsMargins()
        usable = width - margins.left() - margins.right()
        return max(1, (usable + SPACING) // (WIDTH + SPACING))

    def _fill(self, figures: list[tuple[str, Path]]) -> None:
        inner = QWidget()
        self.grid = QGridLayout(inner)
        self.grid.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.grid.setHorizontalSpacing(SPACING)
        self.grid.setVerticalSpacing(SPACING)
        self.boxes = [_figure_box(title, png) for title, png in figures]
        if not figures:
            self.grid.addWidget(QLabel("No figures yet: they appear once runs have finished."), 0, 0)
        self.columns = 0          # place every box
        self._place(self.columns_for(self.viewport().width()))
        self.setWidget(inner)

    def _place(self, columns: int) -> None:
        if columns == self.columns:
            return
        self.columns = columns
        for box in self.boxes:
            self.grid.removeWidget(box)
        for k, box in enumerate(self.boxes):
            self.grid.addWidget(box, k // columns, k % columns)

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        self._place(self.columns_for(self.viewport().width()))

    def showEvent(self, event: QShowEvent) -> None:  # Qt override: filled while hidden (another tab), laid out now
        super().showEvent(event)
        self._place(self.columns_for(self.viewport().width()))


def _figure_box(title: str, png: Path) -> QWidget:
    """The picture at :data:`WIDTH` pixels with its title wrapped below."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    picture = QLabel()
    pixmap = QPixmap(str(png))
    smooth = Qt.TransformationMode.SmoothTransformation
    picture.setPixmap(pixmap.scaledToWidth(WIDTH, smooth) if not pixmap.isNull() else pixmap)
    caption = QLabel(title)
    caption.setWordWrap(True)
    caption.setMaximumWidth(WIDTH)
    layout.addWidget(picture)
    layout.addWidget(caption)
    box.setFixedWidth(WIDTH)
    return box
