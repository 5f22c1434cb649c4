"""Undoable edits of an influence diagram's structure: one user edit that may touch both the network (add or
delete a variable, a network arc) and the decision part (decisions, informational arcs, utility nodes).

:class:`DiagramEdit` runs its network commands one after another (each built just before it runs, so its
snapshot sees the ones before), then computes the new decision part from the result and validates the whole
diagram (``InfluenceDiagram``'s rules: no cycle over all arcs, utility nodes without children, the decisions on
one directed path). A refused edit is taken back before anything is pushed, so it changes nothing; undo reverts
the part and the network commands in reverse order, redo replays the same commands.
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Callable, Iterator, Sequence

import networkx as nx
import numpy as np

from bnstudio.app.commands.arcs import AddArc, RemoveArc
from bnstudio.app.commands.base import EditedDocument, NetworkCommand
from bnstudio.app.commands.decisions import EMPTY, DecisionPart
from bnstudio.app.commands.params import SetCpt
from bnstudio.app.commands.variables import AddVariable, RemoveVariable, RenameVariable
from bnstudio.decision import DecisionNode
from bnstudio.decision.model import full_graph
from bnstudio.errors import UnknownVariableError, ValidationError

Step = Callable[[], NetworkCommand]
PartChange = Callable[[DecisionPart], DecisionPart]


class DiagramEdit(NetworkCommand):
    """Network commands (``steps``, factories) and then ``change`` of the decision part, as one checked edit.

    ``change`` receives the current part (an empty one for a plain network, which becomes an influence diagram
    in the same undo step); without ``change`` the part is kept and only validated.
    """

    def __init__(self, document: EditedDocument, text: str, steps: Sequence[Step] = (),
                 change: PartChange | None = None) -> None:
        super().__init__(document, text)
        self.steps, self.change = list(steps), change
        self.old: DecisionPart | None = document.decisions
        self.new: DecisionPart | None = None
        self.done: list[NetworkCommand] | None = None

    def _commands(self) -> Iterator[NetworkCommand]:
        """The commands done last time (a redo), or each step's command built just before it is applied."""
        if self.done is not None:
            yield from self.done
        else:
            yield from (step() for step in self.steps)

    def apply(self) -> None:
        replay, done = self.done, []
        try:
            for command in self._commands():
                command.apply()
                done.append(command)
            current = self.document.decisions      # a renamed variable is renamed in it already
            if replay is None:
                self.new = current if self.change is None else _plain_if_empty(self.change(current or EMPTY))
            if self.new is not None:
                self.new.diagram(self.net)          # a ValidationError (or CycleError) refuses the whole edit
        except Exception:
            for command in reversed(done):
                command.revert()
            raise
        self.done = done
        if self.new is not current:
            self.document.set_decision_part(self.new)

    def revert(self) -> None:
        for command in reversed(self.done or []):
            command.revert()
        if self.document.decisions is not self.old:
            self.document.set_decision_part(self.old)


def _plain_if_empty(part: DecisionPart) -> DecisionPart | None:
    """A diagram whose last decision and utility node went is a plain network again."""
    return part if part.decisions or part.utilities else None


def refuse(message: str) -> PartChange:
    """A change that refuses the edit with ``message`` (one line)."""
    def change(_part: DecisionPart) -> DecisionPart:
        raise ValidationError(message)
    return change


def checked(document: EditedDocument, step: Step) -> NetworkCommand:
    """The network command ``step()`` as it is for a plain network; in an influence diagram wrapped in a
    :class:`DiagramEdit` that refuses it if the diagram would not be valid (a cycle through an informational
    arc, a variable named like a utility node...)."""
    if document.decisions is None:
        return step()
    command = step()
    return DiagramEdit(document, command.text, [lambda: command])


def add_decision(document: EditedDocument, name: str, states: Sequence[str],
                 position: tuple[float, float]) -> DiagramEdit:
    """A new decision variable, taken last (observing the decision before it)."""
    return DiagramEdit(document, f"Add decision {name}", [lambda: AddVariable(document, name, states, position)],
                       lambda part: part.with_decision(name))


def add_utility(document: EditedDocument, name: str, position: tuple[float, float]) -> DiagramEdit:
    """A new utility node (no parents, utility 0)."""
    return DiagramEdit(document, f"Add utility node {name}", change=lambda part: part.with_utility(name, position))


def _into_part(document: EditedDocument, child: str) -> bool:
    part = document.decisions
    return part is not None and (child in part.decision_names or child in part.utility_names)


def add_arc(document: EditedDocument, parent: str, child: str) -> NetworkCommand:
    """parent -> child: an informational arc into a decision, a utility arc into a utility node, else a network
    arc; an arc out of a utility node is refused."""
    text = f"Add arc {parent} → {child}"
    part = document.decisions
    if part is not None and parent in part.utility_names:
        return DiagramEdit(document, text, change=refuse(
            f"utility node '{parent}' cannot have children: arcs go into a utility node, never out of it"))
    if _into_part(document, child):
        states = document.network.cardinality(parent)
        return DiagramEdit(document, text, change=lambda p: p.with_parent(child, parent, states))
    return checked(document, lambda: AddArc(document, parent, child))


def remove_arc(document: EditedDocument, parent: str, child: str) -> NetworkCommand:
    """Delete parent -> child (a utility table is averaged over the parent's states, as CPT rows are)."""
    if _into_part(document, child):
        return DiagramEdit(document, f"Delete arc {parent} → {child}", change=lambda p: p.without_parent(child, parent))
    return checked(document, lambda: RemoveArc(document, parent, child))


def delete_items(document: EditedDocument, names: Sequence[str], utilities: Sequence[str],
                 arcs: Sequence[tuple[str, str]], text: str) -> DiagramEdit:
    """Delete arcs, variables (chance or decision) and utility nodes of an influence diagram as one edit; a
    deleted node's arcs into decisions and utility nodes go with it (see ``DecisionPart.without_nodes``)."""
    part = document.decisions
    into = [a for a in arcs if part is not None and (a[1] in part.decision_names or a[1] in part.utility_names)]
    network_arcs = [a for a in arcs if a not in into]
    steps: list[Step] = [partial(RemoveArc, document, p, c) for p, c in network_arcs]
    steps += [partial(RemoveVariable, document, n) for n in names]

    def change(p: DecisionPart) -> DecisionPart:
        for parent, child in into:
            p = p.without_parent(child, parent)
        return p.without_nodes(set(names) | set(utilities))
    return DiagramEdit(document, text, steps, change)


def rename_node(document: EditedDocument, old: str, new: str) -> NetworkCommand:
    """Rename a variable (decisions and parents follow) or a utility node."""
    part = document.decisions
    if part is not None and old in part.utility_names:
        return DiagramEdit(document, f"Rename {old} to {new}", change=lambda p: p.renamed_utility(old, new))
    return checked(document, lambda: RenameVariable(document, old, new))


def move_decision(document: EditedDocument, name: str, step: int) -> DiagramEdit:
    """Take decision ``name`` one place earlier (-1) or later (+1), see ``DecisionPart.with_decision_moved``."""
    where = "earlier" if step < 0 else "later"
    return DiagramEdit(document, f"Take {name} {where}", change=lambda p: p.with_decision_moved(name, step))


def make_decision(document: EditedDocument, name: str) -> DiagramEdit:
    """Turn chance variable ``name`` into a decision: its CPT parents become its informational parents (its
    CPT a uniform placeholder), and it is taken after the decisions that are its ancestors — when that is
    last, it also observes the decision before it, as a new decision does."""
    net = document.network
    parents = net.parents(name)
    uniform = np.full(net.cardinality(name), 1.0 / net.cardinality(name))
    steps: list[Step] = [partial(RemoveArc, document, p, name) for p in parents]
    steps.append(lambda: SetCpt(document, name, uniform, f"Make {name} a decision"))

    def change(part: DecisionPart) -> DecisionPart:
        graph = full_graph(document.network, part.decisions, part.utilities)
        graph.add_edges_from((p, name) for p in parents)
        before = nx.ancestors(graph, name)
        index = sum(d in before for d in part.decision_names)
        observed = tuple(parents)
        if index == len(part.decisions) and index and part.decisions[-1].name not in before:
            observed += (part.decisions[-1].name,)
        decisions = list(part.decisions)
        decisions.insert(index, DecisionNode(name, observed))
        return replace(part, decisions=tuple(decisions))
    return DiagramEdit(document, f"Make {name} a decision", steps, change)


def make_chance(document: EditedDocument, name: str) -> DiagramEdit:
    """Turn decision ``name`` into a chance variable: its informational parents become CPT parents (rows to
    fill in); every directed path through it stays, so the other decisions stay ordered. A variable that is not
    a decision (in a plain network, any) raises UnknownVariableError."""
    part = document.decisions or EMPTY
    if name not in part.decision_names:
        raise UnknownVariableError(f"'{name}' is not a decision")
    parents = part.decisions[part.decision_names.index(name)].parents
    steps: list[Step] = [partial(AddArc, document, p, name) for p in parents]
    return DiagramEdit(document, f"Make {name} a chance node", steps,
                       lambda p: replace(p, decisions=tuple(d for d in p.decisions if d.name != name)))
