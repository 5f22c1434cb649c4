"""Text notes on the canvas as undo steps: adding, editing, moving and deleting notes each replace the list of
notes (``document.set_notes``) with one :class:`SetNotes`, which holds the old and new lists of values
(:class:`~bnstudio.io.project.notes.Note`), never the items that draw them."""
from __future__ import annotations

from typing import Any

from bnstudio.app.commands.base import NetworkCommand
from bnstudio.io.project.notes import Note


class SetNotes(NetworkCommand):
    """Replace ``document.notes`` by ``notes``; undo puts the old list back."""

    def __init__(self, document: Any, notes: list[Note], text: str) -> None:
        super().__init__(document, text)
        self.old, self.new = document.notes, list(notes)

    def apply(self) -> None:
        self.document.set_notes(self.new)

    def revert(self) -> None:
        self.document.set_notes(self.old)


def add_note(document: Any, note: Note) -> SetNotes:
    return SetNotes(document, [*document.notes, note], "Add note")


def edit_note(document: Any, index: int, text: str) -> SetNotes:
    notes = document.notes
    notes[index] = notes[index].with_text(text)
    return SetNotes(document, notes, "Edit note")


def move_notes(document: Any, moves: dict[int, tuple[float, float]]) -> SetNotes:
    notes = document.notes
    for index, (x, y) in moves.items():
        notes[index] = notes[index].moved_to(x, y)
    return SetNotes(document, notes, "Move note" if len(moves) == 1 else f"Move {len(moves)} notes")


def delete_notes(document: Any, indices: list[int]) -> SetNotes:
    gone = set(indices)
    return SetNotes(document, [n for k, n in enumerate(document.notes) if k not in gone],
                    "Delete note" if len(gone) == 1 else f"Delete {len(gone)} notes")
