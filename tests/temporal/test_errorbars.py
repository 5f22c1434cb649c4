"""Error bars over time (bnstudio/temporal/errorbars.py) against independent references: the static delta method's
per-copy derivatives on the unrolled network, finite differences of the exact unrolled answer with one tied row
moved in every copy, the variance as a sum of squared finite-difference directional derivatives along the
Dirichlet covariance's factors, Monte-Carlo draws of the tied tables evaluated exactly by the engine's parameter
axis, and the core's filtering and smoothing."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.errors import Cancelled, ImpossibleEvidence, UnknownStateError, ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.jobs import RecordingReporter
from bnstudio.temporal import (
    TwoSliceNetwork,
    filtering,
    fit_sequences,
    sample_sequences,
    sequences_frame,
    smoothing,
    two_slice_network,
    unroll,
)
from bnstudio.temporal.errorbars import query_variances, temporal_error_bars
from bnstudio.uncertainty import NoDirichletCounts, delta_method, sample_parameters
from tests.temporal.random_tbn import random_tbn
from tests.temporal.test_forward_backward import as_evidence, random_codes

CASES = [(0, 2, 5), (1, 3, 4), (2, 3, 5), (5, 2, 6)]


def learned(seed: int, n: int, sequences: int = 20, length: int = 30) -> TwoSliceNetwork:
    """A random 2TBN with Dirichlet counts learned (mp) from sequences sampled from it."""
    tbn = random_tbn(seed, n=n)
    return fit_sequences(tbn, sequences_frame(tbn, sample_sequences(tbn, sequences, length, seed=seed)), method="mp")


def evidence_without_target(tbn: TwoSliceNetwork, slices: int, seed: int) -> np.ndarray:
    """Random partial evidence with the target (the first radical) never observed, so its beliefs are not 0/1."""
    codes = random_codes(tbn, slices, seed, observed=0.6)
    codes[:, 0] = -1
    return codes


def copy_names(tbn: TwoSliceNetwork, variable: str, slices: int) -> list[str]:
    """The unrolled copies of a 2TBN variable: X0 is slice 0's only, Xt is X1 ... X{T-1}."""
    radical = variable[:-1]
    return [f"{radical}0"] if variable.endswith("0") else [f"{radical}{s}" for s in range(1, slices)]


def moved(tbn: TwoSliceNetwork, variable: str, row: tuple, delta: np.ndarray) -> TwoSliceNetwork:
    """The 2TBN with row ``row`` of ``variable``'s CPT moved by ``delta`` (a zero-sum direction): every copy moves."""
    net = tbn.to_network()
    table = np.array(net.cpt(variable))
    table[row] += delta
    net.set_cpt(variable, table)
    return TwoSliceNetwork(net)


def exact_answers(tbn: TwoSliceNetwork, codes: np.ndarray, variable: str, state: str, mode: str) -> np.ndarray:
    """p(variable_t = state | e) for every slice by the engine on the unrolled network (filter: evidence up to t)."""
    T = len(codes)
    engine = InferenceEngine(unroll(tbn, T))
    k = tbn.states(variable).index(state)
    return np.array([engine.posterior(f"{variable}{t}", as_evidence(tbn, codes, t + 1 if mode == "filter" else None)
                                      )[f"{variable}{t}"][k] for t in range(T)])


@pytest.mark.parametrize("seed, n, slices", CASES)
@pytest.mark.parametrize("mode", ["smooth", "filter"])
def test_the_mean_is_the_cores_smoothing_and_filtering(seed, n, slices, mode):
    tbn = learned(seed, n)
    codes = random_codes(tbn, slices, seed)
    variable = tbn.radicals[-1]
    bars = temporal_error_bars(tbn, codes, variable, tbn.states(variable)[1], mode=mode)
    core = (smoothing if mode == "smooth" else filtering)(tbn, codes, variable)
    np.testing.assert_allclose(bars.mean, core.beliefs[variable][:, 1], atol=1e-12)
    assert bars.log_likelihood == pytest.approx(core.log_likelihood, abs=1e-10)


@pytest.mark.parametrize("seed, n, slices", CASES)
def test_the_tied_derivative_is_the_sum_of_the_static_per_copy_derivatives(seed, n, slices):
    """Smoothing: ∂q/∂θ_tied = Σ over copies of the static delta method's ∂q/∂θ_copy on the unrolled network."""
    tbn = learned(seed, n)
    codes = evidence_without_target(tbn, slices, seed)
    variable, state = tbn.radicals[0], tbn.states(tbn.radicals[0])[0]
    ours, _ = query_variances(tbn, codes, variable, state, np.arange(slices), "smooth",
                              {v: tbn.network.alpha(v) for v in tbn.network.variables})
    net = unroll(tbn, slices)
    ones = {v: np.ones(net.cpt(v).shape) for v in net.variables}
    engine = InferenceEngine(net)
    for t in range(slices):
        static = delta_method(net, ones, {f"{variable}{t}": state}, as_evidence(tbn, codes), engine)
        assert ours[t].mean == pytest.approx(static.mean, abs=1e-12)
        for v in tbn.network.variables:
            summed = sum(static.derivatives[c] for c in copy_names(tbn, v, slices))
            np.testing.assert_allclose(ours[t].derivatives[v], summed, atol=1e-9, err_msg=f"{v}, slice {t}")


@pytest.mark.parametrize("seed, n, slices", CASES)
@pytest.mark.parametrize("mode", ["smooth", "filter"])
def test_the_tied_gradient_equals_finite_differences_of_the_unrolled_answer(seed, n, slices, mode):
    """Every row of every 2TBN CPT moved along a random zero-sum direction, the same change in every copy."""
    tbn = learned(seed, n)
    codes = evidence_without_target(tbn, slices, seed)
    variable, state = tbn.radicals[0], tbn.states(tbn.radicals[0])[1]
    ours, _ = query_variances(tbn, codes, variable, state, np.arange(slices), mode,
                              {v: tbn.network.alpha(v) for v in tbn.network.variables})
    rng = np.random.default_rng(seed)
    h = 1e-5
    for v in tbn.network.variables:
        cpt = tbn.network.cpt(v)
        row = tuple(int(rng.integers(k)) for k in cpt.shape[:-1])
        delta = rng.normal(size=cpt.shape[-1])
        delta -= delta.mean()
        delta *= min(cpt[row]) / np.abs(delta).max()          # stays inside the simplex for h < 1
        diff = (exact_answers(moved(tbn, v, row, h * delta), codes, variable, state, mode)
                - exact_answers(moved(tbn, v, row, -h * delta), codes, variable, state, mode)) / (2 * h)
        predicted = np.array([r.derivatives[v][row] @ delta for r in ours])
        np.testing.assert_allclose(predicted, diff, atol=1e-7, rtol=1e-5, err_msg=f"{v} row {row}")


@pytest.mark.parametrize("seed, n, slices, mode", [(1, 3, 4, "smooth"), (2, 2, 4, "filter")])
def test_the_variance_is_the_quadratic_form_of_finite_difference_gradients(seed, n, slices, mode):
    """σ² = Σ_rows gᵀΣg with Σ = (diag θ − θθᵀ)/(α + 1) = L Lᵀ: Σ_j (∂q along column j of L)², each directional
    derivative by central differences of the exact unrolled answer (L's columns sum to 0: Σ1 = 0)."""
    tbn = learned(seed, n, sequences=5, length=10)
    codes = evidence_without_target(tbn, slices, seed)
    variable, state = tbn.radicals[0], tbn.states(tbn.radicals[0])[0]
    ours, _ = query_variances(tbn, codes, variable, state, np.arange(slices), mode,
                              {v: tbn.network.alpha(v) for v in tbn.network.variables})
    h = 1e-5
    total = np.zeros(slices)
    for v in tbn.network.variables:
        cpt, alpha = tbn.network.cpt(v), tbn.network.alpha(v)
        for row in np.ndindex(cpt.shape[:-1]):
            theta = cpt[row]
            sigma = (np.diag(theta) - np.outer(theta, theta)) / (alpha[row].sum() + 1)
            values, vectors = np.linalg.eigh(sigma)
            for lam, vec in zip(values, vectors.T, strict=True):
                if lam <= 1e-15:
                    continue
                step = h * min(theta) / np.abs(vec).max()
                diff = (exact_answers(moved(tbn, v, row, step * vec), codes, variable, state, mode)
                        - exact_answers(moved(tbn, v, row, -step * vec), codes, variable, state, mode)) / (2 * step)
                total += lam * diff ** 2
    variance = np.array([r.variance for r in ours])
    np.testing.assert_allclose(variance, total, rtol=1e-5, atol=1e-12)
    assert np.all(variance > 0)


def unrolled_draws(tbn: TwoSliceNetwork, slices: int, r: int, seed: int) -> dict[str, np.ndarray]:
    """r draws of the 2TBN's tables from their Dirichlet posteriors, each tied table copied into every slice."""
    draws = sample_parameters({v: tbn.network.alpha(v) for v in tbn.network.variables}, r, seed)
    return {f"{x}{s}": draws[x + ("0" if s == 0 else "t")] for x in tbn.radicals for s in range(slices)}


def monte_carlo_answers(tbn: TwoSliceNetwork, codes: np.ndarray, variable: str, state: str, mode: str, r: int,
                        seed: int) -> np.ndarray:
    """(r, T): p(variable_t = state | e) under each draw, exact, by the engine's parameter axis on the unrolled
    network (tied draws shared by every copy)."""
    T = len(codes)
    net = unroll(tbn, T)
    engine = InferenceEngine(net)
    params = unrolled_draws(tbn, T, r, seed)
    k = tbn.states(variable).index(state)
    out = np.empty((r, T))
    for t in range(T):
        evidence = as_evidence(tbn, codes, t + 1 if mode == "filter" else None)
        coded = {x: np.array([net.states(x).index(s)]) for x, s in evidence.items()} or \
            {net.variables[0]: np.array([-1])}   # no evidence yet: p(e) = 1
        with_q = {**coded, f"{variable}{t}": np.array([k])}
        out[:, t] = np.exp(engine.log_evidence_batch(with_q, parameters=params)[:, 0]
                           - engine.log_evidence_batch(coded, parameters=params)[:, 0])
    return out


@pytest.mark.parametrize("seed, n, slices, mode", [(0, 2, 5, "smooth"), (1, 3, 4, "smooth"), (2, 3, 5, "filter"),
                                                   (7, 2, 6, "filter")])
def test_the_delta_sd_is_close_to_the_monte_carlo_sd_of_tied_tables(seed, n, slices, mode):
    """Well-determined counts (40 sequences of 50 slices): the delta-method sd within 15 % of the sd over 3,000
    draws of the tied tables (the Monte-Carlo sd itself is known to about 1.3 %); the means agree too."""
    tbn = learned(seed, n, sequences=40, length=50)
    codes = evidence_without_target(tbn, slices, seed)
    variable, state = tbn.radicals[0], tbn.states(tbn.radicals[0])[0]
    bars = temporal_error_bars(tbn, codes, variable, state, mode=mode)
    draws = monte_carlo_answers(tbn, codes, variable, state, mode, 3000, seed)
    mc_sd = draws.std(axis=0, ddof=1)
    assert np.all(mc_sd > 1e-4)
    np.testing.assert_allclose(bars.sd, mc_sd, rtol=0.15)
    np.testing.assert_allclose(bars.mean, draws.mean(axis=0), atol=3 * mc_sd.max() / np.sqrt(3000) + 0.01)


def test_tied_copies_are_not_independent_rows():
    """The check has teeth: treating the copies as independent rows (the static bars of the unrolled network with
    every copy given the tied counts) misses the correlation between copies by more than 15 % at some slice
    (here up and down: 1.13 and 0.61 of the tied variance)."""
    tbn = learned(1, 3)
    codes = evidence_without_target(tbn, 5, 1)
    variable, state = tbn.radicals[0], tbn.states(tbn.radicals[0])[0]
    bars = temporal_error_bars(tbn, codes, variable, state)
    net = unroll(tbn, 5)
    alpha = {f"{x}{s}": tbn.network.alpha(x + ("0" if s == 0 else "t")) for x in tbn.radicals for s in range(5)}
    engine = InferenceEngine(net)
    ratios = []
    for t in range(5):
        independent = delta_method(net, alpha, {f"{variable}{t}": state}, as_evidence(tbn, codes), engine)
        assert independent.mean == pytest.approx(bars.mean[t], abs=1e-12)
        ratios.append(independent.variance / bars.sd[t] ** 2)
    assert max(abs(r - 1) for r in ratios) > 0.15


def test_slices_top_rows_intervals_and_json():
    tbn = learned(2, 3)
    codes = evidence_without_target(tbn, 6, 2)
    variable, state = tbn.radicals[0], tbn.states(tbn.radicals[0])[0]
    full = temporal_error_bars(tbn, codes, variable, state, level=0.8, top=2)
    some = temporal_error_bars(tbn, codes, variable, state, slices=[4, 1], level=0.8, top=2)
    assert some.slices.tolist() == [4, 1]
    np.testing.assert_allclose(some.sd, full.sd[[4, 1]], atol=1e-15)
    for k in range(6):
        lo, hi = full.normal[k]
        assert lo == pytest.approx(full.mean[k] - 1.2815515655 * full.sd[k], abs=1e-9)
        assert hi == pytest.approx(full.mean[k] + 1.2815515655 * full.sd[k], abs=1e-9)
        assert full.beta[k, 0] < full.mean[k] < full.beta[k, 1]
        rows = full.contributions[k]
        assert len(rows) == 2 and rows[0].variance >= rows[1].variance > 0
        assert rows[0].variance <= full.sd[k] ** 2 + 1e-15
    record = full.to_json()
    assert record["kind"] == "smoothing" and record["target"] == {variable: state}
    assert len(record["mean"]) == 6 and len(record["beta"]) == 6 and record["contributions"][0][0]["variable"]


def test_refusals_each_one_line():
    tbn = random_tbn(0, n=2)   # no Dirichlet counts
    codes = random_codes(tbn, 3, 0)
    with pytest.raises(NoDirichletCounts, match="learn it from sequences with mp .* --ess A"):
        temporal_error_bars(tbn, codes, "V0", "s0")
    bars = temporal_error_bars(tbn, codes, "V0", "s0", ess=50.0)   # expert counts: α = 50·θ
    assert np.all(np.isfinite(bars.sd))
    with pytest.raises(UnknownStateError, match="'nope' is not a state of 'V0'"):
        temporal_error_bars(tbn, codes, "V0", "nope", ess=5.0)
    with pytest.raises(ValidationError, match="mode"):
        temporal_error_bars(tbn, codes, "V0", "s0", mode="predict", ess=5.0)
    with pytest.raises(ValidationError, match="slices must be whole numbers from 0 to 2"):
        temporal_error_bars(tbn, codes, "V0", "s0", slices=[3], ess=5.0)
    with pytest.raises(ValidationError, match="credible level"):
        temporal_error_bars(tbn, codes, "V0", "s0", level=1.0, ess=5.0)
    with pytest.raises(ValidationError, match="at least one slice"):
        temporal_error_bars(tbn, codes[:0], "V0", "s0", ess=5.0)


@pytest.mark.parametrize("mode", ["filter", "smooth"])
def test_progress_is_reported_and_a_stop_request_cancels(mode):
    tbn = learned(2, 2)
    codes = random_codes(tbn, 1_200, 2)
    reporter = RecordingReporter()
    temporal_error_bars(tbn, codes, tbn.radicals[0], tbn.states(tbn.radicals[0])[0], slices=[0, 1199], mode=mode,
                        reporter=reporter)
    assert reporter.ended and reporter.label == f"error bars ({mode})" and len(reporter.infos) >= 2
    with pytest.raises(Cancelled):
        temporal_error_bars(tbn, codes, tbn.radicals[0], tbn.states(tbn.radicals[0])[0], mode=mode,
                            reporter=RecordingReporter(stop_after=1))


def test_a_2tbn_without_temporal_arcs_and_evidence_on_the_target():
    """No interface (slices independent given the tied tables): the tied derivative still sums over the copies,
    which the static delta method on the unrolled network confirms; an observed target has variance 0, flagged,
    and no Beta interval (None in JSON, never NaN there)."""
    tbn = two_slice_network({"A": ["a", "b"], "B": ["x", "y"]},
                            initial={"A": ((), [0.3, 0.7]), "B": (["A"], [[0.9, 0.1], [0.2, 0.8]])},
                            transition={"A": ((), [0.4, 0.6]), "B": ((("A", 0),), [[0.8, 0.2], [0.3, 0.7]])})
    assert tbn.interface == ()
    codes = np.array([[-1, 0], [-1, 1], [0, -1]])
    alpha = {v: 20 * tbn.network.cpt(v) for v in tbn.network.variables}
    ours, _ = query_variances(tbn, codes, "A", "a", np.arange(3), "smooth", alpha)
    net = unroll(tbn, 3)
    ones = {v: np.ones(net.cpt(v).shape) for v in net.variables}
    for t in range(2):
        static = delta_method(net, ones, {f"A{t}": "a"}, as_evidence(tbn, codes))
        for v in tbn.network.variables:
            np.testing.assert_allclose(ours[t].derivatives[v],
                                       sum(static.derivatives[c] for c in copy_names(tbn, v, 3)), atol=1e-12)
    bars = temporal_error_bars(tbn, codes, "A", "a", ess=20.0)
    assert bars.sd[2] == 0 and bars.flags[2] == ["zero_variance"] and np.isnan(bars.beta[2]).all()
    assert bars.to_json()["beta"][2] is None and bars.sd[0] > 0


@pytest.mark.parametrize("mode", ["filter", "smooth"])
def test_impossible_evidence_names_its_slice(mode):
    never_heals = two_slice_network({"W": ["ok", "bad"]}, initial={"W": ((), [1.0, 0.0])},
                                    transition={"W": ((("W", 1),), [[0.9, 0.1], [0.0, 1.0]])})
    with pytest.raises(ImpossibleEvidence, match="the evidence of slice 2 is impossible"):
        temporal_error_bars(never_heals, np.array([[-1], [1], [0]]), "W", "ok", mode=mode, ess=10.0)


def test_too_many_einsum_labels_is_one_line():
    """25 variables, each its own temporal parent: 25 + 25 labels fit forward-backward's einsums (52) but not with
    the count axis, the query's copy and a family's two copies as well (refused before any contraction)."""
    names = [f"X{k}" for k in range(25)]
    wide = two_slice_network({x: ["a", "b"] for x in names}, initial={},
                             transition={x: (((x, 1),), None) for x in names})
    assert len(wide.interface) == 25
    with pytest.raises(ValidationError, match=r"in a slice, its interface and a family together; 'dbn' has 25 \+ 25 \+ 2"):
        temporal_error_bars(wide, np.full((2, 25), -1), "X0", "a", ess=5.0)
