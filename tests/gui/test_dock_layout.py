"""The analysis docks open at a usable size on a laptop and on a desktop screen: every dock's main buttons lie
fully inside the part of the dock one sees (seen: Parameter Learning ~130 px tall with Run / Cancel cut in half;
Structure Learning with Accept cut off), the panels grow with the window, and View ▸ Reset Layout brings the
arrangement back."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from bnstudio.gui import dock_layout
from bnstudio.gui.main_window import MainWindow

from .conftest import ALARM, fully_visible

SCREENS = [(1366, 768), (1920, 1080)]


def main_buttons(w: MainWindow) -> dict[str, list[QWidget]]:
    """Dock key -> the controls a user must be able to reach without scrolling (for the query panel: the
    answer, the offer of expert counts for a network without counts, and the Monte-Carlo check)."""
    w.structure_panel.result_box.show()          # Accept / Discard show with a proposal
    return {"training": [w.training_panel.run_button, w.training_panel.cancel_button],
            "structure": [w.structure_panel.run_button, w.structure_panel.accept_button,
                          w.structure_panel.discard_button],
            "query": [w.query_panel.mc_bar.run, w.query_panel.summary.text, w.query_panel.summary.use_ess],
            "data": [w.data_panel.open_button, w.data_panel.align_button],
            "properties": [w.properties.name_edit]}


def show_at(qtbot, w: MainWindow, size: tuple[int, int]) -> None:
    """The window at ``size`` (not maximised to the test platform's small virtual screen)."""
    w.setWindowState(Qt.WindowNoState)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    settle(qtbot)


def settle(qtbot) -> None:
    for _ in range(3):
        QApplication.processEvents()
    qtbot.wait(20)


@pytest.fixture
def fresh_window(qtbot, settings, recovery, no_dialogs):
    win = MainWindow(settings, recovery)
    yield win
    win.document.mark_saved()
    win.close()
    win.deleteLater()


@pytest.mark.parametrize("size", SCREENS)
def test_every_docks_main_buttons_are_fully_visible(qtbot, fresh_window, size):
    w = fresh_window
    assert w.open_path(ALARM)
    show_at(qtbot, w, size)
    for key, buttons in main_buttons(w).items():
        w.show_dock(key)
        settle(qtbot)
        for button in buttons:
            assert fully_visible(button), (size, key, getattr(button, "text", lambda: "")())


@pytest.mark.parametrize("size", SCREENS)
def test_the_docks_take_their_share_and_grow_with_the_window(qtbot, fresh_window, size):
    w = fresh_window
    assert w.open_path(ALARM)
    show_at(qtbot, w, size)
    w.show_dock("query")                        # a panel asked for: the right area at the panels' share
    w.show_dock("cpt")
    settle(qtbot)
    right, bottom = w.docks["query"], w.docks["cpt"]
    assert right.width() == pytest.approx(dock_layout.RIGHT_FRACTION * w.width(), abs=30)
    assert bottom.height() == pytest.approx(dock_layout.BOTTOM_FRACTION * w.height(), abs=30)
    assert w.dockWidgetArea(w.docks["structure"]) == Qt.RightDockWidgetArea
    w.resize(int(size[0] * 1.2), int(size[1] * 1.2))
    settle(qtbot)
    assert right.width() == pytest.approx(dock_layout.RIGHT_FRACTION * w.width(), abs=30)
    assert bottom.height() == pytest.approx(dock_layout.BOTTOM_FRACTION * w.height(), abs=30)


def test_reset_layout_brings_every_dock_back(qtbot, fresh_window):
    w = fresh_window
    show_at(qtbot, w, (1366, 768))
    w.docks["query"].setFloating(True)
    w.docks["data"].hide()
    w.addDockWidget(Qt.LeftDockWidgetArea, w.docks["training"])
    w.menu_actions.reset_layout.trigger()
    settle(qtbot)
    for key, dock in w.docks.items():
        assert dock.isVisible() and not dock.isFloating(), key
        expected = Qt.BottomDockWidgetArea if key == "cpt" else Qt.RightDockWidgetArea
        assert w.dockWidgetArea(dock) == expected, key
    assert w.docks["properties"].width() == pytest.approx(dock_layout.RIGHT_FRACTION * w.width(), abs=30)


def test_a_saved_layout_of_the_old_arrangement_is_not_restored(qtbot, settings, recovery, no_dialogs):
    from bnstudio.gui import settings as cfg

    first = MainWindow(settings, recovery)
    first.addDockWidget(Qt.LeftDockWidgetArea, first.docks["training"])
    settings.set_value(cfg.WINDOW_STATE, first.saveState(dock_layout.LAYOUT_VERSION - 1))
    first.deleteLater()
    second = MainWindow(settings, recovery)
    assert second.dockWidgetArea(second.docks["training"]) == Qt.RightDockWidgetArea
    second.deleteLater()


def test_the_learn_and_query_menus_open_their_panels(qtbot, fresh_window):
    w = fresh_window
    show_at(qtbot, w, (1366, 768))
    learn = [a.text() for a in w.menus["learn"].actions() if not a.isSeparator()]
    assert learn[:3] == ["Open &Data…", "Learn &Parameters…", "Learn &Structure…"]
    for action, key in ((w.menu_actions.learn_parameters, "training"), (w.menu_actions.learn_structure, "structure"),
                        (w.menu_actions.query_panel, "query")):
        w.docks[key].hide()
        action.trigger()
        settle(qtbot)
        assert w.docks[key].isVisible() and not w.docks[key].visibleRegion().isEmpty(), key


def test_the_whole_toolbar_shows_at_1366_wide(qtbot, fresh_window):
    """No toolbar button hides behind the overflow chevron on a laptop screen (the toolbar's labels are short;
    the menus keep the full text)."""
    w = fresh_window
    show_at(qtbot, w, (1366, 768))
    hidden = [a.iconText() for a in w.toolbar.actions()
              if not a.isSeparator() and not w.toolbar.widgetForAction(a).isVisible()]
    assert hidden == []
    assert w.menu_actions.auto_layout.text() == "Automatic &Layout" and w.menu_actions.auto_layout.iconText() == "Layout"


@pytest.mark.parametrize("node", ["either", "tub"])     # no noisy-MAX, and a node that can be made one
def test_the_probability_tables_toolbar_shows_whole_at_1366_wide(qtbot, fresh_window, node):
    """Seen in the re-rendered first-hour screenshot: Noisy-MAX and Plain table behind the CPT toolbar's chevron
    at 1366x768. Every tool is on the toolbar or in the menu of one that is (Dirichlet counts)."""
    from .conftest import ASIA

    w = fresh_window
    assert w.open_path(ASIA)
    show_at(qtbot, w, (1366, 768))
    w.scene.select_only([node])
    settle(qtbot)
    editor = w.cpt_editor
    shown = [a for a in editor.toolbar.actions() if not a.isSeparator()]
    assert [a.text() for a in shown if not editor.toolbar.widgetForAction(a).isVisible()] == []
    reachable = set(shown)
    for a in shown:
        button = editor.toolbar.widgetForAction(a)
        reachable |= {button.defaultAction()} | set(button.menu().actions() if button.menu() else [])
    assert set(editor.actions_by_name.values()) <= reachable


@pytest.mark.parametrize("size", SCREENS)
def test_every_methods_training_options_show_whole_without_scrolling(qtbot, fresh_window, size):
    """Seen at 1366x768: the options sat in a ~100 px scroll area, clgd's α, L2, optimiser, iterations and
    patience below its fold. Now every field of every method shows whole (in two columns on a laptop), the
    default method's first, and the curves keep most of the height."""
    from bnstudio.learn.params import METHODS

    w = fresh_window
    show_at(qtbot, w, size)
    w.show_dock("training")
    settle(qtbot)
    panel = w.training_panel
    options = panel.options
    assert options.current_method() == METHODS[0] == "ml"      # the default: checked first

    def clipped() -> list[str]:
        shown = [name for name in options.editors if options.is_shown(name)]
        return [name for name in shown if not fully_visible(options.editors[name])]

    def laid_out() -> bool:
        return (not clipped() and fully_visible(options.method) and fully_visible(panel.run_button)
                and panel.plot.height() >= 200)

    for method in METHODS:
        options.set_method(method)
        settle(qtbot)
        # the dock's layout settles over a few event-loop turns, more of them on a loaded machine: judge the
        # settled layout (within 5 s), then say what is wrong if it never gets there
        try:
            qtbot.waitUntil(laid_out, timeout=5000)
        except qtbot.TimeoutError:
            pass
        assert not clipped(), (size, method, clipped())
        assert fully_visible(options.method) and fully_visible(panel.run_button), (size, method)
        assert panel.plot.height() >= 200, (size, method, panel.plot.height())


@pytest.mark.parametrize("size", SCREENS)
def test_a_noisy_max_shows_every_parameter_row_above_its_table(qtbot, fresh_window, tmp_path, size):
    """Seen at 1366x768: the noisy-MAX parameter table of a two-parent node showed one and a half rows (the leak
    out of sight) above the CPT. The parameters and the CPT now share a splitter, and the parameter table keeps
    three compact rows: both links and the leak show whole."""
    from bnstudio.core.canonical import NoisyMax, set_canonical
    from bnstudio.core.network import Network
    from bnstudio.io import write_network

    net = Network()
    for v in "AB":
        net.add_variable(v, ["present", "absent"], cpt=[0.3, 0.7])
    net.add_variable("C", ["present", "absent"], ["A", "B"])
    set_canonical(net, "C", NoisyMax.noisy_or([0.8, 0.6], 0.05))
    write_network(net, tmp_path / "noisy.bnsproj")
    w = fresh_window
    assert w.open_path(tmp_path / "noisy.bnsproj")
    show_at(qtbot, w, size)
    w.scene.select_only(["C"])                  # brings the Probability Table
    w.cpt_editor.set_variable("C")
    settle(qtbot)
    table = w.cpt_editor.canonical.table
    assert table.rowCount() == 3 and fully_visible(table)
    viewport = table.viewport().rect()
    for row in range(3):
        cell = table.visualRect(table.model().index(row, 0))
        assert viewport.contains(cell), (size, row, cell, viewport)
    assert w.cpt_editor.table.height() >= 60    # the CPT below keeps its header and rows in view


@pytest.mark.parametrize("size", SCREENS)
def test_at_first_sight_the_canvas_has_the_window_until_a_node_is_selected(qtbot, fresh_window, size):
    """Issue 23: the empty Node pane (~47% of the width) and the empty Probability Table took the window at
    start. Now every dock starts hidden; the first selected node brings the Node and Probability Table docks
    at their share; View ▸ and the panels' menus show the others."""
    w = fresh_window
    assert w.open_path(ALARM)
    show_at(qtbot, w, size)
    assert [k for k, d in w.docks.items() if d.isVisible()] == []
    assert w.view.width() >= 0.95 * w.width() and w.view.height() >= w.height() - 120
    w.scene.select_only(["HR"])
    settle(qtbot)
    assert [k for k, d in w.docks.items() if d.isVisible()] == ["properties", "cpt"]
    assert w.docks["properties"].width() == pytest.approx(dock_layout.NODE_FRACTION * w.width(), abs=30)
    assert w.docks["cpt"].height() == pytest.approx(dock_layout.BOTTOM_FRACTION * w.height(), abs=30)
    assert w.properties.name_edit.text() == "HR" and fully_visible(w.properties.name_edit)
    w.scene.clearSelection()
    w.docks["properties"].hide()
    w.scene.select_only(["BP"])                 # only the first selection does it: a closed dock stays closed
    settle(qtbot)
    assert not w.docks["properties"].isVisible()
    w.show_dock("training")                     # a panel widens the right area to the panels' share
    settle(qtbot)
    assert w.docks["training"].width() == pytest.approx(dock_layout.RIGHT_FRACTION * w.width(), abs=30)


def open_20k_example(qtbot, w: MainWindow) -> None:
    from bnstudio.app.resources import bundled_example

    assert w.open_path(bundled_example("alarm-20k-missing.bnsproj"))
    qtbot.waitUntil(lambda: w.data_panel.selection is not None, timeout=60000)


def name_fits(combo, name: str = "HYPOVOLEMIA") -> bool:
    """Whether ``combo`` is wide enough to show ``name`` whole (its frame and arrow besides the text)."""
    return combo.width() >= combo.fontMetrics().horizontalAdvance(name) + 30


@pytest.mark.parametrize("size", SCREENS)
def test_the_data_panel_needs_no_sideways_scrolling_with_the_20k_example(qtbot, fresh_window, size):
    """Seen at 1366x768: the Data panel wider than the screen, its Counts column, Target box and "Align to
    network" cut off (a long path in one line, the discretise and target boxes side by side)."""
    w = fresh_window
    show_at(qtbot, w, size)
    open_20k_example(qtbot, w)
    w.show_dock("data")
    settle(qtbot)
    panel, area = w.data_panel, w.docks["data"].widget()
    assert area.horizontalScrollBar().maximum() == 0, size
    assert panel.summary.horizontalScrollBar().maximum() == 0, size      # every column, Counts included
    for widget in (panel.split.target, panel.align_button, panel.open_button, panel.summary):
        assert fully_visible(widget), (size, widget)
    assert panel.split.target.currentText() == "BP"
    panel.split.target.setCurrentText("HYPOVOLEMIA")
    settle(qtbot)
    assert name_fits(panel.split.target), (size, panel.split.target.width())


@pytest.mark.parametrize("size", SCREENS)
def test_every_query_setting_shows_whole_with_the_20k_example(qtbot, fresh_window, size):
    """Seen at 1366x768: target, evidence, level and expert counts shared a ~130 px scroll area, the evidence
    and "Expert counts, ESS" half hidden."""
    w = fresh_window
    show_at(qtbot, w, size)
    open_20k_example(qtbot, w)
    w.show_dock("query")
    panel = w.query_panel
    panel.set_target({"HYPOVOLEMIA": "TRUE"})
    panel.set_ess(10.0)
    settle(qtbot)
    c = panel.controls
    row = c.target.rows[0]
    for widget in (c.source, c.level, c.use_ess, c.ess, panel.summary.text, panel.mc_bar.run):
        assert fully_visible(widget), (size, widget)
    assert w.docks["query"].widget().horizontalScrollBar().maximum() == 0, size
    settings_area = c.parentWidget().parentWidget()
    assert settings_area.verticalScrollBar().maximum() == 0, size     # nothing of the settings scrolled away
    assert fully_visible(row.variable_box) and name_fits(row.variable_box), size
    assert panel.density.plot.height() >= 150, (size, panel.density.plot.height())


@pytest.mark.parametrize("size", SCREENS)
def test_combo_boxes_of_names_show_alarms_longest_names(qtbot, fresh_window, size):
    w = fresh_window
    show_at(qtbot, w, size)
    open_20k_example(qtbot, w)
    w.show_dock("structure")
    settle(qtbot)
    options = w.structure_panel.options
    options.target.setCurrentText("HYPOVOLEMIA")
    settle(qtbot)
    assert name_fits(options.target), size
