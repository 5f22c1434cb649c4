"""wanbia: gradients, the equivalent network, the logistic-regression optimum, levels, structure checks."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.errors import ValidationError
from bnstudio.learn.params import make_learner
from bnstudio.learn.params.base import DataScorer
from bnstudio.learn.params.wanbia import LEVELS, WeightedCLL, equivalent_network_cpts
from bnstudio.sampling import forward_sample
from tests.learn.test_gradient import finite_difference, noisy_naive_bayes_data

TAN = "C->X0,X1,X2,X3,X4; X0->X1; X1->X2; X0->X3"


def tan_data(n=800, seed=2):
    states = {f"X{i}": ["a", "b", "c"] for i in range(5)}
    net = network_from_dsl(TAN, seed=seed, states=states)
    source = network_from_dsl("X0->X1; X1,X2->C; C->X3; X3->X4", seed=seed + 1, states=states)
    data = forward_sample(source, n, seed=seed)
    return net, data[:, [source.variables.index(v) for v in net.variables]]


@pytest.mark.parametrize("level", LEVELS)
def test_weight_gradients_match_finite_differences(level):
    net, data = tan_data(200)
    theta = make_learner("mp").fit(net, data).cpts
    objective = WeightedCLL(net, theta, data, np.ones(len(data)), "C", level, l2=0.3)
    w = np.random.default_rng(1).normal(1.0, 0.3, objective.n_weights)
    np.testing.assert_allclose(objective(w)[1], finite_difference(objective, w), atol=1e-7)


@pytest.mark.parametrize("level", LEVELS)
def test_equivalent_network_has_the_weighted_models_conditional_likelihood(level):
    net, data = tan_data(300)
    theta = make_learner("mp").fit(net, data).cpts
    objective = WeightedCLL(net, theta, data, np.ones(len(data)), "C", level, l2=0.0)
    w = np.random.default_rng(2).normal(1.0, 0.5, objective.n_weights)
    cpts = equivalent_network_cpts(net, "C", theta, objective.weight_tables(w, net))
    cnll = DataScorer(net, data, None, "C").scores([cpts[v] for v in net.variables])["cnll"]
    assert cnll == pytest.approx(objective(w)[0], rel=1e-10)


def test_parameter_level_reaches_the_clgd_optimum_in_fewer_iterations():
    net, data = noisy_naive_bayes_data()
    wanbia = make_learner("wanbia", level="parameter", max_iter=1000, tol=1e-14).fit(net, data, target="C")
    clgd = make_learner("clgd", max_iter=1000, tol=1e-14).fit(net, data, target="C")
    assert wanbia.history[-1]["cnll"] == pytest.approx(clgd.history[-1]["cnll"], rel=1e-5)
    assert wanbia.n_iterations < clgd.n_iterations


def test_l2_toward_one_pulls_back_to_the_generative_model():
    net, data = tan_data()
    mp = make_learner("mp").fit(net, data, target="C").history[-1]["cnll"]
    free = make_learner("wanbia", level="attribute").fit(net, data, target="C").history[-1]["cnll"]
    tied = make_learner("wanbia", level="attribute", l2=1e6).fit(net, data, target="C").history[-1]["cnll"]
    assert free < mp - 1e-4
    assert tied == pytest.approx(mp, abs=1e-5)


def test_structure_and_data_requirements_are_explained():
    general = network_from_dsl("C->A,B; A,B->D", seed=0)
    with pytest.raises(ValidationError, match="at most one other parent"):
        make_learner("wanbia").fit(general, forward_sample(general, 50, seed=1), target="C")
    rooted = network_from_dsl("A->C; C->B", seed=0)
    with pytest.raises(ValidationError, match="as a root"):
        make_learner("wanbia").fit(rooted, forward_sample(rooted, 50, seed=1), target="C")
    net, data = tan_data(50)
    data[3, 2] = -1
    with pytest.raises(ValidationError, match="complete attribute values"):
        make_learner("wanbia").fit(net, data, target="C")
