"""All pairs' N · I(X_i; X_j | C) from Gram matrices (bnstudio.learn.structure.pairwise) against the pairwise loop."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.experiment.generators import wide_categorical
from bnstudio.learn.structure import pairwise
from bnstudio.learn.structure.api import learn_structure
from bnstudio.learn.structure.scores import DataColumns
from bnstudio.learn.structure.trees import edge_weight


@pytest.mark.parametrize("cond", [(), (40,)])
def test_the_gram_matrices_give_every_pairs_weight(cond):
    codes, _, states = wide_categorical(600, 3, 40, states=3, classes=3, flat=2.0)
    codes[:, 5] = (codes[:, 4] + codes[:, 40]) % 3            # a dependent pair
    data = DataColumns(codes, [len(s) for s in states])
    nodes = list(range(40))
    fast = pairwise.ll_weight_matrix(data, nodes, cond)
    slow = np.zeros_like(fast)
    for a, i in enumerate(nodes):
        for j in nodes[a + 1:]:
            slow[i, j] = slow[j, i] = edge_weight(data, i, j, cond)
    np.testing.assert_allclose(fast, slow, rtol=1e-9, atol=1e-9)


def test_missing_cells_small_data_and_a_too_small_budget_fall_back_to_the_loop():
    codes, _, states = wide_categorical(100, 3, 40, states=8)
    cards = [len(s) for s in states]
    assert pairwise.ll_weight_matrix(DataColumns(codes, cards), range(10), (40,)) is None        # few nodes
    # one attribute's 7 one-hot columns need 6 · 8 · 7² · 2 bytes for its own block
    assert pairwise.ll_weight_matrix(DataColumns(codes, cards), range(40), (40,), memory_budget=4000) is None
    assert pairwise.ll_weight_matrix(DataColumns(codes, cards), range(40), (40,), memory_budget=5000) is not None
    codes[0, 3] = -1
    assert pairwise.ll_weight_matrix(DataColumns(codes, cards), range(40), (40,)) is None


@pytest.mark.parametrize("algorithm, options", [("tan", {}), ("kdb", {"k": 2})])
def test_tan_and_kdb_learn_the_same_arcs_either_way(algorithm, options, monkeypatch):
    codes, names, states = wide_categorical(800, 5, 50, states=2, flat=3.0)
    codes[:, 7] = codes[:, 6] ^ (np.random.default_rng(0).random(800) < 0.1)
    fast = learn_structure(algorithm, codes, names, states, target="Class", **options).arcs
    monkeypatch.setattr(pairwise, "VECTORISE_FROM", 10**9)
    assert learn_structure(algorithm, codes, names, states, target="Class", **options).arcs == fast
    assert ("X6", "X7") in fast or ("X7", "X6") in fast
