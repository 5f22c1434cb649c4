"""The data panel: background reading, virtualised table, counts, discretisation with preview, alignment with
the unknown-states dialog (extend = one undoable command, or drop rows), splits, the project record."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableView

from bnstudio.data import Dataset, align, equal_width, mdl, read_csv
from bnstudio.gui.data_panel import DataPanel, DataSelection, split_rows, unknown_states
from bnstudio.gui.data_panel.models import DatasetModel, counts_text
from bnstudio.gui.file_controller import open_into
from tests.gui_panels.training.conftest import ASIA_CSV, cpts_of, same_cpts


def load(qtbot, panel: DataPanel, path, **kw) -> DataSelection | None:
    with qtbot.waitSignal(panel.selection_changed, timeout=10000) as blocker:
        panel.load(path, **kw)
    return blocker.args[0]


def test_demo_panel_opens_standalone_with_asia(qtbot):
    from tests.demos.data_panel import demo_panel

    panel = demo_panel()
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.selection_changed, timeout=10000) as blocker:
        panel.show()
    selection = blocker.args[0]
    assert panel.model.rowCount() == 3000 and panel.model.columnCount() == 8
    assert selection.target == "bronc" and selection.n_rows == 3000
    assert (len(selection.train), len(selection.validation), len(selection.test)) == (1800, 600, 600)
    assert selection.matches(panel.document.network)
    panel.shutdown()


def test_counts_and_missing_match_the_dataset(qtbot, data_panel, tmp_path):
    lines = ASIA_CSV.read_text().splitlines()
    rows = [line.split(",") for line in lines[1:]]
    for k in (3, 10, 11, 500):        # some missing cells in 'smoke' and one in 'dysp'
        rows[k][2] = ""
    rows[7][7] = "?"
    path = tmp_path / "asia_missing.csv"
    path.write_text("\n".join([lines[0]] + [",".join(r) for r in rows]) + "\n")
    load(qtbot, data_panel, path)
    expected = read_csv(path)
    model = data_panel.summary_model
    assert model.rowCount() == 8
    for r, column in enumerate(expected.columns):
        assert model.index(r, 0).data() == column
        assert model.index(r, 3).data() == f"{expected.missing_counts()[column]:,}"
        assert model.index(r, 4).data() == counts_text(expected.column_states(column),
                                                       expected.state_counts(column))
    assert model.index(2, 3).data() == "4" and model.index(7, 3).data() == "1"
    assert "smoke" in model.index(2, 0).data() and "no: " in model.index(2, 4).data()
    # the table shows missing cells as '?' and the others by state name
    assert data_panel.model.index(3, 2).data() == "?"
    assert data_panel.model.index(0, 0).data() == rows[0][0]


def test_a_million_rows_scroll(qtbot):
    rng = np.random.default_rng(0)
    n = 1_000_000
    codes = rng.integers(-1, 3, size=(n, 6))
    ds = Dataset([f"c{j}" for j in range(6)], [("a", "b", "c")] * 6, codes)
    model = DatasetModel()
    view = QTableView()
    qtbot.addWidget(view)
    view.verticalHeader().setDefaultSectionSize(22)
    from PySide6.QtWidgets import QHeaderView
    view.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
    view.setModel(model)
    model.set_dataset(ds)
    view.resize(600, 400)
    view.show()
    qtbot.waitExposed(view)
    view.scrollToBottom()
    qtbot.wait(10)
    last = view.rowAt(view.viewport().height() - 2)
    assert last == n - 1
    expected = "?" if codes[n - 1, 2] < 0 else "abc"[codes[n - 1, 2]]
    assert model.index(n - 1, 2).data() == expected
    assert view.verticalHeader().count() == n


def test_discretise_previews_cut_points_then_applies(qtbot, data_panel, tmp_path, document):
    rng = np.random.default_rng(3)
    x = np.round(rng.normal(50, 15, 400), 1)
    cls = np.where(x > 55, "yes", "no")
    path = tmp_path / "numeric.csv"
    path.write_text("x,bronc\n" + "\n".join(f"{a},{c}" for a, c in zip(x, cls, strict=True)) + "\n")
    load(qtbot, data_panel, path)
    box = data_panel.discretise
    assert box.isEnabled() and box.column.currentText() == "x"
    box.method.setCurrentIndex(box.method.findData("equal_width"))
    box.bins.setValue(3)
    assert not box.apply_button.isEnabled()          # preview first
    qtbot.mouseClick(box.preview_button, Qt.LeftButton)
    # cut points are learnt on the training rows only (the default 20% validation, 20% test held out, seed 0):
    # the held-out rows never move a cut (docs/architecture.md §3.26)
    train = split_rows(400, 0.2, 0.2, 0)[0]
    expected = equal_width(x[train], 3)
    assert np.allclose(box.current.cuts, expected.cuts) and not np.allclose(expected.cuts, equal_width(x, 3).cuts)
    for cut in expected.cuts:
        assert f"{cut:.6g}" in box.preview_label.text()
    assert "240 training rows" in box.preview_label.text()
    # MDL with the class column finds the true boundary (55) within the data's resolution
    box.method.setCurrentIndex(box.method.findData("mdl"))
    box.class_column.setCurrentText("bronc")
    disc = box.preview()
    assert np.allclose(disc.cuts, mdl(x[train], cls[train]).cuts) and abs(disc.cuts[0] - 55) < 1
    with qtbot.waitSignal(data_panel.selection_changed, timeout=5000):
        qtbot.mouseClick(box.apply_button, Qt.LeftButton)
    ds = data_panel.state.dataset
    assert ds.column_states("x") == disc.labels
    assert np.array_equal(ds.column("x"), disc.apply(x))
    assert data_panel.summary_model.index(0, 1).data() == "binned"
    recorded = document.project.data["settings"]["discretise"]["x"]
    assert recorded["method"] == "mdl" and recorded["class"] == "bronc"
    assert np.allclose(recorded["cuts"], disc.cuts)


def test_other_held_out_rows_learn_the_cut_points_again_on_the_new_training_rows(qtbot, data_panel, tmp_path):
    rng = np.random.default_rng(4)
    x = np.round(rng.normal(50, 15, 300), 2)
    cls = np.where(x + rng.normal(0, 8, 300) > 55, "yes", "no")
    path = tmp_path / "numeric.csv"
    path.write_text("x,bronc\n" + "\n".join(f"{a},{c}" for a, c in zip(x, cls, strict=True)) + "\n")
    load(qtbot, data_panel, path)
    box = data_panel.discretise
    box.method.setCurrentIndex(box.method.findData("mdl"))
    box.class_column.setCurrentText("bronc")
    with qtbot.waitSignal(data_panel.selection_changed, timeout=5000):
        box.apply()
    with qtbot.waitSignal(data_panel.selection_changed, timeout=5000):
        data_panel.split.test.setValue(40.0)
    train = split_rows(300, 0.2, 0.4, 0)[0]
    cuts = data_panel.state.discretised["x"]["cuts"]
    assert np.allclose(cuts, mdl(x[train], cls[train]).cuts)
    assert data_panel.state.dataset.column_states("x") == mdl(x[train], cls[train]).labels


def _csv_with_unknown_values(tmp_path):
    lines = ASIA_CSV.read_text().splitlines()
    rows = [line.split(",") for line in lines[1:]]
    for k in (5, 17, 900):
        rows[k][2] = "sometimes"      # smoke
    rows[40][7] = "severe"            # dysp
    path = tmp_path / "asia_unknown.csv"
    path.write_text("\n".join([lines[0]] + [",".join(r) for r in rows]) + "\n")
    return path


def test_unknown_states_extend_adds_them_in_one_undoable_command(qtbot, data_panel, tmp_path, monkeypatch):
    asked = []
    monkeypatch.setattr(unknown_states, "ask_unknown_states",
                        lambda parent, problems, n: asked.append(problems) or unknown_states.EXTEND)
    doc = data_panel.document
    before = cpts_of(doc.network)
    selection = load(qtbot, data_panel, _csv_with_unknown_values(tmp_path))
    assert [(p.column, p.value, p.count) for p in asked[0]] == [("smoke", "sometimes", 3), ("dysp", "severe", 1)]
    assert doc.network.states("smoke") == ("yes", "no", "sometimes")
    assert doc.network.states("dysp") == ("yes", "no", "severe")
    assert doc.undo_stack.count() == 1 and selection is not None and selection.matches(doc.network)
    assert selection.n_rows == 3000
    with qtbot.waitSignal(data_panel.selection_changed, timeout=5000) as blocker:
        doc.undo_stack.undo()
    assert blocker.args[0] is None                    # the data no longer fit: withdrawn
    assert doc.network.states("smoke") == ("yes", "no") and same_cpts(cpts_of(doc.network), before)
    doc.undo_stack.redo()
    assert doc.network.states("smoke") == ("yes", "no", "sometimes")
    assert data_panel.selection is not None and data_panel.selection.matches(doc.network)


def test_unknown_states_drop_rows_keeps_the_network(qtbot, data_panel, tmp_path, monkeypatch):
    monkeypatch.setattr(unknown_states, "ask_unknown_states", lambda *a: unknown_states.DROP)
    doc = data_panel.document
    selection = load(qtbot, data_panel, _csv_with_unknown_values(tmp_path), settings=None)
    assert selection.n_rows == 3000 - 4 and doc.undo_stack.count() == 0
    assert doc.network.states("smoke") == ("yes", "no")
    assert doc.project.data["settings"]["dropped_values"] == [["smoke", "sometimes"], ["dysp", "severe"]]


def test_unknown_states_dialog_lists_values_and_offers_both_ways(qtbot, tmp_path):
    from bnstudio.data import StateProblem

    problems = [StateProblem("smoke", "sometimes", 3, "lines 7, 19, 902"), StateProblem("dysp", "severe", 1, "line 42")]
    dialog = unknown_states.UnknownStatesDialog(problems, 3000)
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == 2
    assert [dialog.table.item(0, c).text() for c in range(4)] == ["smoke", "sometimes", "3", "lines 7, 19, 902"]
    dialog.open()
    qtbot.mouseClick(dialog.extend_button, Qt.LeftButton)
    assert dialog.choice == unknown_states.EXTEND and not dialog.isVisible()
    dialog = unknown_states.UnknownStatesDialog(problems, 3000)
    qtbot.addWidget(dialog)
    dialog.open()
    qtbot.mouseClick(dialog.drop_button, Qt.LeftButton)
    assert dialog.choice == unknown_states.DROP


def test_split_follows_fractions_and_seed(qtbot, data_panel, document):
    load(qtbot, data_panel, ASIA_CSV)
    box = data_panel.split
    with qtbot.waitSignal(data_panel.selection_changed) as blocker:
        box.target.setCurrentText("lung")
    with qtbot.waitSignal(data_panel.selection_changed):
        box.seed.setValue(7)
    with qtbot.waitSignal(data_panel.selection_changed) as blocker:
        box.test.setValue(10.0)
    selection = blocker.args[0]
    train, val, test = split_rows(3000, 0.2, 0.1, 7)
    codes = align(read_csv(ASIA_CSV), document.network).codes
    assert selection.target == "lung"
    assert np.array_equal(selection.train, codes[train]) and np.array_equal(selection.test, codes[test])
    assert np.array_equal(selection.validation, codes[val])
    assert document.project.data == {"path": str(ASIA_CSV), "settings": data_panel.settings()}
    assert data_panel.settings()["test_fraction"] == pytest.approx(0.1)


def test_a_missing_file_is_shown_inline(qtbot, data_panel, tmp_path):
    # wait for what the user sees: the job can fail before a waitSignal on the returned worker is connected
    data_panel.load(tmp_path / "nope.csv")
    qtbot.waitUntil(lambda: data_panel.message_bar.level == "error", timeout=5000)
    assert "nope.csv" in data_panel.message_bar.label.text()


def test_opening_a_project_reloads_its_data_with_the_settings(qtbot, data_panel, tmp_path, document):
    from bnstudio.io.project import save_project

    rng = np.random.default_rng(5)
    x = np.round(rng.uniform(0, 100, 300), 2)
    path = tmp_path / "data.csv"
    smoke = np.where(x > 40, "yes", "no")
    path.write_text("x,smoke\n" + "\n".join(f"{a},{s}" for a, s in zip(x, smoke, strict=True)) + "\n")
    load(qtbot, data_panel, path)
    box = data_panel.discretise
    box.method.setCurrentIndex(box.method.findData("equal_frequency"))
    box.bins.setValue(5)
    box.preview()
    with qtbot.waitSignal(data_panel.selection_changed):
        box.apply()
    with qtbot.waitSignal(data_panel.selection_changed) as blocker:
        data_panel.split.target.setCurrentText("smoke")
    before = blocker.args[0]
    cuts = data_panel.state.dataset.column_states("x")
    project_file = tmp_path / "study.bnsproj"
    save_project(document.project, project_file)
    with qtbot.waitSignal(data_panel.selection_changed, timeout=10000,
                          check_params_cb=lambda sel: sel is not None) as blocker:
        open_into(document, project_file)
    after = blocker.args[0]
    assert data_panel.state.path == str(path) and data_panel.state.dataset.column_states("x") == cuts
    assert after.target == "smoke" and np.array_equal(after.train, before.train)
    assert np.array_equal(after.test, before.test) and np.array_equal(after.validation, before.validation)


def test_data_loaded_into_an_empty_network_is_shown_not_aligned_to_anything(qtbot, tmp_path):
    """An empty document (sketch nothing, load data to learn a structure): no column is a variable."""
    from bnstudio.core.network import Network
    from bnstudio.gui.document import Document

    panel = DataPanel(Document(Network("empty")))
    qtbot.addWidget(panel)
    try:
        selection = load(qtbot, panel, ASIA_CSV)
        assert panel.model.rowCount() == 3000 and panel.model.columnCount() == 8
        assert selection is not None and "0 of 0 variables observed" in panel.status.text()
    finally:
        panel.shutdown()


def test_counts_after_dropping_rows_are_those_of_the_rows_kept(qtbot, data_panel, tmp_path, monkeypatch):
    monkeypatch.setattr(unknown_states, "ask_unknown_states", lambda *a: unknown_states.DROP)
    load(qtbot, data_panel, _csv_with_unknown_values(tmp_path), settings=None)
    kept = data_panel.state.dataset
    summary = data_panel.summary_model
    for row, name in enumerate(kept.columns):
        counts = kept.state_counts(name)
        assert summary.data(summary.index(row, 4)) == counts_text(kept.states[row], counts)
        assert sum(counts) + kept.missing_counts()[name] == kept.n_rows == 3000 - 4
    model = data_panel.model
    assert [model.headerData(r, Qt.Vertical) for r in range(3)] == ["1", "2", "3"]   # rows numbered from 1
    assert "line" in model.headerData(0, Qt.Vertical, Qt.ToolTipRole)


def test_opening_another_network_realigns_or_closes_the_data_and_says_so(qtbot, data_panel):
    from bnstudio.core.network import Network
    from tests.gui_panels.training.conftest import asia_network

    doc = data_panel.document
    load(qtbot, data_panel, ASIA_CSV)
    messages = []
    doc.message.connect(lambda level, text: messages.append(text))
    smaller = asia_network()
    smaller.remove_variable("asia")
    with qtbot.waitSignal(data_panel.selection_changed, timeout=5000) as blocker:
        doc.replace_network(smaller)
    assert blocker.args[0] is not None and "7 of 7 variables observed" in messages[-1]
    other = Network("other")
    other.add_variable("Pressure", ["low", "high"])
    doc.replace_network(other)
    assert data_panel.selection is None and data_panel.state.dataset is None
    assert "has no variable named like one of the network's (Pressure), so it was closed" in messages[-1]
    assert "other" not in messages[-1]     # the network's internal name ("unknown" in a BIF) is no help
    doc.replace_network(smaller)
    load(qtbot, data_panel, ASIA_CSV)
    doc.replace_network(Network("untitled"))   # File ▸ New
    assert "closed: the new network has no variables yet" in messages[-1] and "untitled" not in messages[-1]
    assert not doc.modified
