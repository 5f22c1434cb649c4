"""Every pair's conditional mutual information at once, from Gram matrices of one-hot data (wide data).

TAN and KDB need w(i, j) = N · I(X_i; X_j | C) for all attribute pairs (Friedman, Geiger & Goldszmidt 1997
§4.1; Sahami 1996). On complete data the joint counts of every pair come from one matrix product per class
state c: with O_c the rows of class c one-hot encoded (n_c × S, S = Σ_i (|X_i| − 1): state 0 is left out, a
quarter of the product for 0/1 data), G_c = O_cᵀ O_c holds N(X_i = a, X_j = b, C = c) for a, b ≠ 0 in block
(i, j) and the marginals m_c on its diagonal; the cells with a state 0 follow from them (N(a, 0) = m_a −
Σ_{b≠0} N(a, b), N(0, 0) = n_c − Σ_{a≠0} m_a − Σ_{b≠0} m_b + Σ_{a,b≠0} N(a, b)). Then

    N · I(X_i; X_j | C) = Σ_c Σ_{a, b} G_c[a, b] · log(G_c[a, b] · n_c / (m_c[a] · m_c[b]))      (0 log 0 = 0)

summed over the blocks with ``np.add.reduceat``. The products run in float32, exact for counts below 2²⁴; rows
go in chunks of the memory budget. Used when the data are complete and the Gram matrices fit the budget;
otherwise the pairwise loop of :mod:`~bnstudio.learn.structure.trees` runs.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from bnstudio.learn.batches import WORKING_SET, fitting, spans
from bnstudio.learn.structure.scores import DataColumns

EXACT_FLOAT32 = 2 ** 24
VECTORISE_FROM = 32          # fewer attributes: the pairwise loop is as fast


def _plogp(count: np.ndarray, rows: int, left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """N · log(N · n / (m_a · m_b)) elementwise, 0 where N = 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = count * np.log(count * rows / (left * right))
    out[count <= 0] = 0.0
    return out


def _class_weights(onehot_gram: np.ndarray, rows: int, starts: np.ndarray) -> np.ndarray:
    """Σ over every pair's cells of N log(N n / (m_a m_b)) for one class, from the Gram matrix G of the
    indicators of the non-reference states (states 1..|X| − 1; state 0's counts follow from the margins)."""
    margin = np.diag(onehot_gram).copy()                                  # m[a], a ≠ 0
    sums = np.add.reduceat(margin, starts)                                # Σ_{a≠0} m_i[a] per attribute
    ref = rows - sums                                                     # m_i[0]
    by_col = np.add.reduceat(onehot_gram, starts, axis=1)                 # R[a, j] = Σ_{b≠0 ∈ j} N(a, b)
    both = np.add.reduceat(by_col, starts, axis=0)                        # Σ_{a≠0, b≠0} N(a, b) per pair
    total = np.add.reduceat(np.add.reduceat(_plogp(onehot_gram, rows, margin[:, None], margin[None, :]),
                                            starts, axis=0), starts, axis=1)             # a ≠ 0, b ≠ 0
    one_ref = np.add.reduceat(_plogp(margin[:, None] - by_col, rows, margin[:, None], ref[None, :]),
                              starts, axis=0)                             # a ≠ 0, b = 0 (pair i, j)
    total += one_ref + one_ref.T                                          # and a = 0, b ≠ 0 by symmetry of G
    corner = rows - sums[:, None] - sums[None, :] + both                  # N(0, 0)
    return total + _plogp(corner, rows, ref[:, None], ref[None, :])


def ll_weight_matrix(data: DataColumns, nodes: Sequence[int], cond: tuple[int, ...] = (),
                     memory_budget: int = WORKING_SET) -> np.ndarray | None:
    """V × V matrix of N · I(X_i; X_j | cond) over the pairs of ``nodes`` (0 elsewhere and on the diagonal), or
    None when this path does not apply (missing cells, more than one conditioning variable, a one-state node,
    too few nodes, too many rows for float32 counts, or Gram matrices larger than the budget)."""
    nodes = list(nodes)
    cards = np.array([int(data.cards[v]) for v in nodes])
    width = int((cards - 1).sum())
    classes = int(data.cards[cond[0]]) if cond else 1
    if (len(nodes) < VECTORISE_FROM or len(cond) > 1 or data.n_rows >= EXACT_FLOAT32 or (cards < 2).any()
            or any(data.missing[v] is not None for v in [*nodes, *cond])
            or 8 * 3 * width * width > memory_budget):
        return None
    starts = np.concatenate([[0], np.cumsum(cards - 1)[:-1]])
    label = data.columns[cond[0]] if cond else np.zeros(data.n_rows, dtype=np.int64)
    total = np.zeros((len(nodes), len(nodes)))
    for c in range(classes):
        rows = np.flatnonzero(label == c)
        if rows.size == 0:
            continue
        gram = np.zeros((width, width), dtype=np.float64)
        for part in spans(rows.size, fitting(4 * width, memory_budget // 2)):
            onehot = np.zeros((len(rows[part]), width + 1), dtype=np.float32)   # last column: state 0, dropped
            line = np.arange(len(onehot))
            for j, v in enumerate(nodes):
                value = data.columns[v][rows[part]]
                onehot[line, np.where(value > 0, starts[j] + value - 1, width)] = 1.0
            block = onehot[:, :width]
            gram += block.T @ block
        total += _class_weights(gram, rows.size, starts)
    np.fill_diagonal(total, 0.0)
    out = np.zeros((data.n_vars, data.n_vars))
    out[np.ix_(nodes, nodes)] = total
    return out
