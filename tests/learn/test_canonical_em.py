"""EM over the parameters of a leaky noisy-MAX: recovers them from sampled data, never lowers the likelihood,
and its E-step expected counts match brute force over the hidden causes."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from bnstudio.core.canonical import NoisyMax
from bnstudio.errors import Cancelled, ValidationError
from bnstudio.jobs import CallbackReporter
from bnstudio.learn.canonical import em_step, fit_node, fit_noisy_max, log_likelihood
from tests.core.test_canonical import random_noisy_max


def sampled_counts(model: NoisyMax, n_per_config: int, seed: int) -> np.ndarray:
    """N(x, y): ``n_per_config`` cases for every parent configuration, the child drawn from the expanded CPT."""
    rng = np.random.default_rng(seed)
    cpt = model.expand()
    rows = cpt.reshape(-1, cpt.shape[-1])
    return np.array([rng.multinomial(n_per_config, r) for r in rows], dtype=float).reshape(cpt.shape)


def test_em_recovers_noisy_or_parameters_from_sampled_data():
    truth = NoisyMax.noisy_or([0.8, 0.6, 0.3, 0.9], 0.05)
    counts = sampled_counts(truth, 20_000, seed=1)
    fit = fit_noisy_max(counts)
    assert fit.stop_reason == "converged"
    np.testing.assert_allclose([l[0, 0] for l in fit.model.links], [0.8, 0.6, 0.3, 0.9], rtol=0, atol=0.01)
    assert fit.model.leak[0] == pytest.approx(0.05, abs=0.005)
    assert fit.history[-1] >= log_likelihood(truth, counts)  # the ML fit beats the truth on its own data


@pytest.mark.parametrize("seed", range(3))
def test_em_recovers_multi_state_noisy_max_and_never_lowers_the_likelihood(seed):
    truth = random_noisy_max(np.random.default_rng(seed), parent_cards=(2, 3), card=3)
    counts = sampled_counts(truth, 50_000, seed=100 + seed)
    fit = fit_noisy_max(counts, distinguished=truth.distinguished, max_iter=2000, tol=1e-12)
    assert np.all(np.diff(fit.history) >= -1e-9 * abs(fit.history[-1]))
    np.testing.assert_allclose(fit.model.expand(), truth.expand(), rtol=0, atol=0.02)
    assert fit.history[-1] >= log_likelihood(truth, counts) - 1e-6 * abs(fit.history[-1])


def test_one_em_step_equals_brute_force_expected_counts():
    """The M-step of one iteration from brute-force posteriors over (Y_1, Y_2, Y_L) for every (x, y)."""
    rng = np.random.default_rng(5)
    model = random_noisy_max(rng, parent_cards=(2, 3), card=3)
    counts = rng.integers(0, 20, model.shape).astype(float)
    card = len(model.leak)
    expected = [np.zeros((len(l), card)) for l in model.links] + [np.zeros(card)]
    for x in itertools.product(*(range(len(l)) for l in model.links)):
        joint = {}
        for hidden in itertools.product(range(card), repeat=3):
            p = model.leak[hidden[2]] * model.links[0][x[0], hidden[0]] * model.links[1][x[1], hidden[1]]
            joint[hidden] = p
        for y in range(card):
            total = sum(p for h, p in joint.items() if min(h) == y)
            for h, p in joint.items():
                if min(h) == y and total > 0:
                    w = counts[x + (y,)] * p / total
                    expected[0][x[0], h[0]] += w
                    expected[1][x[1], h[1]] += w
                    expected[2][h[2]] += w
    step = em_step(model, counts)
    for i in range(2):
        rows = expected[i] / expected[i].sum(-1, keepdims=True)
        rows[model.distinguished[i]] = np.eye(card)[-1]
        np.testing.assert_allclose(step.links[i], rows, rtol=0, atol=1e-12)
    np.testing.assert_allclose(step.leak, expected[2] / expected[2].sum(), rtol=0, atol=1e-12)


def test_a_reporter_can_stop_it_and_bad_counts_are_refused():
    counts = sampled_counts(NoisyMax.noisy_or([0.5], 0.1), 100, seed=0)
    with pytest.raises(Cancelled):
        fit_noisy_max(counts, reporter=CallbackReporter(lambda info: info.iteration >= 2))
    with pytest.raises(ValidationError):
        fit_noisy_max(-counts)
    with pytest.raises(ValidationError, match="shape"):
        fit_noisy_max(counts, init=NoisyMax.noisy_or([0.5, 0.5], 0.1))


def test_a_node_of_a_network_is_fitted_from_data_rows():
    from bnstudio.core.canonical import canonical_of, set_canonical
    from bnstudio.core.network import Network
    from bnstudio.sampling import forward_sample

    truth = Network()
    for v in "ABC":
        truth.add_variable(v, ["yes", "no"], cpt=[0.5, 0.5])
    truth.add_variable("Y", ["yes", "no"], ["A", "B", "C"])
    set_canonical(truth, "Y", NoisyMax.noisy_or([0.7, 0.5, 0.2], 0.1))
    codes = forward_sample(truth, 40_000, seed=3)
    net = truth.copy()
    set_canonical(net, "Y", NoisyMax.noisy_or([0.5, 0.5, 0.5], 0.5))
    fit = fit_node(net, "Y", codes)
    np.testing.assert_allclose([l[0, 0] for l in fit.model.links], [0.7, 0.5, 0.2], rtol=0, atol=0.03)
    assert fit.model.leak[0] == pytest.approx(0.1, abs=0.02)
    set_canonical(net, "Y", fit.model)
    assert canonical_of(net, "Y") is fit.model


# ------------------------------------------------------------------- the child's absent state not the last one
def test_em_recovers_a_noisy_or_whose_table_lists_absent_first():
    truth = NoisyMax.noisy_or([0.8, 0.6, 0.3], 0.05, child_order=(1, 0))
    counts = sampled_counts(truth, 20_000, seed=11)
    fit = fit_noisy_max(counts, child_order=(1, 0))
    assert fit.stop_reason == "converged" and fit.model.child_order == (1, 0)
    np.testing.assert_allclose([l[0, 0] for l in fit.model.links], [0.8, 0.6, 0.3], rtol=0, atol=0.01)
    assert fit.model.leak[0] == pytest.approx(0.05, abs=0.005)
    assert fit.history[-1] >= log_likelihood(truth, counts)
    wrong = fit_noisy_max(counts)  # read with "false" as the most severe state: a worse model of the same data
    assert wrong.history[-1] < fit.history[-1] - 100


@pytest.mark.parametrize("seed, order", [(0, (2, 0, 1)), (1, (1, 0, 2))])
def test_em_recovers_a_permuted_noisy_max(seed, order):
    base = random_noisy_max(np.random.default_rng(30 + seed), parent_cards=(2, 3), card=3)
    truth = NoisyMax(base.links, base.leak, base.distinguished, order)
    counts = sampled_counts(truth, 50_000, seed=200 + seed)
    fit = fit_noisy_max(counts, distinguished=truth.distinguished, child_order=order, max_iter=2000, tol=1e-12)
    assert np.all(np.diff(fit.history) >= -1e-9 * abs(fit.history[-1]))
    np.testing.assert_allclose(fit.model.expand(), truth.expand(), rtol=0, atol=0.02)
    for got, want in zip(fit.model.links + (fit.model.leak,), truth.links + (truth.leak,), strict=True):
        np.testing.assert_allclose(got, want, rtol=0, atol=0.05)


@pytest.mark.parametrize("order", [(1, 0, 2), (2, 1, 0)])
def test_a_permuted_child_gives_the_identity_fit_up_to_the_permutation(order):
    """The same counts with the child's columns permuted: the same parameters, the same history, every step."""
    rng = np.random.default_rng(40)
    truth = random_noisy_max(rng, parent_cards=(3, 2), card=3)
    counts = sampled_counts(truth, 300, seed=41)
    permuted = np.empty_like(counts)
    permuted[..., list(order)] = counts  # severity position s in column order[s]
    plain = fit_noisy_max(counts, distinguished=truth.distinguished, max_iter=50)
    moved = fit_noisy_max(permuted, distinguished=truth.distinguished, child_order=order, max_iter=50)
    np.testing.assert_allclose(moved.history, plain.history, rtol=1e-13, atol=0)
    for a, b in zip(moved.model.links + (moved.model.leak,), plain.model.links + (plain.model.leak,), strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-13)
    np.testing.assert_allclose(moved.model.expand()[..., list(order)], plain.model.expand(), rtol=0, atol=1e-13)


def test_the_child_order_of_a_start_model_and_the_option_must_agree():
    counts = sampled_counts(NoisyMax.noisy_or([0.5], 0.1), 100, seed=0)
    with pytest.raises(ValidationError, match="child order"):
        fit_noisy_max(counts, init=NoisyMax.noisy_or([0.5], 0.1), child_order=(1, 0))
    fit = fit_noisy_max(counts, init=NoisyMax.noisy_or([0.5], 0.1, child_order=(1, 0)), max_iter=3)
    assert fit.model.child_order == (1, 0)


def test_a_permuted_node_of_a_network_is_fitted_in_its_own_order():
    from bnstudio.core.canonical import set_canonical
    from bnstudio.core.network import Network
    from bnstudio.sampling import forward_sample

    truth = Network()
    for v in "AB":
        truth.add_variable(v, ["false", "true"], cpt=[0.5, 0.5])
    truth.add_variable("Y", ["false", "true"], ["A", "B"])
    links = tuple(np.array([[0.0, 1.0], [c, 1 - c]]) for c in (0.7, 0.4))  # "true" (1) is each cause's present
    set_canonical(truth, "Y", NoisyMax(links, np.array([0.1, 0.9]), (0, 0), (1, 0)))
    codes = forward_sample(truth, 40_000, seed=5)
    net = truth.copy()
    set_canonical(net, "Y", NoisyMax(tuple(np.array([[0.0, 1.0], [0.5, 0.5]]) for _ in range(2)),
                                     np.array([0.5, 0.5]), (0, 0), (1, 0)))
    fit = fit_node(net, "Y", codes)
    assert fit.model.child_order == (1, 0) and fit.model.distinguished == (0, 0)
    np.testing.assert_allclose([l[1, 0] for l in fit.model.links], [0.7, 0.4], rtol=0, atol=0.03)
    assert fit.model.leak[0] == pytest.approx(0.1, abs=0.02)


def test_the_closest_noisy_max_finds_the_absent_states_first_or_last():
    """'Make noisy-MAX' on a Hugin-style noisy-OR (every node lists "false" first) fitted with the absent states
    last, GeNIe's convention, and could not reproduce the table; the closest fit tries both conventions."""
    from bnstudio.learn.canonical import closest_noisy_max

    genie = NoisyMax.noisy_or([0.8, 0.6], 0.05)
    fit = closest_noisy_max(genie.expand(), max_iter=3000, tol=1e-14)
    assert fit.model.child_order is None and fit.model.distinguished == (1, 1)
    np.testing.assert_allclose(fit.model.expand(), genie.expand(), rtol=0, atol=1e-6)
    links = tuple(link[::-1] for link in genie.links)   # parents list their absent state first too
    hugin = NoisyMax(links, genie.leak, (0, 0), child_order=(1, 0))
    fit = closest_noisy_max(hugin.expand(), max_iter=3000, tol=1e-14)
    assert fit.model.child_order == (1, 0) and fit.model.distinguished == (0, 0)
    np.testing.assert_allclose(fit.model.expand(), hugin.expand(), rtol=0, atol=1e-6)
    plain = fit_noisy_max(hugin.expand(), max_iter=3000, tol=1e-14)   # GeNIe's convention only: a worse fit
    assert np.abs(plain.model.expand() - hugin.expand()).max() > 0.05
