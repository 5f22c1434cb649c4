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

from bnstudio.core.network import Network
from bnstudio.decision import DecisionNode, InfluenceDiagram, UtilityNode
from bnstudio.errors import UnknownVariableError
from bnstudio.gui.commands.base import EditedDocument, NetworkCommand

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

    def summary(self) -> str:
        """Comparable text of what the user can change (decisions, utility nodes and tables)."""
        data: dict[str, Any] = {"decisions": [(d.name, d.parents) for d in self.decisions],
                                "utilities": [(u.name, u.parents, u.table.tolist()) for u in self.utilities]}
        return json.dumps(data)


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
    """The command that gives utility node ``name`` the table ``table`` (checked when applied)."""
    part = document.decisions.with_utility_table(name, np.array(table, dtype=float))
    return SetDecisionPart(document, part, f"Edit utility of {name}{where}")
