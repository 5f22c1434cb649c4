"""Fixed-form structures: Chow-Liu trees, naive Bayes, TAN and k-dependence Bayesian classifiers.

* ``chow-liu`` ("Learning Trees", tutorial MP1-122 to MP1-124): the score decomposes into edge weights
  w(i, j) = Score(X_j | X_i) − Score(X_j); with the log-likelihood w = N · I(X_i; X_j) (Chow & Liu). A maximum
  spanning tree (Kruskal) over the positive weights — a forest when some weights are <= 0 — is directed away
  from a root: ``root`` if given, else the first variable (in column order) of each component.
* ``nb`` ("The Naive Bayesian Classifier", MP1-161/162): the class is the only parent of every attribute.
* ``tan`` ("Tree Augmented Naive Bayes", MP1-164; Friedman, Geiger & Goldszmidt 1997): the same maximum
  spanning tree over the attributes with w = N · I(X_i; X_j | C), directed from a root attribute (``root``,
  default the first attribute in column order — the paper picks it arbitrarily; every root gives the same
  likelihood), plus C -> X for every attribute.
* ``kdb`` (Sahami 1996): attributes ordered by I(X; C), highest first; each gets the class and the (up to)
  ``k`` earlier attributes with the highest I(X_i; X_j | C).

**Wide data** (complete rows, ``ll`` weights, 32+ attributes): the weights come block by block from Gram
matrices (:mod:`~bnstudio.learn.structure.pairwise`); with no constraint on the tree each block's maximum
spanning forest is kept and the tree is the forest of their union (:mod:`~bnstudio.learn.structure.spanning`),
and kdb keeps each attribute's best earlier partners, so neither holds the V × V matrix.

Weights use the rows where the pair (and the class) is observed; with ``score`` bic / bdeu the weight is the
penalised family gain, so weak edges drop out (K2 is not score-equivalent: its two directions are averaged).
Constraints (:class:`Constraints`) are honoured: with forbidden arcs, tiers, required arcs or a root the tree
is a maximum branching (Edmonds, networkx) over the allowed arcs with the required ones forced; then every
arc is inserted only if allowed, acyclic and within ``max_parents``, after the required arcs.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import networkx as nx
import numpy as np

from bnstudio.inference.batching import spans
from bnstudio.learn.structure.constraints import Constraints
from bnstudio.learn.structure.pairwise import PairwiseCMI, ll_weight_matrix
from bnstudio.learn.structure.scores import DataColumns, family_score
from bnstudio.learn.structure.spanning import best_earlier, streamed_forest


def _table(data: DataColumns, variables: tuple[int, ...]) -> np.ndarray:
    """Counts over ``variables`` (dense, in that axis order) from the rows where all of them are observed."""
    idx, seen, size = data.index(variables)
    if seen is not None:
        idx = idx[seen]
    shape = tuple(int(data.cards[v]) for v in variables)
    return np.bincount(idx, minlength=size).reshape(shape).astype(float)


def edge_weight(data: DataColumns, i: int, j: int, cond: tuple[int, ...] = (), score: str = "ll",
                ess: float = 1.0) -> float:
    """Score(X_j | cond, X_i) − Score(X_j | cond) on the rows where cond, X_i and X_j are observed.

    With ``score="ll"`` this is N · I(X_i; X_j | cond); K2 returns the mean of both directions.
    """
    table = _table(data, cond + (i, j))
    ri, rj = table.shape[-2:]
    flat = table.reshape(-1, ri, rj)
    gain = family_score(flat.reshape(-1, rj), score, ess) - family_score(flat.sum(axis=1), score, ess)
    if score == "k2":
        back = flat.transpose(0, 2, 1)
        reverse = family_score(back.reshape(-1, ri), score, ess) - family_score(back.sum(axis=1), score, ess)
        gain = 0.5 * (gain + reverse)
    return float(gain)


def mutual_information(data: DataColumns, i: int, j: int, cond: tuple[int, ...] = ()) -> float:
    """I(X_i; X_j | cond) in nats from the bincount contingency table of the observed rows."""
    n = _table(data, cond + (i, j)).sum()
    return edge_weight(data, i, j, cond, "ll") / n if n > 0 else 0.0


def weight_matrix(data: DataColumns, nodes: Sequence[int], cond: tuple[int, ...] = (), score: str = "ll",
                  ess: float = 1.0) -> np.ndarray:
    """Symmetric V x V matrix of :func:`edge_weight` over the pairs of ``nodes`` (0 elsewhere); with ``ll`` on
    complete wide data all pairs at once (:mod:`~bnstudio.learn.structure.pairwise`)."""
    if score == "ll":
        fast = ll_weight_matrix(data, nodes, cond)
        if fast is not None:
            return fast
    w = np.zeros((data.n_vars, data.n_vars))
    for a, i in enumerate(nodes):
        for j in nodes[a + 1:]:
            w[i, j] = w[j, i] = edge_weight(data, i, j, cond, score, ess)
    return w


def kruskal(nodes: Sequence[int], weights: np.ndarray, eps: float = 0.0) -> list[tuple[int, int]]:
    """Maximum spanning forest over the edges with weight > ``eps`` (ties broken by node order)."""
    parent = {n: n for n in nodes}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    ids = np.asarray(nodes, dtype=np.int64)
    first, second = np.triu_indices(len(ids), 1)
    i_all, j_all = ids[first], ids[second]
    w = weights[i_all, j_all]
    keep = w > eps
    i_all, j_all, w = i_all[keep], j_all[keep], w[keep]
    order = np.lexsort((j_all, i_all, -w))          # by weight, highest first; ties by node order
    tree: list[tuple[int, int]] = []
    for i, j in zip(i_all[order].tolist(), j_all[order].tolist(), strict=True):
        ri, rj = find(i), find(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
            tree.append((i, j))
            if len(tree) == len(ids) - 1:         # spanning: no later edge can join two components
                break
    return tree


def orient(nodes: Sequence[int], edges: Iterable[tuple[int, int]], root: int | None = None) -> list[tuple[int, int]]:
    """Direct a forest away from ``root`` (its component) and from the first node of every other component."""
    adj: dict[int, list[int]] = {n: [] for n in nodes}
    for i, j in edges:
        adj[i].append(j)
        adj[j].append(i)
    arcs, seen = [], set()
    for start in ([root] if root is not None else []) + sorted(nodes):
        if start in seen:
            continue
        seen.add(start)
        queue = [start]
        while queue:
            x = queue.pop(0)
            for y in sorted(adj[x]):
                if y not in seen:
                    seen.add(y)
                    arcs.append((x, y))
                    queue.append(y)
    return arcs


def branching(nodes: Sequence[int], weights: np.ndarray, cons: Constraints, root: int | None = None,
              eps: float = 0.0) -> list[tuple[int, int]]:
    """Maximum-weight branching over the allowed arcs among ``nodes`` with required arcs forced (Edmonds)."""
    node_set = set(nodes)
    forced: dict[int, list[int]] = {}
    for i, j in cons.required:
        if i in node_set and j in node_set:
            forced.setdefault(j, []).append(i)
    big = 1.0 + float(np.abs(weights).sum())
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    for j in nodes:
        if j == root and j not in forced:
            continue
        for i in forced.get(j, nodes):
            if i != j and cons.allowed[i, j] and (j in forced or weights[i, j] > eps):
                graph.add_edge(i, j, weight=big if j in forced else float(weights[i, j]))
    tree = nx.algorithms.tree.branchings.maximum_branching(graph, attr="weight")
    return sorted(tree.edges())


class Builder:
    """Parent sets grown arc by arc: the required arcs first, then only allowed, acyclic arcs within the limit."""

    def __init__(self, cons: Constraints) -> None:
        self.cons = cons
        self.parents = cons.required_parents()
        self.graph = nx.DiGraph([(i, j) for i, j in cons.required])
        self.graph.add_nodes_from(range(len(cons.names)))

    def try_add(self, i: int, j: int) -> bool:
        """Add i -> j unless present, not allowed, over ``max_parents`` or closing a cycle; True if added."""
        limit = self.cons.max_parents
        if i in self.parents[j] or not self.cons.allowed[i, j]:
            return False
        if (limit is not None and len(self.parents[j]) >= limit) or nx.has_path(self.graph, j, i):
            return False
        self.parents[j].add(i)
        self.graph.add_edge(i, j)
        return True

    def result(self) -> list[frozenset[int]]:
        return [frozenset(p) for p in self.parents]


def _free(nodes: Sequence[int], cons: Constraints) -> bool:
    """True when no constraint touches the arcs among ``nodes`` (no required arc, every arc allowed);
    the allowed matrix is read in row blocks (no V × V temporary)."""
    if cons.required:
        return False
    ids = np.asarray(nodes, dtype=np.int64)
    allowed = sum(int(np.count_nonzero(cons.allowed[np.ix_(ids[part], ids)])) for part in spans(len(ids), 1024))
    return allowed == len(ids) * (len(ids) - 1)


def _tree(nodes: list[int], weights: np.ndarray, cons: Constraints, root: int | None,
          eps: float) -> list[tuple[int, int]]:
    """Kruskal + orientation when nothing constrains the tree arcs, else a constrained maximum branching."""
    if _free(nodes, cons):
        return orient(nodes, kruskal(nodes, weights, eps), root)
    return branching(nodes, weights, cons, root, eps)


def _tree_arcs(data: DataColumns, nodes: list[int], cond: tuple[int, ...], cons: Constraints, score: str,
               ess: float, root: int | None) -> list[tuple[int, int]]:
    """The tree's arcs; with ``ll`` weights on complete wide data and no constraint on the tree, the forest of
    the weight blocks as they are made (:func:`~bnstudio.learn.structure.spanning.streamed_forest`: no
    V × V matrix), else from the weight matrix."""
    eps = _eps(score, data)
    if score == "ll" and PairwiseCMI.applies(data, nodes, cond) and _free(nodes, cons):
        pairs = PairwiseCMI(data, nodes, cond)
        ids = pairs.nodes
        blocks = ((ids[a], ids[b], weights, same) for a, b, weights, same in pairs.blocks())
        return orient(nodes, streamed_forest(blocks, eps), root)
    return _tree(nodes, weight_matrix(data, nodes, cond, score, ess), cons, root, eps)


def chow_liu(data: DataColumns, cons: Constraints, score: str = "ll", ess: float = 1.0,
             root: int | None = None) -> list[frozenset[int]]:
    """Parent sets of the Chow-Liu tree/forest (see the module docstring)."""
    nodes = list(range(data.n_vars))
    builder = Builder(cons)
    if cons.max_parents != 0:
        for i, j in _tree_arcs(data, nodes, (), cons, score, ess, root):
            builder.try_add(i, j)
    return builder.result()


def naive_bayes(data: DataColumns, cons: Constraints, target: int) -> list[frozenset[int]]:
    """Parent sets of naive Bayes: C -> X for every attribute (where the constraints allow it)."""
    builder = Builder(cons)
    for x in range(data.n_vars):
        if x != target:
            builder.try_add(target, x)
    return builder.result()


def tan(data: DataColumns, cons: Constraints, target: int, score: str = "ll", ess: float = 1.0,
        root: int | None = None) -> list[frozenset[int]]:
    """Parent sets of the tree-augmented naive Bayes classifier (see the module docstring)."""
    attrs = [x for x in range(data.n_vars) if x != target]
    builder = Builder(cons)
    for x in attrs:
        builder.try_add(target, x)
    if cons.max_parents is None or cons.max_parents >= 2:
        root = attrs[0] if root is None and attrs else root
        for i, j in _tree_arcs(data, attrs, (target,), cons, score, ess, root):
            builder.try_add(i, j)
    return builder.result()


def kdb(data: DataColumns, cons: Constraints, target: int, k: int = 1) -> list[frozenset[int]]:
    """Parent sets of the k-dependence Bayesian classifier (Sahami 1996; see the module docstring)."""
    attrs = [x for x in range(data.n_vars) if x != target]
    wide = PairwiseCMI(data, attrs, (target,)) if PairwiseCMI.applies(data, attrs, (target,)) else None
    if wide is not None:                    # N · I on complete data: the same order as I
        relevance = dict(zip(attrs, wide.relevance().tolist(), strict=True))
    else:
        relevance = {x: mutual_information(data, x, target) for x in attrs}
    order = sorted(attrs, key=lambda x: (-relevance[x], x))
    builder = Builder(cons)
    ranked = _earlier_ranking(data, attrs, order, target, k, wide, cons)
    for pos, x in enumerate(order):
        builder.try_add(target, x)
        if not k:
            continue
        kept = ranked(x, pos, None)
        count = _add_best(builder, x, target, kept, k)
        if count < k and len(kept) < pos:          # constraints refused the kept candidates: rank them all
            _add_best(builder, x, target, ranked(x, pos, pos), k)
    return builder.result()


def _add_best(builder: Builder, x: int, target: int, ranked: list[int], k: int) -> int:
    """Add y -> x for the ranked candidates y in turn until x has ``k`` attribute parents; that count."""
    count = len(builder.parents[x] - {target})
    for y in ranked:
        if count >= k:
            break
        count += builder.try_add(y, x)
    return count


def _earlier_ranking(data: DataColumns, attrs: list[int], order: list[int], target: int, k: int,
                     wide: PairwiseCMI | None, cons: Constraints):
    """ranked(x, pos, limit): the attributes before x in ``order``, by I(X; Y | C) highest first (ties: earlier
    first) — the best few kept from the weight blocks when ``limit`` is None on wide data, else all of them."""
    position = {x: p for p, x in enumerate(order)}
    if wide is None or not k:
        def gain(x: int, y: int) -> float:
            return mutual_information(data, x, y, (target,))

        return lambda x, pos, limit: sorted(order[:pos], key=lambda y: (-gain(x, y), position[y]))
    ids = wide.nodes
    place = np.array([position[int(v)] for v in ids])
    keep = k if _free(attrs, cons) and cons.max_parents is None else k + 8
    partner, _ = best_earlier(wide.blocks(), place, keep)
    at = {int(v): p for p, v in enumerate(ids)}

    def ranked(x: int, pos: int, limit: int | None) -> list[int]:
        if limit is None:
            return [int(ids[q]) for q in partner[at[x]] if q >= 0]
        earlier = np.array([at[y] for y in order[:pos]], dtype=np.int64)
        gains = wide.against(at[x], earlier)
        return [order[p] for p in np.lexsort((np.arange(pos), -gains))]

    return ranked


def _eps(score: str, data: DataColumns) -> float:
    """Weights at or below this are treated as no dependence (log-likelihood gains have rounding noise)."""
    return 1e-9 * data.n_rows if score == "ll" else 0.0
