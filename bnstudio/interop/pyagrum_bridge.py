"""pyAgrum's ``BayesNet`` from and to a :class:`~bnstudio.core.network.Network`.

A pyAgrum CPT is a tensor over ``(X, Pa_1, ..., Pa_k)`` (``tensor.names``; the parents in the order their arcs
were added) whose first variable varies fastest; ``toarray()`` lists the axes in reverse, slowest first. We add
the arcs in our parent order, so our ``cpt[p1, ..., pk, x]`` is that array with its axes reversed.
"""
from __future__ import annotations

import warnings

import numpy as np

from bnstudio.core.network import Network, build_network
from bnstudio.decision.model import DecisionNode, InfluenceDiagram, UtilityNode
from bnstudio.interop.common import check_kind, families, import_peer, warn_export_losses


def _our_table(tensor, parents: tuple[str, ...], child: str) -> np.ndarray:
    """The tensor's array in our layout (parents in ``parents`` order, the child last)."""
    names = list(tensor.names)  # fastest first; toarray() axes are reversed(names)
    axis = {v: len(names) - 1 - i for i, v in enumerate(names)}
    return np.transpose(np.asarray(tensor.toarray(), dtype=float), [axis[v] for v in (*parents, child)])


def _fill(tensor, table: np.ndarray, parents: tuple[str, ...], child: str) -> None:
    """Write our ``table`` (parents in ``parents`` order, ``child`` last) into the pyAgrum tensor."""
    order = [(*parents, child).index(v) for v in reversed(list(tensor.names))]
    tensor.fillWith(np.transpose(np.asarray(table, dtype=float), order).ravel().tolist())


def to_pyagrum(model: Network | InfluenceDiagram):
    """A pyAgrum ``BayesNet`` (``InfluenceDiagram`` for one of ours) with the same names, states, parent order
    and tables.

    Dirichlet counts and canonical models have no place in it (a :class:`PeerWarning` says which were left
    out)."""
    check_kind("to_pyagrum", model, (Network, InfluenceDiagram), "a bnstudio Network or InfluenceDiagram")
    gum = import_peer("pyagrum")
    if isinstance(model, InfluenceDiagram):
        return _diagram_to_pyagrum(gum, model)
    net = model
    warn_export_losses(net, "pyAgrum")
    bn = gum.BayesNet(net.name)
    for var, states, _ in families(net):
        bn.add(gum.LabelizedVariable(var, net.variable(var).description, list(states)))
    for var, _, parents in families(net):
        for p in parents:
            bn.addArc(p, var)
        _fill(bn.cpt(var), net.cpt(var), parents, var)
    return bn


def _diagram_to_pyagrum(gum, diagram: InfluenceDiagram):
    net = diagram.network
    warn_export_losses(net, "pyAgrum")
    with warnings.catch_warnings():
        # pyAgrum loads its influence-diagram extension on first use, and SWIG's import of it warns
        # (DeprecationWarning: "builtin type SwigPyPacked has no __module__ attribute"); raised as an error
        # (python -W error, our test suite) inside that import, it crashes the interpreter
        warnings.simplefilter("ignore", DeprecationWarning)
        out = gum.InfluenceDiagram()
    decisions = {d.name: d.parents for d in diagram.decisions}
    for var, states, _ in families(net):
        add = out.addDecisionNode if var in decisions else out.addChanceNode
        add(gum.LabelizedVariable(var, net.variable(var).description, list(states)))
    for u in diagram.utilities:
        out.addUtilityNode(gum.LabelizedVariable(u.name, u.name, 1))
    for var, _, parents in families(net):
        for p in decisions.get(var, parents):
            out.addArc(p, var)
        if var not in decisions:
            _fill(out.cpt(var), net.cpt(var), parents, var)
    for u in diagram.utilities:
        for p in u.parents:
            out.addArc(p, u.name)
        _fill(out.utility(u.name), np.asarray(u.table)[..., None], u.parents, u.name)
    return out


def from_pyagrum(bn) -> Network | InfluenceDiagram:
    """A :class:`Network` from a pyAgrum ``BayesNet`` (its node-id order, each CPT's parent order), or an
    :class:`~bnstudio.decision.InfluenceDiagram` from a pyAgrum ``InfluenceDiagram``.

    Non-labelised variables (ranges, integer or discretised) keep their labels as state names; descriptions
    are kept, except pyAgrum's default one (the name again), which is left empty."""
    gum = import_peer("pyagrum")
    check_kind("from_pyagrum", bn, (gum.BayesNet, gum.InfluenceDiagram), "a pyagrum.BayesNet or InfluenceDiagram")
    if isinstance(bn, gum.InfluenceDiagram):
        return _diagram_from_pyagrum(bn)
    built = []
    for node in sorted(bn.nodes()):
        variable = bn.variable(node)
        name = variable.name()
        states = [variable.label(i) for i in range(variable.domainSize())]
        tensor = bn.cpt(node)
        parents = tuple(tensor.names)[1:]
        built.append((name, states, parents, _our_table(tensor, parents, name)))
    return _described(build_network(built, name=bn.propertyWithDefault("name", "network") or "network"), bn)


def _described(net: Network, source) -> Network:
    """``net`` with the descriptions of ``source``'s variables (all but utilities), pyAgrum's default (the name
    again) left empty."""
    for node in source.nodes():
        variable = source.variable(node)
        name, text = variable.name(), variable.description()
        if name in net and text and text != name:
            net.set_description(name, text)
    return net


def _diagram_from_pyagrum(diag) -> InfluenceDiagram:
    """Chance and decision nodes in node-id order (decisions get uniform placeholder CPTs, their parents are
    what is observed before them), decisions in the diagram's order, utilities with their tables."""
    chance: list[tuple[str, list[str], tuple[str, ...], np.ndarray | None]] = []
    decisions, utilities = [], []
    for node in sorted(diag.nodes()):
        variable = diag.variable(node)
        name = variable.name()
        if diag.isUtilityNode(node):
            tensor = diag.utility(node)
            parents = tuple(tensor.names)[1:]
            utilities.append(UtilityNode(name, parents, _our_table(tensor, parents, name)[..., 0]))
            continue
        states = [variable.label(i) for i in range(variable.domainSize())]
        if diag.isDecisionNode(node):
            parents = tuple(diag.variable(p).name() for p in sorted(diag.parents(node)))
            decisions.append((node, DecisionNode(name, parents)))
            chance.append((name, states, (), None))
        else:
            tensor = diag.cpt(node)
            parents = tuple(tensor.names)[1:]
            chance.append((name, states, parents, _our_table(tensor, parents, name)))
    order = list(diag.decisionOrder()) if diag.decisionOrderExists() else [n for n, _ in decisions]
    decisions.sort(key=lambda item: order.index(item[0]))
    network = _described(build_network(chance, name="diagram"), diag)
    return InfluenceDiagram(network, [d for _, d in decisions], utilities)
