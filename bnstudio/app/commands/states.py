"""Undoable state edits: add, remove, rename, reorder. The CPTs follow through the core; undo puts the
variable's and its children's tables back exactly."""
from __future__ import annotations

from typing import Sequence

from bnstudio.app.commands.base import EditedDocument, NetworkCommand, restore, snapshot


def _tables_of(document: EditedDocument, var: str):
    net = document.network
    return snapshot(net, [var] + net.children(var))


class AddState(NetworkCommand):
    def __init__(self, document: EditedDocument, var: str, state: str, index: int | None = None) -> None:
        super().__init__(document, f"Add state {state} to {var}")
        self.var, self.state, self.index = var, state, index
        self.families = _tables_of(document, var)

    def apply(self) -> None:
        self.net.add_state(self.var, self.state, self.index)

    def revert(self) -> None:
        self.net.remove_state(self.var, self.state)
        restore(self.net, self.families)


class RemoveState(NetworkCommand):
    def __init__(self, document: EditedDocument, var: str, state: str) -> None:
        super().__init__(document, f"Remove state {state} of {var}")
        self.var, self.state = var, state
        self.index = document.network.states(var).index(state)
        self.families = _tables_of(document, var)

    def apply(self) -> None:
        self.net.remove_state(self.var, self.state)

    def revert(self) -> None:
        self.net.add_state(self.var, self.state, self.index)
        restore(self.net, self.families)


class RenameState(NetworkCommand):
    def __init__(self, document: EditedDocument, var: str, old: str, new: str) -> None:
        super().__init__(document, f"Rename state {old} of {var} to {new}")
        self.var, self.old, self.new = var, old, new

    def apply(self) -> None:
        self.net.rename_state(self.var, self.old, self.new)

    def revert(self) -> None:
        self.net.rename_state(self.var, self.new, self.old)


class ReorderStates(NetworkCommand):
    def __init__(self, document: EditedDocument, var: str, new_order: Sequence[str]) -> None:
        super().__init__(document, f"Reorder states of {var}")
        self.var = var
        self.old, self.new = tuple(document.network.states(var)), tuple(new_order)

    def apply(self) -> None:
        self.net.reorder_states(self.var, self.new)

    def revert(self) -> None:
        self.net.reorder_states(self.var, self.old)
