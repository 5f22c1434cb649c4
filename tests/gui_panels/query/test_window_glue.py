"""The lines the main window needs to dock the panels, exercised on a real MainWindow: a click on a variance
source opens that CPT row in the editor; the structure panel draws on the window's scene and picks arcs on
its canvas. Also the edge cases a docked panel meets: an empty document, impossible and soft evidence."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt

from bnstudio.app.query.compute import row_number
from bnstudio.gui import settings as cfg
from bnstudio.gui.document import Document
from bnstudio.gui.query_panel import QueryPanel
from bnstudio.gui.recovery import Recovery
from bnstudio.gui.structure_panel import StructurePanel
from bnstudio.uncertainty import error_bars
from tests.demos.structure_panel import asia_data


@pytest.fixture
def window(qtbot, tmp_path: Path):
    from bnstudio.gui.main_window import MainWindow

    win = MainWindow(cfg.Settings(QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat)),
                     Recovery(tmp_path / "recovery"))
    win.resize(1200, 800)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.document.mark_saved()
    win.close()
    win.deleteLater()


def open_cpt_row(window, variable: str, parents: dict) -> None:
    """What the main window does with ``QueryPanel.row_selected`` (the lines given to the lead)."""
    window.scene.select_only([variable])  # the CPT editor follows the selected node
    row = row_number(window.document.network, variable, parents)
    window.cpt_editor.table.selectRow(row)
    window.cpt_editor.table.scrollTo(window.cpt_editor.model.index(row, 0))
    window.docks["cpt"].raise_()


def test_a_clicked_variance_source_opens_its_cpt_row(qtbot, window, asia_mp):
    net, _ = asia_mp
    window.document.replace_network(net.copy())
    panel = QueryPanel(window.document)
    qtbot.addWidget(panel)
    panel.row_selected.connect(lambda variable, parents: open_cpt_row(window, variable, parents))
    window.document.set_evidence("xray", "yes")
    panel.set_target({"lung": "yes"})
    either = next(i for i, c in enumerate(panel.contributions.contributions) if c.variable == "either")
    contribution = panel.contributions.contributions[either]
    panel.contributions.click_row(either)
    editor = window.cpt_editor
    assert editor.variable == "either"
    rows = editor.table.selectionModel().selectedRows()
    assert len(rows) == 1
    label = editor.model.row_label(rows[0].row())
    assert label == ", ".join(f"{p}={s}" for p, s in contribution.parents.items())


def test_the_structure_panel_works_on_the_window_scene(qtbot, window):
    net, codes, names, states = asia_data()
    window.document.replace_network(net)
    panel = StructurePanel(window.document, window.scene)
    qtbot.addWidget(panel)
    panel.set_data(codes, names, states)
    panel.options.set_options(algorithm="tan", target="dysp")
    with qtbot.waitSignal(panel.result_ready, timeout=30000):
        panel.run()
    assert panel.overlay.shown()["added"]
    panel.pick_button.setChecked(True)
    view = window.view
    start = view.mapFromScene(window.scene.nodes["smoke"].pos())
    end = view.mapFromScene(window.scene.nodes["xray"].pos())
    qtbot.mousePress(view.viewport(), Qt.LeftButton, pos=start)
    qtbot.mouseRelease(view.viewport(), Qt.LeftButton, pos=end)
    assert panel.constraints.arcs.arcs() == [("smoke", "xray", "required")]
    assert panel.accept() and window.document.undo_stack.count() == 1
    window.document.undo_stack.undo()
    assert window.document.network.arcs() == net.arcs()


def test_panels_open_on_an_empty_document(qtbot):
    doc = Document()
    query, structure = QueryPanel(doc), StructurePanel(doc)
    qtbot.addWidget(query)
    qtbot.addWidget(structure)
    assert query.answer is None and "Pick the target" in query.summary.text.text()
    assert query.run_monte_carlo() is None
    assert structure.run() is None and not structure.run_button.isEnabled()


def test_impossible_evidence_is_explained_not_raised(make_panel):
    from bnstudio.io import read_network

    from .conftest import NETWORKS

    panel = make_panel(read_network(NETWORKS / "asia.bif"))  # 'either' is a deterministic OR here
    panel.set_ess(10.0)
    panel.set_evidence_mode("form", {"either": "no", "lung": "yes"})  # either = lung OR tub
    panel.set_target({"xray": "yes"})
    assert panel.answer.mean is None and "impossible" in panel.summary.text.text()
    assert panel.contributions.table.rowCount() == 0


def test_soft_evidence_from_the_canvas(make_panel, asia_mp):
    net, _ = asia_mp
    panel = make_panel(net)
    panel.document.set_evidence("xray", [0.9, 0.2])
    panel.set_target({"lung": "yes"})
    expected = error_bars(net, {"lung": "yes"}, {"xray": [0.9, 0.2]})
    assert panel.answer.bars.sd == pytest.approx(expected.sd, abs=1e-12)
    assert "xray~[0.9, 0.2]" in panel.summary.text.text()
    assert panel.run_monte_carlo() is None
    assert "hard evidence" in panel.messages.label.text()


def test_learn_from_data_gives_the_network_counts_and_the_query_error_bars(qtbot, window):
    from bnstudio.gui.panels import learn_counts_from_data, load_example_data

    from .conftest import NETWORKS

    path = NETWORKS / "asia.bif"
    assert window.open_path(path)
    panel = window.query_panel
    panel.set_target({"lung": "yes"})
    assert panel.summary.no_counts_shown and not panel.summary.learn.isHidden()
    assert not learn_counts_from_data(window)                 # no data yet: says where to load them
    assert "Data panel" in window.message_bar.label.text()
    with qtbot.waitSignal(window.data_panel.selection_changed, timeout=20000):
        assert load_example_data(window, path)
    qtbot.waitUntil(lambda: window.training_panel.selection is not None)
    with qtbot.waitSignal(window.document.undo_stack.indexChanged, timeout=30000):
        panel.summary.learn.click()                           # one click: mp on the data, applied
    net = window.document.network
    assert all(net.alpha(v) is not None for v in net.variables)
    assert window.document.undo_stack.count() == 1
    qtbot.waitUntil(lambda: not panel.summary.no_counts_shown)
    assert "credible" in panel.summary.text.text().lower() or "interval" in panel.summary.text.text().lower()
