"""Chunked batches give the unchunked answers: with a memory budget that holds a few cases, EM's expected counts,
the gradients of lgd / clgd / wanbia, the bags of bagged-mp and the scores of evaluate equal those computed in one
batch (to 1e-12); a budget below one case is the only memory error, and it names the network and what to do."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.errors import MemoryBudgetExceeded, ValidationError
from bnstudio.evaluate import evaluate
from bnstudio.inference import InferenceEngine
from bnstudio.inference.batching import batch_size, fitting, parameter_batches
from bnstudio.learn.params import bagged_posterior, make_learner
from bnstudio.learn.params.base import ConditionalRows
from bnstudio.learn.params.gradient import SoftmaxObjective
from bnstudio.learn.params.terms import Terms
from bnstudio.learn.params.wanbia import WeightedCLL
from bnstudio.sampling import forward_sample, hide_at_random

DSL = "A->B,C; B->D; C->D; D->E; A->F; F->E"
STATES = {"A": ["a0", "a1", "a2"], "D": ["d0", "d1", "d2"]}


@pytest.fixture(scope="module")
def problem():
    net = network_from_dsl(DSL, seed=11, states=STATES, name="chunky")
    codes = hide_at_random(forward_sample(net, 400, seed=12), 0.35, seed=13)
    weights = np.random.default_rng(14).uniform(0.2, 2.0, len(codes))
    return net, codes, weights


def tiny_budget(net, cases: int = 3) -> int:
    """A memory budget holding about ``cases`` cases of one propagation (at least one)."""
    engine = InferenceEngine(net)
    return cases * (engine.memory_budget // engine.batch_capacity()) + 100


def test_the_tiny_budget_really_cuts_the_batches_into_many_chunks(problem):
    net, codes, _ = problem
    terms = Terms(net, tiny_budget(net))
    rows = terms.prepare(codes)
    size = batch_size(terms.engine, terms.case_bytes)
    assert 1 <= size <= 3 and len(rows.unique) > 50 * size
    assert batch_size(InferenceEngine(net), terms.case_bytes) > len(rows.unique)   # the default: one chunk


def test_em_expected_counts_and_log_likelihoods_are_the_same_in_chunks(problem):
    net, codes, weights = problem
    whole, chunked = Terms(net), Terms(net, tiny_budget(net))
    theta = [np.random.default_rng(1).dirichlet(np.ones(net.cardinality(v)), net.family_shape(v)[:-1])
             for v in net.variables]
    for terms in (whole, chunked):
        terms.set_cpts(theta)
    a, b = whole.stats(codes, weights), chunked.stats(codes, weights)
    np.testing.assert_allclose(b.logp, a.logp, rtol=0, atol=1e-12)
    for x, y in zip(a.counts, b.counts, strict=True):
        np.testing.assert_allclose(y, x, rtol=0, atol=1e-12)
    np.testing.assert_allclose(chunked.stats(codes, weights, want_counts=False).logp, a.logp, rtol=0, atol=1e-12)


def test_em_fits_the_same_network_with_a_tiny_budget(problem):
    net, codes, weights = problem
    a = make_learner("em", max_iter=4, tol=0).fit(net, codes, weights)
    b = make_learner("em", max_iter=4, tol=0, memory_budget=tiny_budget(net)).fit(net, codes, weights)
    assert [h["nll"] for h in b.history] == pytest.approx([h["nll"] for h in a.history], abs=1e-12)
    for v in net.variables:
        np.testing.assert_allclose(b.cpts[v], a.cpts[v], rtol=0, atol=1e-12)


@pytest.mark.parametrize("criterion, alpha", [("ll", 0.0), ("cll", 0.0), ("cll", 0.4), ("se", 0.0)])
def test_gradients_are_the_same_in_chunks_and_row_blocks(problem, criterion, alpha):
    net, codes, weights = problem
    target = None if criterion == "ll" else "D"
    beta = np.random.default_rng(3).normal(size=sum(int(np.prod(net.family_shape(v))) for v in net.variables))
    whole = SoftmaxObjective(net, codes, weights, target, criterion, alpha, l2=0.1)
    chunked = SoftmaxObjective(net, codes, weights, target, criterion, alpha, l2=0.1,
                               memory_budget=tiny_budget(net, cases=2))   # also cuts the conditional rows
    if target is not None:
        assert len(chunked.cond.blocks) > 1 and len(whole.cond.blocks) == 1
        assert chunked.cond.e.engine is not None          # rows through the engine, in chunks
    (la, ga), (lb, gb) = whole(beta), chunked(beta)
    assert lb == pytest.approx(la, abs=1e-12)
    np.testing.assert_allclose(gb, ga, rtol=0, atol=1e-12)


def test_conditional_rows_with_a_zero_in_theta_agree_across_blocks(problem):
    net, codes, weights = problem
    theta = [np.random.default_rng(4).dirichlet(np.ones(net.cardinality(v)), net.family_shape(v)[:-1])
             for v in net.variables]
    theta[net.variables.index("E")][..., 0] = 0.0                  # -inf scores: the absolute path
    theta[net.variables.index("E")] /= theta[net.variables.index("E")].sum(axis=-1, keepdims=True)
    out = []
    for budget in (None, tiny_budget(net)):
        terms = Terms(net) if budget is None else Terms(net, budget)
        terms.set_cpts(theta)
        logp, counts = ConditionalRows(terms, codes, weights, net.variables.index("D")).evaluate()
        out.append((logp, counts))
    np.testing.assert_allclose(out[1][0], out[0][0], rtol=0, atol=1e-12)
    for x, y in zip(out[0][1], out[1][1], strict=True):
        np.testing.assert_allclose(y, x, rtol=0, atol=1e-12)


def test_conditional_rows_built_per_call_give_the_kept_blocks_answers(problem):
    net, codes, weights = problem
    rng = np.random.default_rng(5)
    theta = [rng.dirichlet(np.ones(net.cardinality(v)), net.family_shape(v)[:-1]) for v in net.variables]
    terms = Terms(net, memory_budget=tiny_budget(net, cases=2))
    terms.set_cpts(theta)
    kept = ConditionalRows(terms, codes, weights, net.variables.index("D"))
    built = ConditionalRows(terms, codes, weights, net.variables.index("D"), keep_x=False)
    assert built.blocks is None and len(kept.blocks) > 1            # one block at a time, made at each call
    for row_factor in (None, rng.uniform(0.5, 2.0, int((codes[:, net.variables.index("D")] >= 0).sum()))):
        (la, ca), (lb, cb) = kept.evaluate(row_factor), built.evaluate(row_factor)
        np.testing.assert_array_equal(lb, la)
        for a, b in zip(ca, cb, strict=True):
            np.testing.assert_array_equal(b, a)


def test_clgd_fits_the_same_network_with_a_tiny_budget(problem):
    net, codes, weights = problem
    a = make_learner("clgd", max_iter=5).fit(net, codes, weights, target="D")
    b = make_learner("clgd", max_iter=5, memory_budget=tiny_budget(net)).fit(net, codes, weights, target="D")
    for v in net.variables:
        np.testing.assert_allclose(b.cpts[v], a.cpts[v], rtol=0, atol=1e-10)


@pytest.mark.parametrize("zero", [False, True])
def test_wanbia_loss_and_gradient_are_the_same_in_row_blocks(zero):
    net = network_from_dsl("C->X1,X2,X3; X1->X2", seed=5, states={"C": ["c0", "c1", "c2"]})
    codes = forward_sample(net, 300, seed=6)
    weights = np.random.default_rng(7).uniform(0.5, 1.5, len(codes))
    theta = {v: net.cpt(v) for v in net.variables}
    if zero:
        theta["X3"] = theta["X3"].copy()
        theta["X3"][1, 0] = 0.0
        theta["X3"][1] /= theta["X3"][1].sum()
    w = np.random.default_rng(8).uniform(0.5, 1.5, 200)
    whole = WeightedCLL(net, theta, codes, weights, "C", "parameter", 0.2)
    blocked = WeightedCLL(net, theta, codes, weights, "C", "parameter", 0.2, memory_budget=2000)
    assert len(blocked.blocks) == -(-len(codes) // fitting(8 * (4 * 3 + 4), 2000)) > 5 and len(whole.blocks) == 1
    w = w[:whole.n_weights]
    (la, ga), (lb, gb) = whole(w), blocked(w)
    assert lb == pytest.approx(la, abs=1e-12)
    np.testing.assert_allclose(gb, ga, rtol=0, atol=1e-12)


def test_bags_are_the_same_whatever_the_budget(problem):
    net, codes, weights = problem
    a = make_learner("bagged-mp", bags=9, seed=3).fit(net, codes, weights)
    budget = 32 * len(codes) * 2 + 10                                # two bags per chunk: five chunks
    b = make_learner("bagged-mp", bags=9, seed=3, memory_budget=budget).fit(net, codes, weights)
    for v in net.variables:
        np.testing.assert_array_equal(b.ensemble[v], a.ensemble[v])


def test_a_bagged_query_in_chunks_of_bags_equals_one_batch(problem):
    net, codes, _ = problem
    ensemble = make_learner("bagged-mp", bags=12, seed=5).fit(net, codes).ensemble
    small = InferenceEngine(net, memory_budget=tiny_budget(net, 2))
    assert len(list(parameter_batches(small, ensemble))) >= 6
    a = bagged_posterior(net, ensemble, "A", {"E": "s1"})
    b = bagged_posterior(net, ensemble, "A", {"E": "s1"}, engine=small)
    np.testing.assert_allclose(b["bags"], a["bags"], rtol=0, atol=1e-12)


def test_evaluate_in_chunks_gives_the_same_scores(problem):
    net, codes, weights = problem
    a = evaluate(net, codes, "D", weights)
    b = evaluate(net, codes, "D", weights, memory_budget=tiny_budget(net))
    for key in ("ll", "cll", "error_rate", "ae", "se", "brier"):
        assert getattr(b, key) == pytest.approx(getattr(a, key), abs=1e-12)
    assert a.confusion == b.confusion


@pytest.mark.parametrize("method, target", [("em", None), ("lgd", None), ("clgd", "D")])
def test_a_budget_below_one_case_names_the_network_and_what_to_do(problem, method, target):
    net, codes, _ = problem
    learner = make_learner(method, max_iter=2, memory_budget=100)
    with pytest.raises(MemoryBudgetExceeded) as info:
        learner.fit(net, codes, target=target)
    message = str(info.value)
    assert "'chunky' (6 variables)" in message and "single case" in message and "memory_budget" in message
    assert "\n" not in message and "single queries" not in message


@pytest.mark.parametrize("value", [0, -1, 2.5, float("nan"), float("inf"), 2 ** 60, "1e9", True])
@pytest.mark.parametrize("method", ["em", "lgd", "clgd", "wanbia", "bagged-mp"])
def test_a_bad_memory_budget_is_a_one_line_error(method, value):
    with pytest.raises(ValidationError, match=r"^memory_budget must be an integer in \[1, \d+\], got"):
        make_learner(method, memory_budget=value)
