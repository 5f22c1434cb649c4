"""The training panel's validation pictures (issue 37): ROC and reliability curves of every run, AUC / ECE in the
results table, the learning-curve view, and what the walk at 1366x768 found (legend, plot heights, an outlier
run, the 3-row table, the stop reason code, fractional iteration ticks, form defaults unlike the CLI's)."""
from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from bnstudio.evaluate.learning_curve import learning_curves, size_grid
from bnstudio.evaluate.metrics import evaluate_scored
from bnstudio.gui.training_panel.plotkit import PLOT_MIN_HEIGHT, IntegerAxis
from bnstudio.gui.training_panel.results import HEADER_TIPS, HEADERS
from bnstudio.learn.registry import parameter_learner, structure_learner
from tests.gui_panels.training.conftest import sampled_selection
from tests.gui_panels.training.test_training_panel import train


def _column(name: str) -> int:
    return HEADERS.index(name)


def test_each_run_keeps_the_curves_of_its_fitted_network_and_the_table_shows_auc_and_ece(
        qtbot, training_panel, asia_selection):
    panel = training_panel
    panel.set_selection(asia_selection)
    runs = [train(qtbot, panel, "mp"), train(qtbot, panel, "clgd", max_iter=30)]
    for run in runs:
        fitted = run.result.network(panel.document.network)
        metrics, scored = evaluate_scored(fitted, asia_selection.test, "bronc")
        validation = run.validation["test"]
        # the AUC is scikit-learn's on the same posteriors (two states: the first state's)
        assert validation.auc == pytest.approx(roc_auc_score(scored.y == 0, scored.post[:, 0]))
        assert validation.reliability.ece == pytest.approx(metrics.ece)
        assert set(run.validation) == {"train", "validation", "test"}
    table = panel.results
    assert table.model.rowCount() == 2
    for k, run in enumerate(runs):
        assert table.model.index(k, _column("AUC")).data() == f"{run.metrics['test']['auc']:.3f}"
        assert table.model.index(k, _column("ECE")).data() == f"{run.metrics['test']['ece']:.3f}"
    assert "one-vs-rest" in HEADER_TIPS[_column("AUC")] and "calibration" in HEADER_TIPS[_column("ECE")]
    assert table.model.index(0, _column("Stopped")).data().startswith("closed form")   # words, not closed_form
    assert "closed_form" not in table.model.index(0, 0).data(0x03)                       # nor in its tooltip


def test_the_roc_view_draws_the_selected_run_or_every_run_of_the_chosen_state(qtbot, training_panel, asia_selection):
    panel = training_panel
    panel.set_selection(asia_selection)
    runs = [train(qtbot, panel, m) for m in ("ml", "mp", "lgd")]
    view = panel.curves
    assert view.state.currentText() == "yes" and view.shown_runs() == [2]       # the first state; the last run
    roc_lines = [item for plot, item in view.items if plot is view.roc]
    assert len(roc_lines) == 1
    np.testing.assert_array_equal(roc_lines[0].xData, runs[2].validation["test"].rocs[0].fpr)
    panel.results.select_run(0)
    assert view.shown_runs() == [0]
    panel.tabs.setCurrentWidget(panel.compare)                                 # "Compare runs" overlays them
    assert view.compare.isChecked()
    assert view.shown_runs() == [0, 1, 2] and view.legend.labels() == [r.label for r in runs]
    view.state.setCurrentText("no")
    roc_lines = [item for plot, item in view.items if plot is view.roc]
    for line, run in zip(roc_lines, runs, strict=True):
        curve = next(c for c in run.validation["test"].rocs if c.state == "no")
        np.testing.assert_array_equal(line.yData, curve.tpr)
    panel.results.set_part("validation")                                        # the scored part follows
    reliability = [item for plot, item in view.items if plot is view.reliability]
    bins = runs[0].validation["validation"].reliability
    np.testing.assert_allclose(reliability[0].yData, bins.accuracy[bins.weight > 0])


def test_an_outlier_run_is_left_out_of_the_y_range_and_named(qtbot):
    from bnstudio.gui.training_panel.plot import ConvergencePlot

    plot = ConvergencePlot()
    qtbot.addWidget(plot)
    plot.resize(600, 320)
    finals = {1: 0.30, 2: 0.29, 3: 0.31, 4: 4.0}
    for key, value in finals.items():
        plot.add_run(key, f"{key}. run", plot.colour(key - 1))
        plot.set_history(key, [{"iteration": i + 1, "nll": value + 0.01 / (i + 1), "cnll": value}
                               for i in range(5)])
    low, high = plot.plots["nll"].viewRange()[1]
    assert plot.off["nll"] == [4] and high < 1.0 and low < 0.29
    assert "4. run" in plot.off_note.text() and plot.fit_all.isVisibleTo(plot)
    plot.fit_all.setChecked(True)
    plot.plots["nll"].vb.updateAutoRange()
    assert plot.off["nll"] == [] and plot.plots["nll"].viewRange()[1][1] >= 4.0
    axis = plot.plots["nll"].getAxis("bottom")
    assert isinstance(axis, IntegerAxis)
    ticks = [v for _spacing, values in axis.tickValues(0.6, 5.4, 400) for v in values]
    assert ticks and all(float(v).is_integer() for v in ticks)


def test_at_a_laptops_dock_size_four_runs_keep_plots_table_rows_and_legend_readable(qtbot, training_panel,
                                                                                     asia_selection):
    panel = training_panel
    panel.resize(642, 658)                      # the training dock in a 1366x768 window
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_selection(asia_selection)
    runs = [train(qtbot, panel, m) for m in ("ml", "mp", "lgd", "clgd")]
    qtbot.wait(50)
    assert panel.plot.view.height() >= PLOT_MIN_HEIGHT
    assert panel.plot.side_by_side                 # NLL beside CNLL: each plot gets the whole height
    panel.views.setCurrentWidget(panel.curves)
    qtbot.wait(50)
    assert panel.curves.view.height() >= PLOT_MIN_HEIGHT
    assert panel.plot.legend.labels() == [r.label for r in runs]
    assert panel.plot.legend.width() < panel.width() // 3         # a column beside the plots, not a wrapped line
    table = panel.results.table
    shown = table.viewport().height() // table.verticalHeader().defaultSectionSize()
    assert shown >= 4 and table.model().rowCount() == 4
    header = table.horizontalHeader()          # no score column is clipped: the table is as wide as its columns
    assert header.sectionViewportPosition(_column("Brier")) + header.sectionSize(_column("Brier")) \
        <= table.viewport().width()
    assert header.sectionViewportPosition(_column("ECE")) + header.sectionSize(_column("ECE")) \
        <= table.viewport().width()


def test_the_learning_curve_view_shows_the_core_curves_of_the_panels_data(qtbot, training_panel):
    panel = training_panel
    selection = sampled_selection(400, target="either", validation=0.25)
    panel.set_selection(selection)
    view = panel.learning
    view.set_methods(["ml", "mp"])
    view.points.setValue(3)
    view.repeats.setValue(2)
    worker = view.start()
    assert worker is not None and not view.run_button.isEnabled()
    qtbot.waitUntil(lambda: view.result is not None, timeout=30000)
    want = learning_curves(panel.document.network, selection.train, selection.validation, "either", ["ml", "mp"],
                           size_grid(len(selection.train), 3), 2, 0)
    assert view.result.sizes == want.sizes == [10, 55, 300]
    lines = [item for _plot, item in view.items if hasattr(item, "opts") and item.opts.get("symbol") == "o"]
    assert len(lines) == 4                           # two methods × error and CLL
    for curve, got in zip(want.curves, view.result.curves, strict=True):
        np.testing.assert_allclose(got.mean("error_rate"), curve.mean("error_rate"))
        np.testing.assert_allclose(got.sd("cll"), curve.sd("cll"))
    np.testing.assert_allclose(lines[0].xData, np.log10(want.sizes))
    np.testing.assert_allclose(lines[0].yData, want.curves[0].mean("error_rate"))
    assert view.legend.labels() == ["ml", "mp"] and view.run_button.isEnabled()


def test_a_learning_curve_can_be_cancelled_and_needs_held_out_rows(qtbot, training_panel, monkeypatch):
    """The job is held inside its first scoring until Cancel is pressed: the whole curve on ASIA takes about two
    seconds, so a test that cancels "some time later" raced the job's end under a loaded machine."""
    import threading

    from bnstudio.evaluate import learning_curve

    panel = training_panel
    view = panel.learning
    panel.set_selection(sampled_selection(300, target="either"))        # no held-out rows
    assert view.start() is None and "held-out rows" in view.status.text()
    panel.set_selection(sampled_selection(20_000, target="either", validation=0.2))
    view.set_methods(["clgd", "mp"])
    view.points.setValue(12)
    view.repeats.setValue(20)
    scoring, release = threading.Event(), threading.Event()
    scored = []

    def held_evaluate(*args, **kwargs):
        scoring.set()
        release.wait(30)
        scored.append(1)
        return evaluate_now(*args, **kwargs)

    evaluate_now = learning_curve.evaluate
    monkeypatch.setattr(learning_curve, "evaluate", held_evaluate)
    worker = view.start()
    qtbot.waitUntil(scoring.is_set, timeout=30000)
    with qtbot.waitSignal(worker.cancelled, timeout=30000):
        view.cancel()
        release.set()
    assert len(scored) == 1                                             # stopped at the first report after Cancel
    qtbot.waitUntil(lambda: view.run_button.isEnabled(), timeout=5000)
    assert view.result is None and "cancelled" in view.status.text()


def test_the_forms_start_at_the_learners_defaults_as_the_command_line(qtbot, training_panel):
    from bnstudio.gui.structure_panel.options import AlgorithmOptions

    opts = training_panel.options
    for method in ("em", "clgd", "wanbia", "lgd", "em"):
        opts.set_method(method)
        defaults = parameter_learner(method).defaults()
        assert opts.values()["max_iter"] == defaults["max_iter"]      # em 100, the gradients 200
    form = AlgorithmOptions()
    qtbot.addWidget(form)
    assert form.k.value() == structure_learner("kdb").defaults()["k"]
    assert form.ess.value() == structure_learner("nb").defaults()["ess"]


def test_removing_the_selected_runs_leaves_no_stale_curve(qtbot, training_panel, asia_selection):
    """Seen: opening another network after a run raised IndexError from the curves of the removed run."""
    panel = training_panel
    panel.set_selection(asia_selection)
    for method in ("ml", "mp"):
        train(qtbot, panel, method)
    panel.results.select_run(1)
    panel.remove_run(1)
    assert panel.curves.shown_runs() == [0]
    panel.remove_run(0)
    assert panel.curves.shown_runs() == [] and panel.curves.items == []
    assert panel.results.confusion_title.text() == "No run selected"
