"""pgmpy's ``DiscreteBayesianNetwork`` from and to a :class:`~bnstudio.core.network.Network`.

pgmpy's ``TabularCPD`` holds ``values[x, j]`` with the child's states on the rows and one column per parent
configuration, the *last* evidence variable varying fastest. Our CPT ``cpt[p1, ..., pk, x]`` in row-major
order is the same table transposed: ``values = cpt.reshape(-1, |X|).T`` (evidence in our parent order).
"""
from __future__ import annotations

import numpy as np

from bnstudio.core.network import Network, build_network
from bnstudio.errors import ValidationError
from bnstudio.interop.common import check_kind, families, import_peer, warn_export_losses


def to_pgmpy(net: Network):
    """A pgmpy ``DiscreteBayesianNetwork`` with the same names, states, parent order and CPTs.

    Dirichlet counts and canonical models have no place in it (a :class:`PeerWarning` says which were left
    out); isolated variables are kept as nodes."""
    check_kind("to_pgmpy", net, (Network,), "a bnstudio Network")
    models = import_peer("pgmpy.models")
    factors = import_peer("pgmpy.factors.discrete")
    warn_export_losses(net, "pgmpy")
    model = models.DiscreteBayesianNetwork()
    model.add_nodes_from(net.variables)
    model.add_edges_from((p, v) for v in net.variables for p in net.parents(v))
    model.name = net.name
    cpds = []
    for var, states, parents in families(net):
        cpt = np.asarray(net.cpt(var), dtype=float)
        cpds.append(factors.TabularCPD(
            var, len(states), cpt.reshape(-1, len(states)).T, evidence=list(parents) or None,
            evidence_card=[net.cardinality(p) for p in parents] or None,
            state_names={v: list(net.states(v)) for v in (var, *parents)}))
    model.add_cpds(*cpds)
    return model


def from_pgmpy(model) -> Network:
    """A :class:`Network` from a pgmpy ``DiscreteBayesianNetwork`` (its nodes' order, each CPD's evidence
    order as the parent order, its state names, or ``s0, s1, ...`` where it has none).

    A CPD whose evidence is not the node's parents in the graph (an arc it ignores, or one it invents), or
    which names a parent's states in another order than the parent's own CPD, is refused, as pgmpy's
    ``check_model`` refuses it: reading it would drop the arc or misalign the table."""
    models = import_peer("pgmpy.models")
    check_kind("from_pgmpy", model, (models.DiscreteBayesianNetwork,), "a pgmpy DiscreteBayesianNetwork")
    built = []
    for var in model.nodes():
        cpd = model.get_cpds(var)
        if cpd is None:
            raise ValidationError(f"pgmpy model has no CPD for '{var}'")
        variables = list(cpd.variables)  # the child first, then the evidence in order
        _check_evidence(var, variables[1:], list(model.get_parents(var)))
        names = cpd.state_names or {}
        cards = list(cpd.cardinality)
        states = [[str(s) for s in names[v]] if v in names else [f"s{i}" for i in range(c)]
                  for v, c in zip(variables, cards, strict=True)]
        values = np.asarray(cpd.get_values(), dtype=float)  # (|X|, prod |Pa|)
        cpt = values.T.reshape(*cards[1:], cards[0])
        built.append((var, states[0], variables[1:], cpt, states[1:]))
    own = {var: child_states for var, child_states, _, _, _ in built}
    for var, _, parents, _, parent_states in built:
        for parent, listed in zip(parents, parent_states, strict=True):
            if parent in own and list(own[parent]) != list(listed):
                raise ValidationError(f"pgmpy CPD of '{var}' lists the states of '{parent}' as {listed}, "
                                      f"its own CPD as {list(own[parent])}")
    return build_network([b[:4] for b in built], name=str(getattr(model, "name", "") or "network"))


def _check_evidence(var, evidence: list, parents: list) -> None:
    """The CPD's evidence must be the node's parents in the graph (pgmpy's ``check_model`` asks the same)."""
    if set(evidence) != set(parents) or len(evidence) != len(parents):
        listed = ", ".join(map(str, evidence)) or "none"
        raise ValidationError(f"pgmpy CPD of '{var}' lists the evidence ({listed}) but the graph gives it the "
                              f"parents ({', '.join(map(str, parents)) or 'none'})")
