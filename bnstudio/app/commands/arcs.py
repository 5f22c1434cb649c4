"""Undoable arc edits. Undo restores the touched families (parent order, CPT, alpha) exactly."""
from __future__ import annotations

from bnstudio.app.commands.base import EditedDocument, NetworkCommand, restore, snapshot


class AddArc(NetworkCommand):
    """Add parent -> child; a cycle is refused by the core with a :class:`CycleError` naming it."""

    def __init__(self, document: EditedDocument, parent: str, child: str) -> None:
        super().__init__(document, f"Add arc {parent} → {child}")
        self.parent, self.child = parent, child
        self.families = snapshot(document.network, [child])

    def apply(self) -> None:
        self.net.add_arc(self.parent, self.child)

    def revert(self) -> None:
        restore(self.net, self.families)


class RemoveArc(NetworkCommand):
    def __init__(self, document: EditedDocument, parent: str, child: str) -> None:
        super().__init__(document, f"Delete arc {parent} → {child}")
        self.parent, self.child = parent, child
        self.families = snapshot(document.network, [child])

    def apply(self) -> None:
        self.net.remove_arc(self.parent, self.child)

    def revert(self) -> None:
        restore(self.net, self.families)


class ReverseArc(NetworkCommand):
    def __init__(self, document: EditedDocument, parent: str, child: str) -> None:
        super().__init__(document, f"Reverse arc {parent} → {child}")
        self.parent, self.child = parent, child
        # the old parent first: dropping child -> parent before re-adding parent -> child avoids a cycle
        self.families = snapshot(document.network, [parent, child])

    def apply(self) -> None:
        self.net.reverse_arc(self.parent, self.child)

    def revert(self) -> None:
        restore(self.net, self.families)
