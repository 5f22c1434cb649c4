"""A panel the user opened keeps its place and its width (issue 38, items 1 and 6).

Seen at 1366x768: with the Query panel open, selecting the first node raised the Node tab over it and shrank
the right area from 642 to 437 px (the query panel then needed 73 px of sideways scrolling); View ▸ Data added
a tab but left Learn Parameters in front."""
from __future__ import annotations

import pytest

from bnstudio.gui import dock_layout

from .conftest import ASIA, fully_visible
from .test_dock_layout import settle, show_at


@pytest.fixture
def fresh_window(qtbot, settings, recovery, no_dialogs):
    from bnstudio.gui.main_window import MainWindow

    win = MainWindow(settings, recovery)
    yield win
    win.document.mark_saved()
    win.close()
    win.deleteLater()


def in_front(dock) -> bool:
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


@pytest.mark.parametrize("key", ["query", "training"])
def test_selecting_a_node_leaves_an_open_panel_in_front_at_its_width(qtbot, fresh_window, key):
    w = fresh_window
    assert w.open_path(ASIA)
    show_at(qtbot, w, (1366, 768))
    w.show_dock(key)
    if key == "query":
        w.query_panel.set_target({"either": "yes"})
        w.query_panel.set_ess(10.0)              # error bars: the density plot, its legend and buttons show
    settle(qtbot)
    dock = w.docks[key]
    width = dock.width()
    assert width == pytest.approx(dock_layout.RIGHT_FRACTION * w.width(), abs=30)
    w.scene.select_only(["tub"])                 # the first selection brings the Node and Probability Table docks
    settle(qtbot)
    assert in_front(dock), [k for k, d in w.docks.items() if in_front(d)]
    assert dock.width() == width
    assert w.docks["properties"].isVisible() or w.docks["properties"].toggleViewAction().isChecked()
    assert not in_front(w.docks["properties"])  # behind the panel, as a tab
    assert in_front(w.docks["cpt"]) and w.cpt_editor.model.variable == "tub"
    assert w.docks["cpt"].height() == pytest.approx(dock_layout.BOTTOM_FRACTION * w.height(), abs=30)
    if key == "query":                           # the whole panel fits: no sideways scrolling
        assert dock.widget().horizontalScrollBar().maximum() == 0
        panel = w.query_panel
        for widget in (panel.mc_bar.export, panel.controls.target.rows[0].state_box,
                       panel.density.whole_range):
            assert fully_visible(widget), widget


def test_a_dock_shown_from_the_view_menu_comes_to_the_front(qtbot, fresh_window):
    w = fresh_window
    show_at(qtbot, w, (1366, 768))
    w.show_dock("training")
    w.docks["data"].hide()
    settle(qtbot)
    assert in_front(w.docks["training"])
    toggle = w.docks["data"].toggleViewAction()
    assert toggle in w.menus["view"].actions()
    toggle.trigger()                             # View ▸ Data
    settle(qtbot)
    assert in_front(w.docks["data"]) and not in_front(w.docks["training"])
    toggle.trigger()                             # and View ▸ Data again hides it
    settle(qtbot)
    assert not w.docks["data"].isVisible()
