"""The network's own directed graph (bnstudio.core.digraph) against networkx, on random DAGs and edits: the same
topological order (networkx's lexicographical_topological_sort with the same key), shortest paths of the same
length that really are paths, and the same arcs after removals and renames."""
from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from bnstudio.core.digraph import DiGraph


def random_pair(seed: int) -> tuple[DiGraph, nx.DiGraph, list[str]]:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 14))
    names = [f"N{k}" for k in rng.permutation(n)]  # insertion order differs from the topological one
    ours, theirs = DiGraph(), nx.DiGraph()
    for name in names:
        ours.add_node(name)
        theirs.add_node(name)
    edges = [(f"N{i}", f"N{j}") for j in range(n) for i in range(j) if rng.random() < 0.3]
    ours.add_edges_from(edges)
    theirs.add_edges_from(edges)
    return ours, theirs, names


@pytest.mark.parametrize("seed", range(40))
def test_the_digraph_agrees_with_networkx(seed):
    ours, theirs, names = random_pair(seed)
    rank = {v: k for k, v in enumerate(names)}
    assert ours.topological_order(key=rank.__getitem__) == list(
        nx.lexicographical_topological_sort(theirs, key=rank.__getitem__))
    for a in names:
        for b in names:
            path = ours.shortest_path(a, b)
            if nx.has_path(theirs, a, b):
                assert path is not None and path[0] == a and path[-1] == b
                assert len(path) == nx.shortest_path_length(theirs, a, b) + 1
                assert all(theirs.has_edge(u, v) for u, v in zip(path, path[1:], strict=False))
            else:
                assert path is None
    assert sorted(ours.to_networkx().edges()) == sorted(theirs.edges())
    rng = np.random.default_rng(1000 + seed)
    victim = names[int(rng.integers(len(names)))]
    copy = ours.copy()
    ours.remove_node(victim)
    theirs.remove_node(victim)
    assert sorted(ours.edges()) == sorted(theirs.edges()) and victim not in ours and victim in copy
    renamed = ours.relabel({names[0]: "renamed"})
    assert sorted(renamed.edges()) == sorted(nx.relabel_nodes(theirs, {names[0]: "renamed"}).edges())
    if theirs.number_of_edges():
        u, v = next(iter(theirs.edges()))
        ours.remove_edge(u, v)
        assert not ours.shortest_path(u, v) or len(ours.shortest_path(u, v)) > 2


def test_a_cycle_is_refused_by_the_topological_order():
    g = DiGraph()
    g.add_edges_from([("A", "B"), ("B", "C"), ("C", "A")])
    with pytest.raises(ValueError, match="cycle"):
        g.topological_order(key=str)
    assert g.shortest_path("A", "A") == ["A"] and g.shortest_path("A", "missing") is None
