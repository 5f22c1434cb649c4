"""pgmpy's ``DiscreteBayesianNetwork`` from and to a :class:`~bnstudio.core.network.Network`.

pgmpy's ``TabularCPD`` holds ``values[x, j]`` with the child's states on the rows and one column per parent
configuration, the *last* evidence variable varying fastest. Our CPT ``cpt[p1, ..., pk, x]`` in row-major
order is the same table transposed: ``values = cpt.reshape(-1, |X|).T`` (evidence in our parent order).
"""
from __future__ import annotations

import numpy as np

from bnstudio.core.network import Network, build_network
from bnstudio.interop.common import families, import_peer, warn_export_losses


def to_pgmpy(net: Network):
    """A pgmpy ``DiscreteBayesianNetwork`` with the same names, states, parent order and CPTs.

    Dirichlet counts and canonical models have no place in it (a :class:`PeerWarning` says which were left
    out); isolated variables are kept as nodes."""
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
    order as the parent order, its state names, or ``s0, s1, ...`` where it has none)."""
    built = []
    for var in model.nodes():
        cpd = model.get_cpds(var)
        if cpd is None:
            raise ValueError(f"pgmpy model has no CPD for '{var}'")
        variables = list(cpd.variables)  # the child first, then the evidence in order
        names = cpd.state_names or {}
        cards = list(cpd.cardinality)
        states = [[str(s) for s in names[v]] if v in names else [f"s{i}" for i in range(c)]
                  for v, c in zip(variables, cards)]
        values = np.asarray(cpd.get_values(), dtype=float)  # (|X|, prod |Pa|)
        cpt = values.T.reshape(*cards[1:], cards[0])
        built.append((var, states[0], variables[1:], cpt))
    return build_network(built, name=str(getattr(model, "name", "") or "network"))
