"""Accepting a learned structure: ONE undoable command that replaces the structure and the parameters.

``apply`` first empties every parent list, then gives each learned variable its learned family (parents in
the learned order, CPT, Dirichlet counts) and each variable the data did not cover its old family back.
Emptying first means no intermediate graph can close a cycle, whatever order the families are set in.
Variables the network lacks are added (with positions below the others). ``revert`` empties the parent lists
again, removes the added variables and restores every family exactly (:func:`~bnstudio.app.commands.restore`).
"""
from __future__ import annotations

from bnstudio.app.commands.base import EditedDocument, NetworkCommand, restore, snapshot
from bnstudio.app.placing import place_bar_nodes
from bnstudio.core.network import Network
from bnstudio.errors import BNStudioError, ValidationError


def placements(net: Network, learned: Network, names: list[str]) -> dict[str, tuple[float, float]]:
    """Positions for the learned variables ``names`` that ``net`` lacks (a row below the others)."""
    trial = net.copy()
    for name in names:
        trial.add_variable(name, learned.states(name))
    place_bar_nodes(trial)
    return {name: trial.positions[name] for name in names if name in trial.positions}


class ApplyLearnedStructure(NetworkCommand):
    """Replace the network's structure and parameters by those of ``learned`` (see the module docstring)."""

    def __init__(self, document: EditedDocument, learned: Network, text: str = "") -> None:
        n_arcs = len(learned.arcs())
        super().__init__(document, text or f"Apply learned structure ({n_arcs} arcs)")
        net = document.network
        self.learned = learned.copy()
        self.before = snapshot(net, net.variables)
        self.added = [v for v in learned.variables if v not in net]
        self.positions = placements(net, learned, self.added) if self.added else {}

    def _check(self) -> None:
        net = self.net
        for name in self.learned.variables:
            if name in net and net.states(name) != self.learned.states(name):
                raise ValidationError(f"the states of '{name}' differ between the data "
                                      f"{list(self.learned.states(name))} and the network {list(net.states(name))}")

    def apply(self) -> None:
        self._check()
        net, learned = self.net, self.learned
        try:
            for name in self.added:
                net.add_variable(name, learned.states(name), position=self.positions.get(name))
            self._clear_parents()
            for name in learned.variables:
                net.set_parents(name, learned.parents(name), learned.cpt(name), learned.alpha(name))
            kept = {name: fam for name, fam in self.before.items() if name not in learned}
            restore(net, kept)  # may refuse a cycle through a variable the data did not cover
        except BNStudioError:
            self.revert()
            raise

    def revert(self) -> None:
        net = self.net
        self._clear_parents()
        for name in self.added:
            if name in net:
                net.remove_variable(name)
        restore(net, self.before)

    def _clear_parents(self) -> None:
        for name in self.net.variables:
            if self.net.parents(name):
                self.net.set_parents(name, ())
