"""Beliefs of a large network come from background jobs, so the window never waits: the nodes in view first,
then the rest; impossible evidence is taken back with a message; a result computed for evidence that changed
meanwhile is dropped. The bars always end up equal to what the engine computes for the evidence as it is."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from bnstudio.app.beliefs import BACKGROUND_ABOVE
from bnstudio.core.network import Network
from bnstudio.inference import InferenceEngine

N = BACKGROUND_ABOVE + 20


def long_chain(n: int = N) -> Network:
    """X0 -> X1 -> ... with one deterministic link (X7 = X6), so some evidence is impossible."""
    rng = np.random.default_rng(3)
    net = Network("chain")
    net.add_variable("X0", ["a", "b"], cpt=[0.3, 0.7], position=(0.0, 0.0))
    for k in range(1, n):
        table = [[1.0, 0.0], [0.0, 1.0]] if k == 7 else rng.dirichlet([2, 2], size=2)
        net.add_variable(f"X{k}", ["a", "b"], [f"X{k - 1}"], table, position=(0.0, 80.0 * k))
    return net


def settled(qtbot, window, timeout: int = 30000) -> None:
    qtbot.waitUntil(lambda: not window.document.updates.busy and
                    len(window.document.beliefs.known()) == len(window.document.network), timeout=timeout)


def bars(window) -> dict[str, np.ndarray]:
    return {name: item.beliefs for name, item in window.scene.nodes.items()}


def assert_bars_are_the_engines(window) -> None:
    net, evidence = window.document.network, window.document.evidence
    expected = InferenceEngine(net).posterior(net.variables, evidence)
    shown = bars(window)
    for name, p in expected.items():
        np.testing.assert_allclose(shown[name], p, atol=1e-12, err_msg=name)


@pytest.fixture
def big(window, qtbot):
    window.document.replace_network(long_chain())
    assert window.document.beliefs.in_background
    settled(qtbot, window)
    return window


def test_opening_computes_beliefs_in_the_background_then_shows_all(big):
    assert_bars_are_the_engines(big)


def test_evidence_comes_back_at_once_and_the_beliefs_follow(qtbot, big):
    w = big
    w.view.set_zoom(1.0)
    w.view.centerOn(w.scene.nodes["X150"])
    QApplication.processEvents()
    shown = w.scene.visible_names()
    assert shown and len(shown) < 50
    w.document.set_evidence("X150", "a")                # returns before any marginal is computed
    assert w.document.evidence == {"X150": "a"} and w.document.beliefs.known() == {}
    qtbot.waitUntil(lambda: all(n in w.document.beliefs.known() for n in shown), timeout=30000)
    settled(qtbot, w)
    assert_bars_are_the_engines(w)
    assert "P(e)" in w.evidence_label.text()


def test_impossible_evidence_is_taken_back_with_a_message(qtbot, big):
    w = big
    w.document.set_evidence("X6", "a")
    settled(qtbot, w)
    w.document.set_evidence("X7", "b")                  # X7 = X6: impossible together
    qtbot.waitUntil(lambda: w.document.evidence == {"X6": "a"}, timeout=30000)
    assert "not applied" in w.message_bar.label.text() and "impossible" in w.message_bar.label.text()
    settled(qtbot, w)
    assert_bars_are_the_engines(w)


def test_quick_changes_end_with_the_beliefs_of_the_last_evidence(qtbot, big):
    w = big
    for k in range(0, 60, 6):                           # faster than the jobs
        w.document.set_evidence(f"X{k + 30}", "a" if k % 12 else "b")
    w.document.set_evidence("X36", None)
    settled(qtbot, w)
    assert_bars_are_the_engines(w)


def test_an_edit_recomputes_in_the_background(qtbot, big):
    from bnstudio.app import commands as cmd

    w = big
    w.document.execute(cmd.SetCpt(w.document, "X0", np.array([0.9, 0.1])))
    settled(qtbot, w)
    assert_bars_are_the_engines(w)
