"""The query panel's reasoning tabs show exactly what the core computes: the value-of-information ranking
(a choice sets the finding as one undo step), the k most probable explanations, MAP with its label."""
from __future__ import annotations

import math

import pytest

from bnstudio.gui.query_panel.explanations_view import map_label
from bnstudio.inference import InferenceEngine
from bnstudio.inference.explanations import MapExplanation
from bnstudio.inference.voi import value_of_information


def _voi_panel(make_panel, net, target="lung"):
    panel = make_panel(net)
    panel.set_target({target: "yes"})
    panel.tabs.setCurrentWidget(panel.reasoning.voi)
    return panel


def test_voi_list_is_value_of_information_s_ranking(make_panel, asia_mp):
    net, _ = asia_mp
    panel = _voi_panel(make_panel, net)
    panel.document.set_evidence("dysp", "yes")
    expected = value_of_information(InferenceEngine(net), "lung", {"dysp": "yes"})
    view = panel.reasoning.voi
    assert view.ranked_names() == [c.name for c in expected.candidates]
    for r, cand in enumerate(expected.candidates):
        assert float(view.table.item(r, 1).text()) == pytest.approx(cand.mutual_information, abs=5e-5)
        assert float(view.table.item(r, 2).text()) == pytest.approx(cand.risk_reduction, abs=5e-5)
    assert f"{expected.entropy:.4f} bits" in view.heading.text()


def test_voi_is_computed_only_when_its_tab_is_shown(make_panel, asia_mp):
    net, _ = asia_mp
    panel = make_panel(net)
    panel.set_target({"lung": "yes"})
    assert panel.reasoning.voi.ranked_names() == []
    panel.tabs.setCurrentWidget(panel.reasoning.voi)
    assert len(panel.reasoning.voi.ranked_names()) == len(net.variables) - 1


def test_choosing_a_state_sets_the_finding_as_one_undo_step(make_panel, asia_mp):
    net, _ = asia_mp
    panel = _voi_panel(make_panel, net)
    doc, view = panel.document, panel.reasoning.voi
    best = view.ranked_names()[0]
    assert view.selected_name() == best and view.state.count() == len(net.states(best))
    view.state.setCurrentIndex(1)
    view.observe.click()
    assert doc.evidence == {best: net.states(best)[1]}
    assert best not in view.ranked_names()            # the ranking follows the new finding
    assert doc.unsaved_work() == ["evidence on 1 node"]   # a finding, not a network edit
    doc.undo_stack.undo()
    assert doc.evidence == {}
    assert best in view.ranked_names()
    doc.undo_stack.redo()
    assert doc.evidence == {best: net.states(best)[1]}


def test_explanations_tab_equals_engine_mpe(make_panel, asia_mp):
    net, _ = asia_mp
    panel = make_panel(net)
    panel.set_target({"lung": "yes"})
    panel.document.set_evidence("xray", "yes")
    view = panel.reasoning.explanations
    view.top.setValue(4)
    panel.tabs.setCurrentWidget(view)
    expected = InferenceEngine(net).mpe({"xray": "yes"}, top=4)
    assert view.table.columnCount() == 4
    for k, exp in enumerate(expected):
        assert view.explanation_column(k) == exp.assignment
        assert float(view.table.item(0, k).text()) == pytest.approx(exp.probability, rel=1e-3)
    differ = [v for v in expected.best.assignment if len({e.assignment[v] for e in expected}) > 1]
    assert view.differing_rows() == differ and differ
    assert "± " in view.error_bar.text() and "Beta 90% interval" in view.error_bar.text()


def test_map_over_the_target_variables_is_labelled_exact(make_panel, asia_mp):
    net, _ = asia_mp
    panel = make_panel(net)
    panel.set_target({"lung": "yes", "bronc": "yes"})
    view = panel.reasoning.explanations
    panel.tabs.setCurrentWidget(view)
    assert view.map_variables() == ["lung", "bronc"]
    expected = InferenceEngine(net).map(["lung", "bronc"], {})
    text = view.map_text.text()
    assert "(exact)" in text and f"{expected.probability:.4g}" in text
    assert ", ".join(f"{k}={v}" for k, v in expected.assignment.items()) in text


def test_an_approximate_map_is_labelled_with_its_bounds():
    answer = MapExplanation({"A": "a"}, 0.3, math.log(0.3), -2.0, exact=False, method="local search",
                            lower=0.3, upper=0.45)
    assert map_label(answer) == "approximate (local search), bounds [0.3, 0.45]"


def test_show_relevance_asks_the_canvas_for_the_target_and_follows_it(make_panel, asia_mp):
    net, _ = asia_mp
    panel = _voi_panel(make_panel, net)
    asked = []
    panel.relevance_requested.connect(asked.append)
    panel.reasoning.voi.relevance.setChecked(True)
    panel.set_target({"tub": "yes"})
    panel.reasoning.voi.relevance.setChecked(False)
    assert asked == ["lung", "tub", ""]


def naive_bayes(attributes: int, seed: int = 0):
    """A class C with ``attributes`` binary children: over the 300 variables the app answers in the background."""
    import numpy as np

    from bnstudio.core.network import build_network

    rng = np.random.default_rng(seed)
    families = [("C", ("yes", "no"), (), np.array([0.4, 0.6]))]
    families += [(f"A{i}", ("t", "f"), ("C",), rng.dirichlet([1.0, 1.0], size=2)) for i in range(attributes)]
    return build_network(families, name=f"nb{attributes}")


def test_a_large_network_is_ranked_and_explained_in_the_background(make_panel, qtbot):
    """Issue 36: above 300 variables the tabs compute through a background job (no freeze, no refusal) and
    show exactly what the core computes."""
    net = naive_bayes(320)
    panel = make_panel(net)
    assert panel.document.beliefs.in_background
    panel.set_evidence_mode("form", {"A0": "t", "A1": "f"})
    panel.set_target({"C": "yes"})
    panel.tabs.setCurrentWidget(panel.reasoning.voi)
    view = panel.reasoning.voi
    qtbot.waitUntil(lambda: len(view.ranked_names()) == 318, timeout=30_000)
    expected = value_of_information(InferenceEngine(net), "C", {"A0": "t", "A1": "f"})
    assert view.ranked_names() == [c.name for c in expected.candidates]
    panel.tabs.setCurrentWidget(panel.reasoning.explanations)
    explained = panel.reasoning.explanations
    qtbot.waitUntil(lambda: explained.table.columnCount() == 3, timeout=30_000)
    best = InferenceEngine(net).mpe({"A0": "t", "A1": "f"}, top=3)
    assert explained.table.item(0, 0).text() == f"{best[0].probability:.4g}"
    qtbot.waitUntil(lambda: not panel.reasoning.jobs.running, timeout=30_000)
