"""Held-out scores against independent computations: scikit-learn (AUC, Brier, log loss), brute-force
enumeration of the joint, the per-bag networks of a bagged ensemble, and scipy's paired tests."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy.stats import binomtest, wilcoxon

from bnstudio.core import network_from_dsl
from bnstudio.evaluate import evaluate, target_posteriors
from bnstudio.experiment.queries import query_answers, query_cases
from bnstudio.experiment.scores import classification_scores
from bnstudio.experiment.summary import cells, paired_comparison
from bnstudio.learn.params import make_learner
from bnstudio.sampling import forward_sample


@pytest.fixture(scope="module")
def model():
    net = network_from_dsl("C->A; C->B; A->B; C->D", seed=7)
    codes = forward_sample(net, 120, seed=3)
    return net, codes


def _joint(net):
    """Brute force: p(x) for every full assignment, by the chain rule."""
    names = net.variables
    shapes = [net.cardinality(v) for v in names]
    table = np.zeros(shapes)
    for x in itertools.product(*(range(k) for k in shapes)):
        p = 1.0
        for v in names:
            index = tuple(x[names.index(u)] for u in net.parents(v)) + (x[names.index(v)],)
            p *= net.cpt(v)[index]
        table[x] = p
    return table


def test_scores_equal_brute_force_and_scikit_learn(model):
    sk = pytest.importorskip("sklearn.metrics")
    net, codes = model
    joint = _joint(net)
    t = net.variables.index("C")
    post = np.array([joint[tuple(r[:t]) + (slice(None),) + tuple(r[t + 1:])] for r in codes])
    post /= post.sum(axis=1, keepdims=True)
    y = codes[:, t]
    got = classification_scores(net, codes, "C")
    assert got["error"] == pytest.approx(float((post.argmax(1) != y).mean()))
    assert got["cll"] == pytest.approx(float(np.log(post[np.arange(len(y)), y]).mean()))
    assert got["ll"] == pytest.approx(float(np.mean([math.log(joint[tuple(r)]) for r in codes])))
    assert got["cll"] == pytest.approx(-sk.log_loss(y, post, labels=[0, 1]))
    assert got["brier"] == pytest.approx(2 * sk.brier_score_loss(y, post[:, 1]))   # both classes' squares
    assert got["auc"] == pytest.approx(sk.roc_auc_score(y, post[:, 1]))
    reference = evaluate(net, codes, "C")
    assert got["error"] == pytest.approx(reference.error_rate) and got["ae"] == pytest.approx(reference.ae)
    assert got["se"] == pytest.approx(reference.se) and got["brier"] == pytest.approx(reference.brier)


def test_auc_and_ece_of_three_classes_are_scikit_learns_and_evaluates():
    sk = pytest.importorskip("sklearn.metrics")
    net = network_from_dsl("C->A; C->B; A->B", states={"C": ("c0", "c1", "c2")}, seed=11)
    codes = forward_sample(net, 150, seed=4)
    got = classification_scores(net, codes, "C")
    reference = evaluate(net, codes, "C")
    t = net.variables.index("C")
    post = target_posteriors(net, codes, "C")
    assert len(np.unique(codes[:, t])) == 3
    assert got["auc"] == pytest.approx(sk.roc_auc_score(codes[:, t], post, multi_class="ovr", average="macro"))
    assert got["auc"] == pytest.approx(reference.auc) and got["ece"] == pytest.approx(reference.ece)
    assert sum(got["calibration"]["weight"]) == len(post)


def test_a_bagged_ensemble_scores_with_the_mean_of_its_bags_answers(model):
    net, codes = model
    train, test = codes[:90], codes[90:]
    fit = make_learner("bagged-mp", bags=5, seed=2).fit(net, train, target="C")
    fitted = fit.network(net)
    bags = [net.copy() for _ in range(5)]
    for i, bag in enumerate(bags):
        bag.set_parameters({v: t[i] for v, t in fit.ensemble.items()})
    joints = [_joint(b) for b in bags]
    t = net.variables.index("C")
    post = np.mean([[j[tuple(r[:t]) + (slice(None),) + tuple(r[t + 1:])] / j[tuple(r[:t]) + (slice(None),) +
                     tuple(r[t + 1:])].sum() for r in test] for j in joints], axis=0)
    got = classification_scores(fitted, test, "C", fit.ensemble)
    y = test[:, t]
    assert got["cll"] == pytest.approx(float(np.log(post[np.arange(len(y)), y]).mean()))
    assert got["error"] == pytest.approx(float((post.argmax(1) != y).mean()))
    ll = np.mean([math.log(np.mean([j[tuple(r)] for j in joints])) for r in test])
    assert got["ll"] == pytest.approx(ll)
    mean_cpts = classification_scores(fitted, test, "C")      # not the same estimator (Singh §4.5.1)
    assert mean_cpts["cll"] != pytest.approx(got["cll"], abs=1e-9)


def test_bagged_query_answers_average_the_bags_answers(model):
    net, codes = model
    fit = make_learner("bagged-mp", bags=4, seed=5).fit(net, codes)
    queries = [{"query": {"C": net.states("C")[1]}, "evidence": {"A": net.states("A")[0], "D": net.states("D")[1]}},
               {"query": {"B": net.states("B")[0]}, "evidence": {"C": net.states("C")[0]}}]
    got = query_answers(fit.network(net), query_cases(net, queries), fit.ensemble)
    expected = []
    for q in queries:
        per_bag = []
        for i in range(4):
            bag = net.copy()
            bag.set_parameters({v: t[i] for v, t in fit.ensemble.items()})
            joint = _joint(bag)
            index_e = [slice(None)] * len(net.variables)
            for var, state in q["evidence"].items():
                index_e[net.variables.index(var)] = net.states(var).index(state)
            index_qe = list(index_e)
            (var, state), = q["query"].items()
            index_qe[net.variables.index(var)] = net.states(var).index(state)
            per_bag.append(joint[tuple(index_qe)].sum() / joint[tuple(index_e)].sum())
        expected.append(np.mean(per_bag))
    np.testing.assert_allclose(got, expected, rtol=1e-10)


def test_an_impossible_query_evidence_is_an_error_not_a_zero():
    from bnstudio.errors import ValidationError

    net = network_from_dsl("A->B", seed=1)
    cpt = net.cpt("B").copy()
    cpt[0] = [1.0, 0.0]
    net.set_parameters({"B": cpt})
    queries = [{"query": {"A": net.states("A")[0]}, "evidence": {"B": net.states("B")[1]}}]
    assert query_answers(net, query_cases(net, queries))[0] == pytest.approx(0.0)    # p(e) > 0, p(q, e) = 0
    net.set_parameters({"A": np.array([1.0, 0.0])})
    with pytest.raises(ValidationError, match="query 1: its evidence has probability 0"):
        query_answers(net, query_cases(net, queries))


def test_paired_tests_equal_scipy_on_the_same_differences():
    rng = np.random.default_rng(4)
    base = rng.random(12)
    method = base + rng.normal(-0.02, 0.05, 12)
    method[3] = base[3]                                     # a draw
    got = paired_comparison(method, base, "error")
    gain = base - method
    nonzero = gain[gain != 0]
    assert (got.wins, got.draws, got.losses) == (int((gain > 0).sum()), 1, int((gain < 0).sum()))
    assert got.wilcoxon_p == pytest.approx(wilcoxon(nonzero).pvalue)
    assert got.sign_p == pytest.approx(binomtest(got.wins, got.wins + got.losses).pvalue)
    flipped = paired_comparison(-method, -base, "cll")       # higher is better: the same wins
    assert (flipped.wins, flipped.losses) == (got.wins, got.losses)


def test_an_infinite_score_keeps_its_rank_and_sign():
    base = np.array([-0.5, -0.4, -0.3, -0.6, -0.2])
    method = np.array([-0.4, -np.inf, -0.25, -0.5, -0.1])
    got = paired_comparison(method, base, "cll")
    assert (got.wins, got.losses) == (4, 1)
    gain = method - base
    gain[1] = -1.0e9                                          # the same ranks of |gain|
    assert got.wilcoxon_p == pytest.approx(wilcoxon(gain).pvalue)


def test_cells_are_mean_and_sample_sd_and_count_nan():
    rows = [{"status": "done", "dataset": "d", "structure": "nb", "method": "mp", "metrics": {"error": e}}
            for e in (0.1, 0.2, 0.4, math.nan)]
    rows.append({"status": "failed", "dataset": "d", "structure": "nb", "method": "mp", "metrics": None})
    cell = cells(rows, "error")["d", "nb", "mp"]
    assert cell.mean == pytest.approx(0.7 / 3) and cell.sd == pytest.approx(np.std([0.1, 0.2, 0.4], ddof=1))
    assert (cell.n, cell.dropped) == (3, 1)
