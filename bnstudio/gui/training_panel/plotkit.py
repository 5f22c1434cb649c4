"""What the training panel's plots share: the look of an axis, integer ticks, and the run legend that stands
beside the plots (one run a line, long labels elided, the whole label in its tooltip), so it never wraps over
a curve nor takes a plot's height however many runs there are."""
from __future__ import annotations

import html
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QHBoxLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
           "#7f7f7f", "#bcbd22")
TEXT = "#333333"
#: the legend column's width in pixels
LEGEND_WIDTH = 136
#: the least height of a plot (with its title and axes) in a laptop's dock
PLOT_MIN_HEIGHT = 150


def colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


class IntegerAxis(pg.AxisItem):
    """An axis that puts ticks on whole numbers only (iterations, rows): no "2.5th iteration"."""

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list:  # pyqtgraph override
        levels = []
        for spacing, values in super().tickValues(minVal, maxVal, size):
            whole = [v for v in values if float(v).is_integer()]
            if spacing >= 1 and whole:
                levels.append((spacing, whole))
        if not levels:   # a range narrower than one: the whole numbers in it, if any
            whole = [float(v) for v in range(int(minVal), int(maxVal) + 2) if minVal <= v <= maxVal]
            levels = [(1.0, whole)] if whole else []
        return levels


def style(plot: pg.PlotItem, title: str, left: str, bottom: str | None = None) -> None:
    """Title, grid and dark axis text, numbers as they are (an empty plot read "x0.001")."""
    plot.setTitle(title, size="9pt", color=TEXT)
    plot.showGrid(x=True, y=True, alpha=0.25)
    plot.setLabel("left", left, color=TEXT)
    if bottom:
        plot.setLabel("bottom", bottom, color=TEXT)
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.enableAutoSIPrefix(False)
        axis.setTextPen(TEXT)
        axis.setPen("#888888")


class RunLegend(QWidget):
    """A column of (colour, label) lines beside the plots, with a note under them (e.g. line styles)."""

    def __init__(self, note: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.entries: dict[Any, tuple[str, str]] = {}
        self.lines = QLabel()
        self.note = QLabel(note)
        self.empty = "No runs yet"
        self._compose()

    def _compose(self) -> None:
        self.setFixedWidth(LEGEND_WIDTH)
        self.setStyleSheet("RunLegend, QLabel { background: white; }")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.lines.setTextFormat(Qt.TextFormat.RichText)
        self.lines.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.note.setWordWrap(True)
        self.note.setStyleSheet("QLabel { color: #555555; background: white; }")
        scroll = QScrollArea()
        scroll.setWidget(self.lines)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._column = layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 4, 4)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.note)
        self._update()

    def set_entries(self, entries: dict[Any, tuple[str, str]]) -> None:
        """key -> (label, colour), in order."""
        self.entries = dict(entries)
        self._update()

    def add_below(self, widget: QWidget) -> None:
        """Put ``widget`` under the note (e.g. a checkbox about the plots)."""
        self._column.addWidget(widget)

    def labels(self) -> list[str]:
        return [label for label, _colour in self.entries.values()]

    def _update(self) -> None:
        metrics = QFontMetrics(self.lines.font())
        room = LEGEND_WIDTH - 34
        rows = [f"<span style='color:{c}'>&#9632;</span>&nbsp;"
                f"{html.escape(metrics.elidedText(label, Qt.TextElideMode.ElideRight, room))}"
                for label, c in self.entries.values()]
        self.lines.setText("<br>".join(rows) if rows else f"<span style='color:#666666'>{self.empty}</span>")
        self.lines.setToolTip("\n".join(self.labels()))


def plot_page(page: QWidget, controls: list[QWidget | None], view: QWidget, legend: RunLegend,
              below: list[QWidget]) -> QVBoxLayout:
    """Lay ``page`` out: a row of ``controls`` (None: the stretch), the plots with the legend beside them,
    then the ``below`` widgets."""
    head = QHBoxLayout()
    for widget in controls:
        if widget is None:
            head.addStretch(1)
        else:
            head.addWidget(widget)
    plots = QHBoxLayout()
    plots.setSpacing(0)
    plots.addWidget(view, 1)
    plots.addWidget(legend)
    layout = QVBoxLayout(page)
    layout.setContentsMargins(4, 2, 0, 0)
    layout.setSpacing(2)
    layout.addLayout(head)
    layout.addLayout(plots, 1)
    for widget in below:
        layout.addWidget(widget)
    return layout
