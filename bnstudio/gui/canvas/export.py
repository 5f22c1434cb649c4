"""Export the canvas as PNG (raster, at a chosen scale) or SVG (vector, via QtSvg)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsScene

from bnstudio.gui.canvas import style as st

MARGIN = 20.0


def _source_rect(scene: QGraphicsScene) -> QRectF:
    return scene.itemsBoundingRect().adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)


def _render(scene: QGraphicsScene, painter: QPainter, target: QRectF, source: QRectF) -> None:
    selected = scene.selectedItems()
    for item in selected:  # export what the network looks like, not the selection
        item.setSelected(False)
    try:
        scene.render(painter, target, source, Qt.KeepAspectRatio)
    finally:
        for item in selected:
            item.setSelected(True)


def export_png(scene: QGraphicsScene, path: str | Path, scale: float = 2.0) -> None:
    """Write the whole scene to a PNG at ``scale`` pixels per scene unit; raises OSError on failure."""
    source = _source_rect(scene)
    size = QSize(max(1, int(source.width() * scale)), max(1, int(source.height() * scale)))
    image = QImage(size, QImage.Format_ARGB32_Premultiplied)
    image.fill(st.BACKGROUND)
    painter = QPainter(image)
    painter.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
    _render(scene, painter, QRectF(0, 0, size.width(), size.height()), source)
    painter.end()
    if not image.save(str(path), "PNG"):
        raise OSError(f"could not write the image {path}")


def export_svg(scene: QGraphicsScene, path: str | Path, title: str = "Bayesian network") -> None:
    """Write the whole scene as an SVG drawing."""
    source = _source_rect(scene)
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
    _render(scene, painter, QRectF(0, 0, source.width(), source.height()), source)
    painter.end()
    if not Path(path).exists():
        raise OSError(f"could not write the drawing {path}")
