"""bagged-mp: reproducible bags, t = 1 without resampling equals mp, bag-averaged queries, m-bagging."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.inference import InferenceEngine
from bnstudio.learn.params import bagged_posterior, make_learner
from bnstudio.learn.params.bagging import BaggedMeanPosterior
from bnstudio.sampling import forward_sample


@pytest.fixture
def setup():
    net = network_from_dsl("A->B; A,B->C", seed=3, states={"B": ["x", "y", "z"]})
    return net, forward_sample(net, 120, seed=4)


def test_same_seed_same_bags_and_different_seed_different_bags(setup):
    net, data = setup
    a = make_learner("bagged-mp", bags=20, seed=7).fit(net, data)
    b = make_learner("bagged-mp", bags=20, seed=7).fit(net, data)
    c = make_learner("bagged-mp", bags=20, seed=8).fit(net, data)
    for v in net.variables:
        np.testing.assert_array_equal(a.ensemble[v], b.ensemble[v])
        assert a.ensemble[v].shape == (20,) + net.family_shape(v)
    assert any(not np.allclose(a.ensemble[v], c.ensemble[v]) for v in net.variables)


def test_one_bag_without_resampling_equals_mp(setup):
    net, data = setup
    bagged = make_learner("bagged-mp", bags=1, resample=False).fit(net, data)
    mp = make_learner("mp").fit(net, data)
    for v in net.variables:
        np.testing.assert_allclose(bagged.cpts[v], mp.cpts[v], atol=1e-14)


def test_each_bag_is_mp_on_its_bootstrap_sample(setup):
    net, data = setup
    learner = BaggedMeanPosterior(bags=4, seed=1)
    fit = learner.fit(net, data)
    multiplicity = learner.bag_weights(np.ones(len(data)))
    assert np.all(multiplicity.sum(axis=1) == len(data))
    for t in range(4):
        single = make_learner("mp").fit(net, data, weights=multiplicity[t])
        for v in net.variables:
            np.testing.assert_allclose(fit.ensemble[v][t], single.cpts[v], atol=1e-12)


def test_m_bagging_draws_sqrt_n_rows():
    learner = BaggedMeanPosterior(bags=5, m_bagging=True, seed=0)
    assert np.all(learner.bag_weights(np.ones(400)).sum(axis=1) == 20)


def test_bagged_query_averages_the_bags_responses(setup):
    net, data = setup
    fit = make_learner("bagged-mp", bags=6, seed=2).fit(net, data)
    answer = bagged_posterior(net, fit.ensemble, "A", {"C": "s1"}, level=0.9)
    per_bag = []
    for t in range(6):
        other = net.copy()
        other.set_parameters({v: fit.ensemble[v][t] for v in net.variables})
        per_bag.append(InferenceEngine(other).posterior("A", {"C": "s1"})["A"])
    np.testing.assert_allclose(answer["bags"], per_bag, atol=1e-12)
    np.testing.assert_allclose(answer["mean"], np.mean(per_bag, axis=0), atol=1e-12)
    assert np.all(answer["low"] <= answer["mean"]) and np.all(answer["mean"] <= answer["high"])
