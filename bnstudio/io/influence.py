"""Influence diagrams in network files: what the Hugin NET, GeNIe XDSL and XMLBIF readers and writers share.

A file with decision or utility nodes is read into a :class:`~bnstudio.decision.model.InfluenceDiagram`:

* chance nodes are read as in a Bayesian network (same CPT order, same repairs);
* a decision node's parents in the file are its *informational parents* (observed before deciding); a table a
  file gives a decision (a policy, or a placeholder) is not read, and none is written;
* a utility node's table has one real number per configuration of its parents, in the order the format uses
  for a CPT row index (the first parent slowest): the CPT layout without the child's axis;
* the decisions are taken in a topological order of the whole graph (no format stores the order otherwise);
  when they do not lie on one directed path the diagram is a LIMID, as Hugin reads such files (see
  :mod:`bnstudio.decision.model`).

:mod:`bnstudio.decision` is imported only when a file holds decision or utility nodes, so reading plain
networks stays light.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

import numpy as np

from bnstudio.errors import BNStudioError, CycleError, FormatError
from bnstudio.io.common import NUMBER
from bnstudio.io.limits import SizeBudget
from bnstudio.io.messages import shorten
from bnstudio.io.repairs import Fail

if TYPE_CHECKING:
    from bnstudio.core.network import Network
    from bnstudio.decision.model import InfluenceDiagram

FailAt = Callable[[str | None, str], FormatError]


def utility_value(token: str, fail: Fail) -> float:
    """A finite number (any sign) in decimal or scientific notation."""
    if not NUMBER.fullmatch(token):
        raise fail(f"expected a number, found '{shorten(token, 40)}'")
    value = float(token)
    if not math.isfinite(value):
        raise fail(f"the utility {shorten(token, 40)} is not finite")
    return value + 0.0


def utility_table(tokens: Sequence[str], name: str, parents: Sequence[tuple[str, Sequence[str]]], fail: Fail,
                  budget: SizeBudget) -> np.ndarray:
    """The table of utility node ``name``, shape (|P1|, ..., |Pk|), from one number per parent configuration
    (the first parent slowest); its size checked against ``budget`` before anything is allocated."""
    shape = tuple(len(states) for _, states in parents)
    budget.parents(name, len(shape), fail)
    budget.table(name, math.prod(shape), fail)
    if len(tokens) != math.prod(shape):
        detail = f" (one per configuration of {', '.join(p for p, _ in parents)})" if parents else ""
        raise fail(f"the utility table of '{name}' has {len(tokens)} values, expected {math.prod(shape)}{detail}")
    return np.array([utility_value(t, fail) for t in tokens], dtype=float).reshape(shape)


def decision_order(decisions: Sequence[str], arcs: Iterable[tuple[str, str]]) -> list[str]:
    """The decisions in a topological order of the graph of ``arcs`` (ties: file order); the file order when
    the graph has a cycle (the diagram's validation then names the cycle)."""
    import networkx as nx  # here, not at the top: reading a Bayesian network never needs it
    graph = nx.DiGraph()
    graph.add_nodes_from(decisions)
    graph.add_edges_from(arcs)
    rank = {d: k for k, d in enumerate(decisions)}
    try:
        order = list(nx.lexicographical_topological_sort(graph, key=lambda n: (rank.get(n, len(rank)), n)))
    except nx.NetworkXUnfeasible:
        return list(decisions)
    return [n for n in order if n in rank]


def check_utility_names(families: Iterable[tuple[str, Sequence[str], Sequence[str], object]],
                        utility_names: set[str], fail_at: FailAt) -> None:
    """Refuse a variable named like a utility node or a variable with a utility parent (before assembly)."""
    for var, _, parents, _ in families:
        if var in utility_names:
            raise fail_at(var, f"utility node '{var}' has the name of a variable of the network")
        bad = [p for p in parents if p in utility_names]
        if bad:
            raise fail_at(var, f"utility node '{bad[0]}' has a child '{var}'; utility nodes cannot have children")


def diagram_with(net: "Network", decisions: Sequence[tuple[str, Sequence[str]]],
                 utilities: Sequence[tuple[str, Sequence[str], np.ndarray]], fail_at: FailAt) -> "InfluenceDiagram":
    """The diagram of ``net`` (chance and decision variables, positions...) and the decision and utility parts,
    decisions ordered by :func:`decision_order`; validation errors become :class:`FormatError` at the node."""
    from bnstudio.decision.model import DecisionNode, InfluenceDiagram, UtilityNode

    arcs = [(p, v) for v in net.variables for p in net.parents(v)]
    arcs += [(p, d) for d, parents in decisions for p in parents]
    arcs += [(p, u) for u, parents, _ in utilities for p in parents]
    informational = dict((d, tuple(parents)) for d, parents in decisions)
    order = decision_order([d for d, _ in decisions], arcs)
    try:
        return InfluenceDiagram(net, [DecisionNode(d, informational[d]) for d in order],
                                [UtilityNode(u, tuple(parents), table) for u, parents, table in utilities], net.name)
    except CycleError as exc:
        raise fail_at(exc.cycle[0] if exc.cycle else None, str(exc)) from None
    except BNStudioError as exc:
        raise fail_at(None, str(exc)) from None


def not_a_network(decisions: Sequence[str], utilities: Sequence[str]) -> str:
    """The one-line refusal of :func:`bnstudio.io.read_network` for a file holding an influence diagram (readers
    raise it located at the first decision or utility node)."""
    parts = [f"decision node '{decisions[0]}'" if decisions else "", f"utility node '{utilities[0]}'" if utilities
             else ""]
    return (f"this file is an influence diagram ({', '.join(p for p in parts if p)}), not a Bayesian network: "
            f"solve it with 'bnstudio decide' or open it as an influence diagram (bnstudio.io.read_model)")


def node_order(diagram: "InfluenceDiagram") -> list[str]:
    """Every node of ``diagram`` (variables in network order, then utilities) in a topological order of all
    its arcs, ties by that order: what writers that want parents before children use."""
    import networkx as nx  # here, not at the top: reading a Bayesian network never needs it
    names = list(diagram.network.variables) + list(diagram.utility_names)
    rank = {n: k for k, n in enumerate(names)}
    return list(nx.lexicographical_topological_sort(diagram.graph(), key=lambda n: rank[n]))
