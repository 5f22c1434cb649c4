"""Every pair's conditional mutual information at once, from Gram matrices of one-hot data (wide data).

TAN and KDB need w(i, j) = N · I(X_i; X_j | C) for all attribute pairs (Friedman, Geiger & Goldszmidt 1997
§4.1; Sahami 1996). On complete data the joint counts of every pair come from one matrix product per class
state c: with O_c the rows of class c one-hot encoded (n_c × S, S = Σ_i |X_i|), G_c = O_cᵀ O_c holds
N(X_i = a, X_j = b, C = c) in block (i, j), and its diagonal the marginals m_c. Then

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


def ll_weight_matrix(data: DataColumns, nodes: Sequence[int], cond: tuple[int, ...] = (),
                     memory_budget: int = WORKING_SET) -> np.ndarray | None:
    """V × V matrix of N · I(X_i; X_j | cond) over the pairs of ``nodes`` (0 elsewhere and on the diagonal), or
    None when this path does not apply (missing cells, more than one conditioning variable, too few nodes,
    too many rows for float32 counts, or Gram matrices larger than the budget)."""
    nodes = list(nodes)
    cards = np.array([int(data.cards[v]) for v in nodes])
    width = int(cards.sum())
    classes = int(data.cards[cond[0]]) if cond else 1
    if (len(nodes) < VECTORISE_FROM or len(cond) > 1 or data.n_rows >= EXACT_FLOAT32
            or any(data.missing[v] is not None for v in [*nodes, *cond])
            or 8 * classes * width * width > memory_budget):
        return None
    starts = np.concatenate([[0], np.cumsum(cards)[:-1]])
    label = data.columns[cond[0]] if cond else np.zeros(data.n_rows, dtype=np.int64)
    total = np.zeros((len(nodes), len(nodes)))
    for c in range(classes):
        rows = np.flatnonzero(label == c)
        if rows.size == 0:
            continue
        gram = np.zeros((width, width), dtype=np.float64)
        for part in spans(rows.size, fitting(4 * width, memory_budget // 2)):
            onehot = np.zeros((len(rows[part]), width), dtype=np.float32)
            for j, v in enumerate(nodes):
                onehot[np.arange(len(onehot)), starts[j] + data.columns[v][rows[part]]] = 1.0
            gram += onehot.T @ onehot
        margin = np.diag(gram).copy()
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = gram * np.log(gram * rows.size / np.outer(margin, margin))
        terms[gram == 0] = 0.0
        total += np.add.reduceat(np.add.reduceat(terms, starts, axis=0), starts, axis=1)
    np.fill_diagonal(total, 0.0)
    out = np.zeros((data.n_vars, data.n_vars))
    out[np.ix_(nodes, nodes)] = total
    return out
