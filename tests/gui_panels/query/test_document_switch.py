"""Nothing of the previous network survives a document switch, and a target is never also evidence (issue 38,
item 2). Seen: after a query on the ALARM TAN example, asia kept ALARM's density axes (x 0.226–0.331, y 0–44)
beside "No error bars yet"; with form evidence, sprinkler answered "p(Cloudy=yes | Cloudy=yes) = 1.0000"."""
from __future__ import annotations

import pytest

from bnstudio.inference import InferenceEngine
from tests.gui.conftest import sprinkler


def x_range(plot) -> list[float]:
    return list(plot.getPlotItem().viewRange()[0])


def y_range(plot) -> list[float]:
    return list(plot.getPlotItem().viewRange()[1])


def test_opening_another_network_forgets_the_query_axes_and_form(qtbot, make_panel, asia_mp):
    net, _ = asia_mp
    panel = make_panel(net)
    panel.set_evidence_mode("form", {"xray": "yes", "dysp": "yes"})
    panel.set_target({"lung": "yes"})
    assert panel.answer.bars is not None
    lo, hi = x_range(panel.density.plot)
    assert hi - lo < 0.9 and y_range(panel.density.plot)[1] > 2     # zoomed on this answer
    panel.tabs.setCurrentWidget(panel.sensitivity)
    panel.tabs.setCurrentWidget(panel.tornado)
    panel.demo_document.replace_network(sprinkler())     # no Dirichlet counts: no error bars
    qtbot.wait(10)
    assert panel.target() == {"Cloudy": "yes"}           # the new network's first variable, on its own
    assert panel.current_evidence() == {}                # the form's rows of asia are gone, not "Cloudy=yes"
    assert panel.controls.evidence.rows == []
    assert panel.answer.bars is None and panel.answer.no_counts
    assert panel.answer.probability == pytest.approx(0.5)
    text = panel.summary.text.text()
    assert "Cloudy=yes | —" in text and "Cloudy=yes | Cloudy" not in text
    lo, hi = x_range(panel.tornado.plot)      # the tornado (θ ± 10 % without counts) is of the new answer
    assert lo < 0.5 < hi and panel.tornado.result.q0 == pytest.approx(0.5)
    for plot in (panel.density.plot, panel.sensitivity.plot):
        assert x_range(plot) == pytest.approx([0.0, 1.0]) and y_range(plot) == pytest.approx([0.0, 1.0]), plot
    assert panel.density.curves["normal"].xData is None or len(panel.density.curves["normal"].xData) == 0


def test_a_target_is_never_also_evidence(make_panel):
    panel = make_panel(sprinkler())
    panel.set_target({"Rain": "yes"})
    panel.set_evidence_mode("form")
    row = panel.controls.evidence.add_row()              # a new evidence row skips the target's variable
    assert row.value()[0] == "Cloudy"
    panel.controls.evidence.set_assignment({"Rain": "no", "Cloudy": "yes"})   # asked for all the same:
    panel.refresh(force=True)
    answer = panel.answer
    assert answer.mean is None and "Rain is both the target and evidence" in answer.error
    assert "Rain is both the target and evidence" in panel.summary.text.text()
    panel.controls.evidence.set_assignment({"Cloudy": "yes"})
    panel.refresh(force=True)
    expected = InferenceEngine(sprinkler()).query_probability({"Rain": "yes"}, {"Cloudy": "yes"})
    assert panel.answer.mean == pytest.approx(expected) == pytest.approx(0.8)


def test_a_target_observed_on_the_canvas_is_explained_not_answered(qtbot, make_panel):
    panel = make_panel(sprinkler())
    panel.set_target({"Wet": "yes"})
    assert panel.demo_document.set_evidence("Wet", "no")
    panel.refresh(force=True)
    assert panel.answer.mean is None and "Wet is both the target and evidence" in panel.answer.error


def test_the_target_list_is_alphabetical(make_panel):
    from bnstudio.io import read_network

    from .conftest import NETWORKS

    panel = make_panel(read_network(NETWORKS / "alarm.bif"))
    box = panel.controls.target.rows[0].variable_box
    names = [box.itemText(i) for i in range(box.count())]
    assert names == sorted(panel.demo_document.network.variables, key=str.casefold) and len(names) == 37
    assert names[:3] == ["ANAPHYLAXIS", "ARTCO2", "BP"]
