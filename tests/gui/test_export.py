"""Exporting the canvas (issue 38 #8: munin as PNG was 43,456 x 16,216 px, 2.9 GB and 32–48 s, refused by other
tools): the PNG is capped a side and in pixels, painted in bands that add up to the picture drawn in one pass,
cancellable with nothing written, opened by Pillow; SVG and PDF keep every detail; a large network's export
dialog offers SVG first."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QImage, QPainter

from bnstudio.errors import Cancelled
from bnstudio.gui.canvas import export
from bnstudio.gui.canvas import style as st
from bnstudio.gui.canvas.export import export_pdf, export_png, png_size, render_scene, source_rect
from bnstudio.jobs import RecordingReporter


@pytest.mark.parametrize("width, height, scale", [(21_728, 8_108, 2.0), (500, 400, 2.0), (100, 90_000, 1.0),
                                                  (40_000, 40_000, 0.5), (1.0, 1.0, 2.0)])
def test_png_size_stays_within_the_limits_and_keeps_the_shape(width, height, scale):
    size = png_size(width, height, scale)
    assert 1 <= size.width <= export.MAX_SIDE and 1 <= size.height <= export.MAX_SIDE
    assert size.width * size.height <= export.PIXEL_BUDGET
    assert size.scale <= scale and size.capped == (size.scale < scale)
    assert size.width == max(1, int(width * size.scale)) or size.width == export.MAX_SIDE
    if not size.capped:                                  # small drawings: exactly the scale asked
        assert (size.width, size.height) == (int(width * scale), int(height * scale))
    else:                                                # the largest scale within both limits
        grown = png_size(width, height, size.scale * 1.01, budget=10**18, max_side=10**9)
        assert grown.width > export.MAX_SIDE or grown.height > export.MAX_SIDE or \
            grown.width * grown.height > export.PIXEL_BUDGET


def _pixels(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format_RGB32)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    return rows[:, :4 * image.width()].copy()        # a copy: the buffer goes with the image


def test_a_png_painted_in_bands_is_the_picture_painted_at_once(alarm_window, tmp_path, monkeypatch):
    scene = alarm_window.scene
    monkeypatch.setattr(export, "BAND_ROWS", 97)         # many bands, edges at odd rows
    reporter = RecordingReporter()
    size = export_png(scene, tmp_path / "bands.png", scale=0.8, reporter=reporter)
    assert len(reporter.infos) == -(-size.height // 97) and reporter.ended and not size.capped
    whole = QImage(QSize(size.width, size.height), QImage.Format_RGB32)
    whole.fill(st.BACKGROUND)
    painter = QPainter(whole)
    painter.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
    render_scene(scene, painter, QRectF(0, 0, size.width, size.height), source_rect(scene), Qt.IgnoreAspectRatio)
    painter.end()
    banded, once = _pixels(QImage(str(tmp_path / "bands.png"))), _pixels(whole)
    assert banded.shape == once.shape
    differ = np.any(banded != once, axis=1)              # rows that differ (anti-aliasing at a band's edge)
    assert differ.mean() < 0.05 and np.abs(banded.astype(int) - once.astype(int)).mean() < 1.0


def test_a_capped_png_opens_in_pillow_and_a_cancelled_one_is_not_written(alarm_window, tmp_path, monkeypatch):
    from PIL import Image

    monkeypatch.setattr(export, "PIXEL_BUDGET", 200_000)
    size = export_png(alarm_window.scene, tmp_path / "small.png")
    source = source_rect(alarm_window.scene)
    assert size.capped and size.width * size.height <= 200_000
    assert abs(size.width / size.height - source.width() / source.height()) < 0.02
    with Image.open(tmp_path / "small.png") as image:
        image.load()
        assert image.size == (size.width, size.height)
    monkeypatch.setattr(export, "BAND_ROWS", 50)
    with pytest.raises(Cancelled):
        export_png(alarm_window.scene, tmp_path / "stopped.png", reporter=RecordingReporter(stop_after=2))
    assert not (tmp_path / "stopped.png").exists()


def test_pdf_is_one_vector_page_the_networks_shape(alarm_window, tmp_path):
    export_pdf(alarm_window.scene, tmp_path / "alarm.pdf")
    data = (tmp_path / "alarm.pdf").read_bytes()
    assert data.startswith(b"%PDF") and data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") + \
        data.count(b"/Type/Page") >= 1
    assert b"/Subtype /Image" not in data                # text and paths, not a picture


def test_a_large_network_is_offered_as_svg_and_the_file_type_follows_the_name(alarm_window, tmp_path, monkeypatch):
    from bnstudio.gui.canvas import export_dialog

    asked = []
    monkeypatch.setattr(export_dialog.QFileDialog, "getSaveFileName",
                        staticmethod(lambda parent, title, name, filters: (asked.append((name, filters)) or ("", ""))))
    assert export_dialog.ask_image_path(alarm_window, alarm_window.scene, tmp_path / "alarm") == ""
    assert asked[-1][0].endswith(".png") and asked[-1][1].startswith("PNG")
    monkeypatch.setattr(export, "PIXEL_BUDGET", 10_000)
    monkeypatch.setattr(export_dialog, "png_size", lambda *a: export.png_size(*a, budget=10_000))
    export_dialog.ask_image_path(alarm_window, alarm_window.scene, tmp_path / "alarm")
    assert asked[-1][0].endswith(".svg") and asked[-1][1].startswith("SVG")
    for suffix, magic in ((".svg", b"<?xml"), (".pdf", b"%PDF"), (".png", b"\x89PNG")):
        written, message = export_dialog.export_image(alarm_window, alarm_window.scene, str(tmp_path / f"a{suffix}"))
        assert written and (tmp_path / f"a{suffix}").read_bytes().startswith(magic), suffix
    assert "scaled down" in message and "SVG or PDF" in message


def test_an_arc_is_found_by_its_bounds_as_soon_as_it_is_placed(qapp):
    """An arc's bounds followed its first (empty) path when Qt asked for them while the path changed (its
    cached shape was the old path's): a scene with no view then left arcs out of every band of a PNG but the
    first. The bounds now hold the arc wherever it is placed, and a headless export in bands equals one pass."""
    from PySide6.QtCore import QPointF

    from bnstudio.gui.canvas.arc_item import ArcItem
    from bnstudio.gui.canvas.node_item import NodeItem

    a, b = NodeItem("A", ["y", "n"]), NodeItem("B", ["y", "n"])
    a.setPos(0.0, 0.0)
    b.setPos(300.0, 900.0)
    arc = ArcItem(a, b)
    for start, end in ((QPointF(10, 20), QPointF(300, 870)), (QPointF(-50, 500), QPointF(700, 1500))):
        arc.set_points([start, end])
        bounds = arc.sceneBoundingRect()
        assert bounds.contains(start) and bounds.contains(end), bounds


def test_a_headless_png_in_bands_has_every_arc(qapp, tmp_path, monkeypatch):
    from bnstudio.gui.network_image import write_network_image

    from .conftest import NETWORKS

    write_network_image(NETWORKS / "child.bif", tmp_path / "one.png", scale=1.0)
    monkeypatch.setattr(export, "BAND_ROWS", 64)
    write_network_image(NETWORKS / "child.bif", tmp_path / "bands.png", scale=1.0)
    assert np.array_equal(_pixels(QImage(str(tmp_path / "one.png"))), _pixels(QImage(str(tmp_path / "bands.png"))))
