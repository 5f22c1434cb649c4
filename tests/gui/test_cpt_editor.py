"""The CPT editor: a virtualised table model (parents' states per row, one column per child state), validated
edits through undo commands, row tools, pasting, unnormalised-row highlighting and Dirichlet counts."""
from __future__ import annotations

import time

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QLineEdit

from bnstudio.app import commands as cmd
from bnstudio.core.network import Network
from bnstudio.display import themes
from bnstudio.gui import theme
from bnstudio.gui.cpt_editor import CptEditor
from bnstudio.gui.document import Document
from tests.gui.conftest import sprinkler


@pytest.fixture
def editor(qtbot):
    doc = Document(sprinkler())
    widget = CptEditor(doc)
    qtbot.addWidget(widget)
    widget.set_variable("Wet")
    widget.show()
    return widget


def test_layout_is_one_row_per_parent_configuration(editor):
    m = editor.model
    assert (m.rowCount(), m.columnCount()) == (4, 2 + 2 + 1)
    headers = [m.headerData(c, Qt.Horizontal) for c in range(m.columnCount())]
    assert headers == ["Sprinkler", "Rain", "yes", "no", "Sum"]
    rows = [[m.data(m.index(r, c)) for c in range(4)] for r in range(4)]
    assert rows == [["on", "yes", "0.99", "0.01"], ["on", "no", "0.9", "0.1"],
                    ["off", "yes", "0.9", "0.1"], ["off", "no", "0", "1"]]
    assert not (m.flags(m.index(0, 0)) & Qt.ItemIsEditable) and m.flags(m.index(0, 2)) & Qt.ItemIsEditable
    assert editor.title.text() == "P(Wet | Sprinkler, Rain)"


def test_edit_a_cell_then_undo(editor):
    m, doc = editor.model, editor.document
    assert m.setData(m.index(1, 2), "0.75")
    assert doc.network.cpt("Wet")[0, 1, 0] == 0.75
    assert m.data(m.index(1, 2)) == "0.75"
    assert doc.undo_stack.count() == 1 and "Wet" in doc.undo_stack.text(0)
    doc.undo_stack.undo()
    assert doc.network.cpt("Wet")[0, 1, 0] == 0.9 and m.data(m.index(1, 2)) == "0.9"


def test_invalid_values_are_refused(editor, qtbot):
    m, doc = editor.model, editor.document
    messages = []
    m.rejected.connect(messages.append)       # each refusal is said, in the editor's own bar
    for bad in ("abc", "-0.1", "1.5", "nan", ""):
        assert not m.setData(m.index(0, 2), bad)
        assert editor.messages.label.text() == messages[-1]
    assert doc.undo_stack.count() == 0 and len(messages) == 5
    assert not m.setData(m.index(0, 0), "0.5")  # parent columns are labels


def test_unnormalised_rows_are_highlighted_and_counted(editor):
    m = editor.model
    m.setData(m.index(2, 2), "0.5")  # row (off, yes) now sums to 0.6
    brush = m.data(m.index(2, 3), Qt.BackgroundRole)
    assert isinstance(brush, QBrush) and brush.color() == theme.colour(themes.CELLS, "unnormalised")
    assert m.data(m.index(1, 3), Qt.BackgroundRole) is None
    assert "sums to 0.6" in m.data(m.index(2, 2), Qt.ToolTipRole)
    assert m.unnormalised_rows() == [2] and "1 row does not sum to 1" == editor.status.text()


def test_row_tools_are_single_undo_steps(editor):
    m, doc = editor.model, editor.document
    m.setData(m.index(2, 2), "0.3")
    m.setData(m.index(2, 3), "0.3")
    editor.table.selectRow(2)
    assert editor.normalise_rows()
    np.testing.assert_allclose(doc.network.cpt("Wet")[1, 0], [0.5, 0.5])
    editor.table.selectRow(0)
    assert editor.uniform_rows()
    np.testing.assert_allclose(doc.network.cpt("Wet")[0, 0], [0.5, 0.5])
    editor.table.clearSelection()
    editor.rng = np.random.default_rng(1)
    assert editor.random_rows()
    table = doc.network.cpt("Wet")
    np.testing.assert_allclose(table.sum(axis=-1), 1.0)
    assert doc.undo_stack.count() == 5
    doc.undo_stack.undo()
    np.testing.assert_allclose(doc.network.cpt("Wet")[0, 0], [0.5, 0.5])


def test_normalise_all(editor):
    m = editor.model
    m.setData(m.index(0, 2), "0.2")
    m.setData(m.index(3, 3), "0.5")
    assert editor.normalise_all()
    np.testing.assert_allclose(editor.document.network.cpt("Wet").sum(axis=-1), 1.0)
    assert editor.model.unnormalised_rows() == []


def test_paste_a_block_from_a_spreadsheet(editor):
    editor.table.setCurrentIndex(editor.model.index(1, 2))
    assert editor.paste("0.6\t0.4\n0.25\t0.75\n")
    table = editor.document.network.cpt("Wet")
    np.testing.assert_allclose(table[0, 1], [0.6, 0.4])
    np.testing.assert_allclose(table[1, 0], [0.25, 0.75])
    assert editor.document.undo_stack.count() == 1


@pytest.mark.parametrize("text", ["0.5\tx\n", "0.5\t0.5\t0.5\n", "0.5\t0.5\n" * 9, "2\t0.5\n"])
def test_bad_pastes_are_refused_with_a_message(editor, text):
    messages = []
    editor.document.message.connect(lambda level, t: messages.append(t))
    editor.table.setCurrentIndex(editor.model.index(0, 2))
    assert not editor.paste(text)
    assert editor.document.undo_stack.count() == 0 and messages


def test_dirichlet_counts_view_and_ess_edit(editor):
    m, doc = editor.model, editor.document
    editor.actions_by_name["counts"].trigger()
    assert m.show_counts and m.headerData(4, Qt.Horizontal) == "ESS"
    assert not (m.flags(m.index(0, 2)) & Qt.ItemIsEditable)  # no counts yet
    assert editor.set_ess(10)
    np.testing.assert_allclose(doc.network.alpha("Wet"), doc.network.cpt("Wet") * 10)
    assert m.data(m.index(0, 4)) == "10"
    assert m.setData(m.index(0, 4), "20")  # rescale the row's counts to an ESS of 20
    np.testing.assert_allclose(doc.network.alpha("Wet")[0, 0], [19.8, 0.2])
    assert m.setData(m.index(1, 2), "3")
    assert doc.network.alpha("Wet")[0, 1, 0] == 3
    assert not m.setData(m.index(1, 2), "-1")
    assert editor.remove_counts() and doc.network.alpha("Wet") is None


def test_model_follows_structure_edits_and_renames(editor):
    from bnstudio.app import commands as cmd
    doc, m = editor.document, editor.model
    doc.execute(cmd.AddArc(doc, "Cloudy", "Wet"))
    assert m.rowCount() == 8 and m.headerData(2, Qt.Horizontal) == "Cloudy"
    doc.execute(cmd.RenameVariable(doc, "Wet", "Grass"))
    assert m.variable == "Grass" and editor.title.text().startswith("P(Grass |")
    doc.execute(cmd.RemoveVariable(doc, "Grass"))
    assert m.variable is None and m.rowCount() == 0


def test_a_10000_row_table_answers_any_cell_quickly(qtbot):
    net = Network("big")
    for name in ("A", "B", "C", "D"):
        net.add_variable(name, [f"s{i}" for i in range(10)])
    net.add_variable("X", ["lo", "mid", "hi"], ["A", "B", "C", "D"])
    widget = CptEditor(Document(net))
    qtbot.addWidget(widget)
    start = time.perf_counter()
    widget.set_variable("X")
    widget.show()
    m = widget.model
    assert m.rowCount() == 10_000
    t0 = time.perf_counter()
    for _ in range(1000):
        assert m.data(m.index(9_999, 3)) == "s9"
        m.data(m.index(9_999, 5))
        m.data(m.index(9_999, 5), Qt.BackgroundRole)
    per_call = (time.perf_counter() - t0) / 3000
    assert per_call < 1e-3
    assert m.data(m.index(9_999, 0)) == "s9" and m.data(m.index(1234, 1)) == "s2"
    widget.table.scrollToBottom()
    assert m.setData(m.index(9_999, 4), "0.5")
    assert widget.document.network.cpt("X")[9, 9, 9, 9, 0] == 0.5
    assert time.perf_counter() - start < 2.0


def test_unrelated_edits_do_not_reset_the_table(editor):
    from bnstudio.app import commands as cmd
    doc, m = editor.document, editor.model
    resets = []
    m.modelReset.connect(lambda: resets.append(1))
    doc.execute(cmd.AddVariable(doc, "Other", ["a", "b"], (500, 0)))
    doc.execute(cmd.AddArc(doc, "Cloudy", "Other"))
    assert resets == []
    doc.execute(cmd.RenameState(doc, "Rain", "yes", "pouring"))  # a parent's state: the labels change
    assert resets == [1] and m.data(m.index(0, 1)) == "pouring"


def test_rows_not_summing_to_one_are_named_with_a_choice_not_used_silently(window, qtbot):
    w = window
    w.document.replace_network(sprinkler())
    w.document.execute(cmd.SetCpt(w.document, "Cloudy", np.array([0.3, 0.3])))
    notice = w.rows_notice
    assert notice.isVisible()
    assert "1 CPT row of Cloudy does not sum to 1; the beliefs shown use it normalised" in notice.label.text()
    assert [b.text() for b in notice.buttons] == ["Show", "Normalise all"]
    notice.buttons[0].click()                                   # Show: the row opens in the table
    assert w.cpt_editor.variable == "Cloudy"
    assert [i.row() for i in w.cpt_editor.table.selectionModel().selectedRows()] == [0]
    notice.buttons[1].click()                                   # Normalise all: one undoable edit
    np.testing.assert_allclose(w.document.network.cpt("Cloudy"), [0.5, 0.5])
    assert not notice.isVisible()
    w.document.undo_stack.undo()
    assert notice.isVisible()


def test_typing_text_in_a_cell_says_why_it_was_refused(window, qtbot):
    w = window
    w.document.replace_network(sprinkler())
    w.scene.select_only(["Cloudy"])
    model, table = w.cpt_editor.model, w.cpt_editor.table
    index = model.index(0, model.columnCount() - 3)
    before = np.array(w.document.network.cpt("Cloudy"))
    table.setCurrentIndex(index)
    table.edit(index)
    editor = table.viewport().findChild(QLineEdit)
    editor.clear()
    qtbot.keyClicks(editor, "abc")
    assert editor.text() == "abc"                               # typed, not silently swallowed
    qtbot.keyClick(editor, Qt.Key_Return)
    bar = w.cpt_editor.messages        # right above the table (issue 38: it was ~550 px away, over the canvas)
    qtbot.waitUntil(lambda: bar.isVisible())
    assert "'abc' is not a number" in bar.label.text() and not w.message_bar.isVisible()
    cell = table.visualRect(index).translated(table.viewport().mapTo(w, QPoint(0, 0)))
    assert 0 <= cell.top() - bar.mapTo(w, QPoint(0, bar.height())).y() <= 60
    np.testing.assert_array_equal(w.document.network.cpt("Cloudy"), before)
    assert model.setData(index, "0.3")                          # a good value: the refusal goes
    assert not bar.isVisible()


@pytest.mark.parametrize("floating", [False, True])
@pytest.mark.parametrize("key, action", [(Qt.Key_S, "save"), (Qt.Key_O, "open"), (Qt.Key_N, "new")])
def test_file_shortcuts_work_while_the_table_has_focus(window, qtbot, key, action, floating):
    """Also in a dock torn off into its own window."""
    w = window
    w.document.replace_network(sprinkler())
    w.docks["cpt"].setFloating(floating)
    w.scene.select_only(["Wet"])
    fired = []
    getattr(w.menu_actions, action).triggered.disconnect()
    getattr(w.menu_actions, action).triggered.connect(lambda *_: fired.append(action))
    w.cpt_editor.table.window().activateWindow()
    w.cpt_editor.table.setFocus()
    qtbot.waitUntil(lambda: w.cpt_editor.table.hasFocus())
    qtbot.keyClick(w.cpt_editor.table, key, Qt.ControlModifier)
    assert fired == [action]
