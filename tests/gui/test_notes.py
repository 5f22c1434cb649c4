"""Text notes on the canvas (annotations, as GeNIe and Hugin have): added, edited, moved and deleted each as one
undo step, kept in the project file and read back, drawn and exported with the network, and an old project
without notes still opens."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication

from bnstudio.gui.canvas.note_item import NoteItem
from bnstudio.io.project import load_project
from bnstudio.io.project.notes import Note

from .conftest import ASIA

OLD_PROJECTS = Path(__file__).resolve().parents[1] / "project" / "data"


@pytest.fixture
def asia_window(window):
    assert window.open_path(ASIA)
    return window


def _texts(window) -> list[str]:
    items = sorted(window.scene.note_items, key=lambda i: i.index)
    assert [i.note for i in items] == window.document.notes          # the items mirror the document
    return [i.toPlainText() for i in items]


def test_add_edit_move_and_delete_are_each_one_undo_step(asia_window):
    w = asia_window
    scene, doc, stack = w.scene, w.document, w.document.undo_stack
    start = stack.count()
    assert scene.add_note_at(QPointF(-200.0, -50.0), "smokers\nonly")
    assert _texts(w) == ["smokers\nonly"] and doc.notes == [Note("smokers\nonly", -200.0, -50.0)]
    assert doc.modified and "1 note" in doc.unsaved_work()
    assert scene.edit_note(0, "smokers only")
    item = scene.note_items[0]
    item.setPos(-120.0, -60.0)                                        # a drag, committed on release
    assert scene.commit_moves()
    assert doc.notes == [Note("smokers only", -120.0, -60.0)]
    scene.clearSelection()
    scene.note_items[0].setSelected(True)
    scene.delete_selection()
    assert doc.notes == [] and scene.note_items == []
    assert stack.count() == start + 4                                 # add, edit, move, delete
    stack.undo()
    assert doc.notes == [Note("smokers only", -120.0, -60.0)]
    stack.undo()
    assert doc.notes == [Note("smokers only", -200.0, -50.0)] and scene.note_items[0].pos() == QPointF(-200, -50)
    stack.undo()
    assert _texts(w) == ["smokers\nonly"]
    stack.undo()
    assert doc.notes == [] and scene.note_items == []
    for _ in range(4):
        stack.redo()
    assert doc.notes == []


def test_a_note_deleted_with_nodes_is_one_step_and_comes_back_with_them(asia_window):
    w = asia_window
    scene, doc = w.scene, w.document
    scene.add_note_at(QPointF(0.0, -100.0), "about smoke")
    scene.clearSelection()
    scene.note_items[0].setSelected(True)
    scene.nodes["smoke"].setSelected(True)
    count = doc.undo_stack.count()
    scene.delete_selection()
    assert "smoke" not in doc.network and doc.notes == [] and doc.undo_stack.count() == count + 1
    doc.undo_stack.undo()
    assert "smoke" in doc.network and _texts(w) == ["about smoke"]


def test_notes_are_saved_in_the_project_and_read_back(asia_window, tmp_path):
    w = asia_window
    w.scene.add_note_at(QPointF(10.0, -90.0), "Chest clinic")
    w.scene.add_note_at(QPointF(300.0, 40.0), "x-ray: tub or lung")
    path = tmp_path / "asia.bnsproj"
    w.document.save(path, w.view_options())
    assert not w.document.modified
    assert load_project(path).notes == [Note("Chest clinic", 10.0, -90.0), Note("x-ray: tub or lung", 300.0, 40.0)]
    assert w.files.new_file() and w.scene.note_items == []
    assert w.open_path(path)
    assert _texts(w) == ["Chest clinic", "x-ray: tub or lung"]
    assert w.scene.content_rect().contains(w.scene.note_items[1].sceneBoundingRect())   # a fit shows the notes


@pytest.mark.parametrize("name", ["v1_asia.bnsproj", "v2_asia.bnsproj"])
def test_an_old_project_without_notes_opens_with_none(window, name):
    assert window.open_path(OLD_PROJECTS / name)
    assert window.document.notes == [] and window.scene.note_items == []
    assert not window.document.modified


def test_a_schema_3_project_opens_with_its_notes_drawn(window):
    assert window.open_path(OLD_PROJECTS / "v3_asia.bnsproj")
    assert _texts(window) == ["Chest clinic (Lauritzen & Spiegelhalter 1988)",
                              "x-ray cannot tell\ntuberculosis from cancer"]
    item = window.scene.note_items[1]
    assert isinstance(item, NoteItem) and item.pos() == QPointF(200.0, 330.0) and item.textWidth() == 180.0


def test_the_view_edits_a_note_through_its_dialog_and_an_empty_text_deletes_it(asia_window, monkeypatch):
    w = asia_window
    answers = iter(["first", "first, edited", "   "])
    monkeypatch.setattr(w.view, "ask_note_text", lambda title, text="": next(answers))
    assert w.view.add_note(QPointF(0.0, 0.0))
    assert w.view.edit_note(0) and w.document.notes[0].text == "first, edited"
    assert w.view.edit_note(0) and w.document.notes == []
    monkeypatch.setattr(w.view, "ask_note_text", lambda title, text="": None)   # cancelled: nothing
    assert not w.view.add_note(QPointF(0.0, 0.0)) and w.document.notes == []


def test_a_note_is_drawn_on_the_canvas_and_in_an_exported_picture(asia_window, tmp_path):
    from bnstudio.gui.canvas.export import export_svg
    from bnstudio.gui.canvas.note_item import NOTE_FILL

    w = asia_window
    w.scene.add_note_at(QPointF(-300.0, 0.0), "Read me first")
    w.view.fit_to_view()
    QApplication.processEvents()
    image = w.view.viewport().grab().toImage()
    rect = w.view.mapFromScene(w.scene.note_items[0].sceneBoundingRect()).boundingRect()
    inside = [image.pixelColor(x, y) for x in range(rect.left() + 2, rect.right() - 2, 3)
              for y in range(rect.top() + 2, rect.bottom() - 2, 3)]
    assert sum(c == NOTE_FILL for c in inside) > len(inside) / 2
    export_svg(w.scene, tmp_path / "asia.svg")
    assert "Read me first" in (tmp_path / "asia.svg").read_text()
