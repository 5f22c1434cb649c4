"""Brute-force reference answers by enumerating the full joint distribution (small networks only)."""
from __future__ import annotations

import numpy as np

from bnstudio.core.network import Network


def joint_table(net: Network) -> np.ndarray:
    """p(x_1, ..., x_n) as an array with one axis per variable in ``net.variables`` order."""
    names = net.variables
    cards = [net.cardinality(v) for v in names]
    table = np.ones(cards)
    for i, var in enumerate(names):
        family = [names.index(p) for p in net.parents(var)] + [i]
        cpt = net.cpt(var).transpose(np.argsort(family))
        shape = [cards[k] if k in family else 1 for k in range(len(names))]
        table = table * cpt.reshape(shape)
    return table


def weighted_joint(net: Network, evidence: dict) -> np.ndarray:
    """p(x, e) for hard (state name) or soft (likelihood vector) evidence."""
    names = net.variables
    table = joint_table(net)
    for var, spec in evidence.items():
        k = names.index(var)
        lam = np.zeros(net.cardinality(var))
        if isinstance(spec, str):
            lam[net.states(var).index(spec)] = 1.0
        else:
            lam = np.asarray(spec, dtype=float)
        shape = [1] * len(names)
        shape[k] = lam.size
        table = table * lam.reshape(shape)
    return table


def marginal(table: np.ndarray, axes: list[int]) -> np.ndarray:
    """Sum onto ``axes`` (in that order) and normalise."""
    others = tuple(k for k in range(table.ndim) if k not in axes)
    out = table.sum(axis=others)
    kept = sorted(axes)
    out = out.transpose([kept.index(a) for a in axes])
    return out / out.sum()
