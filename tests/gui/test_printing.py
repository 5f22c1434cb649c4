"""File ▸ Print (Ctrl+P) and File ▸ Export as PDF write the whole network on one page (issue 38, "printing and
PDF"). The PDF is checked by reading its structure independently of Qt: the header, one page, the cross-reference
table where ``startxref`` says it is, a page as wide as the network's shape asks, and a drawing on it."""
from __future__ import annotations

import re
import zlib
from pathlib import Path

import pytest
from PySide6.QtGui import QKeySequence

from bnstudio.gui import printing

from .conftest import ALARM, ASIA


def read_pdf(path: Path) -> dict:
    """The facts of a PDF file this test relies on, read from its bytes."""
    data = path.read_bytes()
    assert data.startswith(b"%PDF-1."), data[:16]
    assert data.rstrip().endswith(b"%%EOF")
    offset = int(re.findall(rb"startxref\s+(\d+)\s+%%EOF", data)[-1])
    assert data[offset:offset + 4] == b"xref"              # the table is where the trailer says
    pages = re.findall(rb"/Type\s*/Page(?!s)\b", data)
    box = [float(v) for v in re.search(rb"/MediaBox\s*\[\s*([\d.\s]+)\]", data).group(1).split()]
    drawing = b""
    for match in re.finditer(rb"/FlateDecode.*?stream\r?\n(.*?)endstream", data, re.S):
        try:
            drawing += zlib.decompress(match.group(1))
        except zlib.error:
            continue                                        # an image or font stream
    return {"pages": len(pages), "width": box[2] - box[0], "height": box[3] - box[1], "drawing": drawing}


def test_export_pdf_writes_a_one_page_pdf_of_the_network(tmp_path, alarm_window):
    w = alarm_window
    w.scene.select_only(["HR"])
    out = printing.export_pdf(w.scene, tmp_path / "alarm.pdf", printing.heading_of(w))
    facts = read_pdf(out)
    assert facts["pages"] == 1
    rect = printing.network_rect(w.scene)
    assert (facts["width"] > facts["height"]) == (rect.width() > rect.height())      # the page suits its shape
    assert sorted([facts["width"], facts["height"]]) == pytest.approx([595.0, 842.0], abs=2)   # A4 in points
    operators = re.findall(rb"\s(re|l|c|f|S|Tj|TJ)\s", facts["drawing"])
    assert len(operators) > 37 * 4                       # every node's box, bars and text are drawn
    assert w.scene.selected_names() == ["HR"]            # the selection is left as it was


def test_a_bigger_network_draws_more(tmp_path, window):
    assert window.open_path(ASIA)
    small = read_pdf(printing.export_pdf(window.scene, tmp_path / "asia.pdf", "asia"))
    assert window.open_path(ALARM)
    large = read_pdf(printing.export_pdf(window.scene, tmp_path / "alarm.pdf", "alarm"))
    assert len(large["drawing"]) > 2 * len(small["drawing"]) > 0


def test_printing_goes_through_the_same_page(tmp_path, window):
    from PySide6.QtPrintSupport import QPrinter

    assert window.open_path(ASIA)
    printer = QPrinter(QPrinter.HighResolution)
    printer.setOutputFormat(QPrinter.PdfFormat)          # what "Print to file" does in the dialog
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    printer.setPageOrientation(printing.orientation_for(window.scene))
    printing.print_scene(window.scene, printer, printing.heading_of(window))
    del printer
    facts = read_pdf(tmp_path / "printed.pdf")
    assert facts["pages"] == 1 and re.findall(rb"\s(re|l|c)\s", facts["drawing"])


def test_the_file_menu_prints_and_exports(tmp_path, window, monkeypatch):
    w = window
    assert w.open_path(ASIA)
    assert w.document.set_evidence("xray", "yes")
    assert w.menu_actions.print.shortcut() == QKeySequence(QKeySequence.Print)
    assert {w.menu_actions.print, w.menu_actions.export_pdf} <= set(w.menus["file"].actions())
    assert printing.heading_of(w).endswith("evidence: xray=yes")
    target = tmp_path / "chosen.pdf"
    monkeypatch.setattr(printing.QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), "PDF (*.pdf)"))
    w.menu_actions.export_pdf.trigger()
    assert read_pdf(target)["pages"] == 1
    assert w.statusBar().currentMessage() == f"Exported {target}"


def test_an_unwritable_pdf_is_said_in_one_line(tmp_path, window):
    assert window.open_path(ASIA)
    with pytest.raises(OSError, match="could not"):
        printing.export_pdf(window.scene, tmp_path / "no such folder" / "x.pdf", "asia")


def test_the_probability_table_prints_every_row_over_as_many_pages_as_it_needs(tmp_path, window):
    """The CPT editor's variable, every parent configuration (none cut at the widget's scroll), shaded."""
    from bnstudio.core import network_from_dsl
    from bnstudio.io import write_network

    write_network(network_from_dsl("; ".join(f"P{k}->C" for k in range(8)), seed=0), tmp_path / "wide.bif")
    assert window.open_path(tmp_path / "wide.bif")
    window.cpt_editor.set_variable("P0")                 # one row: one page
    small = read_pdf(printing.export_panel_pdf(window, "cpt", tmp_path / "p0.pdf"))
    assert small["pages"] == 1 and small["height"] > small["width"]
    window.cpt_editor.set_variable("C")                  # 256 parent configurations
    numbers = re.findall(r"\b[01]\.\d{4}\b", printing.cpt_document(window).toPlainText())
    assert len(numbers) == window.document.network.cpt("C").size        # every row's every probability
    assert read_pdf(printing.export_panel_pdf(window, "cpt", tmp_path / "c.pdf"))["pages"] > 2


def test_the_query_panel_prints_as_it_stands(tmp_path, window, monkeypatch):
    assert window.open_path(ASIA)
    window.docks["query"].show()
    window.query_panel.set_target({"lung": "yes"})
    target = tmp_path / "query.pdf"
    monkeypatch.setattr(printing.QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), "PDF (*.pdf)"))
    assert set(window.menu_actions.export_panel_pdf.values()) | set(window.menu_actions.print_panel.values()) <= set(
        window.menus["file"].actions())
    window.menu_actions.export_panel_pdf["query"].trigger()
    facts = read_pdf(target)
    assert facts["pages"] == 1 and len(re.findall(rb"\s(re|l|c|f)\s", facts["drawing"])) > 20


def test_a_probability_table_without_a_variable_is_said(tmp_path, window):
    assert window.open_path(ASIA)
    window.cpt_editor.set_variable(None)
    with pytest.raises(OSError, match="select a node first"):
        printing.export_panel_pdf(window, "cpt", tmp_path / "none.pdf")
