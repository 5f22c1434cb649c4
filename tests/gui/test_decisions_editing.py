"""Building and editing influence diagrams on the canvas with the tools only: decision and utility nodes, arcs
into them, utility tables typed into the editor, CPTs typed into the CPT editor — the oil wildcatter built from
an empty document gives the MEU of the bundled file; refusals are one line and change nothing; every step
undoes and redoes exactly; the recovery copy keeps the decision part."""
from __future__ import annotations

import json

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest

from bnstudio.app.resources import bundled_diagram
from bnstudio.cli.decide import load_diagram
from bnstudio.decision import solve
from bnstudio.gui.canvas import ADD_DECISION, ADD_UTILITY

OIL = bundled_diagram()


def state(doc) -> str:
    """Everything an edit may change: variables, states, parents, CPTs, and the decision part."""
    net = doc.network
    return json.dumps({"net": [(v, net.states(v), net.parents(v), np.asarray(net.cpt(v)).tolist())
                               for v in net.variables],
                       "part": None if doc.decisions is None else doc.decisions.to_json()})


def rename(window, old: str, new: str) -> None:
    """F2-style rename in place: the view's editor over the title."""
    window.view.start_rename(old)
    window.view._editor.setText(new)
    window.view.commit_rename()


def set_states(window, name: str, states: list[str]) -> None:
    """Through the properties panel: add states, then type each state's name into the list."""
    panel = window.properties
    panel.set_variable(name)
    while len(window.document.network.states(name)) < len(states):
        assert panel.add_state()
    for i, text in enumerate(states):
        panel.states.item(i).setText(text)
    assert window.document.network.states(name) == tuple(states)


def type_cpt(window, name: str, rows: list[list[float]]) -> None:
    """Type every cell of ``name``'s CPT into the CPT editor (one row per parent configuration)."""
    editor = window.cpt_editor
    editor.set_variable(name)
    model, first = editor.model, len(window.document.network.parents(name))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            assert model.setData(model.index(r, first + c), repr(float(value)))


def type_utility(window, name: str, values: dict[str, float]) -> None:
    editor = window.decision_panel.utilities
    editor.set_utility(name)
    labels = [editor.model.row_label(i) for i in range(editor.model.rowCount())]
    for label, value in values.items():
        assert editor.edit_cell(labels.index(label), str(value))


def click(window, scene_pos: QPointF) -> None:
    view = window.view
    view.centerOn(scene_pos)
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, view.mapFromScene(scene_pos))


def build_oil_wildcatter(window, steps: list[str]) -> None:
    """The oil wildcatter (Raiffa 1968) from an empty document; ``steps`` gets the state after each edit."""
    doc, scene = window.document, window.scene
    doc.undo_stack.indexChanged.connect(lambda _i: steps.append(state(doc)))
    steps.append(state(doc))
    oil = scene.add_node_at(QPointF(0, 0))
    rename(window, oil, "Oil")
    set_states(window, "Oil", ["dry", "wet", "soaking"])
    window.set_tool(ADD_DECISION)
    click(window, QPointF(-300, 0))                     # the tool: a click on empty space
    assert doc.decisions is not None and doc.decisions.decision_names == ("Decision1",)
    rename(window, "Decision1", "Test")
    result = scene.add_node_at(QPointF(-150, 200))
    rename(window, result, "Result")
    set_states(window, "Result", ["closed", "open", "diffuse", "none"])
    assert scene.add_decision_at(QPointF(-150, 400)) == "Decision1"    # the first one is called Test now
    rename(window, "Decision1", "Drill")
    assert doc.decisions.decisions[1].parents == ("Test",)   # it observes the decision before: one path
    for parent, child in (("Oil", "Result"), ("Test", "Result"), ("Result", "Drill")):
        assert scene.add_arc(parent, child)
    window.set_tool(ADD_UTILITY)
    click(window, QPointF(-450, 200))
    rename(window, "Utility1", "TestCost")
    assert scene.add_arc("Test", "TestCost")
    type_utility(window, "TestCost", {"Test=yes": -10, "Test=no": 0})
    assert scene.add_utility_at(QPointF(0, 400)) == "Utility1"
    rename(window, "Utility1", "Payoff")
    for parent in ("Drill", "Oil"):
        assert scene.add_arc(parent, "Payoff")
    type_utility(window, "Payoff", {"Drill=yes, Oil=dry": -70, "Drill=yes, Oil=wet": 50,
                                    "Drill=yes, Oil=soaking": 200})
    type_cpt(window, "Oil", [[0.5, 0.3, 0.2]])
    type_cpt(window, "Result", [[0.1, 0.3, 0.6, 0.0], [0.0, 0.0, 0.0, 1.0], [0.3, 0.4, 0.3, 0.0],
                                [0.0, 0.0, 0.0, 1.0], [0.5, 0.4, 0.1, 0.0], [0.0, 0.0, 0.0, 1.0]])
    window.set_tool("select")


@pytest.fixture
def built(window):
    steps: list[str] = []
    build_oil_wildcatter(window, steps)
    return window, steps


def test_built_with_the_tools_it_is_the_oil_wildcatter(built):
    window, _steps = built
    doc = window.document
    reference = load_diagram(str(OIL))
    mine = doc.decisions.diagram(doc.network)
    assert mine.decisions == reference.decisions
    assert [(u.name, u.parents, u.table.tolist()) for u in mine.utilities] == \
        [(u.name, u.parents, u.table.tolist()) for u in reference.utilities]
    for v in reference.chance_names:
        assert mine.parents(v) == reference.parents(v)
        np.testing.assert_allclose(mine.cpt(v), reference.cpt(v), atol=1e-12)
    expected = solve(reference)
    assert expected.expected_utility == pytest.approx(22.5)
    shown = window.decision_solver.latest.solution
    assert shown.expected_utility == pytest.approx(expected.expected_utility, abs=1e-9)
    for d, options in expected.options.items():
        assert shown.options[d] == pytest.approx(options, abs=1e-9)
    assert "22.5" in window.decision_panel.meu.text()


def test_every_step_undoes_and_redoes_exactly(built):
    window, steps = built
    stack = window.document.undo_stack
    n = stack.index()
    assert n == len(steps) - 1 and n > 25
    for k in range(n - 1, -1, -1):
        stack.undo()
        assert state(window.document) == steps[k], stack.text(k)
    assert window.document.decisions is None and len(window.document.network) == 0
    for k in range(1, n + 1):
        stack.redo()
        assert state(window.document) == steps[k], stack.text(k - 1)
    assert window.decision_solver.latest.solution.expected_utility == pytest.approx(22.5)


def refused(window, edit) -> str:
    """Run ``edit``; it must show one error line and change nothing (no undo step either)."""
    doc = window.document
    before, count, messages = state(doc), doc.undo_stack.count(), []
    doc.message.connect(lambda level, text: messages.append((level, text)))
    assert not edit()
    assert state(doc) == before and doc.undo_stack.count() == count
    assert len(messages) == 1 and messages[0][0] == "error" and "\n" not in messages[0][1]
    return messages[0][1]


def test_refusals_are_one_line_and_change_nothing(built):
    window, _ = built
    scene = window.scene
    assert "cannot have children" in refused(window, lambda: scene.add_arc("Payoff", "Oil"))
    assert "cannot have children" in refused(window, lambda: scene.add_arc("TestCost", "Payoff"))
    assert "cycle" in refused(window, lambda: scene.add_arc("Drill", "Test"))        # informational arc
    assert "cycle" in refused(window, lambda: scene.add_arc("Drill", "Oil"))         # network arc, via Result
    assert "cycle" in refused(window, lambda: scene.add_arc("Result", "Oil"))        # the network's own check
    assert "already" in refused(window, lambda: scene.add_arc("Oil", "Payoff"))
    assert "utility node 'Payoff' has the name" in refused(
        window, lambda: window.document.execute(diagram_rename(window, "Oil", "Payoff")))


def diagram_rename(window, old, new):
    from bnstudio.app.commands.diagram_edits import rename_node
    return rename_node(window.document, old, new)


def test_decision_order_moves_only_where_the_model_allows(built):
    window, _ = built
    doc, order = window.document, window.decision_panel.order
    assert [order.list.item(i).text() for i in range(order.list.count())] == [
        "1. Test — observes nothing", "2. Drill — observes Test, Result"]
    order.select("Drill")
    before = state(doc)
    assert not order.move_current(-1)
    assert "Test → Result → Drill" in order.notice.text() and state(doc) == before
    # without Test -> Result, only the informational arc orders them: moving Drill first reverses it
    window.scene.select_only([])
    window.scene.arcs[("Test", "Result")].setSelected(True)
    window.scene.delete_selection()
    order.select("Drill")
    assert order.move_current(-1)
    assert doc.decisions.decision_names == ("Drill", "Test")
    assert doc.decisions.decisions[1].parents == ("Drill",)
    assert doc.decisions.decisions[0].parents == ("Result",)
    doc.undo_stack.undo()
    assert doc.decisions.decision_names == ("Test", "Drill")
    order.select("Drill")
    assert not order.move_current(1) and "already taken last" in order.notice.text()


def test_deleting_a_chance_parent_of_a_utility_averages_its_table(built):
    window, _ = built
    doc, scene = window.document, window.scene
    before = state(doc)
    scene.select_only(["Oil"])
    scene.delete_selection()              # the Delete key's action
    payoff = doc.decisions.utility("Payoff")
    assert payoff.parents == ("Drill",)
    np.testing.assert_allclose(payoff.table, [(-70 + 50 + 200) / 3, 0.0])   # the mean over Oil's states
    assert "Oil" not in doc.network and doc.decisions.diagram(doc.network) is not None
    assert window.decision_solver.latest.solution is not None
    doc.undo_stack.undo()
    assert state(doc) == before
    assert window.decision_solver.latest.solution.expected_utility == pytest.approx(22.5)


def test_deleting_decisions_utilities_and_their_arcs(built):
    window, _ = built
    doc, scene = window.document, window.scene
    before = state(doc)
    scene.clearSelection()
    scene.arcs[("Result", "Drill")].setSelected(True)     # an informational arc
    scene.arcs[("Oil", "Payoff")].setSelected(True)       # a utility arc
    scene.delete_selection()
    assert doc.decisions.decisions[1].parents == ("Test",)
    np.testing.assert_allclose(doc.decisions.utility("Payoff").table, [(-70 + 50 + 200) / 3, 0.0])
    doc.undo_stack.undo()
    assert state(doc) == before
    scene.clearSelection()
    scene.nodes["Test"].setSelected(True)
    scene.utility_items["TestCost"].setSelected(True)
    scene.delete_selection()
    assert doc.decisions.decision_names == ("Drill",) and doc.decisions.utility_names == ("Payoff",)
    assert doc.network.parents("Result") == ("Oil",)
    doc.undo_stack.undo()
    assert state(doc) == before
    # everything of the diagram deleted: a plain network again; undo brings the diagram back
    scene.clearSelection()
    for name in ("Test", "Drill"):
        scene.nodes[name].setSelected(True)
    for name in ("TestCost", "Payoff"):
        scene.utility_items[name].setSelected(True)
    scene.delete_selection()
    assert doc.decisions is None and sorted(doc.network.variables) == ["Oil", "Result"]
    doc.undo_stack.undo()
    assert state(doc) == before


def test_deleting_a_middle_decision_keeps_the_others_ordered(window):
    scene, doc = window.scene, window.document
    names = [scene.add_decision_at(QPointF(200 * k, 0)) for k in range(3)]
    assert [d.parents for d in doc.decisions.decisions] == [(), (names[0],), (names[1],)]
    before = state(doc)
    scene.select_only([names[1]])
    scene.delete_selection()
    assert [(d.name, d.parents) for d in doc.decisions.decisions] == [(names[0], ()), (names[2], (names[0],))]
    doc.undo_stack.undo()
    assert state(doc) == before


def test_first_decision_or_utility_makes_the_diagram_in_the_same_step(window):
    doc, scene = window.document, window.scene
    scene.add_node_at(QPointF(0, 0))
    assert doc.decisions is None
    assert scene.add_utility_at(QPointF(200, 0)) == "Utility1"
    assert doc.decisions.utility_names == ("Utility1",) and doc.undo_stack.count() == 2
    assert window.scene.utility_items["Utility1"].pos() == QPointF(200, 0)
    doc.undo_stack.undo()
    assert doc.decisions is None and not scene.utility_items
    doc.undo_stack.redo()
    assert doc.decisions.utility_names == ("Utility1",)


def test_recovery_copy_keeps_the_decision_part(built, recovery, no_dialogs):
    window, _ = built
    doc = window.document
    assert recovery.acquire()
    assert window.files.autosave()
    expected = state(doc)
    files = {path: path.read_bytes() for path in (recovery.copy_path, recovery.sidecar_path)}
    doc.replace_network(type(doc.network)("untitled"))   # what a crash loses (a clean state drops the copy)
    assert doc.decisions is None
    for path, data in files.items():
        path.write_bytes(data)
    info = recovery.pending()
    assert info is not None and info.decisions is not None
    assert window.files.restore(info), no_dialogs
    assert state(doc) == expected
    assert window.decision_solver.latest.solution.expected_utility == pytest.approx(22.5)
    assert "decisions" in doc.unsaved_parts()
    recovery.release()


def test_an_opened_diagram_is_edited_the_same_way(window):
    assert window.files.open_path(OIL, ask=False)
    doc = window.document
    assert window.scene.add_decision_at(QPointF(600, 600)) == "Decision1"
    assert doc.decisions.decision_names == ("Test", "Drill", "Decision1")
    assert doc.decisions.decisions[2].parents == ("Drill",)
    rename(window, "Payoff", "Profit")
    assert "Profit" in doc.decisions.utility_names and "Profit" in window.scene.utility_items
    doc.undo_stack.undo()
    assert "Payoff" in window.scene.utility_items


def test_chance_node_to_decision_and_back(built):
    """Result made a decision observes its CPT parents and is taken between Test (its ancestor) and Drill; made
    a chance node again, the decision's observations become CPT parents. Undo restores each exactly."""
    window, _ = built
    doc = window.document
    from bnstudio.app.commands.diagram_edits import make_chance, make_decision
    before = state(doc)
    assert doc.execute(make_decision(doc, "Result"))
    assert [(d.name, d.parents) for d in doc.decisions.decisions] == [
        ("Test", ()), ("Result", ("Oil", "Test")), ("Drill", ("Test", "Result"))]
    assert doc.network.parents("Result") == () and window.scene.nodes["Result"].kind == "decision"
    assert window.decision_solver.latest.solution is not None
    after = state(doc)
    assert doc.execute(make_chance(doc, "Result"))
    assert doc.decisions.decision_names == ("Test", "Drill") and doc.network.parents("Result") == ("Oil", "Test")
    doc.undo_stack.undo()
    assert state(doc) == after
    doc.undo_stack.undo()
    assert state(doc) == before
    # a chance node no total order can take (Oil is no descendant of Test, and reaches Drill) makes a LIMID, as
    # Hugin reads one: solved by single policy updating, and the panel says so
    assert doc.execute(make_decision(doc, "Oil"))
    assert doc.decisions.decision_names == ("Oil", "Test", "Drill")
    assert window.decision_solver.latest.solution.method == "limid-spu"
    assert "LIMID single policy updating" in window.decision_panel.details.text()
    doc.undo_stack.undo()
    assert state(doc) == before
