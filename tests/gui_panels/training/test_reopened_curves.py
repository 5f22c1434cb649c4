"""A reopened project's runs draw their ROC and reliability curves at once, exactly as before saving (the run's
``curves`` in the project file); runs of an older file, or with damaged curves, are named and show them once
trained again."""
from __future__ import annotations

import json

import numpy as np
import pytest

from bnstudio.gui.file_controller import open_into
from tests.gui_panels.training.test_training_panel import train


def drawn(view) -> list[tuple[str, np.ndarray, np.ndarray, object]]:
    """Every curve item of the view: its plot, data and marker sizes."""
    names = {id(view.roc): "roc", id(view.reliability): "reliability", id(view.counts): "counts"}
    return [(names[id(plot)], np.asarray(item.xData), np.asarray(item.yData), item.opts.get("symbolSize"))
            for plot, item in view.items]


def assert_same_drawing(a: list, b: list) -> None:
    assert [(name, len(x)) for name, x, _, _ in a] == [(name, len(x)) for name, x, _, _ in b]
    for (_, xa, ya, sa), (_, xb, yb, sb) in zip(a, b, strict=True):
        np.testing.assert_array_equal(xa, xb)
        np.testing.assert_array_equal(ya, yb)
        np.testing.assert_array_equal(np.asarray(sa), np.asarray(sb))


def reopened_panel(qtbot, path):
    from bnstudio.gui.document import Document
    from bnstudio.gui.training_panel import TrainingPanel
    from tests.gui_panels.training.conftest import asia_network

    document = Document(asia_network())
    repairs = open_into(document, path)
    panel = TrainingPanel(document)
    qtbot.addWidget(panel)
    panel.resize(1200, 760)
    return panel, repairs


def overlaid(panel, state: str) -> list:
    panel.curves.compare.setChecked(True)
    panel.curves.state.setCurrentText(state)
    return drawn(panel.curves)


@pytest.fixture
def saved_runs(qtbot, training_panel, asia_selection, tmp_path):
    """Two trained runs saved in a project; the drawings of each state and of each run alone, before saving."""
    from bnstudio.io.project import save_project

    panel = training_panel
    panel.set_selection(asia_selection)
    runs = [train(qtbot, panel, "mp"), train(qtbot, panel, "clgd", max_iter=10)]
    before = {state: overlaid(panel, state) for state in ("yes", "no")}
    panel.curves.compare.setChecked(False)
    alone = []
    for k in range(2):
        panel.results.select_run(k)
        alone.append(drawn(panel.curves))
    path = tmp_path / "asia.bnsproj"
    save_project(panel.document.project, path)
    panel.shutdown()
    return path, runs, before, alone


def test_a_reopened_projects_runs_draw_their_curves_at_once_exactly_as_before(qtbot, saved_runs):
    path, runs, before, alone = saved_runs
    panel, repairs = reopened_panel(qtbot, path)
    try:
        assert repairs == [] and [r.label for r in panel.runs] == [r.label for r in runs]
        assert all(set(r.validation) == {"train", "validation", "test"} for r in panel.runs)
        for state, drawing in before.items():
            assert len(drawing) == 2 * 3                     # per run: ROC, reliability, cases per bin
            assert_same_drawing(overlaid(panel, state), drawing)
        assert not panel.curves.note.isVisible() and panel.curves.note.text() == ""
        panel.curves.compare.setChecked(False)
        for k in range(2):
            panel.results.select_run(k)
            assert_same_drawing(drawn(panel.curves), alone[k])
        run = runs[1].validation["test"]
        roc = next(x for name, x, _, _ in before["yes"][3:] if name == "roc")
        np.testing.assert_array_equal(roc, run.rocs[0].fpr)        # the drawing is the run's thinned curve
    finally:
        panel.shutdown()


def test_runs_of_an_older_file_are_named_and_a_damaged_curve_is_reported(qtbot, saved_runs, tmp_path):
    path, runs, before, _ = saved_runs
    doc = json.loads(path.read_text(encoding="utf-8"))
    del doc["runs"][0]["curves"]                                       # as written before curves were kept
    older = tmp_path / "older.bnsproj"
    older.write_text(json.dumps(doc), encoding="utf-8")
    panel, repairs = reopened_panel(qtbot, older)
    try:
        assert repairs == [] and panel.runs[0].validation == {}
        assert_same_drawing(overlaid(panel, "yes"), before["yes"][3:])   # the second run draws as before
        note = panel.curves.note.text()
        assert note.startswith(f"No curves for {runs[0].label}: saved without them") and "train again" in note
    finally:
        panel.shutdown()
    doc["runs"][1]["curves"]["test"]["roc"][0]["fpr"][1] = float("nan")
    hostile = tmp_path / "hostile.bnsproj"
    hostile.write_text(json.dumps(doc), encoding="utf-8")
    panel, repairs = reopened_panel(qtbot, hostile)
    try:
        assert len(repairs) == 1 and "runs[1].curves.test.roc[0].fpr[1]: expected a finite number" in repairs[0]
        assert [r.validation for r in panel.runs] == [{}, {}] and [r.label for r in panel.runs] == [
            r.label for r in runs]
        overlaid(panel, "yes")
        assert panel.curves.shown_runs() == [] and panel.curves.note.text().startswith(
            f"No curves for {runs[0].label}, {runs[1].label}: saved without them")
    finally:
        panel.shutdown()
