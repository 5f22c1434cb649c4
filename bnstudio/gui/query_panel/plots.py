"""Shared pyqtgraph styling for the panel's plots and their export to PNG (raster) or SVG (vector).

pyqtgraph's own SVG exporter fails on this Qt version, so both formats render the widget with QPainter
(as the canvas export does); settings are per widget, never pyqtgraph's global options.
"""
from __future__ import annotations

from pathlib import Path
from typing import cast

import pyqtgraph as pg
from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsView

NORMAL_COLOUR = QColor("#2F6DB5")
BETA_COLOUR = QColor("#D9731A")
MC_COLOUR = QColor("#7A8594")
LINE_COLOUR = QColor("#6B3FA0")
TEXT_COLOUR = QColor("#1E2732")
EXPORT_FORMATS = ("png", "svg")


def make_plot(x_label: str, y_label: str) -> pg.PlotWidget:
    """A white plot with dark axes, a light grid and no mouse menu clutter."""
    widget = pg.PlotWidget(background="w")
    item = widget.getPlotItem()
    for side, text in (("bottom", x_label), ("left", y_label)):
        axis = item.getAxis(side)
        axis.setPen(pg.mkPen(TEXT_COLOUR))
        axis.setTextPen(pg.mkPen(TEXT_COLOUR))
        axis.setLabel(text, color=TEXT_COLOUR.name())
        axis.enableAutoSIPrefix(False)
    item.showGrid(x=True, y=True, alpha=0.15)
    item.setMenuEnabled(False)
    item.hideButtons()
    widget.setMinimumSize(320, 180)   # leaves the query settings above it whole in a laptop's dock
    return widget


def add_legend(plot: pg.PlotWidget) -> pg.LegendItem:
    """The legend in the top-right corner on an almost opaque white card, so curves under it do not garble it."""
    return plot.getPlotItem().addLegend(offset=(-10, 10), labelTextColor=TEXT_COLOUR.name(),
                                        brush=pg.mkBrush(255, 255, 255, 225), pen=pg.mkPen("#C9D1DC"))


def place_legend(legend: pg.LegendItem, left: bool) -> None:
    """Put ``legend`` in the top-left (``left``) or top-right corner: the side away from the bulk of what is
    drawn (a density whose mean lies right of the middle has only its low left tail under a top-left legend)."""
    corner = 0 if left else 1
    legend.anchor(itemPos=(corner, 0), parentPos=(corner, 0), offset=(10 if left else -10, 10))


def reset_axes(plot: pg.PlotWidget) -> None:
    """Both axes back to [0, 1]: an emptied plot shows no range of an earlier answer (seen: ALARM's x 0.226–0.331,
    y 0–44 kept beside the next network's "No error bars yet")."""
    item = plot.getPlotItem()
    item.setXRange(0.0, 1.0, padding=0)
    item.setYRange(0.0, 1.0, padding=0)


def faded(colour: QColor, alpha: int) -> QColor:
    out = QColor(colour)
    out.setAlpha(alpha)
    return out


def export_widget(widget: QGraphicsView, path: str | Path, scale: float = 2.0) -> None:
    """Write ``widget`` (a plot: pyqtgraph's PlotWidget is a QGraphicsView) as it is drawn to ``path``:
    ``.png`` at ``scale`` pixels per point or ``.svg``."""
    path = Path(path)
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in EXPORT_FORMATS:
        raise ValueError(f"export as .png or .svg, not {path.suffix or 'no extension'}")
    size = widget.size()
    painter = QPainter()
    if suffix == "svg":
        target = QSvgGenerator()
        target.setFileName(str(path))
        target.setSize(size)
        target.setViewBox(QRect(0, 0, size.width(), size.height()))
        target.setTitle(widget.windowTitle() or "BN Studio plot")
        if not painter.begin(target):
            raise OSError(f"could not write the drawing {path}")
        widget.render(painter)
        painter.end()
    else:
        image = QImage(QSize(int(size.width() * scale), int(size.height() * scale)), QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.white)
        painter.begin(image)
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        painter.scale(scale, scale)
        widget.render(painter)
        painter.end()
        # cast: the stub types the format as bytes, but PySide6 takes a str here (bytes raise ValueError)
        if not image.save(str(path), cast(bytes, "PNG")):
            raise OSError(f"could not write the image {path}")
    if not path.exists():
        raise OSError(f"could not write {path}")
