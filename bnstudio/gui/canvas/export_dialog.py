"""File ▸ Export Image: the save dialog (PNG, SVG or PDF by the name's extension; SVG first for a network whose
PNG would be scaled down) and a PNG drawn with a progress dialog that can cancel it (:mod:`.export`)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QProgressDialog, QWidget

from bnstudio.errors import Cancelled
from bnstudio.gui.canvas.export import export_pdf, export_png, export_svg, png_size, source_rect
from bnstudio.jobs import IterationInfo, NullReporter

FILTERS = {".png": "PNG image (*.png)", ".svg": "SVG drawing (*.svg)", ".pdf": "PDF document (*.pdf)"}


def large(scene) -> bool:
    """Whether the scene's PNG at the default scale would be capped (a vector format keeps its detail)."""
    source = source_rect(scene)
    return png_size(source.width(), source.height(), 2.0).capped


def ask_image_path(parent: QWidget, scene, stem: Path, suffix: str = ".png") -> str:
    """The save dialog; the default format is ``suffix``, SVG for a large network. Returns "" if cancelled."""
    if suffix == ".png" and large(scene):
        suffix = ".svg"
    filters = [FILTERS[suffix], *[f for k, f in FILTERS.items() if k != suffix]]
    title = "Export Image" + (" (a large network: SVG and PDF keep every detail)" if suffix == ".svg" else "")
    path, _ = QFileDialog.getSaveFileName(parent, title, str(stem.with_suffix(suffix)), ";;".join(filters))
    return path


def write_image(parent: QWidget, scene, path: str) -> str:
    """Write the scene to ``path`` in the format its extension names (PNG when none matches); returns what the
    status bar says. Raises OSError on failure and Cancelled when the user stopped a PNG."""
    suffix = Path(path).suffix.lower()
    if suffix == ".svg":
        export_svg(scene, path)
        return f"Exported {path}"
    if suffix == ".pdf":
        export_pdf(scene, path)
        return f"Exported {path}"
    dialog = QProgressDialog("Drawing the image…", "Cancel", 0, 1, parent)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(300)
    reporter = _DialogReporter(dialog)
    try:
        size = export_png(scene, path, reporter=reporter)
    finally:
        dialog.close()
        dialog.deleteLater()
    note = (f" ({size.width} x {size.height} px, scaled down: Export Image as SVG or PDF keeps every detail)"
            if size.capped else "")
    return f"Exported {path}{note}"


class _DialogReporter(NullReporter):
    """The jobs protocol on a progress dialog: its bar follows the bands, its Cancel button stops."""

    def __init__(self, dialog: QProgressDialog) -> None:
        super().__init__()
        self.dialog = dialog

    def begin(self, label: str, total: int | None) -> None:
        self.dialog.setMaximum(max(1, total or 1))

    def iteration(self, info: IterationInfo) -> bool:
        self.dialog.setValue(info.iteration)
        QApplication.processEvents()
        return self.dialog.wasCanceled() or self.cancelled


def export_image(parent: QWidget, scene, path: str) -> tuple[bool, str]:
    """:func:`write_image`, a cancelled PNG reported, not raised: (written, message)."""
    try:
        return True, write_image(parent, scene, path)
    except Cancelled:
        Path(path).unlink(missing_ok=True)
        return False, "Export cancelled"
