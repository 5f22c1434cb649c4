"""The status bar's hint says what a double-click does as the node is drawn when one reads it (issue 38, item 5).
Seen: after Find (Ctrl+F, Enter) on ALARM's first sight the hint said "double-click to zoom in", but Find had
zoomed in to the node and a double-click set evidence."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from bnstudio.gui.canvas import style as st

from .conftest import ALARM
from .test_dock_layout import settle, show_at
from .test_evidence import _state_point


@pytest.fixture
def opened(qtbot, settings, recovery, no_dialogs):
    """ALARM in a fresh window at 1366x768, at first sight (as the app opens it)."""
    from bnstudio.gui.main_window import MainWindow

    w = MainWindow(settings, recovery)
    show_at(qtbot, w, (1366, 768))
    assert w.open_path(ALARM)
    w.view.open_view()
    settle(qtbot)
    yield w
    w.document.mark_saved()
    w.close()
    w.deleteLater()


def test_after_find_the_hint_and_a_double_click_agree(opened, qtbot):
    w = opened
    w.view.set_zoom(0.3)    # first sight now draws bar charts (issue 38, item 4): zoom out to where it did not
    settle(qtbot)
    assert w.scene.drawn_style == st.SUMMARY                  # summaries, zoomed out
    w.menu_actions.find.trigger()
    bar = w.view.find_bar
    assert bar.isVisible()
    qtbot.keyClicks(bar, "HRBP")
    qtbot.keyClick(bar, Qt.Key_Return)
    settle(qtbot)
    assert w.scene.selected_names() == ["HRBP"] and w.scene.drawn_style == st.BARS
    hint = w.statusBar().currentMessage()
    assert hint.startswith("HRBP: double-click a state to set it as evidence"), hint
    qtbot.mouseDClick(w.view.viewport(), Qt.LeftButton, pos=_state_point(w, "HRBP", "HIGH"))
    assert w.document.evidence == {"HRBP": "HIGH"}           # what the hint said


def test_zooming_out_changes_the_hint_on_show(opened, qtbot):
    w = opened
    w.view.set_zoom(1.0)
    w.scene.select_only(["HR"])
    assert "double-click a state" in w.statusBar().currentMessage()
    w.view.set_zoom(0.3)                                      # summaries now: a double-click zooms in
    assert w.scene.drawn_style != st.BARS
    assert w.statusBar().currentMessage().startswith("HR: double-click")
    assert "set it as evidence" not in w.statusBar().currentMessage()
    w.statusBar().showMessage("something else")              # another message is left alone
    w.view.set_zoom(1.0)
    assert w.statusBar().currentMessage() == "something else"
