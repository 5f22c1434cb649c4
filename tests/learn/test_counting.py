"""ml and mp: exact counts, missing cells, priors, posterior counts kept for error bars."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.errors import ValidationError
from bnstudio.learn.params import make_learner, prior_counts
from bnstudio.sampling import forward_sample, hide_at_random


@pytest.fixture
def chain():
    return network_from_dsl("A->B; A,B->C", seed=2, states={"B": ["x", "y", "z"]})


def test_ml_equals_relative_frequencies_counted_by_hand(chain):
    data = forward_sample(chain, 500, seed=1)
    fit = make_learner("ml").fit(chain, data)
    a, b, c = data.T
    for pa in range(2):
        for pb in range(3):
            rows = (a == pa) & (b == pb)
            expected = np.bincount(c[rows], minlength=2) / rows.sum()
            np.testing.assert_allclose(fit.cpts["C"][pa, pb], expected, atol=1e-12)
    assert fit.alpha is None and fit.stop_reason == "closed_form"


def test_ml_with_missing_cells_counts_only_fully_observed_families(chain):
    data = hide_at_random(forward_sample(chain, 400, seed=3), 0.3, seed=4)
    fit = make_learner("ml").fit(chain, data)
    a, b = data[:, 0], data[:, 1]
    rows = (a >= 0) & (b >= 0)
    expected = np.array([np.bincount(b[rows & (a == k)], minlength=3) for k in range(2)], float)
    np.testing.assert_allclose(fit.cpts["B"], expected / expected.sum(axis=1, keepdims=True), atol=1e-12)


def test_mp_laplace_and_bdeu_posterior_counts(chain):
    data = forward_sample(chain, 50, seed=5)
    ml_counts = np.zeros((2, 3, 2))
    np.add.at(ml_counts, (data[:, 0], data[:, 1], data[:, 2]), 1)
    for prior, pseudo in [("laplace", 1.0), ("bdeu", 4.0 / 12)]:
        fit = make_learner("mp", prior=prior, ess=4.0 if prior == "bdeu" else 1.0).fit(chain, data)
        np.testing.assert_allclose(fit.alpha["C"], ml_counts + pseudo, atol=1e-12)
        np.testing.assert_allclose(fit.cpts["C"], (ml_counts + pseudo) / (ml_counts + pseudo).sum(-1, keepdims=True))


def test_prior_network_bde_counts_are_ess_times_prior_family_joint(chain):
    alpha = prior_counts(chain, "network", ess=10.0, prior_network=chain)
    from bnstudio.inference import InferenceEngine
    joint = InferenceEngine(chain).family_marginals()
    for v in chain.variables:
        np.testing.assert_allclose(alpha[v], 10.0 * joint[v], atol=1e-12)
        assert alpha[v].sum() == pytest.approx(10.0)


def test_fit_never_mutates_the_input_network(chain):
    before = {v: chain.cpt(v).copy() for v in chain.variables}
    version = chain.parameter_version
    for method in ["ml", "mp", "em", "clgd", "bagged-mp"]:
        make_learner(method).fit(chain, forward_sample(chain, 100, seed=6), target="C")
    assert chain.parameter_version == version
    for v in chain.variables:
        np.testing.assert_array_equal(chain.cpt(v), before[v])


def test_bad_inputs_are_reported(chain):
    with pytest.raises(ValidationError, match="one column per network variable"):
        make_learner("ml").fit(chain, np.zeros((5, 2), dtype=int))
    with pytest.raises(ValidationError, match="no rows"):
        make_learner("ml").fit(chain, np.zeros((0, 3), dtype=int))
    with pytest.raises(ValidationError, match="out of range for 'B'"):
        make_learner("ml").fit(chain, np.array([[0, 3, 0]]))
    with pytest.raises(ValidationError, match="unknown method"):
        make_learner("magic")
    with pytest.raises(ValidationError, match="equivalent sample size"):
        make_learner("mp", ess=0).fit(chain, np.array([[0, 1, 0]]))


def test_unique_rows_groups_exactly_like_numpy_unique():
    from bnstudio.learn.params.suffstats import unique_rows
    rng = np.random.default_rng(0)
    for high in (3, 200, 40_000):
        codes = rng.integers(-1, high, size=(500, 4))
        codes[::7] = codes[3]                      # plenty of repeats
        unique, inverse = unique_rows(codes)
        np.testing.assert_array_equal(unique[inverse], codes)
        assert len(unique) == len(np.unique(codes, axis=0))
