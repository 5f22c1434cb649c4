"""The structure of an influence diagram without its tables: what sizing the solution needs, read before them.

:func:`~bnstudio.decision.plan.plan_no_forgetting` and :func:`~bnstudio.decision.plan.check_listing` work on
names, states and parents alone, so a :class:`DiagramOutline` (no CPT, no utility table) is sized exactly as
the diagram itself (:func:`bnstudio.decision.solve.presize`). ``bnstudio decide`` reads a JSON diagram's outline
first (:mod:`bnstudio.io.diagram_outline`): a chain of 24 binary decisions under one utility over all of them
(2^24 entries, tens of megabytes of JSON) is refused in a second instead of after parsing every number
(docs/decisions.md, "The exact solution is sized first"; docs/architecture.md §1: decision layer).

:func:`outline_from_dict` judges only what sizing relies on (names, known parents, no cycle, the decisions
listed in an order the arcs allow); anything it doubts is a :class:`ValidationError`, and the full reader then
names the problem.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence, Union

import networkx as nx

from bnstudio.core.variable import Variable, check_name
from bnstudio.decision.model import DecisionNode, InfluenceDiagram, NodeQueries, decision_reach, unordered_pair
from bnstudio.errors import BNStudioError, ValidationError


@dataclass(frozen=True)
class UtilityScope:
    """A utility node's name and parents (its table left out)."""

    name: str
    parents: tuple[str, ...]


class DiagramOutline(NodeQueries):
    """Variables (decisions first, then chance nodes: the network order of the JSON form), their states and
    parents, the decisions in the order taken and the utilities' scopes; the queries the sizing uses, shared
    with :class:`~bnstudio.decision.model.InfluenceDiagram` (:class:`~bnstudio.decision.model.NodeQueries`)."""

    def __init__(self, states: Mapping[str, Sequence[str]], parents: Mapping[str, Sequence[str]],
                 decisions: Sequence[DecisionNode], utilities: Sequence[UtilityScope], name: str) -> None:
        self.name = name
        self._states = {v: tuple(s) for v, s in states.items()}
        self._parents = {v: tuple(p) for v, p in parents.items()}
        self.decisions: tuple[DecisionNode, ...] = tuple(decisions)
        self.utilities: tuple[UtilityScope, ...] = tuple(utilities)
        graph = self.graph()
        if not nx.is_directed_acyclic_graph(graph):
            raise ValidationError("the diagram has a cycle")
        names = self.decision_names
        reach = decision_reach(graph, names)
        if any(reach[earlier] >> k & 1 for k in range(len(names)) for earlier in names[:k]):
            raise ValidationError("the decisions are not listed in an order the arcs allow")
        self.unordered: tuple[str, str] | None = unordered_pair(graph, names)

    @property
    def variables(self) -> tuple[str, ...]:
        return tuple(self._states)

    def states(self, name: str) -> tuple[str, ...]:
        return self._states[name]

    def cardinality(self, name: str) -> int:
        return len(self._states[name])

    def _variable_parents(self, name: str) -> tuple[str, ...]:
        return self._parents[name]

    def _is_variable(self, name: str) -> bool:
        return name in self._states

    def graph(self) -> nx.DiGraph:
        """All arcs: CPT parents, informational arcs and utility arcs."""
        graph = nx.DiGraph()
        graph.add_nodes_from(self._states)
        graph.add_edges_from((p, v) for v, parents in self._parents.items() for p in parents)
        nodes: list[DecisionNode | UtilityScope] = [*self.decisions, *self.utilities]
        for node in nodes:
            graph.add_node(node.name)
            graph.add_edges_from((p, node.name) for p in node.parents)
        return graph


#: What the sizing accepts: a whole diagram or its outline.
Structure = Union[InfluenceDiagram, DiagramOutline]


def outline_from_dict(data: Any) -> DiagramOutline:
    """The outline of the JSON form (:mod:`bnstudio.decision.serial`) whose tables may be anything (the reader
    leaves them out); a :class:`ValidationError` for whatever the outline does not judge."""
    try:
        return _outline(data)
    except (BNStudioError, KeyError, TypeError, AttributeError) as exc:
        raise ValidationError(f"no outline: {exc}") from None


def _outline(data: Any) -> DiagramOutline:
    if not isinstance(data, dict) or data.get("format") not in (None, "bnstudio-influence-diagram") \
            or data.get("schema_version", 1) != 1:
        raise ValidationError("not the JSON form of an influence diagram")
    name = data.get("name", "influence diagram")
    chance, decisions, utilities = (_list(data, key) for key in ("chance", "decisions", "utilities"))
    states: dict[str, tuple[str, ...]] = {}
    parents: dict[str, tuple[str, ...]] = {}
    for entry in decisions + chance:   # the network order of serial.build_influence_diagram
        variable = Variable(entry["name"], tuple(_strings(entry["states"])))
        if variable.name in states:
            raise ValidationError(f"'{variable.name}' is listed twice")
        states[variable.name] = variable.states
    for entry in chance + decisions:
        parents[entry["name"]] = tuple(_strings(entry.get("parents", [])))
    scopes = [UtilityScope(u["name"], tuple(_strings(u.get("parents", [])))) for u in utilities]
    order = [DecisionNode(d["name"], parents.pop(d["name"])) for d in decisions]
    if not isinstance(name, str):
        raise ValidationError("'name' must be a string")
    return checked_outline(states, parents, order, scopes, name)


def checked_outline(states: Mapping[str, Sequence[str]], parents: Mapping[str, Sequence[str]],
                    decisions: Sequence[DecisionNode], utilities: Sequence[UtilityScope], name: str) -> DiagramOutline:
    """The :class:`DiagramOutline` of these parts (``parents``: the chance variables'), after the checks sizing
    relies on: valid names and states, every parent a variable listed once, a utility named like no variable;
    a :class:`ValidationError` otherwise (the JSON form's and the network files' outlines,
    :mod:`bnstudio.io.diagram_outline`)."""
    for v, s in states.items():
        Variable(v, tuple(s))
    for u in utilities:
        check_name(u.name, "utility")
    known = set(states)
    families = [*parents.values(), *(d.parents for d in decisions), *(u.parents for u in utilities)]
    if len({u.name for u in utilities} | known) != len(utilities) + len(known) or \
            any(len(set(p)) != len(p) or not known.issuperset(p) for p in families) or \
            set(parents) | {d.name for d in decisions} != known:
        raise ValidationError("a repeated name, or a parent that is no variable")
    return DiagramOutline(states, parents, decisions, utilities, name)


def _list(data: dict, key: str) -> list[dict]:
    items = data.get(key, [])
    if not isinstance(items, list) or not all(isinstance(x, dict) for x in items):
        raise ValidationError(f"'{key}' must be a list of objects")
    return items


def _strings(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise ValidationError("expected a list of names")
    return value
