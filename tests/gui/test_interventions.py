"""do() findings in the app: a finding of their own kind (undoable, exclusive with an observation), beliefs
from the mutilated network, their own look on the canvas with the cut arcs faded, the query answer
p(q | do(x), e); and the relevance overlay (d-separation, Markov blanket) drawn exactly as the core splits."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtWidgets import QMenu

from bnstudio.app.commands.findings import DO, OBSERVE
from bnstudio.app.query.compute import intervened_counts
from bnstudio.core.dseparation import markov_blanket, relevance
from bnstudio.core.surgery import mutilated
from bnstudio.gui.canvas.scene import NetworkScene
from bnstudio.gui.document import Document
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from bnstudio.uncertainty import error_bars
from tests.gui.conftest import NETWORKS


@pytest.fixture
def asia():
    return read_network(NETWORKS / "asia.bif")


@pytest.fixture(scope="module")
def asia_counts():
    """ASIA with mp parameters and Dirichlet counts (the query panel's demo data)."""
    from tests.demos.query_panel import fitted_example

    return fitted_example("asia")[0]


@pytest.fixture
def make_query_panel(qtbot):
    from bnstudio.gui.query_panel import QueryPanel

    def build(net):
        panel = QueryPanel(Document(net.copy()))
        qtbot.addWidget(panel)
        return panel
    return build


def _scene(qtbot, net):
    doc = Document(net.copy())
    return doc, NetworkScene(doc)


def test_an_intervention_gives_the_mutilated_network_s_beliefs_not_the_observed_ones(qtbot, asia):
    doc, _ = _scene(qtbot, asia)
    assert doc.set_finding("lung", "yes", DO)
    assert doc.interventions == {"lung": "yes"} and doc.evidence == {}
    expected = InferenceEngine(mutilated(asia, {"lung": "yes"})).posterior(asia.variables)
    for name in asia.variables:
        np.testing.assert_allclose(doc.posteriors()[name], expected[name], atol=1e-12)
    set_smoke = doc.posteriors()["smoke"].copy()
    np.testing.assert_allclose(set_smoke, InferenceEngine(asia).posterior("smoke")["smoke"], atol=1e-12)
    doc.set_finding("lung", "yes", OBSERVE)            # observing instead: information flows to the cause
    assert doc.interventions == {} and doc.evidence == {"lung": "yes"}
    observed = InferenceEngine(asia).posterior("smoke", {"lung": "yes"})["smoke"]
    np.testing.assert_allclose(doc.posteriors()["smoke"], observed, atol=1e-12)
    assert abs(observed[0] - set_smoke[0]) > 0.2


def test_findings_are_undoable_and_a_variable_is_observed_or_set_never_both(qtbot, asia):
    doc, _ = _scene(qtbot, asia)
    doc.set_finding("lung", "no", OBSERVE)
    doc.set_finding("lung", "yes", DO)
    assert (doc.evidence, doc.interventions) == ({}, {"lung": "yes"})
    doc.undo_stack.undo()
    assert (doc.evidence, doc.interventions) == ({"lung": "no"}, {})
    doc.undo_stack.redo()
    doc.set_finding("lung", None, DO)
    assert (doc.evidence, doc.interventions) == ({}, {})
    doc.undo_stack.undo()
    assert doc.interventions == {"lung": "yes"}
    assert doc.unsaved_work() == []           # findings are not network edits (interventions: session only)
    doc.clear_evidence()
    assert doc.interventions == {}


def test_the_canvas_draws_an_intervened_node_apart_and_its_parent_arcs_cut(qtbot, asia):
    doc, scene = _scene(qtbot, asia)
    doc.set_finding("either", "yes", DO)
    doc.set_evidence("xray", "yes")
    assert scene.nodes["either"].finding_look == "intervention"
    assert scene.nodes["xray"].finding_look == "evidence"
    assert scene.nodes["smoke"].finding_look == "none"
    assert scene.arcs[("lung", "either")].cut and scene.arcs[("tub", "either")].cut
    assert not scene.arcs[("either", "xray")].cut
    doc.undo_stack.undo()
    assert scene.nodes["either"].finding_look == "none" and not scene.arcs[("lung", "either")].cut


def test_the_node_menu_sets_and_clears_an_intervention(window, qtbot):
    window.document.replace_network(read_network(NETWORKS / "asia.bif"))
    item = window.scene.nodes["lung"]
    menu = QMenu()
    window.view._node_menu(menu, item)
    titles = [a.text() for a in menu.actions()]
    assert "Set by intervention (do)" in titles and "Clear intervention" in titles
    do_menu = next(a.menu() for a in menu.actions() if a.text() == "Set by intervention (do)")
    next(a for a in do_menu.actions() if a.text() == "yes").trigger()
    assert window.document.interventions == {"lung": "yes"}
    menu = QMenu()
    window.view._node_menu(menu, item)
    next(a for a in menu.actions() if a.text() == "Clear intervention").trigger()
    assert window.document.interventions == {}


def test_the_query_answer_is_p_of_q_given_do_x_and_e(make_query_panel, asia_counts):
    panel = make_query_panel(asia_counts)
    doc = panel.document
    panel.set_target({"smoke": "yes"})
    doc.set_evidence("dysp", "yes")
    doc.set_finding("lung", "yes", DO)
    cut = mutilated(asia_counts, {"lung": "yes"})
    expected = error_bars(cut, {"smoke": "yes"}, {"dysp": "yes"}, panel.answer.level,
                          alpha=intervened_counts(asia_counts, cut, None, {"lung": "yes"}))
    assert panel.answer.mean == pytest.approx(expected.mean, abs=1e-12)
    assert panel.answer.bars.sd == pytest.approx(expected.sd, abs=1e-12)
    assert "do(lung=yes), dysp=yes" in panel.summary.text.text()
    observed = InferenceEngine(asia_counts).query_probability({"smoke": "yes"}, {"dysp": "yes", "lung": "yes"})
    assert panel.answer.mean != pytest.approx(observed, abs=1e-3)


def test_relevance_overlay_greys_exactly_the_d_separated_variables(qtbot, asia):
    doc, scene = _scene(qtbot, asia)
    doc.set_evidence("lung", "yes")
    doc.set_evidence("xray", "yes")
    scene.overlay.show_relevance("smoke")
    split = relevance(asia, "smoke", ["lung", "xray"])
    assert split.separated and split.irrelevant == ["xray"]
    greyed = [n for n, item in scene.nodes.items() if item.overlay == "separated"]
    assert sorted(greyed) == sorted(split.separated)
    assert all(scene.nodes[n].opacity() < 0.5 for n in greyed)
    assert [n for n, item in scene.nodes.items() if item.overlay == "irrelevant"] == ["xray"]
    assert "this finding does not change p(smoke)" in scene.nodes["xray"].toolTip()
    doc.set_evidence("xray", None)                 # follows the findings
    assert scene.nodes["xray"].overlay == "separated"
    scene.overlay.show_relevance(None)
    assert all(item.overlay is None and item.opacity() == 1.0 for item in scene.nodes.values())


def test_relevance_under_an_intervention_uses_the_cut_graph(qtbot, asia):
    doc, scene = _scene(qtbot, asia)
    doc.set_finding("lung", "yes", DO)
    scene.overlay.show_relevance("smoke")          # lung set: nothing flows from its effects back to smoke
    expected = relevance(mutilated(asia, {"lung": "yes"}), "smoke", ["lung"]).separated
    assert sorted(n for n, i in scene.nodes.items() if i.overlay == "separated") == sorted(expected)
    assert "either" in expected


def test_markov_blanket_highlight(qtbot, asia):
    doc, scene = _scene(qtbot, asia)
    scene.overlay.show_blanket("either")
    members = markov_blanket(asia, "either").members
    assert sorted(n for n, i in scene.nodes.items() if i.overlay == "blanket") == sorted(members)
    assert "Markov blanket of either" in scene.nodes["tub"].toolTip()
