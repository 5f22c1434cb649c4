"""An influence diagram: a chance :class:`~bnstudio.core.network.Network` plus decision and utility nodes.

The network holds every *chance* variable with its CPT (and optional Dirichlet counts) and every *decision*
variable with its states. A decision is a parentless variable of the network whose CPT is a placeholder never
used (a uniform row), so chance CPTs may condition on decisions exactly as on chance parents, in the project's
CPT layout. What makes a variable a decision is a :class:`DecisionNode` naming it with its *informational
parents* (the nodes observed just before deciding). Utility nodes are not variables: a :class:`UtilityNode` is
a real-valued table over its parents' states, shape ``(|P1|, ..., |Pk|)`` (no axis of its own), and the total
utility is the sum of the utility tables (Jensen & Nielsen 2007, §4.2).

The decisions are listed in the order they are taken. The diagram is valid when (Howard & Matheson 1984;
Jensen, Jensen & Dittmer 1994, §2):

* the graph of all arcs (CPT parents, informational arcs, utility arcs) is acyclic;
* utility nodes have no children;
* the listed order agrees with the graph: no decision reaches an earlier-listed one by a directed path.

When consecutive decisions also lie on a directed path (D1 ⇝ D2 ⇝ ... ⇝ Dn) their order is total and the
diagram is a classic influence diagram (:attr:`InfluenceDiagram.ordered`), solved exactly under no-forgetting.
Otherwise it is a LIMID (Lauritzen & Nilsson 2001, as Hugin reads such files): each decision sees only its
declared parents, and it is solved by single policy updating (:mod:`bnstudio.decision.limid`).

Every problem is one :class:`~bnstudio.errors.ValidationError` line naming the node.

>>> from bnstudio.core import network_from_dsl
>>> net = network_from_dsl("D->X", cpts={"D": [0.5, 0.5], "X": [[0.9, 0.1], [0.2, 0.8]]})
>>> diagram = InfluenceDiagram(net, [DecisionNode("D")], [UtilityNode("U", ("X",), [10.0, 0.0])])
>>> diagram.decision_names, diagram.kind("X")
(('D',), 'chance')
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import networkx as nx
import numpy as np

from bnstudio.core.network import Network
from bnstudio.core.variable import check_name
from bnstudio.errors import CycleError, UnknownVariableError, ValidationError


@dataclass(frozen=True)
class DecisionNode:
    """A decision variable of the network and its informational parents (observed before it is taken)."""

    name: str
    parents: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_name(self.name, "decision")
        object.__setattr__(self, "parents", tuple(self.parents))


def numeric_table(value: object, what: str) -> np.ndarray:
    """``value`` (nested lists of numbers or a numeric array) as a float array; a string, a boolean, an integer
    beyond the float range or a ragged nesting is one :class:`ValidationError` line naming ``what``.

    Nested lists are flattened one level at a time and their entries' types judged as a set, so a table of
    millions of entries is checked at C speed (a per-entry Python walk took seconds per million)."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "iuf":
            raise ValidationError(f"{what} must be a nested list of numbers")
        return np.array(value, dtype=float)
    level: list[Any] = [value]
    while True:
        kinds = set(map(type, level))
        nested = {k for k in kinds if issubclass(k, (list, tuple))}
        if not nested:
            break
        if nested != kinds:   # lists beside numbers: a string among them is named, else the nesting is ragged
            _check_numbers([item for item in level if not isinstance(item, (list, tuple))], what)
            raise ValidationError(f"{what} must be a nested list of numbers of one shape")
        level = list(itertools.chain.from_iterable(level))
    _check_numbers(level, what)
    try:
        return np.array(value, dtype=float)
    except OverflowError:
        raise ValidationError(f"{what} has an entry beyond the float range (±1.8e308)") from None
    except (TypeError, ValueError):
        raise ValidationError(f"{what} must be a nested list of numbers of one shape") from None


_NUMBER_TYPES = (int, float, np.integer, np.floating)


def _check_numbers(items: list, what: str) -> None:
    """One line naming the first entry of ``items`` that is not a number (booleans are not numbers)."""
    kinds = set(map(type, items))
    if all(issubclass(k, _NUMBER_TYPES) and not issubclass(k, (bool, np.bool_)) for k in kinds):
        return
    item = next(i for i in items if isinstance(i, (bool, np.bool_)) or not isinstance(i, _NUMBER_TYPES))
    raise ValidationError(f"{what} must be a nested list of numbers: {str(item)[:40]!r} is not a number")


@dataclass(frozen=True, eq=False)
class UtilityNode:
    """A utility table over its parents' states: ``table[p1, ..., pk]`` is the utility of that configuration."""

    name: str
    parents: tuple[str, ...]
    table: np.ndarray = field(repr=False)

    def __post_init__(self) -> None:
        check_name(self.name, "utility")
        object.__setattr__(self, "parents", tuple(self.parents))
        table = numeric_table(self.table, f"utility table of '{self.name}'")
        if not np.all(np.isfinite(table)):
            raise ValidationError(f"utility table of '{self.name}' has a non-finite entry")
        table.setflags(write=False)
        object.__setattr__(self, "table", table)


class NodeQueries:
    """The node queries an influence diagram shares with its outline (:mod:`bnstudio.decision.outline`, names,
    states and parents without tables): both hold ``decisions`` (in the order taken) and ``utilities`` (each
    with a name and parents) and answer :attr:`variables` and :meth:`_variable_parents`."""

    decisions: tuple[DecisionNode, ...]
    utilities: tuple[Any, ...]

    @property
    def variables(self) -> tuple[str, ...]:
        raise NotImplementedError

    def _variable_parents(self, name: str) -> tuple[str, ...]:
        raise NotImplementedError

    def _is_variable(self, name: str) -> bool:
        raise NotImplementedError

    @property
    def decision_names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.decisions)

    @property
    def chance_names(self) -> tuple[str, ...]:
        decided = set(self.decision_names)
        return tuple(v for v in self.variables if v not in decided)

    @property
    def utility_names(self) -> tuple[str, ...]:
        return tuple(u.name for u in self.utilities)

    def kind(self, name: str) -> str:
        """``"chance"``, ``"decision"`` or ``"utility"``."""
        if name in self.decision_names:
            return "decision"
        if name in self.utility_names:
            return "utility"
        if self._is_variable(name):
            return "chance"
        raise UnknownVariableError(f"unknown node '{name}'")

    def parents(self, name: str) -> tuple[str, ...]:
        """CPT parents of a chance node, informational parents of a decision, parents of a utility."""
        kind = self.kind(name)
        if kind == "chance":
            return self._variable_parents(name)
        return next(n.parents for n in (self.decisions if kind == "decision" else self.utilities) if n.name == name)


class InfluenceDiagram(NodeQueries):
    """Chance network + decisions (in the order taken) + utilities; validated on construction.

    The diagram keeps its own copy of ``network``; use :meth:`with_parameters` for a diagram with other CPTs.
    """

    def __init__(self, network: Network, decisions: Sequence[DecisionNode], utilities: Sequence[UtilityNode],
                 name: str | None = None) -> None:
        self._net = network.copy()
        self.name = network.name if name is None else name
        self.decisions: tuple[DecisionNode, ...] = tuple(decisions)
        self.utilities: tuple[UtilityNode, ...] = tuple(utilities)
        graph = validate_diagram(self._net, self.decisions, self.utilities)
        #: the first consecutive decisions with no directed path between them (a LIMID), or None
        self.unordered: tuple[str, str] | None = unordered_pair(graph, self.decision_names)

    # ------------------------------------------------------------------ queries
    @property
    def network(self) -> Network:
        """A copy of the network of chance and decision variables (decisions' CPTs are placeholders)."""
        return self._net.copy()

    @property
    def variables(self) -> tuple[str, ...]:
        """The chance and decision variables in the network's order."""
        return tuple(self._net.variables)

    def states(self, name: str) -> tuple[str, ...]:
        return self._net.states(name)

    def cardinality(self, name: str) -> int:
        return self._net.cardinality(name)

    def _variable_parents(self, name: str) -> tuple[str, ...]:
        return self._net.parents(name)

    def _is_variable(self, name: str) -> bool:
        return name in self._net

    def cpt(self, name: str) -> np.ndarray:
        """The CPT of a chance node (read-only)."""
        if self.kind(name) != "chance":
            raise ValidationError(f"'{name}' is a {self.kind(name)} node and has no CPT")
        return self._net.cpt(name)

    def alpha(self, name: str) -> np.ndarray | None:
        """The Dirichlet counts of a chance node, or None."""
        self.cpt(name)
        return self._net.alpha(name)

    def decision(self, name: str) -> DecisionNode:
        for d in self.decisions:
            if d.name == name:
                return d
        raise UnknownVariableError(f"unknown decision '{name}'")

    def utility(self, name: str) -> UtilityNode:
        for u in self.utilities:
            if u.name == name:
                return u
        raise UnknownVariableError(f"unknown utility node '{name}'")

    def graph(self) -> nx.DiGraph:
        """All arcs: CPT parents, informational arcs and utility arcs."""
        return full_graph(self._net, self.decisions, self.utilities)

    @property
    def ordered(self) -> bool:
        """Whether the decisions lie on one directed path (a total order: no-forgetting applies)."""
        return self.unordered is None

    # ------------------------------------------------------------------ derived diagrams
    def with_parameters(self, cpts: Mapping[str, np.ndarray] | None = None,
                        alphas: Mapping[str, np.ndarray | None] | None = None) -> "InfluenceDiagram":
        """The same diagram with some chance CPTs (and/or Dirichlet counts) replaced."""
        for name in list(cpts or {}) + list(alphas or {}):
            self.cpt(name)
        net = self._net.copy()
        net.set_parameters(dict(cpts or {}), dict(alphas or {}))
        return InfluenceDiagram(net, self.decisions, self.utilities, self.name)

    def to_dict(self) -> dict:
        """The JSON form (see :mod:`bnstudio.decision.serial`)."""
        from bnstudio.decision.serial import diagram_to_dict
        return diagram_to_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping) -> "InfluenceDiagram":
        """Build from the JSON form; errors are one line naming the node."""
        from bnstudio.decision.serial import diagram_from_dict
        return diagram_from_dict(data)


def full_graph(net: Network, decisions: Sequence[DecisionNode], utilities: Sequence[UtilityNode]) -> nx.DiGraph:
    """The DAG (if valid) of every node and arc of the diagram."""
    graph = net.graph()
    for d in decisions:
        graph.add_edges_from((p, d.name) for p in d.parents)
    for u in utilities:
        graph.add_node(u.name)
        graph.add_edges_from((p, u.name) for p in u.parents)
    return graph


def validate_diagram(net: Network, decisions: Sequence[DecisionNode],
                     utilities: Sequence[UtilityNode]) -> nx.DiGraph:
    """Raise a one-line :class:`ValidationError` for the first problem (see the module docstring); return the
    diagram's graph (:func:`full_graph`)."""
    names = [d.name for d in decisions]
    utility_names = [u.name for u in utilities]
    _check_names(net, names, utility_names)
    for d in decisions:
        if net.parents(d.name):
            raise ValidationError(f"decision '{d.name}' must have no CPT parents in the network; give its "
                                  f"informational parents {list(net.parents(d.name))} to the decision node")
        _check_parents(net, d.name, "decision", d.parents, set(utility_names))
    for u in utilities:
        _check_parents(net, u.name, "utility node", u.parents, set(utility_names))
        shape = tuple(net.cardinality(p) for p in u.parents)
        if u.table.shape != shape:
            raise ValidationError(f"utility table of '{u.name}' has shape {u.table.shape}, expected {shape} "
                                  f"(one axis per parent {list(u.parents)})")
    graph = full_graph(net, decisions, utilities)
    try:
        cycle = [a for a, _ in nx.find_cycle(graph)]
    except nx.NetworkXNoCycle:
        cycle = []
    if cycle:
        raise CycleError(f"the diagram has the cycle {' -> '.join(cycle + cycle[:1])}", cycle + cycle[:1])
    reach = decision_reach(graph, names)
    for k, later in enumerate(names):
        for earlier in names[:k]:
            if reach[earlier] >> k & 1:
                raise ValidationError(f"decision '{later}' is listed after '{earlier}' but there is a directed "
                                      f"path from '{later}' to '{earlier}': list the decisions in the order taken")
    return graph


def decision_reach(graph: nx.DiGraph, names: Sequence[str]) -> dict[str, int]:
    """For every node v of the DAG ``graph``, the bit set of the decisions with a directed path to v (bit k
    for ``names[k]``): one pass in topological order, so that checking the order of n decisions costs
    O(nodes + arcs) big-integer ORs, not n² path searches (a 200-decision chain spent 15 s in them)."""
    bit = {n: 1 << k for k, n in enumerate(names)}
    reach: dict[str, int] = {}
    for v in nx.topological_sort(graph):
        mask = 0
        for p in graph.predecessors(v):
            mask |= reach[p] | bit.get(p, 0)
        reach[v] = mask
    return reach


def unordered_pair(graph: nx.DiGraph, names: Sequence[str]) -> tuple[str, str] | None:
    """The first consecutive decisions with no directed path from one to the next, or None (a total order)."""
    reach = decision_reach(graph, names)
    for k, (first, second) in enumerate(zip(names, names[1:], strict=False)):
        if not reach[second] >> k & 1:
            return first, second
    return None


def _check_names(net: Network, decisions: list[str], utilities: list[str]) -> None:
    for kind, names in (("decision", decisions), ("utility node", utilities)):
        seen = set()
        for n in names:
            if n in seen:
                raise ValidationError(f"{kind} '{n}' is listed twice")
            seen.add(n)
    for d in decisions:
        if d not in net:
            raise ValidationError(f"decision '{d}' is not a variable of the network (it needs its states there)")
    for u in utilities:
        if u in net:
            raise ValidationError(f"utility node '{u}' has the name of a variable of the network")
    for var in net.variables:
        bad = [p for p in net.parents(var) if p in utilities]
        if bad:
            raise ValidationError(f"utility node '{bad[0]}' has a child '{var}'; utility nodes cannot have children")


def _check_parents(net: Network, name: str, kind: str, parents: tuple[str, ...], utilities: set[str]) -> None:
    if len(set(parents)) != len(parents):
        raise ValidationError(f"{kind} '{name}' lists a parent twice: {list(parents)}")
    for p in parents:
        if p in utilities:
            raise ValidationError(f"utility node '{p}' has a child '{name}'; utility nodes cannot have children")
        if p not in net:
            raise ValidationError(f"{kind} '{name}' has an unknown parent '{p}'")
