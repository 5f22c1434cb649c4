"""Undo commands: one core mutation each, undo restores the network exactly (tables, parent order)."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from bnstudio.app import commands as cmd
from bnstudio.errors import CycleError
from bnstudio.gui.document import Document
from tests.gui.conftest import alarm, assert_same_tables, sprinkler


@pytest.fixture
def doc(qtbot) -> Document:
    return Document(sprinkler())


def _undo_redo_exact(doc: Document, command) -> None:
    before = doc.network.copy()
    assert doc.execute(command)
    after = doc.network.copy()
    doc.undo_stack.undo()
    assert_same_tables(before, doc.network)
    assert doc.network.positions == before.positions
    doc.undo_stack.redo()
    assert_same_tables(after, doc.network)


def test_each_edit_is_one_undo_step_and_undo_is_exact(doc):
    d = doc
    for make in (lambda: cmd.AddVariable(d, "Season", ["summer", "winter"], (300, 0)),
                 lambda: cmd.RenameVariable(d, "Rain", "Showers"),
                 lambda: cmd.SetDescription(d, "Cloudy", "sky cover"),
                 lambda: cmd.AddArc(d, "Cloudy", "Wet"),
                 lambda: cmd.RemoveArc(d, "Sprinkler", "Wet"),
                 lambda: cmd.ReverseArc(d, "Cloudy", "Rain"),
                 lambda: cmd.AddState(d, "Cloudy", "partly", 1),
                 lambda: cmd.RemoveState(d, "Wet", "yes"),
                 lambda: cmd.RenameState(d, "Sprinkler", "on", "running"),
                 lambda: cmd.ReorderStates(d, "Cloudy", ["no", "yes"]),
                 lambda: cmd.SetCpt(d, "Cloudy", np.array([0.3, 0.6])),
                 lambda: cmd.SetAlpha(d, "Rain", np.ones((2, 2))),
                 lambda: cmd.MoveNodes(d, {"Wet": (0, 240)}, {"Wet": (10, 250)})):
        _undo_redo_exact(d, make())
        assert d.undo_stack.index() == 1  # one edit = one step
        d.undo_stack.undo()


def test_remove_variable_restores_its_table_arcs_parent_order_and_childrens_tables(qtbot):
    net = alarm()
    net.set_alpha("HR", np.full(net.family_shape("HR"), 2.5))
    doc = Document(net)
    before = net.copy()
    name = "CATECHOL"  # four parents and a child
    assert net.parents(name) and net.children(name)
    assert doc.execute(cmd.RemoveVariable(doc, name))
    assert name not in doc.network and not any(name in doc.network.parents(c) for c in doc.network.variables)
    doc.undo_stack.undo()
    assert_same_tables(before, doc.network)
    assert doc.network.positions == before.positions


def test_undo_restores_unnormalised_rows_exactly(doc):
    d = doc
    d.execute(cmd.SetCpt(d, "Wet", np.full((2, 2, 2), 0.3)))  # rows sum to 0.6: the editor may hold them
    before = d.network.copy()
    for make in (lambda: cmd.RemoveVariable(d, "Wet"), lambda: cmd.RemoveArc(d, "Rain", "Wet"),
                 lambda: cmd.AddState(d, "Wet", "maybe"), lambda: cmd.RemoveState(d, "Rain", "yes")):
        assert d.execute(make())
        d.undo_stack.undo()
        assert_same_tables(before, d.network)


def test_refused_edit_pushes_nothing_and_reports_the_cycle(doc, qtbot):
    messages = []
    doc.message.connect(lambda level, text: messages.append((level, text)))
    assert not doc.execute(cmd.AddArc(doc, "Wet", "Cloudy"))
    assert doc.undo_stack.count() == 0
    assert messages and messages[0][0] == "error"
    assert "Cloudy -> Sprinkler -> Wet -> Cloudy" in messages[0][1] or "Cloudy -> Rain -> Wet -> Cloudy" in messages[0][1]
    with pytest.raises(CycleError):
        doc.network.add_arc("Wet", "Cloudy")


def test_keyboard_nudges_merge_but_drags_do_not(doc):
    d = doc
    d.execute(cmd.MoveNodes(d, {"Wet": (0, 240)}, {"Wet": (10, 240)}, mergeable=True))
    d.execute(cmd.MoveNodes(d, {"Wet": (10, 240)}, {"Wet": (20, 240)}, mergeable=True))
    assert d.undo_stack.count() == 1 and d.network.positions["Wet"] == (20, 240)
    d.execute(cmd.MoveNodes(d, {"Wet": (20, 240)}, {"Wet": (50, 240)}))
    assert d.undo_stack.count() == 2
    d.undo_stack.undo()
    d.undo_stack.undo()
    assert d.network.positions["Wet"] == (0, 240)


def test_grouped_commands_are_one_step_and_empty_groups_vanish(doc):
    with doc.grouped("Delete two"):
        doc.execute(cmd.RemoveArc(doc, "Rain", "Wet"))
        doc.execute(cmd.RemoveVariable(doc, "Sprinkler"))
    assert doc.undo_stack.count() == 1
    with doc.grouped("Nothing"):
        doc.execute(cmd.AddArc(doc, "Cloudy", "Rain"))  # refused: the arc exists
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert_same_tables(sprinkler(), doc.network)


def test_set_parameters_undo_with_unnormalised_old_tables(doc):
    d = doc
    d.execute(cmd.SetCpt(d, "Cloudy", np.array([0.2, 0.2])))
    before = d.network.copy()
    d.execute(cmd.SetParameters(d, {"Cloudy": np.array([0.5, 0.5])}, {"Rain": np.ones((2, 2))}))
    d.undo_stack.undo()
    assert_same_tables(before, d.network)


def assert_identical(a, b) -> None:
    """``b`` is ``a`` exactly: variable order, families (parent order), tables, counts, metadata, BIF text."""
    from bnstudio.io.bif.writer import format_bif

    assert b.variables == a.variables and b.arcs() == a.arcs()
    assert_same_tables(a, b)
    for v in a.variables:
        assert b.children(v) == a.children(v) and b.variable(v) == a.variable(v), v
    assert b.positions == a.positions and b.properties == a.properties
    assert format_bif(b) == format_bif(a)


@pytest.mark.parametrize("name", ["SAO2", "VENTLUNG", "HISTORY", "BP"])
def test_delete_node_undo_restores_its_place_in_the_order_and_the_saved_file(qtbot, tmp_path, name):
    from bnstudio.io import write_bif

    net = alarm()
    for i, v in enumerate(net.variables):
        net.positions[v] = (12.5 * i, 7.0 * (i % 5))
    net.set_description(name, "the deleted one")
    net.properties[f"{name}.note"] = "kept"
    for v in [name] + net.children(name)[:1]:
        net.set_alpha(v, np.full(net.family_shape(v), 1.5))
    original = net.copy()
    write_bif(original, tmp_path / "original.bif")
    doc = Document(net)
    assert doc.execute(cmd.RemoveVariable(doc, name))
    deleted = doc.network.copy()
    assert name not in deleted and name not in deleted.positions
    for cycle in range(3):  # undo / redo are repeatable
        doc.undo_stack.undo()
        assert_identical(original, doc.network)
        doc.save(tmp_path / f"undone{cycle}.bif")
        assert (tmp_path / f"undone{cycle}.bif").read_bytes() == (tmp_path / "original.bif").read_bytes()
        doc.undo_stack.redo()
        assert name not in doc.network
        assert_identical(deleted, doc.network)
    assert doc.undo_stack.count() == 1


def test_undoing_a_deletion_puts_the_node_s_evidence_back(qtbot):
    doc = Document(alarm())
    assert doc.set_evidence("HYPOVOLEMIA", "TRUE") and doc.set_evidence("BP", "LOW")
    with_evidence = {v: p.copy() for v, p in doc.posteriors().items()}
    assert doc.execute(cmd.RemoveVariable(doc, "HYPOVOLEMIA"))
    assert doc.evidence == {"BP": "LOW"}
    doc.undo_stack.undo()
    assert doc.evidence == {"HYPOVOLEMIA": "TRUE", "BP": "LOW"}
    for v, p in doc.posteriors().items():
        np.testing.assert_allclose(p, with_evidence[v], atol=1e-12)
    doc.set_evidence("HYPOVOLEMIA", None)
    doc.undo_stack.redo()
    assert doc.evidence == {"BP": "LOW"}
    doc.undo_stack.undo()                       # the evidence the node had when it was deleted (redo time): none
    assert doc.evidence == {"BP": "LOW"} and "HYPOVOLEMIA" in doc.network


def test_deleting_several_nodes_in_the_window_undoes_to_the_original_order_and_views(alarm_window, qtbot):
    w = alarm_window
    doc, net = w.document, w.document.network
    original = net.copy()
    names = ["SAO2", "ARTCO2", "HR"]  # all touch CATECHOL: two of its parents and its child
    headers = list(net.parents("CATECHOL"))
    w.scene.select_only(names)
    w.scene.delete_selection()
    assert doc.undo_stack.count() == 1 and not any(n in net for n in names)
    assert not any(n in w.scene.nodes for n in names)
    w.cpt_editor.set_variable("CATECHOL")  # shown while its parents come and go
    assert w.cpt_editor.model.headerData(0, Qt.Horizontal) == "INSUFFANESTH"
    for _ in range(2):
        doc.undo_stack.undo()
        assert_identical(original, net)
        assert set(w.scene.nodes) == set(net.variables) and set(w.scene.arcs) == set(net.arcs())
        for n in names:
            assert w.scene.nodes[n].pos().x() == pytest.approx(net.positions[n][0])
        m = w.cpt_editor.model
        assert m.variable == "CATECHOL" and m.rowCount() == int(np.prod(net.family_shape("CATECHOL")[:-1]))
        assert [m.headerData(i, Qt.Horizontal) for i in range(4)] == headers
        doc.undo_stack.redo()
        assert not any(n in net for n in names) and not any(n in w.scene.nodes for n in names)


def test_the_history_dock_lists_the_steps_and_a_click_goes_back_to_one(qtbot):
    """bnstudio/gui/history.py: the History dock shows the plain history (docs/architecture.md §7)."""
    from bnstudio.gui.history import HistoryView

    d = Document(sprinkler())
    view = HistoryView(d.undo_stack)
    qtbot.addWidget(view)
    view.setEmptyLabel("<opened>")
    d.execute(cmd.AddVariable(d, "A", ["x", "y"], (0, 0)))
    d.execute(cmd.AddVariable(d, "B", ["x", "y"], (0, 0)))
    rows = [view.model().index(r, 0).data() for r in range(view.model().rowCount())]
    assert rows == ["<opened>", "Add node A", "Add node B"] and view.currentIndex().row() == 2
    view.clicked.emit(view.model().index(0, 0))
    assert "A" not in d.network and "B" not in d.network and view.currentIndex().row() == 0
    assert d.undo_stack.canRedo() and not d.undo_stack.canUndo()
