"""Undoable variable edits: add, remove (restoring arcs, parent order and the children's CPTs), rename,
describe."""
from __future__ import annotations

from typing import Sequence

from bnstudio.app.commands.base import EditedDocument, NetworkCommand, is_normalised, restore, snapshot


class AddVariable(NetworkCommand):
    def __init__(self, document: EditedDocument, name: str, states: Sequence[str],
                 position: tuple[float, float] | None = None) -> None:
        super().__init__(document, f"Add node {name}")
        self.name, self.states, self.position = name, tuple(states), position

    def apply(self) -> None:
        self.net.add_variable(self.name, self.states, position=self.position)

    def revert(self) -> None:
        self.net.remove_variable(self.name)


class RemoveVariable(NetworkCommand):
    """Remove a variable and its arcs; undo restores the variable at its place in the variable order, its
    table, its arcs with their parent order, its children's tables exactly (kept in the command) and the
    evidence it had."""

    def __init__(self, document: EditedDocument, name: str) -> None:
        super().__init__(document, f"Delete node {name}")
        net = document.network
        self.name = name
        self.variable = net.variable(name)
        self.index = net.variables.index(name)
        self.family = snapshot(net, [name])[name]
        self.position = net.positions.get(name)
        self.children = snapshot(net, net.children(name))
        self.evidence = None

    def apply(self) -> None:
        self.evidence = self.document.evidence.get(self.name)     # the deletion drops it; undo puts it back
        self.net.remove_variable(self.name)

    def revert(self) -> None:
        fam, var = self.family, self.variable
        ok = is_normalised(fam.cpt)
        self.net.add_variable(self.name, var.states, fam.parents, fam.cpt if ok else None, fam.alpha,
                              var.description, self.position, index=self.index)
        if not ok:
            self.net.set_cpt(self.name, fam.cpt, check_sums=False)
        restore(self.net, self.children)
        if self.evidence is not None:
            self.document.set_evidence(self.name, self.evidence)


class RenameVariable(NetworkCommand):
    def __init__(self, document: EditedDocument, old: str, new: str) -> None:
        super().__init__(document, f"Rename {old} to {new}")
        self.old, self.new = old, new

    def apply(self) -> None:
        self.net.rename_variable(self.old, self.new)

    def revert(self) -> None:
        self.net.rename_variable(self.new, self.old)


class SetDescription(NetworkCommand):
    def __init__(self, document: EditedDocument, name: str, description: str) -> None:
        super().__init__(document, f"Describe {name}")
        self.name = name
        self.old, self.new = document.network.variable(name).description, description

    def apply(self) -> None:
        self.net.set_description(self.name, self.new)

    def revert(self) -> None:
        self.net.set_description(self.name, self.old)
