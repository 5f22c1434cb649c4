"""File ▸ Print (Ctrl+P) and File ▸ Export as PDF: the whole network on one page, as vector drawing, under a line
naming the network and the evidence, on the page orientation that suits its shape; and the same for the
probability table shown in the CPT editor (every row, shaded as the notebook shows it, over as many pages as it
needs: :func:`bnstudio.display.cpt_table.cpt_html`) and for the Query panel as it stands (its answer, error bars
and plot, drawn from the widget, scaled to the page's width).

The page is drawn by :func:`draw_page` on any paint device with pages (a ``QPrinter`` from the print dialog, a
``QPdfWriter``), so what is printed is exactly what a PDF holds. The network is drawn by the canvas export's own
renderer (:mod:`bnstudio.gui.canvas.export`, which writes PNG and SVG), without the selection.
"""
from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtCore import QMarginsF, QPoint, QRectF, Qt
from PySide6.QtGui import QFont, QPagedPaintDevice, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument
from PySide6.QtWidgets import QFileDialog, QGraphicsScene, QWidget

from bnstudio.gui.canvas.export import render_scene
from bnstudio.gui.window_parts import WindowParts

#: scene units around the network on the page
FRAME = 20.0
#: PDF resolution (dots per inch): the drawing is vector; this sets the precision of its coordinates
PDF_DPI = 300
PAGE_MARGIN_MM = 12.0


def network_rect(scene: QGraphicsScene) -> QRectF:
    """What is printed: every item of the scene, framed."""
    return scene.itemsBoundingRect().adjusted(-FRAME, -FRAME, FRAME, FRAME)


def orientation_for(scene: QGraphicsScene) -> QPageLayout.Orientation:
    """Landscape for a network wider than tall, portrait otherwise."""
    rect = network_rect(scene)
    return QPageLayout.Orientation.Landscape if rect.width() > rect.height() else QPageLayout.Orientation.Portrait


def draw_heading(painter: QPainter, page: QRectF, heading: str) -> QRectF:
    """``heading`` at the top of ``page`` (device units); returns the area below it."""
    font = QFont(painter.font())
    font.setPointSizeF(10.0)
    painter.setFont(font)
    line = painter.fontMetrics().height()
    painter.setPen(Qt.GlobalColor.black)
    painter.drawText(QRectF(page.left(), page.top(), page.width(), line * 1.5),
                     Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, heading)
    return QRectF(page.left(), page.top() + 2 * line, page.width(), page.height() - 2 * line)


def draw_page(scene: QGraphicsScene, painter: QPainter, page: QRectF, heading: str) -> None:
    """Draw ``heading`` and below it the whole network, as large as ``page`` (device units) allows."""
    area = draw_heading(painter, page, heading)
    source = network_rect(scene)
    scale = min(area.width() / max(source.width(), 1.0), area.height() / max(source.height(), 1.0))
    target = QRectF(0.0, 0.0, source.width() * scale, source.height() * scale)
    target.moveCenter(area.center())            # centred across the page, under the heading
    target.moveTop(area.top())
    render_scene(scene, painter, target, source)   # as the PNG/SVG export draws it: not the selection


def _begun(device: QPagedPaintDevice) -> QPainter:
    """A painter on ``device``; OSError when the printer or file cannot be opened."""
    painter = QPainter()
    if not painter.begin(device):
        raise OSError("could not start printing (is the printer or the file available?)")
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    return painter


def _pdf(path: str | Path, title: str, orientation: QPageLayout.Orientation, draw) -> Path:
    """Write an A4 PDF at ``path`` with ``draw(writer)``; OSError when no file comes of it."""
    path = Path(path)
    writer = QPdfWriter(str(path))
    writer.setResolution(PDF_DPI)
    writer.setTitle(title)
    writer.setCreator("BN Studio")
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), orientation,
                                     QMarginsF(*(4 * [PAGE_MARGIN_MM])), QPageLayout.Unit.Millimeter))
    draw(writer)
    del writer                    # the file is complete once the writer is gone
    if not path.is_file() or path.stat().st_size == 0:
        raise OSError(f"could not write the PDF {path}")
    return path


def _print_dialog(parent: QWidget, name: str, what: str, orientation: QPageLayout.Orientation, draw) -> bool:
    """The system's print dialog for ``what``, then ``draw(printer)``; whether it was printed."""
    from PySide6.QtPrintSupport import QPrintDialog, QPrinter  # on use: printing support is not start-up

    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setPageOrientation(orientation)
    printer.setDocName(name)
    dialog = QPrintDialog(printer, parent)
    dialog.setWindowTitle(f"Print the {what}")
    if dialog.exec() != QPrintDialog.DialogCode.Accepted:
        return False
    draw(printer)
    return True


def print_scene(scene: QGraphicsScene, device: QPagedPaintDevice, heading: str) -> None:
    """Draw the network on one page of ``device`` (a printer or a PDF writer); raises OSError if it cannot."""
    painter = _begun(device)
    try:
        draw_page(scene, painter, QRectF(painter.viewport()), heading)
    finally:
        painter.end()


def export_pdf(scene: QGraphicsScene, path: str | Path, heading: str, title: str = "Bayesian network") -> Path:
    """Write the network to ``path`` as a one-page vector PDF (A4, its orientation by the network's shape)."""
    return _pdf(path, title, orientation_for(scene), lambda writer: print_scene(scene, writer, heading))


def print_dialog(scene: QGraphicsScene, parent: QWidget, heading: str) -> bool:
    """File ▸ Print: the system's print dialog, then the network on one page; whether it was printed."""
    return _print_dialog(parent, heading, "network", orientation_for(scene),
                         lambda printer: print_scene(scene, printer, heading))


def heading_of(window: WindowParts) -> str:
    """The line above the printed network: its title and the evidence entered (as the status bar says it)."""
    doc = window.document
    findings = [f"{name}={value}" if isinstance(value, str) else f"{name}~likelihood"
                for name, value in doc.evidence.items()]
    findings += [f"do({name}={value})" for name, value in doc.interventions.items()]
    return f"{doc.title} — " + (f"evidence: {', '.join(findings)}" if findings else "no evidence")


def print_network(window: WindowParts) -> bool:
    """File ▸ Print…"""
    return _reported(window, lambda: print_dialog(window.scene, window, heading_of(window)), "Printed")


def export_pdf_dialog(window: WindowParts) -> bool:
    """File ▸ Export as PDF…: asks where, writes the page."""
    doc = window.document
    suggested = str(doc.path.with_suffix(".pdf") if doc.path else Path(f"{doc.network.name or 'network'}.pdf"))
    path, _ = QFileDialog.getSaveFileName(window, "Export PDF", suggested, "PDF (*.pdf)")
    if not path:
        return False
    return _reported(window, lambda: export_pdf(window.scene, path, heading_of(window), doc.title) and True,
                     f"Exported {path}")


# ------------------------------------------------------------------ the probability table and the Query panel
#: what File ▸ Print and File ▸ Export as PDF can put on paper besides the network
PANELS = {"cpt": "Probability Table", "query": "Query Panel"}


def cpt_document(window: WindowParts) -> QTextDocument:
    """The CPT editor's variable as a shaded table under the network's title (every row; pages follow)."""
    from bnstudio.display.cpt_table import cpt_html

    var = window.cpt_editor.variable
    if var is None:
        raise OSError("select a node first: the Probability Table shows no variable")
    text = QTextDocument()
    text.setHtml(f"<p>{escape(window.document.title)}</p>" + cpt_html(window.document.network, var, max_rows=10_000))
    return text


def draw_widget_page(widget: QWidget, painter: QPainter, page: QRectF, heading: str) -> None:
    """``heading`` and below it ``widget`` as it stands, scaled to fit the page."""
    area = draw_heading(painter, page, heading)
    size = widget.size()
    scale = min(area.width() / max(size.width(), 1), area.height() / max(size.height(), 1))
    painter.save()
    painter.translate(area.left(), area.top())
    painter.scale(scale, scale)
    widget.render(painter, QPoint(0, 0))
    painter.restore()


def print_panel(window: WindowParts, panel: str, device: QPagedPaintDevice) -> None:
    """Put ``panel`` ("cpt" or "query") on ``device``; raises OSError when there is nothing to print."""
    if panel == "cpt":
        cpt_document(window).print_(device)
        return
    painter = _begun(device)
    try:
        draw_widget_page(window.query_panel, painter, QRectF(painter.viewport()),
                         f"{heading_of(window)} — Query panel")
    finally:
        painter.end()


def export_panel_pdf(window: WindowParts, panel: str, path: str | Path) -> Path:
    """Write ``panel`` to ``path`` as PDF (A4 portrait)."""
    return _pdf(path, f"{window.document.title} — {PANELS[panel]}", QPageLayout.Orientation.Portrait,
                lambda writer: print_panel(window, panel, writer))


def print_panel_dialog(window: WindowParts, panel: str) -> bool:
    """File ▸ Print ▸ Probability Table… / Query Panel…"""
    return _reported(window, lambda: _print_dialog(window, f"{window.document.title} — {PANELS[panel]}",
                                                   PANELS[panel], QPageLayout.Orientation.Portrait,
                                                   lambda printer: print_panel(window, panel, printer)), "Printed")


def export_panel_pdf_dialog(window: WindowParts, panel: str) -> bool:
    """File ▸ Export as PDF ▸ Probability Table… / Query Panel…"""
    doc = window.document
    stem = doc.path.with_suffix("") if doc.path else Path(doc.network.name or "network")
    suggested = f"{stem}-{'cpt' if panel == 'cpt' else 'query'}.pdf"
    path, _ = QFileDialog.getSaveFileName(window, f"Export the {PANELS[panel]} as PDF", suggested, "PDF (*.pdf)")
    if not path:
        return False
    return _reported(window, lambda: export_panel_pdf(window, panel, path) and True, f"Exported {path}")


def _reported(window: WindowParts, action, done: str) -> bool:
    try:
        if not action():
            return False
    except OSError as exc:
        window.show_message("error", str(exc))
        return False
    window.statusBar().showMessage(done, 5000)
    return True
