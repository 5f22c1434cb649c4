"""The decision part of a document (decisions in the order taken, utility nodes and their tables) and the one
undoable edit of it: swap the whole part for another (a utility table, utility nodes' positions).

The decision *variables* live in the document's network (a decision is a parentless variable with a placeholder
CPT, see ``docs/decisions.md``); :class:`DecisionPart` only names them with their informational parents, and
holds the utility nodes, which are not variables. It is an immutable value, so a command keeps the old and the
new part and undo is exact.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

import numpy as np

from bnstudio.app.commands.base import EditedDocument, NetworkCommand
from bnstudio.core.network import Network
from bnstudio.decision import DecisionNode, InfluenceDiagram, UtilityNode
from bnstudio.errors import UnknownVariableError, ValidationError

Positions = Mapping[str, tuple[float, float]]


@dataclass(frozen=True)
class DecisionPart:
    """Decisions (in the order taken) and utility nodes of the document's influence diagram, with the canvas
    positions of the utility nodes (the other nodes' positions are the network's)."""

    decisions: tuple[DecisionNode, ...]
    utilities: tuple[UtilityNode, ...]
    positions: Mapping[str, tuple[float, float]] = field(default_factory=dict)

    @classmethod
    def of(cls, diagram: InfluenceDiagram, positions: Positions | None = None) -> "DecisionPart":
        return cls(diagram.decisions, diagram.utilities, dict(positions or {}))

    @property
    def decision_names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.decisions)

    @property
    def utility_names(self) -> tuple[str, ...]:
        return tuple(u.name for u in self.utilities)

    def utility(self, name: str) -> UtilityNode:
        for u in self.utilities:
            if u.name == name:
                return u
        raise UnknownVariableError(f"unknown utility node '{name}'")

    def arcs(self) -> list[tuple[str, str]]:
        """Informational arcs (into decisions) and utility arcs; the network has the others."""
        return ([(p, d.name) for d in self.decisions for p in d.parents]
                + [(p, u.name) for u in self.utilities for p in u.parents])

    def diagram(self, network: Network) -> InfluenceDiagram:
        """The diagram over ``network`` (validated: a ValidationError names the first problem)."""
        return InfluenceDiagram(network, self.decisions, self.utilities, network.name)

    def with_utility_table(self, name: str, table: np.ndarray) -> "DecisionPart":
        old = self.utility(name)
        utilities = tuple(UtilityNode(u.name, u.parents, table) if u is old else u for u in self.utilities)
        return replace(self, utilities=utilities)

    def with_positions(self, positions: Positions) -> "DecisionPart":
        return replace(self, positions={**self.positions, **{k: (float(x), float(y)) for k, (x, y)
                                                             in positions.items()}})

    def renamed(self, old: str, new: str) -> "DecisionPart":
        """The part after the network variable ``old`` was renamed ``new`` (a decision or a parent)."""
        def name(n: str) -> str:
            return new if n == old else n
        return replace(self, decisions=tuple(DecisionNode(name(d.name), tuple(map(name, d.parents)))
                                             for d in self.decisions),
                       utilities=tuple(UtilityNode(u.name, tuple(map(name, u.parents)), u.table)
                                       for u in self.utilities))

    # ------------------------------------------------------------------ structural edits (validated by the caller)
    def with_decision(self, name: str) -> "DecisionPart":
        """``name`` taken last; it observes the decision taken before it (an informational arc), which keeps the
        decisions on one directed path."""
        parents = (self.decisions[-1].name,) if self.decisions else ()
        return replace(self, decisions=self.decisions + (DecisionNode(name, parents),))

    def with_utility(self, name: str, position: tuple[float, float]) -> "DecisionPart":
        """A new utility node without parents, utility 0."""
        return replace(self, utilities=self.utilities + (UtilityNode(name, (), np.zeros(())),),
                       positions={**self.positions, name: (float(position[0]), float(position[1]))})

    def with_parent(self, child: str, parent: str, cardinality: int) -> "DecisionPart":
        """Arc ``parent`` -> ``child`` (a decision: an informational arc; a utility node: its table gets a last
        axis over the parent's ``cardinality`` states, the same utility in each)."""
        if child in self.decision_names:
            d = self._decision(child)
            if parent in d.parents:
                raise ValidationError(f"there is already an arc {parent} -> {child}")
            return self._with_decision(DecisionNode(child, d.parents + (parent,)))
        u = self.utility(child)
        if parent in u.parents:
            raise ValidationError(f"there is already an arc {parent} -> {child}")
        table = np.repeat(u.table[..., None], cardinality, axis=-1)
        return self._with_utility(UtilityNode(child, u.parents + (parent,), table))

    def without_parent(self, child: str, parent: str) -> "DecisionPart":
        """Delete the arc ``parent`` -> ``child``; a utility table is averaged over the parent's states (as the
        core averages a CPT's rows when a parent arc is deleted)."""
        if child in self.decision_names:
            d = self._decision(child)
            return self._with_decision(DecisionNode(child, tuple(p for p in d.parents if p != parent)))
        u = self.utility(child)
        axis = u.parents.index(parent)
        return self._with_utility(UtilityNode(child, u.parents[:axis] + u.parents[axis + 1:],
                                              u.table.mean(axis=axis)))

    def without_nodes(self, names: set[str]) -> "DecisionPart":
        """The part once the nodes ``names`` (variables, decisions or utility nodes) are deleted: their arcs into
        decisions and utility nodes go (utility tables averaged over them), and the decision after a deleted
        one inherits its informational parents, so the decisions left stay on one directed path."""
        part = self
        inherited: tuple[str, ...] = ()
        for d in self.decisions:
            if d.name in names:
                inherited += d.parents
            elif inherited:
                extra = tuple(p for p in dict.fromkeys(inherited) if p not in d.parents and p != d.name)
                part, inherited = part._with_decision(DecisionNode(d.name, d.parents + extra)), ()
        part = replace(part, decisions=tuple(d for d in part.decisions if d.name not in names),
                       utilities=tuple(u for u in part.utilities if u.name not in names),
                       positions={k: v for k, v in part.positions.items() if k not in names})
        for parent, child in part.arcs():
            if parent in names:
                part = part.without_parent(child, parent)
        return part

    def with_decision_moved(self, name: str, step: int) -> "DecisionPart":
        """Decision ``name`` taken one place earlier (``step`` = -1) or later (+1): it swaps with its neighbour
        A (taken first) / B, and the informational arc A -> B, if there is one, becomes B -> A. Whether another
        directed path from A to B still orders them is for the validation to say."""
        i = self.decision_names.index(name)
        j = i + step
        if not 0 <= j < len(self.decisions) or step not in (-1, 1):
            raise ValidationError(f"decision '{name}' is already taken {'first' if step < 0 else 'last'}")
        first, second = sorted((i, j))
        a, b = self.decisions[first], self.decisions[second]
        if a.name in b.parents:
            b = DecisionNode(b.name, tuple(p for p in b.parents if p != a.name))
            a = DecisionNode(a.name, a.parents + (b.name,))
        order = list(self.decisions)
        order[first], order[second] = b, a
        return replace(self, decisions=tuple(order))

    def renamed_utility(self, old: str, new: str) -> "DecisionPart":
        u = self.utility(old)
        if new in self.utility_names:
            raise ValidationError(f"there is already a utility node '{new}'")
        positions = {(new if k == old else k): v for k, v in self.positions.items()}
        return replace(self._with_utility(UtilityNode(new, u.parents, u.table), old), positions=positions)

    def _decision(self, name: str) -> DecisionNode:
        return self.decisions[self.decision_names.index(name)]

    def _with_decision(self, node: DecisionNode) -> "DecisionPart":
        return replace(self, decisions=tuple(node if d.name == node.name else d for d in self.decisions))

    def _with_utility(self, node: UtilityNode, old: str | None = None) -> "DecisionPart":
        old = node.name if old is None else old
        return replace(self, utilities=tuple(node if u.name == old else u for u in self.utilities))

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (the recovery copy keeps it); :meth:`from_json` reads it back exactly."""
        return {"decisions": [[d.name, list(d.parents)] for d in self.decisions],
                "utilities": [[u.name, list(u.parents), u.table.tolist()] for u in self.utilities],
                "positions": {k: list(v) for k, v in self.positions.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "DecisionPart":
        return cls(tuple(DecisionNode(n, tuple(p)) for n, p in data["decisions"]),
                   tuple(UtilityNode(n, tuple(p), np.array(t, dtype=float)) for n, p, t in data["utilities"]),
                   {k: (float(x), float(y)) for k, (x, y) in data.get("positions", {}).items()})

    def summary(self) -> str:
        """Comparable text of what the user can change (decisions, utility nodes and tables)."""
        data: dict[str, Any] = {"decisions": [(d.name, d.parents) for d in self.decisions],
                                "utilities": [(u.name, u.parents, u.table.tolist()) for u in self.utilities]}
        return json.dumps(data)


EMPTY = DecisionPart((), ())


class SetDecisionPart(NetworkCommand):
    """Replace the document's decision part (``document.set_decision_part``); undo puts the old one back."""

    def __init__(self, document: EditedDocument, part: DecisionPart, text: str) -> None:
        super().__init__(document, text)
        self.old, self.new = document.decisions, part

    def apply(self) -> None:
        if self.new is not None:
            self.new.diagram(self.net)   # a ValidationError refuses the edit (nothing is pushed)
        self.document.set_decision_part(self.new)

    def revert(self) -> None:
        self.document.set_decision_part(self.old)


def set_utility_table(document: EditedDocument, name: str, table: np.ndarray, where: str = "") -> SetDecisionPart:
    """The command that gives utility node ``name`` the table ``table`` (checked when applied; a plain network
    has no utility node of that name: UnknownVariableError)."""
    part = (document.decisions or EMPTY).with_utility_table(name, np.array(table, dtype=float))
    return SetDecisionPart(document, part, f"Edit utility of {name}{where}")
