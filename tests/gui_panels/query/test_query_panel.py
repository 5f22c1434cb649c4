"""The query panel shows exactly what bnstudio.uncertainty computes, follows the evidence, explains missing
counts, runs the Monte-Carlo check as a job and reports the CPT rows behind the variance."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from bnstudio.uncertainty import FLAG_TEXT, error_bars

from .conftest import NETWORKS


def test_opens_standalone_with_demo_data(qtbot):
    from tests.demos.query_panel import demo_panel

    panel = demo_panel()
    qtbot.addWidget(panel)
    panel.show()
    assert panel.answer.bars is not None
    assert "lung=yes" in panel.summary.text.text() and "0." in panel.summary.text.text()
    assert panel.contributions.table.rowCount() > 0
    assert panel.density.curves["normal"].xData is not None


def test_values_equal_error_bars_on_an_mp_network(make_panel, asia_mp):
    net, _ = asia_mp
    panel = make_panel(net)
    panel.set_evidence_mode("form", {"xray": "yes", "dysp": "yes"})
    panel.set_level(0.95)
    panel.set_target({"lung": "yes", "bronc": "no"})
    expected = error_bars(net, {"lung": "yes", "bronc": "no"}, {"xray": "yes", "dysp": "yes"}, 0.95)
    bars = panel.answer.bars
    assert bars.query == {"lung": "yes", "bronc": "no"}
    assert bars.mean == pytest.approx(expected.mean, abs=1e-12)
    assert bars.sd == pytest.approx(expected.sd, abs=1e-12)
    assert bars.intervals.normal == pytest.approx(expected.intervals.normal, abs=1e-12)
    assert bars.intervals.beta == pytest.approx(expected.intervals.beta, abs=1e-12)
    text = panel.summary.text.text()
    assert f"{expected.mean:.4f}" in text and f"{expected.sd:.4f}" in text
    assert f"[{expected.intervals.beta[0]:.4f}, {expected.intervals.beta[1]:.4f}]" in text
    assert "Normal 95% interval" in text


def test_canvas_evidence_is_followed_live(make_panel, asia_mp):
    net, _ = asia_mp
    panel = make_panel(net)
    panel.set_target({"tub": "yes"})
    doc = panel.document
    doc.set_evidence("xray", "yes")  # no event loop turn needed: beliefs_changed refreshes synchronously
    assert panel.answer.evidence == {"xray": "yes"}
    assert panel.answer.mean == pytest.approx(error_bars(net, {"tub": "yes"}, {"xray": "yes"}).mean, abs=1e-12)
    doc.set_evidence("asia", "yes")
    assert panel.answer.mean == pytest.approx(
        error_bars(net, {"tub": "yes"}, {"xray": "yes", "asia": "yes"}).mean, abs=1e-12)
    doc.clear_evidence()
    assert panel.answer.evidence == {}


def test_flags_are_written_in_words(make_panel, asia_mp):
    net, _ = asia_mp
    panel = make_panel(net)
    panel.set_ess(2.0)  # tables worth two cases each: a rare state gets a J-shaped Beta
    panel.set_target({"tub": "yes"})
    flags = panel.answer.bars.intervals.flags
    assert "beta_u_shaped" in flags and "normal_outside_unit_interval" in flags
    for flag in flags:
        assert FLAG_TEXT[flag].capitalize() in panel.summary.text.text()


def test_no_counts_shows_a_message_then_works_with_an_ess(qtbot, make_panel):
    net = read_network(NETWORKS / "asia.bif")
    panel = make_panel(net)
    panel.show()
    panel.set_target({"lung": "yes"})
    assert panel.answer.bars is None and panel.answer.no_counts
    assert panel.summary.no_counts_shown
    assert "no Dirichlet counts" in panel.contributions.caption.text()
    assert panel.answer.probability == pytest.approx(InferenceEngine(net).query_probability({"lung": "yes"}))
    assert f"{panel.answer.probability:.4f}" in panel.summary.text.text()
    panel.controls.ess.setValue(25.0)
    qtbot.mouseClick(panel.summary.use_ess, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.answer.bars is not None)
    assert not panel.summary.no_counts_shown
    expected = error_bars(net, {"lung": "yes"}, {}, 0.9, ess=25.0)
    assert panel.answer.bars.sd == pytest.approx(expected.sd, abs=1e-12)


def test_monte_carlo_check_runs_as_a_job_and_shows_coverage(qtbot, make_panel, asia_mp):
    net, _ = asia_mp
    panel = make_panel(net)
    panel.set_evidence_mode("form", {"xray": "yes"})
    panel.set_target({"lung": "yes"})
    with qtbot.waitSignal(panel.monte_carlo_done, timeout=20000) as blocker:
        worker = panel.run_monte_carlo(draws=3000, seed=7)
        assert worker is not None and panel.mc_bar.run.text() == "Cancel"
    result = blocker.args[0]
    expected = error_bars(net, {"lung": "yes"}, {"xray": "yes"}, 0.9, mc=3000, seed=7).mc
    assert result.mc.coverage_normal == expected.coverage_normal
    assert result.mc.coverage_beta == expected.coverage_beta
    label = panel.density.label.text()
    assert f"normal interval covers {100 * expected.coverage_normal:.1f}%" in label
    assert f"Beta interval covers {100 * expected.coverage_beta:.1f}%" in label
    assert len(panel.density.curves["mc"].yData) > 5
    assert not panel.mc.running and panel.mc_bar.run.text() == "Monte-Carlo check"


def test_monte_carlo_check_can_be_cancelled(qtbot, make_panel, asia_mp):
    net, _ = asia_mp
    panel = make_panel(net)
    panel.set_target({"lung": "yes"})
    with qtbot.waitSignal(panel.monte_carlo_done, timeout=20000) as blocker:
        panel.run_monte_carlo(draws=20000, seed=2)
        qtbot.mouseClick(panel.mc_bar.run, Qt.LeftButton)  # reads "Cancel" while running
    assert blocker.args == [None] and panel.density.check is None
    assert "cancelled" in panel.messages.label.text()


def test_monte_carlo_result_is_set_aside_when_the_query_changed(qtbot, make_panel, asia_mp):
    net, _ = asia_mp
    panel = make_panel(net)
    panel.set_target({"lung": "yes"})
    with qtbot.waitSignal(panel.monte_carlo_done, timeout=20000) as blocker:
        panel.run_monte_carlo(draws=500, seed=1)
        panel.set_target({"tub": "yes"})
    assert blocker.args == [None]
    assert panel.density.check is None


def test_clicking_a_contribution_emits_row_selected(qtbot, make_panel, asia_mp):
    net, _ = asia_mp
    panel = make_panel(net)
    panel.show()
    panel.set_evidence_mode("form", {"xray": "yes", "smoke": "yes"})
    panel.set_target({"lung": "yes"})
    top = panel.answer.bars.delta.top_contributions(3)
    panel.tabs.setCurrentWidget(panel.contributions)
    table = panel.contributions.table
    rect = table.visualRect(table.model().index(1, 0))
    with qtbot.waitSignal(panel.row_selected) as blocker:
        qtbot.mouseClick(table.viewport(), Qt.LeftButton, pos=rect.center())
    assert blocker.args == [top[1].variable, top[1].parents]
    assert panel.sensitivity.current_row() == (top[1].variable, top[1].parents)
    shares = [table.item(i, 1).data(Qt.UserRole + 1) for i in range(table.rowCount())]
    assert shares == sorted(shares, reverse=True)
    assert shares[0] == pytest.approx(top[0].variance / panel.answer.bars.variance)


def test_sensitivity_curve_is_exact_and_the_line_is_its_tangent(make_panel, asia_mp):
    from bnstudio.uncertainty import covaried_rows, row_index, sensitivity

    net, _ = asia_mp
    panel = make_panel(net)
    panel.set_evidence_mode("form", {"xray": "yes"})
    panel.set_target({"lung": "yes"})
    assert panel.sensitivity.items["exact"].xData is None  # computed only when its tab is shown
    panel.tabs.setCurrentWidget(panel.sensitivity)
    row = panel.sensitivity.current_row()
    assert row == (panel.answer.bars.delta.top_contributions(1)[0].variable,
                   panel.answer.bars.delta.top_contributions(1)[0].parents)
    curve = sensitivity(net, panel.answer.bars, row[0], row_index(net, *row), 0, points=4001)
    shown = panel.sensitivity.items["exact"]
    assert shown.yData[np.searchsorted(shown.xData, curve.theta0)] == pytest.approx(panel.answer.mean)
    # the exact curve at one θ equals a query on a network with that row re-normalised
    theta = 0.3
    edited = net.copy()
    table = np.array(net.cpt(row[0]))
    idx = row_index(net, *row)
    table[idx] = covaried_rows(table[idx], 0, np.array([theta]))[0]
    edited.set_cpt(row[0], table)
    k = np.searchsorted(curve.theta, theta)
    assert curve.theta[k] == pytest.approx(theta)
    assert curve.exact[k] == pytest.approx(InferenceEngine(edited).query_probability({"lung": "yes"}, {"xray": "yes"}))
    i = np.searchsorted(curve.theta, curve.theta0)
    slope = (curve.exact[i + 1] - curve.exact[i - 1]) / (curve.theta[i + 1] - curve.theta[i - 1])
    assert curve.slope == pytest.approx(slope, rel=1e-3)


def test_bagged_ensemble_shows_the_bootstrap_spread(make_panel, asia_mp):
    from bnstudio.learn.params import bagged_posterior
    from tests.demos.query_panel import fitted_example

    net, result = fitted_example("asia", "bagged-mp", bags=25, seed=3)
    panel = make_panel(net)
    panel.set_evidence_mode("form", {"xray": "yes"})
    panel.set_target({"lung": "yes"})
    panel.set_ensemble(result)
    boot = panel.answer.bootstrap
    reference = bagged_posterior(net, result.ensemble, "lung", {"xray": "yes"}, level=0.9)
    assert boot.values == pytest.approx(reference["bags"][:, 0], abs=1e-12)
    assert (boot.low, boot.high) == pytest.approx((reference["low"][0], reference["high"][0]), abs=1e-12)
    assert "Bootstrap 90% (25 bags)" in panel.summary.text.text()
    assert panel.answer.bars is None and panel.summary.no_counts_shown  # bagged-mp keeps no counts
    panel.set_ess(20.0)
    assert panel.answer.bars is not None and panel.answer.bootstrap is not None
    assert "Beta 90% interval" in panel.summary.text.text() and "Bootstrap" in panel.summary.text.text()
    panel.set_ensemble(None)
    assert panel.answer.bootstrap is None
    run = type("Run", (), {"result": result})()  # a training-panel run record carries the fit as .result
    panel.set_ensemble(run)
    assert panel.answer.bootstrap.values == pytest.approx(reference["bags"][:, 0], abs=1e-12)
    panel.set_ensemble(type("Run", (), {"result": None})())  # a run without an ensemble removes it
    assert panel.ensemble is None and panel.answer.bootstrap is None


def test_plots_export_as_png_and_svg(make_panel, asia_mp, tmp_path):
    net, _ = asia_mp
    panel = make_panel(net)
    panel.show()
    panel.set_target({"lung": "yes"})
    for which in ("density", "sensitivity"):
        for ext in ("png", "svg"):
            path = tmp_path / f"{which}.{ext}"
            panel.export_plot(which, path)
            assert path.stat().st_size > 1000
    assert (tmp_path / "density.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in (tmp_path / "density.svg").read_text(encoding="utf-8")
    with pytest.raises(ValueError):
        panel.export_plot("density", tmp_path / "density.gif")


def test_tornado_tab_draws_the_bars_tornado_computes(make_panel, asia_mp):
    """Computed when its tab is shown, with the counts the error bars use; the largest swing on top."""
    from bnstudio.uncertainty import tornado

    net, _ = asia_mp
    panel = make_panel(net)
    panel.set_evidence_mode("form", {"dysp": "yes"})
    panel.set_target({"lung": "yes"})
    assert panel.tornado.result is None          # not computed while another tab is shown
    panel.tabs.setCurrentWidget(panel.tornado)
    expected = tornado(net, {"lung": "yes"}, {"dysp": "yes"}, top=12)
    shown = panel.tornado.result
    assert shown.range == expected.range == "credible 90%"
    assert [(b.variable, b.parents, b.q_low, b.q_high) for b in shown.bars] == \
        [(b.variable, b.parents, b.q_low, b.q_high) for b in expected.bars]
    opts = panel.tornado.high.opts
    top = int(np.argmax(opts["y"]))
    assert opts["x0"][top] + opts["width"][top] == pytest.approx(max(expected.q0, expected.bars[0].q_high))
    assert panel.tornado.centre.value() == pytest.approx(expected.q0)
    assert "credible 90%" in panel.tornado.caption.text()


def test_beyond_exact_inference_the_answer_shows_parameter_and_sampling_error_apart(make_panel, asia_mp):
    """Issue 36: where the engine cannot propagate exactly (here a 100-byte budget), the summary gives the
    delta method's parameter sd on sampled terms and the estimate's sampling se on their own lines."""
    from bnstudio.uncertainty import error_bars

    net, _ = asia_mp
    panel = make_panel(net)
    panel.document.beliefs.engine = InferenceEngine(panel.document.network, memory_budget=100)
    panel.set_evidence_mode("form", {"dysp": "yes"})
    panel.set_target({"lung": "yes"})
    bars = panel.answer.bars
    exact = error_bars(net, {"lung": "yes"}, {"dysp": "yes"})
    assert bars is not None and bars.sampling is not None
    assert abs(bars.mean - exact.mean) <= 5 * bars.sampling.se
    assert bars.sd == pytest.approx(exact.sd, rel=0.05)
    text = panel.summary.text.text()
    assert "parameter sd, delta method on sampled terms" in text and "Sampling error" in text
    assert f"{bars.sampling.se:.4f}" in text and "Estimated: exact inference does not fit" in text
