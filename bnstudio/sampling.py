"""Forward (ancestral) sampling, vectorised over cases: one numpy pass per variable, none per case.

For each variable in topological order the row of its CPT is found from the parents' sampled codes
(mixed-radix index) and a state drawn by inverting the row's cumulative distribution with one uniform.
"""
from __future__ import annotations

import numpy as np

from bnstudio.core.network import Network


def forward_sample(net: Network, n: int, seed: int | None = None) -> np.ndarray:
    """``n`` cases as an (n, |V|) int64 array of state codes, columns in ``net.variables`` order."""
    rng = np.random.default_rng(seed)
    names = net.variables
    col = {v: i for i, v in enumerate(names)}
    codes = np.empty((n, len(names)), dtype=np.int64)
    for var in net.topological_order():
        cpt = net.cpt(var)
        rows = np.zeros(n, dtype=np.int64)
        for p in net.parents(var):
            rows = rows * net.cardinality(p) + codes[:, col[p]]
        cum = np.cumsum(cpt.reshape(-1, cpt.shape[-1]), axis=1)
        cum[:, -1] = np.inf  # guard against rows summing to 1 - 1e-16
        u = rng.random(n)
        codes[:, col[var]] = (u[:, None] >= cum[rows]).sum(axis=1)
    return codes


def hide_at_random(codes: np.ndarray, fraction: float, seed: int | None = None) -> np.ndarray:
    """A copy with each cell set to -1 (unobserved) independently with probability ``fraction`` (MCAR)."""
    rng = np.random.default_rng(seed)
    out = codes.copy()
    out[rng.random(codes.shape) < fraction] = -1
    return out
