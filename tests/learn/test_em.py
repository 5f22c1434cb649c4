"""em: equals ml on complete data; monotone log-likelihood; recovers ALARM's CPTs from 20% MCAR data."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from bnstudio.core import network_from_dsl
from bnstudio.io import read_network
from bnstudio.learn.params import make_learner
from bnstudio.sampling import forward_sample, hide_at_random

ALARM = Path(__file__).resolve().parents[2] / "resources" / "networks" / "alarm.bif"


def test_em_on_complete_data_equals_ml_after_one_iteration():
    net = network_from_dsl("A->B; A,B->C; C->D", seed=1)
    data = forward_sample(net, 300, seed=2)
    em = make_learner("em", max_iter=1).fit(net, data)
    ml = make_learner("ml").fit(net, data)
    for v in net.variables:
        np.testing.assert_allclose(em.cpts[v], ml.cpts[v], atol=1e-12)


def test_log_likelihood_never_decreases_with_missing_cells_and_a_latent_variable():
    net = network_from_dsl("H->A,B,C; A->B; C->D", seed=3, states={"H": ["h0", "h1", "h2"]})
    data = hide_at_random(forward_sample(net, 400, seed=4), 0.25, seed=5)
    data[:, net.variables.index("H")] = -1          # H is latent
    fit = make_learner("em", init="random", seed=0, max_iter=60, tol=0).fit(net, data)
    nll = np.array([h["nll"] for h in fit.history])
    assert len(nll) == 60 and np.all(np.diff(nll) <= 1e-10)
    assert nll[-1] < nll[0] - 0.05


def test_mp_m_step_keeps_posterior_counts_and_is_monotone_in_the_posterior():
    net = network_from_dsl("A->B; B->C", seed=6)
    data = hide_at_random(forward_sample(net, 200, seed=7), 0.3, seed=8)
    fit = make_learner("em", m_step="mp", max_iter=30).fit(net, data)
    for v in net.variables:
        np.testing.assert_allclose(fit.cpts[v], fit.alpha[v] / fit.alpha[v].sum(-1, keepdims=True), atol=1e-12)
        assert fit.alpha[v].min() >= 1.0


def _weighted_cpt_error(net, cpts) -> float:
    """Mean absolute CPT error, rows weighted by how often their parent configuration occurs."""
    from bnstudio.inference import InferenceEngine
    joint = InferenceEngine(net).family_marginals()
    return sum(float((joint[v].sum(-1, keepdims=True) * np.abs(cpts[v] - net.cpt(v))).sum())
               for v in net.variables) / len(net)


def test_em_recovers_alarm_from_20_percent_mcar_cells():
    truth = read_network(ALARM)
    data = hide_at_random(forward_sample(truth, 5000, seed=11), 0.2, seed=12)
    em = make_learner("em", m_step="mp", ess=0.1, max_iter=40, tol=1e-7).fit(truth, data)
    error = _weighted_cpt_error(truth, em.cpts)
    assert error < 0.02
    # negative control: a broken E-step that fills every missing cell with state 0 is caught by the tolerance
    filled = np.where(data < 0, 0, data)
    broken = make_learner("mp", ess=0.1).fit(truth, filled)
    assert _weighted_cpt_error(truth, broken.cpts) > 2 * error and _weighted_cpt_error(truth, broken.cpts) > 0.02
    nll = [h["nll"] for h in em.history]
    assert nll[-1] < nll[0]


def test_random_restarts_keep_the_best_run_and_are_reproducible():
    net = network_from_dsl("H->A,B,C,D", seed=9, states={"H": ["h0", "h1"]})
    data = forward_sample(net, 500, seed=10)
    data[:, 0] = -1
    a = make_learner("em", restarts=3, seed=5, max_iter=50).fit(net, data)
    b = make_learner("em", restarts=3, seed=5, max_iter=50).fit(net, data)
    for v in net.variables:
        np.testing.assert_array_equal(a.cpts[v], b.cpts[v])
    single = make_learner("em", seed=5, max_iter=50).fit(net, data)
    assert a.history[-1]["nll"] <= single.history[-1]["nll"] + 1e-12
