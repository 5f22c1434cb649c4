"""The study view: progress, the report's tables, comparisons and figures of a study file, read by a background
job; a cell opens that run's fitted network (rebuilt from the store) in the main window."""
from __future__ import annotations

import time

import numpy as np
import pytest
from PySide6.QtWidgets import QFileDialog

from bnstudio.experiment.evaluation import split_rows
from bnstudio.experiment.html import cell_text
from bnstudio.experiment.runner import plan
from bnstudio.experiment.scores import classification_scores
from bnstudio.experiment.spec import load_study
from bnstudio.experiment.store import StudyStore
from bnstudio.experiment.summary import cells
from bnstudio.gui.study_view import StudyView


def _view(qtbot, path) -> StudyView:
    view = StudyView(path.with_suffix(".sqlite"))
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.loaded, timeout=60000):
        pass
    return view


def test_the_view_shows_progress_and_the_report_tables(qtbot, study_file):
    view = _view(qtbot, study_file)
    assert view.progress.value() == view.progress.maximum() == 36
    assert "done 36" in view.status.text() and "not running" in view.status.text() and not view.timer.isActive()
    assert view.metric_box.currentText() == "error"
    with StudyStore(study_file.with_suffix(".sqlite"), create=False) as store:
        expected = cells(store.rows(), "error")
    model = view.model
    assert model.rowCount() == 2 and model.columnCount() == 6
    for r in range(2):
        for c in range(6):
            key = model.cell(model.index(r, c))
            cell = expected[key]
            assert model.index(r, c).data() == cell_text({"mean": cell.mean, "sd": cell.sd}, "error")
    view.metric_box.setCurrentText("cll")
    assert model.metric == "cll" and "±" in model.index(0, 0).data()
    assert view.comparisons.rowCount() > 0 and view.figures.titles


def test_a_cell_opens_the_fitted_network_of_the_chosen_run(qtbot, study_file):
    view = _view(qtbot, study_file)
    index = view.model.index(1, 4)              # asia-lung, tan+clgd
    view.table.setCurrentIndex(index)
    assert view.run_box.count() == 3
    view.run_box.setCurrentIndex(2)
    with qtbot.waitSignal(view.open_network) as opened:
        view.open_button.click()
    network, title = opened.args
    assert title.startswith("asia-lung tan+clgd (fold 3")
    study = load_study(study_file)
    context, tasks = plan(study)
    task = next(t for t in tasks if (t.dataset, t.structure, t.method, t.fold) == ("asia-lung", "tan", "clgd", 2))
    data = context.datasets["asia-lung"]
    _, test = split_rows(len(data.codes), task.spec["split"], task.fold, task.seed)
    with StudyStore(study_file.with_suffix(".sqlite"), create=False) as store:
        stored = next(r for r in store.rows() if r["key"] == task.key)["metrics"]
    rescored = classification_scores(network, data.codes[test], "lung")   # the held-out rows, scored again
    assert rescored["error"] == pytest.approx(stored["error"]) and rescored["cll"] == pytest.approx(stored["cll"])


def test_file_open_study_shows_it_and_a_cell_opens_in_the_window(qtbot, window, study_file, monkeypatch):
    assert "Open S&tudy…" in [a.text() for a in window.menus["file"].actions()]
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(study_file.with_suffix(".sqlite")), "")))
    window.menu_actions.open_study.trigger()
    views = window.findChildren(StudyView)
    assert len(views) == 1
    view = views[0]
    qtbot.waitUntil(lambda: view.snapshot is not None, timeout=60000)
    view.table.doubleClicked.emit(view.model.index(0, 1))          # corral, nb+clgd: its first run
    assert window.document.title.startswith("corral nb+clgd (fold 1")
    assert set(window.document.network.variables) == {"A0", "A1", "B0", "B1", "Irrelevant", "Correlated", "Class"}
    assert not window.document.modified
    view.close()


def test_a_file_that_is_not_a_study_says_so(qtbot, tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"junk" * 300)
    view = StudyView(bad)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.load_failed, timeout=30000) as failed:
        pass
    assert "not a study file" in failed.args[0] and "Cannot read the study" in view.status.text()


def test_a_running_study_shows_running_tasks_eta_and_refreshes(qtbot, study_file, tmp_path):
    import shutil

    copy = tmp_path / "copy.sqlite"
    shutil.copy(study_file.with_suffix(".sqlite"), copy)
    with StudyStore(copy, create=False) as store:
        store.set_state({"started": time.time(), "updated": time.time(), "running": 2, "eta": 75.0,
                         "executor": "2 local processes"})
    view = StudyView(copy)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.loaded, timeout=60000):
        pass
    assert "running 2" in view.status.text() and "ETA 1m15s" in view.status.text() and view.timer.isActive()
    view.close()
    assert not view.timer.isActive()


def test_opened_network_tables_are_the_stored_ones(qtbot, study_file):
    view = _view(qtbot, study_file)
    view.table.setCurrentIndex(view.model.index(0, 0))
    key = view.run_box.currentData()
    with qtbot.waitSignal(view.open_network) as opened:
        view.open_button.click()
    with StudyStore(study_file.with_suffix(".sqlite"), create=False) as store:
        stored = store.network(key)
    for v in stored.variables:
        np.testing.assert_array_equal(opened.args[0].cpt(v), stored.cpt(v))


def _positions(grid) -> list[tuple[int, int]]:
    layout = grid.grid
    return [layout.getItemPosition(layout.indexOf(box))[:2] for box in grid.boxes]


def test_the_figures_take_as_many_columns_as_the_width_holds(qtbot, study_file):
    """At 1366x768 (a laptop) the study's figures stand three abreast (they were two, with a third of the width
    empty); narrower, two; and the grid is laid out again on every resize."""
    view = _view(qtbot, study_file)
    grid = view.figures
    count = len(grid.boxes)
    assert count >= 4
    view.resize(1366, 768)
    view.show()
    view.tabs.setCurrentWidget(grid)
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: grid.columns == 3)
    assert _positions(grid) == [(k // 3, k % 3) for k in range(count)]
    right = max(box.geometry().right() for box in grid.boxes)
    assert right < grid.viewport().width()                       # all three in view, no sideways scroll
    view.resize(1000, 768)
    qtbot.waitUntil(lambda: grid.columns == 2)
    assert _positions(grid) == [(k // 2, k % 2) for k in range(count)]
    assert grid.columns_for(2000) == 4 and grid.columns_for(100) == 1
