"""The CPT editor edits a noisy-MAX's few parameters (Henrion's, as GeNIe shows them) with the expanded CPT
below; every edit is one undo step and the table follows."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from bnstudio.core.canonical import NoisyMax, canonical_of, set_canonical
from bnstudio.core.network import Network
from bnstudio.gui.cpt_editor import CptEditor
from bnstudio.gui.document import Document


def noisy_network() -> Network:
    net = Network()
    for v in "AB":
        net.add_variable(v, ["present", "absent"], cpt=[0.3, 0.7])
    net.add_variable("C", ["present", "absent"], ["A", "B"])
    set_canonical(net, "C", NoisyMax.noisy_or([0.8, 0.6], 0.05))  # Díez
    return net


def open_editor(qtbot, net: Network) -> CptEditor:
    widget = CptEditor(Document(net))
    qtbot.addWidget(widget)
    widget.set_variable("C")
    widget.show()
    return widget


@pytest.fixture
def editor(qtbot):
    return open_editor(qtbot, noisy_network())


def test_the_parameters_are_shown_as_henrion_with_the_leak(editor):
    table = editor.canonical.table
    assert editor.canonical.isVisible() and table.rowCount() == 3
    assert editor.actions_by_name["plain"].isEnabled() and not editor.actions_by_name["noisy_max"].isEnabled()
    labels = [table.verticalHeaderItem(r).text() for r in range(3)]
    assert labels == ["A = present", "B = present", "leak"]
    henrion = [float(table.item(r, 0).text()) for r in range(3)]
    assert henrion == pytest.approx([1 - 0.95 * 0.2, 1 - 0.95 * 0.4, 0.05])


def test_editing_a_parameter_is_one_undo_step_and_the_cpt_follows(editor):
    doc = editor.document
    assert editor.canonical.set_parameter(0, 0, 0.9)  # Henrion P(C | A present only) = 0.9
    cpt = doc.network.cpt("C")
    assert cpt[0, 1, 0] == pytest.approx(0.9, abs=1e-12) and cpt[1, 1, 0] == pytest.approx(0.05, abs=1e-12)
    assert cpt[0, 0, 1] == pytest.approx(0.1 * 0.38 / 0.95, abs=1e-12)  # (1-h_A)(1-h_B)/(1-leak)
    assert canonical_of(doc.network, "C") is not None
    assert float(editor.canonical.table.item(0, 0).text()) == pytest.approx(0.9)
    doc.undo_stack.undo()
    np.testing.assert_allclose(doc.network.cpt("C"), noisy_network().cpt("C"), rtol=0, atol=1e-15)
    assert float(editor.canonical.table.item(0, 0).text()) == pytest.approx(0.81)


def test_a_value_breaking_the_row_is_refused_and_plain_and_make_switch_modes(editor):
    doc = editor.document
    before = doc.network.cpt("C")
    assert not editor.canonical.set_parameter(2, 0, 1.5)
    np.testing.assert_array_equal(doc.network.cpt("C"), before)
    assert editor.canonical.make_plain() and canonical_of(doc.network, "C") is None
    assert not editor.canonical.isVisible() and editor.actions_by_name["noisy_max"].isEnabled()
    assert not editor.actions_by_name["plain"].isEnabled()
    np.testing.assert_array_equal(doc.network.cpt("C"), before)
    assert editor.canonical.make_noisy_max()  # fitted back from the table: the same noisy-OR
    np.testing.assert_allclose(doc.network.cpt("C"), before, rtol=0, atol=1e-6)
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert canonical_of(doc.network, "C") is not None


def test_editing_the_expanded_table_makes_it_a_plain_cpt(editor):
    doc = editor.document
    doc.network.set_cpt_row("C", ["present", "present"], [0.5, 0.5])
    editor.canonical.refresh()
    assert canonical_of(doc.network, "C") is None and not editor.canonical.isVisible()


# ------------------------------------------------ a node listing its absent state first (Hugin's "false", "true")
def permuted_network() -> Network:
    net = Network()
    for v in "AB":
        net.add_variable(v, ["false", "true"], cpt=[0.7, 0.3])
    net.add_variable("C", ["false", "true"], ["A", "B"])
    links = tuple(np.array([[0.0, 1.0], [c, 1 - c]]) for c in (0.8, 0.6))  # Díez; severity order (true, false)
    set_canonical(net, "C", NoisyMax(links, np.array([0.05, 0.95]), (0, 0), (1, 0)))
    return net


@pytest.fixture
def permuted_editor(qtbot):
    return open_editor(qtbot, permuted_network())


def test_a_permuted_node_shows_its_states_from_the_most_severe(permuted_editor):
    table = permuted_editor.canonical.table
    assert [table.horizontalHeaderItem(c).text() for c in range(2)] == ["true", "false"]
    assert [table.verticalHeaderItem(r).text() for r in range(3)] == ["A = true", "B = true", "leak"]
    assert [float(table.item(r, 0).text()) for r in range(3)] == pytest.approx([1 - 0.95 * 0.2, 1 - 0.95 * 0.4,
                                                                                0.05])
    assert not table.item(0, 1).flags() & Qt.ItemIsEditable  # "false" (absent) takes the rest


def test_editing_a_link_of_a_permuted_node_changes_the_true_column(permuted_editor):
    doc, table = permuted_editor.document, permuted_editor.canonical.table
    table.item(0, 0).setText("0.9")  # Henrion P(C = true | A = true only), typed in the cell
    cpt = doc.network.cpt("C")  # axes (A, B, C), C's columns (false, true)
    assert cpt[1, 0, 1] == pytest.approx(0.9, abs=1e-12) and cpt[0, 0, 1] == pytest.approx(0.05, abs=1e-12)
    assert cpt[1, 1, 0] == pytest.approx(0.1 * 0.38 / 0.95, abs=1e-12)  # false: (1-h_A)(1-h_B)/(1-leak)
    np.testing.assert_allclose(cpt[0, 1], permuted_network().cpt("C")[0, 1], rtol=0, atol=1e-15)  # A false: as before
    model = canonical_of(doc.network, "C")
    assert model is not None and model.child_order == (1, 0)
    assert float(table.item(0, 0).text()) == pytest.approx(0.9) and float(table.item(0, 1).text()) == pytest.approx(0.1)
    assert not permuted_editor.canonical.set_parameter(0, 1, 0.5)  # the absent column is not set directly
    doc.undo_stack.undo()
    np.testing.assert_allclose(doc.network.cpt("C"), permuted_network().cpt("C"), rtol=0, atol=1e-15)
