"""Export the canvas as PNG (raster), SVG or PDF (vector), and draw it on any paint device (printing).

:func:`render_scene` is the one drawing of the network for output: the whole network (its items' bounds and a
margin) fitted into a target rectangle of a ``QPainter``, without the selection. The writers call it; so can a
printer or any ``QPaintDevice``.

A PNG is capped (issue 38: munin at 2 px per unit was 43,456 x 16,216 px, 2.9 GB and 32–48 s, and other tools
refused it): at most :data:`MAX_SIDE` pixels a side and :data:`PIXEL_BUDGET` pixels in all, the scale lowered
to fit (:func:`png_size`), and painted in bands of :data:`BAND_ROWS` rows (each draws only the items in its
part of the scene) with a progress callback between bands (``bnstudio.jobs`` protocol: a stop request raises ``Cancelled`` and nothing is written). A network
that large is better kept as SVG or PDF, which keep every detail at any size.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QMarginsF, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import QImage, QImageWriter, QPageLayout, QPageSize, QPainter, QPdfWriter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsScene

from bnstudio.gui.canvas import style as st
from bnstudio.jobs import Progress, Reporter

MARGIN = 20.0
MAX_SIDE = 16384          # pixels a side of an exported PNG (many viewers and libraries refuse more)
PIXEL_BUDGET = 40_000_000  # pixels of an exported PNG in all: 160 MB as ARGB, under Pillow's 89 Mpx warning
BAND_ROWS = 1024          # a PNG is painted in bands of this many rows, reporting progress between them
#: Qt's PNG writer turns a quality q into zlib level (100 - q) * 9 // 91: 80 is level 1, several times faster
#: than the default level and a flat drawing compresses well at it
PNG_QUALITY = 80


@dataclass(frozen=True)
class PngSize:
    """The pixels of an exported PNG and the scale (pixels per scene unit) that gives them; ``capped`` when the
    asked scale was lowered to stay within :data:`MAX_SIDE` and :data:`PIXEL_BUDGET`."""

    width: int
    height: int
    scale: float
    capped: bool


def source_rect(scene: QGraphicsScene) -> QRectF:
    """What an export shows: the scene's items and a margin (scene units)."""
    return scene.itemsBoundingRect().adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)


def render_scene(scene: QGraphicsScene, painter: QPainter, target: QRectF, source: QRectF | None = None,
                 aspect: Qt.AspectRatioMode = Qt.AspectRatioMode.KeepAspectRatio) -> None:
    """Draw ``source`` of the scene (default :func:`source_rect`: the whole network) into ``target`` of
    ``painter`` (with the aspect kept, by default), as the network looks (the selection is not drawn)."""
    source = source_rect(scene) if source is None else source
    selected = scene.selectedItems()
    for item in selected:  # export what the network looks like, not the selection
        item.setSelected(False)
    try:
        scene.render(painter, target, source, aspect)
    finally:
        for item in selected:
            item.setSelected(True)


def png_size(width: float, height: float, scale: float, max_side: int = MAX_SIDE,
             budget: int = PIXEL_BUDGET) -> PngSize:
    """The PNG of a ``width`` x ``height`` (scene units) drawing at ``scale`` pixels per unit, lowered to
    s = min(scale, max_side / width, max_side / height, sqrt(budget / (width height))) when it would exceed
    either limit.

    >>> size = png_size(21_728, 8_108, 2.0)    # munin: 43,456 x 16,216 px asked
    >>> size.width, size.height, size.capped
    (10353, 3863, True)
    """
    width, height = max(width, 1.0), max(height, 1.0)
    fit = min(max_side / width, max_side / height, math.sqrt(budget / (width * height)))
    chosen = min(scale, fit)
    return PngSize(max(1, min(max_side, int(width * chosen))), max(1, min(max_side, int(height * chosen))), chosen,
                   chosen < scale)


def export_png(scene: QGraphicsScene, path: str | Path, scale: float = 2.0,
               reporter: Reporter | None = None) -> PngSize:
    """Write the whole scene to a PNG at ``scale`` pixels per scene unit, capped (:func:`png_size`); painted in
    bands with ``reporter`` told between them (its stop request raises ``Cancelled``; nothing is written).
    Returns the size written; raises OSError on failure."""
    source = source_rect(scene)
    size = png_size(source.width(), source.height(), scale, MAX_SIDE, PIXEL_BUDGET)
    image = QImage(QSize(size.width, size.height), QImage.Format.Format_RGB32)   # opaque: no alpha to write
    if image.isNull():
        raise OSError(f"no memory for a {size.width} x {size.height} image")
    image.fill(st.BACKGROUND)
    bands = max(1, math.ceil(size.height / BAND_ROWS))
    progress = Progress(reporter, "Drawing the image", bands)
    painter = QPainter(image)
    try:
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        per_row = source.height() / size.height      # scene units per pixel row (and, within a pixel, per column)
        for band in range(bands):
            top = band * BAND_ROWS
            rows = min(BAND_ROWS, size.height - top)
            part = QRectF(source.left(), source.top() + top * per_row, source.width(), rows * per_row)
            render_scene(scene, painter, QRectF(0, top, size.width, rows), part, Qt.AspectRatioMode.IgnoreAspectRatio)
            progress.report(band + 1, {"rows": float(top + rows)})
    finally:
        painter.end()
    writer = QImageWriter(str(path), b"png")
    writer.setQuality(PNG_QUALITY)
    if not writer.write(image):
        raise OSError(f"could not write the image {path}: {writer.errorString()}")
    progress.done()
    return size


def export_svg(scene: QGraphicsScene, path: str | Path, title: str = "Bayesian network") -> None:
    """Write the whole scene as an SVG drawing."""
    source = source_rect(scene)
    generator = QSvgGenerator()
    generator.setFileName(str(path))
    generator.setSize(QSize(int(source.width()), int(source.height())))
    generator.setViewBox(QRectF(0, 0, source.width(), source.height()))
    generator.setTitle(title)
    generator.setDescription("Exported by BN Studio")
    painter = QPainter()
    if not painter.begin(generator):
        raise OSError(f"could not write the drawing {path}")
    painter.fillRect(QRectF(0, 0, source.width(), source.height()), st.BACKGROUND)
    render_scene(scene, painter, QRectF(0, 0, source.width(), source.height()), source)
    painter.end()
    if not Path(path).exists():
        raise OSError(f"could not write the drawing {path}")


#: a PDF page holds the whole network at this many points per scene unit (a scene unit is a screen pixel at
#: 100 %), its longer side at most MAX_PDF_POINTS (PDF viewers' limit is 14,400 pt)
PDF_POINTS_PER_UNIT = 0.75
MAX_PDF_POINTS = 14_400.0


def export_pdf(scene: QGraphicsScene, path: str | Path, title: str = "Bayesian network") -> None:
    """Write the whole scene as a one-page vector PDF, the page the network's shape."""
    source = source_rect(scene)
    points = min(PDF_POINTS_PER_UNIT, MAX_PDF_POINTS / max(source.width(), source.height()))
    writer = QPdfWriter(str(path))
    writer.setTitle(title)
    writer.setCreator("BN Studio")
    page = QPageSize(QSizeF(source.width() * points, source.height() * points), QPageSize.Unit.Point, "network")
    writer.setPageLayout(QPageLayout(page, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
    painter = QPainter()
    if not painter.begin(writer):
        raise OSError(f"could not write the document {path}")
    target = QRectF(0, 0, writer.width(), writer.height())
    painter.fillRect(target, st.BACKGROUND)
    render_scene(scene, painter, target, source)
    painter.end()
    if not Path(path).exists() or not Path(path).stat().st_size:
        raise OSError(f"could not write the document {path}")
