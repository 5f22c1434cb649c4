"""pyAgrum's ``BayesNet`` from and to a :class:`~bnstudio.core.network.Network`.

A pyAgrum CPT is a tensor over ``(X, Pa_1, ..., Pa_k)`` (``tensor.names``; the parents in the order their arcs
were added) whose first variable varies fastest; ``toarray()`` lists the axes in reverse, slowest first. We add
the arcs in our parent order, so our ``cpt[p1, ..., pk, x]`` is that array with its axes reversed.
"""
from __future__ import annotations

import numpy as np

from bnstudio.core.network import Network, build_network
from bnstudio.interop.common import families, import_peer, warn_export_losses


def _our_table(tensor, parents: tuple[str, ...], child: str) -> np.ndarray:
    """The tensor's array in our layout (parents in ``parents`` order, the child last)."""
    names = list(tensor.names)  # fastest first; toarray() axes are reversed(names)
    axis = {v: len(names) - 1 - i for i, v in enumerate(names)}
    return np.transpose(np.asarray(tensor.toarray(), dtype=float), [axis[v] for v in (*parents, child)])


def to_pyagrum(net: Network):
    """A pyAgrum ``BayesNet`` with the same names, states, parent order and CPTs.

    Dirichlet counts and canonical models have no place in it (a :class:`PeerWarning` says which were left
    out)."""
    gum = import_peer("pyagrum")
    warn_export_losses(net, "pyAgrum")
    bn = gum.BayesNet(net.name)
    for var, states, _ in families(net):
        bn.add(gum.LabelizedVariable(var, net.variable(var).description, list(states)))
    for var, states, parents in families(net):
        for p in parents:
            bn.addArc(p, var)
        tensor = bn.cpt(var)
        names = list(tensor.names)
        ours = np.asarray(net.cpt(var), dtype=float)
        order = [(*parents, var).index(v) for v in reversed(names)]
        tensor.fillWith(np.transpose(ours, order).ravel().tolist())
    return bn


def from_pyagrum(bn) -> Network:
    """A :class:`Network` from a pyAgrum ``BayesNet`` (its node-id order, each CPT's parent order).

    Non-labelised variables (ranges, integer or discretised) keep their labels as state names."""
    gum = import_peer("pyagrum")
    if not isinstance(bn, gum.BayesNet):
        raise TypeError(f"from_pyagrum takes a pyagrum.BayesNet, not {type(bn).__name__} "
                        "(influence diagrams and MRFs are not Bayesian networks)")
    built = []
    for node in sorted(bn.nodes()):
        variable = bn.variable(node)
        name = variable.name()
        states = [variable.label(i) for i in range(variable.domainSize())]
        tensor = bn.cpt(node)
        parents = tuple(tensor.names)[1:]
        built.append((name, states, parents, _our_table(tensor, parents, name)))
    return build_network(built, name=bn.propertyWithDefault("name", "network") or "network")
