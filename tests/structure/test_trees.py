"""nb, tan, kdb and chow-liu: brute-force maximum spanning trees and the published definitions."""
from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from bnstudio.learn.structure import learn_structure
from bnstudio.learn.structure.scores import DataColumns
from bnstudio.learn.structure.trees import mutual_information

from .conftest import sample


def mi(codes: np.ndarray, i: int, j: int, cond: int | None = None) -> float:
    """I(X_i; X_j | X_cond) by the textbook sum over a contingency table (no shared code)."""
    z = codes[:, cond] if cond is not None else np.zeros(len(codes), dtype=int)
    n = len(codes)
    count = Counter(zip(z, codes[:, i], codes[:, j], strict=True))
    n_z, n_za, n_zb = Counter(z), Counter(zip(z, codes[:, i], strict=True)), Counter(zip(z, codes[:, j], strict=True))
    return sum(c / n * math.log(c * n_z[zz] / (n_za[zz, a] * n_zb[zz, b])) for (zz, a, b), c in count.items())


def brute_force_tree(nodes: list[int], weight) -> tuple[float, set]:
    """Best total weight and edge set over every spanning tree of the complete graph on ``nodes``."""
    pairs = list(itertools.combinations(nodes, 2))
    best = (-math.inf, set())
    weights = {pair: weight(*pair) for pair in pairs}
    for edges in itertools.combinations(pairs, len(nodes) - 1):
        root = {n: n for n in nodes}

        def find(x, root=root):
            while root[x] != x:
                x = root[x]
            return x
        ok = True
        for a, b in edges:
            ra, rb = find(a), find(b)
            if ra == rb:
                ok = False
                break
            root[ra] = rb
        if ok:
            w = sum(weights[e] for e in edges)
            if w > best[0]:
                best = (w, {frozenset(e) for e in edges})
    return best


DSL = "A->B; A->C; C->D; B,D->E; E->F"


def test_mutual_information_matches_the_textbook_sum():
    codes, _, states, _ = sample(DSL, 600, seed=1, states={"C": ["a", "b", "c"]})
    data = DataColumns(codes, [len(s) for s in states])
    assert mutual_information(data, 0, 2) == pytest.approx(mi(codes, 0, 2), rel=1e-10)
    assert mutual_information(data, 1, 4, (3,)) == pytest.approx(mi(codes, 1, 4, 3), rel=1e-10)


def test_chow_liu_is_the_maximum_mutual_information_spanning_tree():
    codes, names, states, _ = sample(DSL, 1500, seed=2, states={"C": ["a", "b", "c"]})
    res = learn_structure("chow-liu", codes, names, states)
    best, edges = brute_force_tree(list(range(6)), lambda a, b: mi(codes, a, b))
    index = {v: i for i, v in enumerate(names)}
    learned = {frozenset((index[p], index[c])) for p, c in res.arcs}
    assert learned == edges
    assert sum(mi(codes, *tuple(e)) for e in learned) == pytest.approx(best, rel=1e-10)
    assert all(len(res.network.parents(v)) <= 1 for v in names)
    assert res.network.parents("A") == ()  # default root: the first variable


def test_chow_liu_root_and_forest():
    grid = np.array(list(itertools.product([0, 1], [0, 1], range(5))) * 20)  # A, B, noise: all combinations
    grid[:, 2] = np.where(grid[:, 2] == 0, 1 - grid[:, 0], grid[:, 0])  # C copies A 80% of the time
    res = learn_structure("chow-liu", grid, ["A", "B", "C"], [("0", "1")] * 3, root="C")
    assert res.arcs == [("C", "A")]  # B's weights are exactly 0: a forest


def test_tan_is_the_maximum_conditional_mutual_information_tree_plus_the_class():
    codes, names, states, _ = sample("C->A,B,D,E,F; A->B; B->D; D->E; A->F", 2000, seed=3)
    res = learn_structure("tan", codes, names, states, target="C")
    index = {v: i for i, v in enumerate(names)}
    attrs = [index[v] for v in names if v != "C"]
    best, edges = brute_force_tree(attrs, lambda a, b: mi(codes, a, b, index["C"]))
    tree = {frozenset((index[p], index[c])) for p, c in res.arcs if p != "C"}
    assert tree == edges
    first = next(v for v in names if v != "C")
    for v in names:
        if v != "C":
            assert "C" in res.network.parents(v)
            assert len(res.network.parents(v)) == (1 if v == first else 2)
    assert res.network.parents("C") == ()


def test_naive_bayes_structure():
    codes, names, states, _ = sample("C->A,B,D", 200, seed=4)
    res = learn_structure("nb", codes, names, states, target="C")
    assert sorted(res.arcs) == [("C", v) for v in sorted(names) if v != "C"]


@pytest.mark.parametrize("k", [1, 2])
def test_kdb_structure_follows_sahami(k):
    codes, names, states, _ = sample("C->A,B,D,E; A->B; B->D; A,D->E", 2000, seed=5)
    res = learn_structure("kdb", codes, names, states, target="C", k=k)
    c = names.index("C")
    attrs = [i for i in range(len(names)) if i != c]
    order = sorted(attrs, key=lambda x: -mi(codes, x, c))
    for pos, x in enumerate(order):
        earlier = sorted(order[:pos], key=lambda y: -mi(codes, x, y, c))[:k]
        assert set(res.network.parents(names[x])) == {"C"} | {names[y] for y in earlier}


def test_trees_honour_forbidden_arcs_tiers_and_required_arcs():
    codes, names, states, _ = sample(DSL, 1500, seed=2)
    free = learn_structure("chow-liu", codes, names, states)
    banned = free.arcs[0]
    res = learn_structure("chow-liu", codes, names, states, forbidden=[banned, banned[::-1]],
                          required=[("F", "A")], tiers=[["F"], ["A", "B", "C", "D", "E"]])
    assert banned not in res.arcs and banned[::-1] not in res.arcs and ("F", "A") in res.arcs
    assert all(c != "F" for _, c in res.arcs)
    tan = learn_structure("tan", codes, names, states, target="A", max_parents=1)
    assert sorted(tan.arcs) == [("A", v) for v in names if v != "A"]  # no room for tree arcs


def test_every_registered_structure_learner_brings_its_own_algorithm():
    """Nothing dispatches on a learner's name (it once fell through to kdb): each registry entry's class defines
    its parent_sets step, and a subclass that defines none is refused naming the class, never run as another."""
    from bnstudio.learn.registry import STRUCTURE_LEARNERS
    from bnstudio.learn.structure.learners import NaiveBayes, StructureLearner

    for entry in STRUCTURE_LEARNERS:
        assert type(entry.make()).parent_sets is not StructureLearner.parent_sets, entry.name

    class Unfinished(NaiveBayes):
        parent_sets = StructureLearner.parent_sets

    codes = np.random.default_rng(0).integers(0, 2, (200, 3))
    with pytest.raises(NotImplementedError, match="Unfinished defines no parent_sets"):
        Unfinished().fit(codes, ["C", "A", "B"], [("0", "1")] * 3, target="C")
