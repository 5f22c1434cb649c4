"""The node properties panel: rename, states (add, rename, remove, reorder — CPTs follow), description."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from bnstudio.gui.document import Document
from bnstudio.gui.properties import PropertiesPanel
from tests.gui.conftest import assert_same_tables, sprinkler


@pytest.fixture
def panel(qtbot):
    widget = PropertiesPanel(Document(sprinkler()))
    qtbot.addWidget(widget)
    widget.set_variable("Rain")
    widget.show()
    return widget


def test_shows_the_variable(panel):
    assert panel.name_edit.text() == "Rain"
    assert [panel.states.item(i).text() for i in range(panel.states.count())] == ["yes", "no"]
    assert "Parents: Cloudy" in panel.family.text() and "Children: Wet" in panel.family.text()


def test_a_class_with_a_thousand_children_lists_forty_and_a_count(qtbot):
    from bnstudio.core.network import Network

    net = Network("nb")
    net.add_variable("C", ["a", "b"], cpt=[0.5, 0.5])
    for i in range(1000):
        net.add_variable(f"X{i}", ["0", "1"], ["C"], [[0.3, 0.7], [0.6, 0.4]])
    widget = PropertiesPanel(Document(net))
    qtbot.addWidget(widget)
    widget.set_variable("C")
    text = widget.family.text()
    assert text == "Parents: —\nChildren: " + ", ".join(f"X{i}" for i in range(40)) + " and 960 more"


def test_rename_variable_and_refusal(panel, qtbot):
    panel.name_edit.setText("Showers")
    assert panel.commit_name()
    assert "Showers" in panel.document.network and panel.variable == "Showers"
    panel.name_edit.setText("Wet")
    assert not panel.commit_name()
    assert panel.name_edit.text() == "Showers"


def test_state_edits_follow_through_the_core_and_undo(panel):
    doc = panel.document
    before = doc.network.copy()
    assert panel.add_state()
    assert doc.network.states("Rain") == ("yes", "no", "state3")   # the third state, in the others' case
    assert doc.network.cpt("Wet").shape == (2, 3, 2)  # the child's table follows
    panel.states.item(2).setText("drizzle")  # in-place rename through the list
    assert doc.network.states("Rain") == ("yes", "no", "drizzle")
    panel.states.setCurrentRow(2)
    assert panel.move_state(-1)
    assert doc.network.states("Rain") == ("yes", "drizzle", "no")
    assert panel.states.currentRow() == 1
    panel.states.setCurrentRow(0)
    assert panel.remove_state()
    assert doc.network.states("Rain") == ("drizzle", "no")
    for _ in range(4):
        doc.undo_stack.undo()
    assert_same_tables(before, doc.network)


def test_reorder_permutes_the_tables(panel):
    doc = panel.document
    wet = np.array(doc.network.cpt("Wet"))
    panel.states.setCurrentRow(0)
    assert panel.move_state(1)
    np.testing.assert_array_equal(doc.network.cpt("Wet"), wet[:, ::-1, :])


def test_description_is_committed_once_when_leaving_the_box(panel):
    panel.description.setPlainText("rain in the last hour")
    panel.description.editing_finished.emit()
    assert panel.document.network.variable("Rain").description == "rain in the last hour"
    assert panel.document.undo_stack.count() == 1
    panel.description.editing_finished.emit()  # nothing changed: no second step
    assert panel.document.undo_stack.count() == 1


def test_remove_is_disabled_for_the_last_state(panel):
    panel.states.setCurrentRow(1)
    assert panel.remove_state()
    panel.states.setCurrentRow(0)
    assert not panel.remove_button.isEnabled()
    assert panel.states.item(0).flags() & Qt.ItemIsEditable


def test_renaming_in_an_influence_diagram_checks_the_utility_nodes(window):
    """The properties panel renames as the canvas does: a variable named like a utility node is refused under
    the name field, changing nothing (no undo step); a good rename follows into the decision part and undoes."""
    from bnstudio.app.resources import bundled_diagram

    assert window.files.open_path(bundled_diagram(), ask=False)
    window.show_dock("properties")
    doc, panel = window.document, window.properties
    before = (list(doc.network.variables), doc.decisions.to_json(), doc.undo_stack.count())
    for name, taken in (("Oil", "TestCost"), ("Test", "Payoff")):     # a chance node, a decision
        panel.set_variable(name)
        panel.name_edit.setText(taken)
        assert not panel.commit_name()
        assert (list(doc.network.variables), doc.decisions.to_json(), doc.undo_stack.count()) == before
        assert panel.name_edit.text() == name and panel.variable == name
        assert panel.name_notice.isVisible() and f"utility node '{taken}'" in panel.name_notice.text()
        assert "\n" not in panel.name_notice.text()
    panel.set_variable("Oil")
    assert not panel.name_notice.isVisible()             # the refusal was about the other node
    panel.name_edit.setText("TestCost")
    assert not panel.commit_name() and panel.name_notice.isVisible()
    panel.name_edit.setText("Crude")
    assert panel.commit_name() and not panel.name_notice.isVisible()
    assert doc.decisions.utility("Payoff").parents == ("Drill", "Crude")
    doc.undo_stack.undo()
    assert doc.decisions.utility("Payoff").parents == ("Drill", "Oil") and "Oil" in doc.network
    doc.undo_stack.redo()
    assert doc.decisions.utility("Payoff").parents == ("Drill", "Crude") and "Oil" not in doc.network
    assert window.decision_solver.latest.solution.expected_utility == pytest.approx(22.5)


def test_a_new_state_continues_numbered_names(qtbot):
    """GeNIe's State0, State1 (and pgmpy's s0, s1) go on as State2 (s2): the name a user of either expects."""
    from bnstudio.core.network import Network

    net = Network()
    net.add_variable("A", ["State0", "State1"])
    net.add_variable("B", ["s0", "s1"], ["A"])
    panel = PropertiesPanel(Document(net))
    qtbot.addWidget(panel)
    for name, expected in (("A", ("State0", "State1", "State2")), ("B", ("s0", "s1", "s2"))):
        panel.set_variable(name)
        assert panel.add_state()
        assert panel.document.network.states(name) == expected
