"""Compilation stays bounded on networks whose junction tree cannot fit.

* The greedy elimination order (heap-based) picks exactly the vertices the textbook loop (rescore everything,
  take the least (score, index)) picks; with ``max_clique`` it stops at the first clique over the bound.
* A 60x60 grid compiles (to "no junction tree") in seconds; single queries still work by pruned elimination,
  and a query whose elimination needs a table over the budget is refused while ordering.
"""
from __future__ import annotations

import math
import time

import numpy as np
import pytest

from bnstudio.core import Network
from bnstudio.errors import MemoryBudgetExceeded
from bnstudio.inference import InferenceEngine
from bnstudio.inference.elimination import HEURISTICS, CliqueTooLarge, elimination_order, moral_graph


def _score(v: int, adj: list[set[int]], cards: list[int], heuristic: str) -> tuple[int, int]:
    """The textbook scores, by a pairwise scan: (table size, 0) for min-weight, else (number of fill-in edges
    or Σ |a||b| over them, table size)."""
    weight = cards[v] * math.prod(cards[u] for u in adj[v])
    if heuristic == "min-weight":
        return weight, 0
    nbrs = sorted(adj[v])
    missing = [(a, b) for i, a in enumerate(nbrs) for b in nbrs[i + 1:] if b not in adj[a]]
    if heuristic == "min-fill":
        return len(missing), weight
    return sum(cards[a] * cards[b] for a, b in missing), weight


def _reference_order(adj: list[set[int]], cards: list[int], heuristic: str) -> list[int]:
    """The textbook greedy loop: rescore every remaining vertex and take the least (score, index)."""
    adj = [set(a) for a in adj]
    alive = set(range(len(adj)))
    order = []
    while alive:
        v = min(alive, key=lambda u: (_score(u, adj, cards, heuristic), u))
        for a in adj[v]:
            adj[a].discard(v)
            adj[a].update(u for u in adj[v] if u != a)
        adj[v] = set()
        alive.discard(v)
        order.append(v)
    return order


@pytest.mark.parametrize("seed", range(6))
def test_heap_order_equals_the_textbook_greedy_order(seed):
    rng = np.random.default_rng(seed)
    n = 25
    families = [tuple(int(p) for p in rng.choice(v, size=min(v, rng.integers(0, 4)), replace=False)) + (v,)
                for v in range(n)]
    adj = moral_graph(n, families)
    cards = [int(c) for c in rng.integers(2, 5, size=n)]
    for heuristic in HEURISTICS:
        assert elimination_order(adj, cards, heuristic) == _reference_order(adj, cards, heuristic)


def grid(n: int) -> Network:
    """An n x n grid: each cell's parents are the cells above and to the left (binary, uniform CPTs)."""
    net = Network(f"grid{n}")
    for i in range(n):
        for j in range(n):
            parents = ([f"x{i - 1}_{j}"] if i else []) + ([f"x{i}_{j - 1}"] if j else [])
            net.add_variable(f"x{i}_{j}", ["a", "b"], parents=parents)
    return net


def test_an_order_stops_at_the_first_clique_over_the_bound():
    net = grid(12)
    names = net.variables
    families = [tuple(names.index(p) for p in net.parents(v)) + (k,) for k, v in enumerate(names)]
    adj = moral_graph(len(names), families)
    cards = [2] * len(names)
    full = elimination_order(adj, cards, "min-fill")
    with pytest.raises(CliqueTooLarge) as caught:
        elimination_order(adj, cards, "min-fill", max_clique=2**6)
    exc = caught.value
    assert exc.size > 2**6 and exc.n_vars == math.log2(exc.size) and 0 < exc.eliminated < len(names)
    assert full[:exc.eliminated] == elimination_order(adj, cards, "min-fill")[:exc.eliminated]


def test_a_60x60_grid_compiles_to_no_junction_tree_quickly_and_single_queries_still_work():
    net = grid(60)
    start = time.perf_counter()
    engine = InferenceEngine(net)
    compiled = engine.compiled
    assert compiled.jt is None and compiled.order is None  # the whole network's tree is made here
    assert time.perf_counter() - start < 60  # about 1 s; the unbounded search ran for minutes
    assert compiled.too_large.eliminated < len(net)  # stopped part-way, at the first clique over the budget
    assert compiled.too_large.size > engine.memory_budget / 24
    assert not engine.fits_budget
    # a corner cell depends on few ancestors: pruned elimination answers it (uniform CPTs: 1/2 each)
    np.testing.assert_allclose(engine.posterior("x2_2", {"x1_1": "a"})["x2_2"], [0.5, 0.5])
    # a batch propagates on the tree of An(targets ∪ observed columns), which fits
    np.testing.assert_allclose(engine.posterior_batch("x2_2", {"x1_1": np.array([0, 1])})["x2_2"], 0.5)
    with pytest.raises(MemoryBudgetExceeded, match="'grid60' .3600 variables.*even for one case"):
        engine.posterior_batch("x59_59", {"x1_1": np.array([0, 1])})  # the whole grid for one case


def test_a_query_over_budget_is_refused_while_ordering():
    engine = InferenceEngine(grid(20), memory_budget=2**16)
    assert engine.compiled.jt is None
    with pytest.raises(MemoryBudgetExceeded, match="memory budget"):  # the whole grid: refused, not attempted
        engine.posterior("x19_19")
    forced = InferenceEngine(grid(20), memory_budget=2**16, method="junction-tree")
    with pytest.raises(MemoryBudgetExceeded, match="does not fit"):
        forced.joint(["x0_0", "x0_1"])


def test_empty_network_compiles():
    compiled = InferenceEngine(Network("empty")).compiled
    assert compiled.jt is not None and compiled.jt.cliques == []


@pytest.mark.parametrize("merge_below", [1, 64, 10**6])
@pytest.mark.parametrize("seed", range(8))
def test_junction_trees_keep_running_intersection_with_small_cliques_merged(seed, merge_below):
    """One tree; each variable's cliques form a connected subtree; each family inside its home clique."""
    from bnstudio.inference.elimination import best_elimination_order
    from bnstudio.inference.jtree import build_junction_tree
    rng = np.random.default_rng(seed)
    n = 14
    families = [tuple(int(p) for p in rng.choice(v, size=min(v, rng.integers(0, 4)), replace=False)) + (v,)
                for v in range(n)]
    cards = [int(c) for c in rng.integers(2, 4, size=n)]
    stats = best_elimination_order(moral_graph(n, families), cards)
    jt = build_junction_tree(cards, stats.order, stats.cliques, families, merge_below=merge_below)
    k = len(jt.cliques)
    assert sum(len(nb) for nb in jt.neighbours) == 2 * (k - 1) and sorted(jt.preorder) == list(range(k))
    for v in range(n):
        holding = {c for c in range(k) if v in jt.cliques[c]}
        start = next(iter(holding))
        seen, stack = {start}, [start]
        while stack:
            for d in jt.neighbours[stack.pop()]:
                if d in holding and d not in seen:
                    seen.add(d)
                    stack.append(d)
        assert seen == holding
        assert set(families[v]) <= set(jt.cliques[jt.family_home[v]])
        assert jt.sizes[jt.var_home[v]] == min(jt.sizes[c] for c in holding)
    for a in range(k):  # no edge left that could merge (chained pieces, with empty separators, are not merged)
        for b in jt.neighbours[a]:
            union = set(jt.cliques[a]) | set(jt.cliques[b])
            assert math.prod(cards[v] for v in union) > merge_below or not set(jt.cliques[a]) & set(jt.cliques[b])
