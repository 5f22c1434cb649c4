"""Wide TAN / KDB / Chow-Liu: the pair weights block by block, the streamed spanning forest and each node's best
earlier partners, against direct formulas, Kruskal on the whole matrix, networkx and a plain sort."""
from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest

from bnstudio.experiment.generators import wide_categorical
from bnstudio.learn.structure import pairwise, spanning
from bnstudio.learn.structure.api import learn_structure
from bnstudio.learn.structure.scores import DataColumns
from bnstudio.learn.structure.trees import kruskal


def direct_cmi(codes: np.ndarray, i: int, j: int, cond: int | None) -> float:
    """N · I(X_i; X_j | C) = Σ_{c,a,b} N_cab log(N_cab N_c / (N_ca N_cb)) from a dense contingency table."""
    z = codes[:, cond] if cond is not None else np.zeros(len(codes), dtype=np.int64)
    shape = (int(z.max()) + 1, int(codes[:, i].max()) + 1, int(codes[:, j].max()) + 1)
    table = np.zeros(shape)
    np.add.at(table, (z, codes[:, i], codes[:, j]), 1.0)
    n_c, n_ca, n_cb = table.sum(axis=(1, 2)), table.sum(axis=2), table.sum(axis=1)
    total = 0.0
    for c, a, b in zip(*np.nonzero(table), strict=True):
        total += table[c, a, b] * math.log(table[c, a, b] * n_c[c] / (n_ca[c, a] * n_cb[c, b]))
    return total


def mixed_data(rows: int, seed: int) -> tuple[np.ndarray, list[int]]:
    """36 attributes of 1 to 5 states (one-state columns included, a state never seen), a 3-state class last."""
    rng = np.random.default_rng(seed)
    cards = [1, 2, 5, 3, 2, 1, 4, 2, 2, 3] * 3 + [2, 2, 5, 2, 3, 2] + [3]
    codes = np.column_stack([rng.integers(0, c, rows) for c in cards])
    codes[:, 4] = (codes[:, 3] + codes[:, -1]) % 2             # depends on X3 given the class
    codes[:, 2] = np.minimum(codes[:, 2], 3)                   # state 4 never seen
    return codes, cards


@pytest.mark.parametrize("budget", [pairwise.WORKING_SET, 20_000])
@pytest.mark.parametrize("cond", [(), (36,)])
def test_every_block_of_pairs_matches_the_direct_formula(budget, cond):
    codes, cards = mixed_data(700, 1)
    data = DataColumns(codes, cards)
    nodes = list(range(36))
    pairs = pairwise.PairwiseCMI(data, nodes, cond, memory_budget=budget)
    if budget < pairwise.WORKING_SET:
        assert len(pairs.sides) > 3 and pairs.block_width < 20       # several blocks, rows in several chunks
    seen = np.zeros((36, 36), dtype=int)
    for a, b, weights, same in pairs.blocks():
        for x, i in enumerate(a):
            for y, j in enumerate(b):
                if same and y <= x:
                    continue
                seen[i, j] += 1
                expected = direct_cmi(codes, i, j, cond[0] if cond else None)
                assert weights[x, y] == pytest.approx(expected, rel=1e-9, abs=1e-9), (i, j)
    assert (seen + seen.T == 1 - np.eye(36, dtype=int)).all()        # every pair exactly once
    relevance = pairs.relevance()
    if cond:
        for i in nodes:
            assert relevance[i] == pytest.approx(direct_cmi(np.column_stack([codes[:, i], codes[:, 36],
                                                                              np.zeros(700, int)]), 0, 1, 2),
                                                 rel=1e-9, abs=1e-9)


def test_row_chunks_are_summed_exactly_and_against_gives_one_row():
    codes, cards = mixed_data(3000, 2)
    data = DataColumns(codes, cards)
    small = pairwise.PairwiseCMI(data, range(36), (36,), memory_budget=20_000)
    assert len(list(small._row_chunks(small.class_rows[0], 40))) > 1
    others = np.delete(np.arange(36), 3)
    row = small.against(3, others)
    for value, j in zip(row, others, strict=True):
        assert value == pytest.approx(direct_cmi(codes, 3, j, 36), rel=1e-9, abs=1e-9)


def _blocks_of(weights: np.ndarray, cuts: list[int]):
    bounds = [0, *cuts, len(weights)]
    groups = [np.arange(a, b) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    for x, rows in enumerate(groups):
        for cols in groups[x:]:
            yield rows, cols, weights[np.ix_(rows, cols)], rows is cols


@pytest.mark.parametrize("seed", range(6))
def test_the_streamed_forest_is_kruskals_on_the_whole_matrix(seed):
    rng = np.random.default_rng(seed)
    v = 60
    weights = rng.integers(0, 6, (v, v)).astype(float)          # many ties, zeros (no edge) included
    weights = np.triu(weights, 1)
    weights += weights.T
    if seed % 2:
        weights[:, 7] = weights[7, :] = 0.0                      # an isolated node
    cuts = sorted(rng.choice(np.arange(1, v), size=4, replace=False).tolist())
    streamed = spanning.streamed_forest(_blocks_of(weights, cuts), eps=0.5)
    whole = kruskal(list(range(v)), weights, eps=0.5)
    assert sorted(streamed) == sorted((min(e), max(e)) for e in whole)
    graph = nx.Graph()
    graph.add_weighted_edges_from((i, j, weights[i, j]) for i in range(v) for j in range(i + 1, v)
                                  if weights[i, j] > 0.5)
    reference = nx.maximum_spanning_tree(graph)
    assert sum(weights[i, j] for i, j in streamed) == pytest.approx(reference.size(weight="weight"))
    assert len(streamed) == reference.number_of_edges()


def test_a_block_forest_grows_its_candidate_edges_until_it_spans():
    rng = np.random.default_rng(3)
    rows, cols = np.arange(0, 50), np.arange(50, 130)
    weights = rng.random((50, 80))
    weights[:, 40:] *= 1e-3                                     # the best 4 × 130 edges leave cols 90.. unreached
    i, j, _ = spanning.block_forest(rows, cols, weights, False, 0.0)
    assert len(i) == 129
    dense = np.zeros((130, 130))
    dense[np.ix_(rows, cols)] = weights
    assert sorted(zip(i.tolist(), j.tolist(), strict=True)) == sorted(kruskal(list(range(130)), dense + dense.T))


def test_best_earlier_partners_match_a_plain_sort():
    rng = np.random.default_rng(4)
    v, keep = 45, 3
    weights = np.round(rng.random((v, v)), 1)                   # ties
    weights = np.triu(weights, 1) + np.triu(weights, 1).T
    place = rng.permutation(v)
    partner, best = spanning.best_earlier(_blocks_of(weights, [10, 11, 30]), place, keep)
    for p in range(v):
        earlier = [q for q in range(v) if place[q] < place[p]]
        expected = sorted(earlier, key=lambda q: (-weights[p, q], place[q]))[:keep]
        assert partner[p][:len(expected)].tolist() == expected
        assert (partner[p][len(expected):] == -1).all()
        assert np.allclose(best[p][:len(expected)], [weights[p, q] for q in expected])


@pytest.mark.parametrize("algorithm, options", [("tan", {}), ("kdb", {"k": 2}), ("kdb", {"k": 1}),
                                                ("chow-liu", {}),
                                                ("kdb", {"k": 2, "forbidden": [f"X{i}->X{j}" for i in range(40)
                                                                               for j in range(40) if i != j
                                                                               and (i + j) % 3 == 0]}),
                                                ("kdb", {"k": 2, "forbidden": [f"X{i}->X{j}" for i in range(40)
                                                                               for j in range(40) if i != j
                                                                               and (i + j) % 7]}),
                                                ("tan", {"forbidden": ["X6->X7", "X7->X6"]})])
def test_small_blocks_learn_the_arcs_of_the_pairwise_loop(algorithm, options, monkeypatch):
    codes, names, states = wide_categorical(600, 5, 40, states=3, flat=3.0)
    codes[:, 7] = (codes[:, 6] + (np.random.default_rng(0).random(600) < 0.1)) % 3
    target = None if algorithm == "chow-liu" else "Class"
    against = pairwise.PairwiseCMI.against
    monkeypatch.setattr(pairwise, "GRAM_TEMPORARIES", 20_000)    # blocks of a few one-hot columns
    assert pairwise.PairwiseCMI(DataColumns(codes, [3] * 40 + [2]), range(40), (40,)).block_width < 30
    rows = []
    monkeypatch.setattr(pairwise.PairwiseCMI, "against", lambda self, *a: rows.append(a) or against(self, *a))
    blocked = learn_structure(algorithm, codes, names, states, target=target, **options).arcs
    if options.get("forbidden") and len(options["forbidden"]) > 1000:
        assert rows                    # constraints refused every kept candidate somewhere: whole rows ranked
    monkeypatch.setattr(pairwise, "VECTORISE_FROM", 10**9)      # the loop over pairs (bincount tables)
    assert learn_structure(algorithm, codes, names, states, target=target, **options).arcs == blocked
