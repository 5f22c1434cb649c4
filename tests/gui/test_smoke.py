"""Every dock and panel opens standalone with demo data; the app helpers and the error hook work."""
from __future__ import annotations

import sys

import pytest
from PySide6.QtWidgets import QApplication

from bnstudio.gui import dialogs
from tests.demos.standalone import PANELS, open_panel


@pytest.mark.parametrize("name", sorted(PANELS))
def test_each_panel_opens_standalone_with_demo_data(qtbot, name, monkeypatch):
    monkeypatch.setattr(dialogs, "ask_save_changes", lambda *a: dialogs.DISCARD)
    widget = open_panel(name)
    widget.resize(800, 500)
    widget.show()
    qtbot.waitExposed(widget)
    QApplication.processEvents()
    assert not widget.grab().isNull()
    widget.close()


def test_demo_panels_show_their_data(qtbot):
    editor = open_panel("cpt_editor")
    qtbot.addWidget(editor)
    assert editor.model.rowCount() == 4 and editor.title.text() == "P(dysp | bronc, either)"
    panel = open_panel("properties")
    qtbot.addWidget(panel)
    assert panel.name_edit.text() == "either"
    canvas = open_panel("canvas")
    qtbot.addWidget(canvas)
    assert len(canvas.network_scene.nodes) == 8 and len(canvas.network_scene.arcs) == 8


def test_unexpected_exceptions_reach_one_dialog(monkeypatch):
    shown = []
    monkeypatch.setattr(dialogs, "show_unexpected", lambda *exc_info: shown.append(exc_info))
    previous = dialogs.install_excepthook()
    try:
        try:
            raise RuntimeError("boom")
        except RuntimeError:
            sys.excepthook(*sys.exc_info())
    finally:
        sys.excepthook = previous
    assert len(shown) == 1 and shown[0][0] is RuntimeError and str(shown[0][1]) == "boom"


def test_unexpected_error_dialog_shows_the_details(monkeypatch):
    boxes = []
    monkeypatch.setattr(dialogs, "show_error", lambda parent, title, summary, details="": boxes.append(
        (title, summary, details)))
    try:
        raise KeyError("missing")
    except KeyError:
        dialogs.show_unexpected(*sys.exc_info())
    title, summary, details = boxes[0]
    assert title == "Unexpected error" and "KeyError" in summary and "Traceback" in details
