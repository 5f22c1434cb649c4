"""Maximum spanning forests of pair weights that arrive block by block, and each node's best earlier partners.

Edges are ranked by weight, highest first, ties by the smaller node then the larger (the order of
:func:`~bnstudio.learn.structure.trees.kruskal`); under this strict order the maximum spanning forest is unique,
and it is what Kruskal builds (Chow & Liu; Friedman, Geiger & Goldszmidt 1997 §4.1 for TAN).

**Blocks.** By the cycle property, an edge that is the lowest-ranked edge of some cycle is in no maximum
spanning forest; a cycle inside a subset of the edges is a cycle of the whole graph. So for any cover of the
edges by blocks, the forest of all edges lies inside the union of the blocks' forests, and the forest of that
union is the forest of all edges. :func:`streamed_forest` keeps only each block's forest (at most
|A| + |B| − 1 edges of an |A| × |B| block), so the V × V weight matrix is never held. Forests are computed by
scipy's compiled minimum spanning tree on the edges' ranks (1 = best), so no Python loop runs over pairs.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import minimum_spanning_tree

Edges = tuple[np.ndarray, np.ndarray, np.ndarray]      # (i, j, w) with i < j


def ranked_forest(i: np.ndarray, j: np.ndarray, w: np.ndarray, size: int) -> Edges:
    """The maximum spanning forest of the edges (i, j, w) among nodes 0..size − 1 (i < j, each pair once), as
    (i, j, w) arrays, best first: the edges ranked by (−w, i, j), then scipy's minimum spanning tree of the
    ranks (distinct, so the forest is the unique one Kruskal builds in that order)."""
    if not w.size:
        return i, j, w
    order = np.lexsort((j, i, -w))
    rank = np.empty(w.size)
    rank[order] = np.arange(1, w.size + 1)
    tree = minimum_spanning_tree(coo_matrix((rank, (i, j)), shape=(size, size)).tocsr()).tocoo()
    pick = order[np.sort(tree.data.astype(np.int64)) - 1]              # ranks back to edge positions
    return i[pick], j[pick], w[pick]


def block_forest(rows: np.ndarray, cols: np.ndarray, weights: np.ndarray, diagonal: bool, eps: float) -> Edges:
    """The maximum spanning forest of one block's edges with weight > ``eps`` (node ids ``rows`` × ``cols``;
    ``diagonal``: the same nodes on both sides, upper triangle only), as (i, j, w) with node ids.

    Kruskal needs only the best edges until the forest spans the nodes that have an edge at all, so only the
    edges at or above the t-th best weight are ranked (found by a partition, not a sort), t = 4 × nodes,
    t growing fourfold until their forest spans those nodes or every edge is in."""
    if diagonal:
        weights = np.where(np.arange(len(rows))[:, None] < np.arange(len(cols))[None, :], weights, -np.inf)
    usable = weights > eps
    if diagonal:
        need = int(np.count_nonzero(usable.any(axis=1) | usable.any(axis=0)))
        local, shift = rows, 0
    else:
        need = int(np.count_nonzero(usable.any(axis=1))) + int(np.count_nonzero(usable.any(axis=0)))
        local, shift = np.concatenate([rows, cols]), len(rows)
    flat, usable = weights.ravel(), usable.ravel()
    edges = int(np.count_nonzero(usable))
    take = 4 * len(local)
    while True:
        if take >= edges:
            chosen = np.flatnonzero(usable)
        else:
            threshold = np.partition(flat, flat.size - take)[flat.size - take]
            chosen = np.flatnonzero(usable & (flat >= threshold))
        a, b = np.divmod(chosen, weights.shape[1])
        i, j, w = ranked_forest(a, b + shift, flat[chosen], len(local))
        if len(w) >= need - 1 or take >= edges:
            return local[i], local[j], w
        take *= 4


Block = tuple[np.ndarray, np.ndarray, np.ndarray, bool]    # (row ids, col ids, weights, diagonal)


def streamed_forest(blocks: Iterable[Block], eps: float = 0.0) -> list[tuple[int, int]]:
    """The maximum spanning forest over blocks (row ids, col ids, weights, diagonal) covering every pair once
    (ids increasing, every row id below every col id, or the same ids on both sides of a diagonal block):
    each block's forest is kept, then the forest of their union. Edges (i, j) with i < j, best first."""
    kept = [block_forest(rows, cols, weights, diagonal, eps) for rows, cols, weights, diagonal in blocks]
    if not kept:
        return []
    i, j, w = (np.concatenate(part) for part in zip(*kept, strict=True))
    size = int(max(i.max(initial=0), j.max(initial=0))) + 1
    i, j, _ = ranked_forest(i, j, w, size)
    return list(zip(i.tolist(), j.tolist(), strict=True))


def best_earlier(blocks: Iterable[Block], position: np.ndarray, keep: int) -> tuple[np.ndarray, np.ndarray]:
    """For every node p (indices 0..V − 1, ``position[p]`` its place in an order) the ``keep`` nodes q placed
    earlier (position[q] < position[p]) with the highest weight, ties by earlier place, from blocks (row
    indices, col indices, weights, diagonal) covering every pair once. Returns (partners, weights), each
    (V × keep); a missing partner is -1 with weight -inf."""
    count = len(position)
    partner = np.full((count, keep), -1, dtype=np.int64)
    best = np.full((count, keep), -np.inf)
    for rows, cols, weights, diagonal in blocks:
        sides = [(rows, cols, weights)] if diagonal else [(rows, cols, weights), (cols, rows, weights.T)]
        for mine, theirs, table in sides:
            earlier = position[theirs][None, :] < position[mine][:, None]
            cand_w = np.concatenate([best[mine], np.where(earlier, table, -np.inf)], axis=1)
            cand_q = np.concatenate([partner[mine], np.broadcast_to(theirs, earlier.shape)], axis=1)
            cand_pos = np.where(cand_q >= 0, position[np.maximum(cand_q, 0)], count)
            order = np.lexsort((cand_pos, -cand_w), axis=-1)[:, :keep]
            best[mine] = np.take_along_axis(cand_w, order, axis=1)
            partner[mine] = np.where(np.isfinite(best[mine]), np.take_along_axis(cand_q, order, axis=1), -1)
    return partner, best
