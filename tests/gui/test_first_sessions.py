"""Each kind of user's first session, scripted with real mouse and keyboard events where a user would use them,
on a laptop screen (1366x768) and a desktop one (1920x1080): the domain expert who draws and fills a network,
the student who trains and compares learners, the analyst who asks p(q|e) and how sure it is. At every step the
control the user needs next is on screen, whole.
"""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication, QLineEdit

from bnstudio.gui import dialogs
from bnstudio.gui.main_window import MainWindow
from bnstudio.gui.panels import load_example_data
from bnstudio.inference import InferenceEngine

from .conftest import ASIA, NETWORKS, fully_visible

SCREENS = [(1366, 768), (1920, 1080)]


def settle(qtbot, ms: int = 20) -> None:
    QApplication.processEvents()
    qtbot.wait(ms)


@pytest.fixture(params=SCREENS, ids=[f"{w}x{h}" for w, h in SCREENS])
def app_window(request, qtbot, settings, recovery, monkeypatch):
    monkeypatch.setattr(dialogs, "ask_save_changes", lambda *a, **k: dialogs.DISCARD)
    win = MainWindow(settings, recovery)
    win.setWindowState(Qt.WindowNoState)
    win.resize(*request.param)
    win.show()
    qtbot.waitExposed(win)
    settle(qtbot)
    yield win
    win.document.mark_saved()
    win.close()
    win.deleteLater()


def click_at(qtbot, w: MainWindow, scene_point: QPointF, double: bool = False, modifier=Qt.NoModifier) -> None:
    pos = w.view.mapFromScene(scene_point)
    (qtbot.mouseDClick if double else qtbot.mouseClick)(w.view.viewport(), Qt.LeftButton, modifier, pos)


def test_the_expert_draws_fills_saves_reopens_and_enters_evidence(qtbot, app_window, tmp_path):
    w = app_window
    assert w.files.new_file()
    centre = w.view.mapToScene(w.view.viewport().rect().center())
    spots = {"Smoker": QPointF(-160, -120), "Cancer": QPointF(-160, 40), "Bronchitis": QPointF(160, 40),
             "Cough": QPointF(0, 200)}
    for name, offset in spots.items():                      # double-click empty space: a node under the pointer
        click_at(qtbot, w, centre + offset, double=True)
        new = w.scene.selected_names()[0]
        w.view.setFocus()
        qtbot.keyClick(w.view, Qt.Key_F2)                   # rename in place
        editor = next(e for e in w.view.viewport().findChildren(QLineEdit) if e.isVisible())
        assert editor.text() == new
        editor.setText(name)
        qtbot.keyClick(editor, Qt.Key_Return)
    net = w.document.network
    assert sorted(net.variables) == sorted(spots)
    w.scene.select_only(["Cough"])                          # a third state, from the properties panel
    w.show_dock("properties")
    settle(qtbot)
    assert fully_visible(w.properties.add_button)
    qtbot.mouseClick(w.properties.add_button, Qt.LeftButton)
    assert len(net.states("Cough")) == 3
    for parent, child in (("Smoker", "Cancer"), ("Smoker", "Bronchitis"), ("Cancer", "Cough"),
                          ("Bronchitis", "Cough")):        # Shift+drag from parent to child
        start, end = (w.view.mapFromScene(w.scene.nodes[n].scenePos()) for n in (parent, child))
        qtbot.mousePress(w.view.viewport(), Qt.LeftButton, Qt.ShiftModifier, start)
        qtbot.mouseMove(w.view.viewport(), end)
        qtbot.mouseRelease(w.view.viewport(), Qt.LeftButton, Qt.ShiftModifier, end)
    assert set(net.arcs()) == {("Smoker", "Cancer"), ("Smoker", "Bronchitis"), ("Cancer", "Cough"),
                               ("Bronchitis", "Cough")}
    w.scene.select_only(["Cough"])                          # fill the table by typing
    model, table = w.cpt_editor.model, w.cpt_editor.table
    assert fully_visible(table)
    rows = [[0.9, 0.08, 0.02], [0.3, 0.5, 0.2], [0.4, 0.4, 0.2], [0.05, 0.15, 0.8]]
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            assert model.setData(model.index(r, model.n_parents + c), str(value))
    np.testing.assert_allclose(np.asarray(net.cpt("Cough")).reshape(4, 3), rows)
    assert not w.rows_notice.isVisible()                    # every row sums to 1
    path = tmp_path / "cough.bnsproj"
    assert w.files.save_to(path) and not w.document.modified
    assert w.files.new_file() and w.files.open_path(path)
    net = w.document.network
    np.testing.assert_allclose(np.asarray(net.cpt("Cough")).reshape(4, 3), rows)
    w.view.set_zoom(1.0)
    item = w.scene.nodes["Smoker"]
    w.view.centerOn(item)
    settle(qtbot)
    point = item.mapToScene(item.row_rect(0).center())
    click_at(qtbot, w, point)                               # a click selects ...
    assert w.document.evidence == {} and w.cpt_editor.variable == "Smoker"
    click_at(qtbot, w, point, double=True)                  # ... a double-click sets the evidence
    state = net.states("Smoker")[0]
    assert w.document.evidence == {"Smoker": state}
    expected = InferenceEngine(net).posterior(["Cough"], {"Smoker": state})["Cough"]
    np.testing.assert_allclose(w.scene.nodes["Cough"].beliefs, expected, atol=1e-12)


def test_the_student_trains_watches_cancels_compares_and_learns_a_tan(qtbot, app_window):
    w = app_window
    assert w.open_path(ASIA)
    with qtbot.waitSignal(w.data_panel.selection_changed, timeout=20000):
        assert load_example_data(w, ASIA)
    qtbot.waitUntil(lambda: w.training_panel.selection is not None)
    data = w.data_panel
    w.show_dock("data")
    settle(qtbot)
    assert fully_visible(data.open_button) and fully_visible(data.align_button)
    data.split.target.setCurrentText("lung")                # the class, for clgd and the scores
    qtbot.waitUntil(lambda: w.training_panel.selection.target == "lung")
    panel = w.training_panel
    w.menu_actions.learn_parameters.trigger()
    settle(qtbot)
    assert fully_visible(panel.run_button) and fully_visible(panel.cancel_button) and fully_visible(panel.plot)
    for method in ("mp", "em", "clgd"):
        panel.options.set_method(method)
        with qtbot.waitSignal(panel.run_finished, timeout=60000):
            qtbot.mouseClick(panel.run_button, Qt.LeftButton)
    assert [r.method for r in panel.runs] == ["mp", "em", "clgd"]
    settle(qtbot)
    table = panel.results.table                             # every score column in view (Brier was cut at 1366)
    assert panel.tabs.currentWidget() is panel.results and table.horizontalScrollBar().maximum() == 0
    assert fully_visible(panel.results.apply_button)
    panel.tabs.setCurrentWidget(panel.results.confusion_page)       # the matrix has its own tab (issue 37)
    settle(qtbot)
    assert fully_visible(panel.results.confusion)
    panel.tabs.setCurrentWidget(panel.results)
    assert all(r.stop_reason in ("closed_form", "converged", "max_iter") for r in panel.runs)
    compare = panel.compare
    assert (compare.run_a.currentText(), compare.run_b.currentText()) == (panel.runs[1].label, panel.runs[2].label)
    assert compare.model.shifts and compare.model.shifts[0].max_abs > 0
    structure = w.structure_panel
    w.menu_actions.learn_structure.trigger()
    settle(qtbot)
    assert fully_visible(structure.run_button)
    structure.options.set_options(algorithm="tan", target="lung")
    with qtbot.waitSignal(structure.result_ready, timeout=60000):
        qtbot.mouseClick(structure.run_button, Qt.LeftButton)
    settle(qtbot)
    assert fully_visible(structure.accept_button)
    proposal = set(structure.result.arcs)
    qtbot.mouseClick(structure.accept_button, Qt.LeftButton)
    arcs = set(w.document.network.arcs())
    assert arcs == proposal and all(("lung", v) in arcs for v in w.document.network.variables if v != "lung")
    long_example = NETWORKS / "alarm-20k-missing.bnsproj"  # a run long enough to watch, then cancel
    assert w.files.open_path(long_example)
    qtbot.waitUntil(lambda: panel.selection is not None and panel.selection.n_rows == 20000, timeout=30000)
    panel.options.set_method("em")
    qtbot.mouseClick(panel.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.live is not None and len(panel.live.history) >= 1, timeout=60000)
    settle(qtbot, 300)
    assert panel.progress.isVisible() and panel.progress.value() > 0    # the bar moves with the run
    with qtbot.waitSignal(panel.run_cancelled, timeout=60000):
        qtbot.mouseClick(panel.cancel_button, Qt.LeftButton)
    assert panel.runs == [] and not w.document.modified     # the cancelled run left nothing


def test_the_analyst_asks_how_sure_an_answer_is(qtbot, app_window):
    w = app_window
    assert w.open_path(NETWORKS / "asia.bif")
    query = w.query_panel
    w.menu_actions.query_panel.trigger()
    settle(qtbot)
    query.set_target({"lung": "yes"})
    w.document.set_evidence("xray", "yes")
    settle(qtbot, 200)
    assert fully_visible(query.summary.text)                # p(q|e) at once, even without counts
    assert "p(lung=yes | xray=yes)" in query.summary.text.text()
    assert fully_visible(query.summary.use_ess) and fully_visible(query.summary.learn)
    qtbot.mouseClick(query.summary.use_ess, Qt.LeftButton)  # expert counts: error bars appear
    qtbot.waitUntil(lambda: query.density.bars is not None, timeout=10000)
    assert "interval" in query.summary.text.text().lower()
    assert fully_visible(query.mc_bar.run)
    with qtbot.waitSignal(query.monte_carlo_done, timeout=60000) as blocker:
        query.run_monte_carlo(draws=2000, seed=1)
    assert blocker.args[0] is not None and "covers" in query.density.label.text()
    query.tabs.setCurrentWidget(query.contributions)        # where the variance comes from
    settle(qtbot)
    first = query.contributions.contributions[0]
    query.contributions.click_row(0)                        # ... opens that CPT row
    assert w.cpt_editor.variable == first.variable
    assert w.cpt_editor.table.selectionModel().selectedRows()
