"""The study view's Ranks tab: the report's Friedman / Nemenyi / Holm tests of every method at once and the
critical-difference diagrams (docs/experiments.md "All methods at once"), checked against scipy's Friedman test
on the stored cells."""
from __future__ import annotations

import os

import numpy as np
from scipy.stats import friedmanchisquare

from bnstudio.experiment.executors import SerialExecutor
from bnstudio.experiment.ranks import nemenyi_cd
from bnstudio.experiment.report import SCATTER_METRICS
from bnstudio.experiment.runner import run_study
from bnstudio.experiment.spec import load_study
from bnstudio.experiment.store import StudyStore
from bnstudio.experiment.summary import cells
from bnstudio.gui.study_view import StudyView
from bnstudio.gui.study_view.ranks_tab import NO_TESTS, RANKS_HEAD
from tests.experiment.helpers import SMALL, write_study
from tests.gui.test_study_view import _view

ONE_METHOD_PAIR = SMALL.replace('methods = ["mp", "clgd", {label = "bag", method = "bagged-mp", options = {bags = 4}}]',
                                'methods = ["mp", "clgd"]')


def _column(view: StudyView, name: str, row: int) -> str:
    return view.ranks.table.item(row, RANKS_HEAD.index(name)).text()


def test_the_ranks_tab_shows_scipys_friedman_test_of_the_stored_cells(qtbot, study_file):
    view = _view(qtbot, study_file)
    assert [view.tabs.tabText(k) for k in range(view.tabs.count())] == ["Tables", "Comparisons", "Ranks", "Figures"]
    table = view.ranks.table
    with StudyStore(study_file.with_suffix(".sqlite"), create=False) as store:
        rows = store.rows()
    methods = ["mp", "clgd", "bag"]
    shown = {(_column(view, "structure", r), _column(view, "metric", r)): r for r in range(table.rowCount())}
    assert ("nb", "error") in shown and ("tan", "cll") in shown
    for (structure, metric), r in shown.items():
        found = cells(rows, metric)
        values = np.array([[found[d, structure, m].mean for m in methods] for d in ("corral", "asia-lung")])
        if metric == "cll":
            values = -values                          # higher CLL is better: rank its negative
        if np.all(np.ptp(values, axis=1) == 0):       # every method alike on both sets: scipy's statistic is nan
            continue
        statistic, p = friedmanchisquare(*values.T)
        assert _column(view, "Friedman χ²", r) == f"{statistic:.3g}"        # shown to 3 significant digits
        assert table.item(r, 4).text() == f"{p:.3g}"
        assert _column(view, "Nemenyi CD", r) == f"{nemenyi_cd(3, 2):.3g}"
        assert _column(view, "data sets", r) == "2" and "(baseline)" in _column(
            view, "average rank, best first (Holm p vs baseline)", r)
    diagrams = view.ranks.diagrams.titles
    assert len(diagrams) == sum(1 for s, m in shown if m in SCATTER_METRICS) > 0
    assert all("average ranks over 2 data sets" in t for t in diagrams)
    assert not any("average ranks" in t for t in view.figures.titles)     # the diagrams moved to this tab


def test_with_two_methods_the_tab_says_why_it_is_empty(qtbot, tmp_path):
    path = write_study(tmp_path, ONE_METHOD_PAIR)
    run_study(load_study(path), SerialExecutor())
    view = _view(qtbot, path)
    assert view.ranks.table.rowCount() == 0 and view.ranks.note.text() == NO_TESTS
    assert view.ranks.diagrams.titles == []


def test_the_ranks_tab_at_1366x768(qtbot, study_file, tmp_path):
    view = _view(qtbot, study_file)
    view.resize(1366, 768)
    view.tabs.setCurrentWidget(view.ranks)
    view.show()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: view.ranks.diagrams.columns >= 2)   # laid out for the shown width, not the hidden tab's
    qtbot.wait(100)
    shot = tmp_path / "study-view-ranks.png"
    assert view.grab().save(str(shot)) and shot.stat().st_size > 10000
    target = os.environ.get("BNSTUDIO_SCREENSHOTS")       # set to keep the picture for a look
    if target:
        view.grab().save(os.path.join(target, "study-view-ranks.png"))
    assert view.ranks.table.isVisible() and view.ranks.diagrams.isVisible()
