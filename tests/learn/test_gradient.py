"""lgd / clgd: gradients against finite differences; mofn-3-7-10; logistic-regression optimum; stopping."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bnstudio.core import network_from_dsl
from bnstudio.errors import Cancelled
from bnstudio.inference import InferenceEngine
from bnstudio.jobs import RecordingReporter
from bnstudio.learn.params import make_learner
from bnstudio.learn.params.gradient import SoftmaxObjective
from bnstudio.sampling import forward_sample, hide_at_random
from tests.learn.conftest import naive_bayes


def finite_difference(fn, x, eps=1e-6):
    out = np.zeros_like(x)
    for i in range(len(x)):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        out[i] = (fn(up)[0] - fn(down)[0]) / (2 * eps)
    return out


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), criterion=st.sampled_from(["ll", "cll", "ae", "se"]),
       alpha=st.sampled_from([0.0, 0.3, 1.0]), l2=st.sampled_from([0.0, 0.5]), name=st.sampled_from(["B", "C"]))
def test_gradients_match_finite_differences_with_missing_evidence(seed, criterion, alpha, l2, name):
    rng = np.random.default_rng(seed)
    net = network_from_dsl("A->B; A,B->C; C->D; B->E", seed=seed, states={"B": ["x", "y", "z"]})
    data = hide_at_random(forward_sample(net, 40, seed=seed), 0.35, seed=seed + 1)
    weights = rng.random(40) + 0.2
    target = None if criterion == "ll" else name      # B: three states, a parent and a middle family axis
    objective = SoftmaxObjective(net, data, weights, target, criterion, alpha if criterion == "cll" else 0.0, l2)
    beta = rng.normal(size=sum(objective.sizes))
    loss, grad = objective(beta)
    assert np.isfinite(loss)
    np.testing.assert_allclose(grad, finite_difference(objective, beta), atol=2e-7)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), target=st.sampled_from(["A", "B", "C", "E"]), zeros=st.booleans())
def test_conditional_log_probabilities_match_the_engine(seed, target, zeros):
    """log p(q_n | e_n) of every observed-target row (closed-form rows and inference rows) equals the engine's
    posterior, for a target at any position in its families, with three states, and with zeros in θ."""
    from bnstudio.learn.params.base import DataScorer
    net = network_from_dsl("A->B; A,B->C; C->D; B->E", seed=seed, states={"B": ["x", "y", "z"]})
    data = hide_at_random(forward_sample(net, 80, seed=seed), 0.3, seed=seed + 1)
    if zeros and target != "E":  # C = 0 impossible given A = 0, B ∈ {x, y}: such (q, e) get -inf, p(e) > 0
        table = net.cpt("C").copy()
        table[0, :2] = [0.0, 1.0]
        net.set_parameters({"C": table})
    column = net.variables.index(target)
    observed = data[:, column] >= 0
    scorer = DataScorer(net, data, None, target)
    got = scorer.conditional.logp()
    evidence = data[observed].copy()
    evidence[:, column] = -1
    post = InferenceEngine(net).posterior_batch(target, evidence)[target]
    with np.errstate(divide="ignore"):
        want = np.log(post[np.arange(len(evidence)), data[observed, column]])
    assert scorer.conditional.fast.any() and not scorer.conditional.fast.all()
    np.testing.assert_allclose(got, want, atol=1e-10)


def test_mofn_naive_bayes_clgd_beats_counting(mofn):
    """Zhou Table 4-2: NB+ML leaves errors on mofn-3-7-10, NB+CLGD finds the concept."""
    net, train, xt, yt = mofn
    test = np.column_stack([np.full(len(yt), -1), xt])
    errors = {}
    for method in ["ml", "mp", "clgd"]:
        fitted = make_learner(method).fit(net, train, target="C").network(net)
        predicted = InferenceEngine(fitted).posterior_batch("C", test)["C"].argmax(axis=1)
        errors[method] = (predicted != yt).mean()
    assert errors["clgd"] <= 0.01
    assert errors["ml"] > 0.03 and errors["mp"] > 0.03


def noisy_naive_bayes_data(n=600, seed=3):
    net, attrs = naive_bayes(6, states=3, seed=seed)
    data = forward_sample(net, n, seed=seed)
    rng = np.random.default_rng(seed)
    flip = rng.random(n) < 0.15
    data[flip, 0] = 1 - data[flip, 0]
    return net, data


def test_naive_bayes_clgd_reaches_the_logistic_regression_optimum():
    """NB + CLGD = multinomial logistic regression on one-hot features (Zaidi et al. eq 8)."""
    sklearn = pytest.importorskip("sklearn.linear_model")
    preprocessing = pytest.importorskip("sklearn.preprocessing")
    net, data = noisy_naive_bayes_data()
    fit = make_learner("clgd", l2=0.0, max_iter=1000, tol=1e-14).fit(net, data, target="C")   # unpenalised
    ours = fit.history[-1]["cnll"]
    onehot = preprocessing.OneHotEncoder().fit_transform(data[:, 1:])
    lr = sklearn.LogisticRegression(C=1e12, tol=1e-12, max_iter=100_000).fit(onehot, data[:, 0])
    theirs = -np.log(lr.predict_proba(onehot)[np.arange(len(data)), data[:, 0]]).mean()
    assert ours == pytest.approx(theirs, rel=1e-4)
    start = make_learner("mp").fit(net, data, target="C").history[-1]["cnll"]
    assert ours < start - 1e-3   # and it actually moved away from the generative start


def test_lgd_on_complete_data_converges_to_maximum_likelihood():
    net = network_from_dsl("A->B; A,B->C", seed=4)
    data = forward_sample(net, 2000, seed=1)
    lgd = make_learner("lgd", max_iter=500, tol=1e-14).fit(net, data)
    ml = make_learner("ml").fit(net, data)
    for v in net.variables:
        np.testing.assert_allclose(lgd.cpts[v], ml.cpts[v], atol=1e-4)


def test_history_has_the_documented_fields_and_a_validation_split():
    net, data = noisy_naive_bayes_data()
    fit = make_learner("clgd", max_iter=15).fit(net, data[:400], target="C", validation=data[400:])
    assert fit.n_iterations >= 2
    for entry in fit.history:
        assert {"iteration", "nll", "cnll", "val_nll", "val_cnll", "seconds"} <= set(entry)
    assert fit.history[-1]["cnll"] < fit.history[0]["cnll"]
    assert fit.to_json()["stop_reason"] == fit.stop_reason


def test_early_stopping_keeps_the_best_validation_parameters():
    net, data = noisy_naive_bayes_data(n=300, seed=8)
    fit = make_learner("clgd", patience=2, max_iter=300).fit(net, data[:60], target="C", validation=data[60:])
    assert fit.stop_reason == "early_stopping"   # 60 training rows over-fit quickly
    val = [h["val_cnll"] for h in fit.history]
    assert val[-1] > min(val) and len(val) < 300
    from bnstudio.learn.params.base import DataScorer
    got = DataScorer(net, data[60:], None, "C").scores([fit.cpts[v] for v in net.variables])["cnll"]
    assert got == pytest.approx(min(val), rel=1e-9)


def test_a_reporter_can_cancel_and_nothing_changes():
    net, data = noisy_naive_bayes_data()
    reporter = RecordingReporter(stop_after=3)
    before = net.parameter_version
    with pytest.raises(Cancelled, match="cancelled at iteration 3"):
        make_learner("clgd").fit(net, data, target="C", reporter=reporter)
    assert len(reporter.infos) == 3 and reporter.ended
    assert [i.iteration for i in reporter.infos] == [1, 2, 3]
    assert {"nll", "cnll"} <= set(reporter.infos[0].objectives)
    assert net.parameter_version == before


def test_mixed_objective_slides_from_discriminative_to_generative():
    net, data = noisy_naive_bayes_data()
    net.add_arc("X0", "X1")   # a structure NB does not match, so the two ends differ
    ends = {a: make_learner("clgd", alpha=a, max_iter=400).fit(net, data, target="C").history[-1]
            for a in (0.0, 1.0)}
    assert ends[0.0]["cnll"] < ends[1.0]["cnll"]
    assert ends[1.0]["nll"] < ends[0.0]["nll"]
