"""Scores: equal to direct computations from counts, decomposable, BDeu/BIC score-equivalent, missing cells."""
from __future__ import annotations

import math

import numpy as np
import pytest

from bnstudio.errors import ValidationError
from bnstudio.learn.params.suffstats import family_counts
from bnstudio.learn.structure import ScoreCache, bdeu, bic, family_score, k2, log_likelihood
from bnstudio.learn.structure.scores import DataColumns

from .conftest import sample


def direct(counts: np.ndarray, score: str, ess: float = 1.0) -> float:
    """Textbook formulas with explicit loops over parent configurations j and states k."""
    rows = counts.reshape(-1, counts.shape[-1])
    q, r = rows.shape
    n = rows.sum()
    total = 0.0
    for j in range(q):
        nj = rows[j].sum()
        if score in ("ll", "bic"):
            total += sum(c * math.log(c / nj) for c in rows[j] if c > 0)
        elif score == "bdeu":
            total += math.lgamma(ess / q) - math.lgamma(ess / q + nj)
            total += sum(math.lgamma(ess / (q * r) + c) - math.lgamma(ess / (q * r)) for c in rows[j])
        elif score == "k2":
            total += math.lgamma(r) - math.lgamma(r + nj) + sum(math.lgamma(1 + c) for c in rows[j])
    if score == "bic":
        total -= 0.5 * math.log(n) * q * (r - 1)
    return total


@pytest.mark.parametrize("score", ["ll", "bic", "bdeu", "k2"])
def test_family_score_equals_direct_formula(score):
    rng = np.random.default_rng(3)
    counts = rng.integers(0, 9, (3, 2, 4)).astype(float)
    counts[1, 0] = 0  # an unseen parent configuration
    assert family_score(counts, score, ess=2.5) == pytest.approx(direct(counts, score, 2.5), rel=1e-12)


def test_named_functions_match_family_score():
    counts = np.array([[3.0, 1.0], [0.0, 4.0]])
    assert log_likelihood(counts) == family_score(counts, "ll")
    assert bic(counts) == family_score(counts, "bic")
    assert bdeu(counts, 3.0) == family_score(counts, "bdeu", 3.0)
    assert k2(counts) == family_score(counts, "k2")


@pytest.mark.parametrize("score", ["ll", "bic", "bdeu", "k2"])
def test_total_is_the_sum_of_family_scores_from_counts(score):
    codes, names, states, net = sample("A->B; A,B->C; C->D", 800, seed=2)
    cache = ScoreCache(codes, [len(s) for s in states], score, ess=4.0)
    index = {v: i for i, v in enumerate(names)}
    parents = [frozenset(index[p] for p in net.parents(v)) for v in names]
    expected = sum(direct(c, score, 4.0) for c in family_counts(net, codes).values())
    assert cache.total(parents) == pytest.approx(expected, rel=1e-12)


def test_loglikelihood_score_is_the_data_loglikelihood_under_ml_parameters():
    codes, names, states, net = sample("A->B; A,B->C", 500, seed=4)
    counts = family_counts(net, codes)
    ml = {v: c / c.sum(axis=-1, keepdims=True) for v, c in counts.items()}
    col = {v: i for i, v in enumerate(names)}
    loglik = sum(np.log(ml[v][tuple(codes[:, col[p]] for p in net.parents(v)) + (codes[:, col[v]],)]).sum()
                 for v in names)
    cache = ScoreCache(codes, [2, 2, 2], "ll")
    assert cache.total([frozenset(), frozenset({0}), frozenset({0, 1})]) == pytest.approx(loglik, rel=1e-12)


@pytest.mark.parametrize("score", ["bdeu", "bic", "ll"])
def test_score_equivalent_scores_agree_on_markov_equivalent_dags(score):
    codes, _, _, _ = sample("A->B; B->C", 700, seed=5, states={"B": ["x", "y", "z"]})
    cache = ScoreCache(codes, [2, 3, 2], score, ess=3.0)
    A, B, C = 0, 1, 2
    e = frozenset()
    two = {"A->B": [e, {A}, e], "B->A": [{B}, e, e]}
    assert cache.total(two["A->B"]) == pytest.approx(cache.total(two["B->A"]), rel=1e-12)
    chain = cache.total([e, {A}, {B}])             # A -> B -> C
    reverse = cache.total([{B}, {C}, e])           # C -> B -> A
    fork = cache.total([{B}, e, {B}])              # A <- B -> C
    collider = cache.total([e, {A, C}, e])         # A -> B <- C: another class
    assert chain == pytest.approx(reverse, rel=1e-12) and chain == pytest.approx(fork, rel=1e-12)
    assert abs(chain - collider) > 1e-6


def test_k2_is_not_score_equivalent():
    codes, _, _, _ = sample("A->B", 300, seed=6, states={"B": ["x", "y", "z"]})
    cache = ScoreCache(codes, [2, 3], "k2")
    assert abs(cache.total([frozenset(), {0}]) - cache.total([{1}, frozenset()])) > 1e-6


def counts_of(rows: np.ndarray, cols: list[int], cards: list[int]) -> np.ndarray:
    table = np.zeros(cards)
    np.add.at(table, tuple(rows[:, c] for c in cols), 1)
    return table


def test_missing_cells_a_family_uses_its_observed_rows_rescaled_to_the_data_size():
    codes, _, states, _ = sample("A->B; B->C", 400, seed=8)
    rng = np.random.default_rng(0)
    holed = np.where(rng.random(codes.shape) < 0.2, -1, codes)
    cache = ScoreCache(holed, [2, 2, 2], "bic")
    rows = holed[(holed[:, 0] >= 0) & (holed[:, 1] >= 0)]
    counts = counts_of(rows, [0, 1], [2, 2])
    expected = 400 / len(rows) * direct(counts, "ll") - 0.5 * math.log(400) * 2  # node-average ll, BIC in log N
    assert cache.family(1, {0}) == pytest.approx(expected, rel=1e-12)
    bdeu_cache = ScoreCache(holed, [2, 2, 2], "bdeu")
    assert bdeu_cache.family(1, {0}) == pytest.approx(400 / len(rows) * direct(counts, "bdeu"), rel=1e-12)


def test_with_missing_cells_a_move_is_judged_on_the_rows_observing_both_families():
    codes, _, _, _ = sample("A->B; B->C", 400, seed=8)
    holed = np.where(np.random.default_rng(1).random(codes.shape) < 0.2, -1, codes)
    cache = ScoreCache(holed, [2, 2, 2], "bic")
    rows = holed[(holed >= 0).all(axis=1)]  # C, its old parent B and its new parent A
    scale = 400 / len(rows)
    expected = scale * (direct(counts_of(rows, [0, 1, 2], [2, 2, 2]), "ll")
                        - direct(counts_of(rows, [1, 2], [2, 2]), "ll")) - 0.5 * math.log(400) * 2
    assert cache.move_delta(2, {1}, {0, 1}) == pytest.approx(expected, rel=1e-12)
    complete = ScoreCache(codes, [2, 2, 2], "bic")
    assert complete.move_delta(2, {1}, {0, 1}) == complete.family(2, {0, 1}) - complete.family(2, {1})


def test_hill_climb_with_missing_cells_stays_close_to_the_complete_data_result():
    from bnstudio.learn.structure import learn_structure
    codes, names, states, _ = sample("A->B; A->C; B,C->D; D->E; E->F; A->G; G->H", 3000, seed=10)
    holed = np.where(np.random.default_rng(2).random(codes.shape) < 0.25, -1, codes)
    full = learn_structure("hill-climb", codes, names, states)
    part = learn_structure("hill-climb", holed, names, states)
    assert len(part.arcs) <= len(full.arcs) + 2


def test_huge_parent_tables_are_counted_sparsely_with_the_same_score():
    rng = np.random.default_rng(1)
    codes = np.column_stack([rng.integers(0, 60, 300) for _ in range(3)] + [rng.integers(0, 2, 300)])
    data = DataColumns(codes, [60, 60, 60, 2])
    rows, q = data.family_rows(3, (0, 1, 2))
    assert q == 60 ** 3 and rows.shape[0] < q  # only the observed parent configurations
    dense = np.zeros((60, 60, 60, 2))
    np.add.at(dense, tuple(codes.T), 1)
    for score in ("ll", "bic", "bdeu", "k2"):
        assert ScoreCache(data, data.cards, score).family(3, (0, 1, 2)) == pytest.approx(
            family_score(dense, score), rel=1e-10)


def test_cache_counts_each_family_once():
    codes, _, _, _ = sample("A->B", 200, seed=9)
    cache = ScoreCache(codes, [2, 2], "bdeu")
    cache.family(1, [0]), cache.family(1, (0,)), cache.family(0, [])
    assert cache.evaluations == 2


def test_unknown_score_and_bad_ess_are_refused():
    with pytest.raises(ValidationError, match="unknown score"):
        ScoreCache(np.zeros((3, 1), dtype=int), [2], "aic")
    with pytest.raises(ValidationError, match="equivalent sample size"):
        ScoreCache(np.zeros((3, 1), dtype=int), [2], "bdeu", ess=0)
