"""The study's figures (scatter and convergence PNGs written by the report) in a scrolling grid, each with its
title below it."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QGridLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

WIDTH = 420      # pixels per figure
COLUMNS = 2


class FigureGrid(QScrollArea):
    """Shows (title, PNG path) pairs; :meth:`set_figures` replaces them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.titles: list[str] = []
        self._fill([])

    def set_figures(self, figures: list[tuple[str, Path]]) -> None:
        self.titles = [title for title, _ in figures]
        self._fill(figures)

    def _fill(self, figures: list[tuple[str, Path]]) -> None:
        inner = QWidget()
        grid = QGridLayout(inner)
        grid.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        if not figures:
            grid.addWidget(QLabel("No figures yet: they appear once runs have finished."), 0, 0)
        for k, (title, png) in enumerate(figures):
            box = QWidget()
            layout = QVBoxLayout(box)
            picture = QLabel()
            pixmap = QPixmap(str(png))
            picture.setPixmap(pixmap.scaledToWidth(WIDTH, Qt.SmoothTransformation) if not pixmap.isNull() else pixmap)
            caption = QLabel(title)
            caption.setWordWrap(True)
            caption.setMaximumWidth(WIDTH)
            layout.addWidget(picture)
            layout.addWidget(caption)
            grid.addWidget(box, k // COLUMNS, k % COLUMNS)
        self.setWidget(inner)
