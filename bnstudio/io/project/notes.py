"""Text notes on the network's drawing (annotations, as GeNIe's and Hugin's text boxes): what a project file
keeps of them, ``"notes": [{"text": ..., "position": [x, y], "width": w}, ...]`` (schema 3,
docs/project-format.md). ``position`` is the note's top-left corner in the drawing's units (those of the
variables' ``position``); ``width`` the width its text wraps at."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bnstudio.io.project.network_json import check_keys
from bnstudio.io.project.schema import Checker, child

NOTE_KEYS = {"text", "position", "width"}
DEFAULT_WIDTH = 180.0
MIN_WIDTH, MAX_WIDTH = 40.0, 4000.0
MAX_TEXT = 100_000   # characters of one note


@dataclass(frozen=True)
class Note:
    """One text note: its text, top-left corner (x, y) and wrapping width, in drawing units."""

    text: str
    x: float
    y: float
    width: float = DEFAULT_WIDTH

    def moved_to(self, x: float, y: float) -> "Note":
        return Note(self.text, x, y, self.width)

    def with_text(self, text: str) -> "Note":
        return Note(text, self.x, self.y, self.width)


def notes_to_json(notes: list[Note]) -> list[dict[str, Any]]:
    """The notes as the project file's ``"notes"`` array."""
    return [{"text": n.text, "position": [n.x, n.y], "width": n.width} for n in notes]


def read_notes(check: Checker, value: Any, where: str = "notes") -> list[Note]:
    """The ``"notes"`` array: objects with a ``text`` string (at most MAX_TEXT characters), a ``position`` of
    two finite numbers and an optional ``width`` in [MIN_WIDTH, MAX_WIDTH]."""
    notes = []
    for k, obj in enumerate(check.of(value, list, where)):
        path = child(where, k)
        check.of(obj, dict, path)
        check_keys(check, obj, NOTE_KEYS, path)
        text = check.key(obj, "text", str, path)
        if len(text) > MAX_TEXT:
            check.fail(child(path, "text"), f"a note of {len(text)} characters (at most {MAX_TEXT})")
        position = check.key(obj, "position", list, path)
        if len(position) != 2:
            check.fail(child(path, "position"), f"expected [x, y], got {len(position)} numbers")
        x, y = (check.number(v, child(child(path, "position"), i)) for i, v in enumerate(position))
        width = check.number(obj.get("width", DEFAULT_WIDTH), child(path, "width"))
        if not MIN_WIDTH <= width <= MAX_WIDTH:
            check.fail(child(path, "width"), f"expected a width from {MIN_WIDTH:g} to {MAX_WIDTH:g}, got {width:g}")
        notes.append(Note(text, float(x), float(y), float(width)))
    return notes
