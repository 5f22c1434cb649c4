"""One-way sensitivity curves and the bootstrap spread of a bagged ensemble, against direct recomputation."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bnstudio.errors import UnknownStateError, ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from bnstudio.learn.params import bagged_posterior, make_learner
from bnstudio.sampling import forward_sample
from bnstudio.uncertainty import (
    bootstrap_spread,
    covaried_rows,
    covaried_slope,
    error_bars,
    query_response,
    row_index,
    sensitivity,
    state_position,
)

ASIA = Path(__file__).resolve().parents[2] / "resources" / "networks" / "asia.bif"


@pytest.fixture(scope="module")
def asia():
    return read_network(ASIA)


@pytest.mark.parametrize("variable, parents, state", [("lung", {"smoke": "yes"}, "yes"),
                                                      ("either", {"lung": "no", "tub": "no"}, "no"),
                                                      ("smoke", {}, "no")])
def test_the_curve_is_the_query_on_edited_networks_and_the_line_its_tangent(asia, variable, parents, state):
    query, evidence = {"lung": "yes"}, {"xray": "yes", "dysp": "yes"}
    bars = error_bars(asia, query, evidence, ess=20.0)
    row, k = row_index(asia, variable, parents), state_position(asia, variable, state)
    curve = sensitivity(asia, bars, variable, row, k, points=201)
    assert curve.q0 == pytest.approx(bars.mean) and curve.parents == parents and curve.state == state
    for theta in (0.0, 0.37, 1.0):
        edited = asia.copy()
        table = np.array(asia.cpt(variable))
        table[row] = covaried_rows(table[row], k, np.array([theta]))[0]
        edited.set_cpt(variable, table)
        i = int(np.argmin(abs(curve.theta - theta)))
        assert curve.theta[i] == pytest.approx(theta)
        assert curve.exact[i] == pytest.approx(InferenceEngine(edited).query_probability(query, evidence), abs=1e-12)
    i = int(np.searchsorted(curve.theta, curve.theta0))
    assert curve.exact[i] == pytest.approx(bars.mean, abs=1e-12)
    h = 1e-6   # the slope from the delta method's derivatives equals a difference quotient of the exact curve
    points = [curve.theta0 - h, curve.theta0 + h] if h < curve.theta0 < 1 - h else \
        ([curve.theta0 - h, curve.theta0] if curve.theta0 >= 1 - h else [curve.theta0, curve.theta0 + h])
    bumped = []
    for theta in points:
        edited = asia.copy()
        table = np.array(asia.cpt(variable))
        table[row] = covaried_rows(table[row], k, np.array([theta]))[0]
        edited.set_cpt(variable, table)
        bumped.append(InferenceEngine(edited).query_probability(query, evidence))
    assert curve.slope == pytest.approx((bumped[1] - bumped[0]) / (points[1] - points[0]), rel=1e-4, abs=1e-9)
    np.testing.assert_allclose(curve.linear, bars.mean + curve.slope * (curve.theta - curve.theta0))


def test_the_exact_slope_is_the_delta_method_slope_away_from_zero_entries(asia):
    bars = error_bars(asia, {"lung": "yes"}, {"xray": "yes"}, ess=20.0)
    for variable, parents in [("lung", {"smoke": "no"}), ("xray", {"either": "no"}), ("smoke", {})]:
        row = row_index(asia, variable, parents)
        curve = sensitivity(asia, bars, variable, row, 0, points=5)
        delta = covaried_slope(np.asarray(asia.cpt(variable)[row]), bars.delta.derivatives[variable][row], 0)
        assert curve.slope == pytest.approx(delta, rel=1e-9, abs=1e-12)


def test_rows_and_states_are_checked_by_name(asia):
    with pytest.raises(ValidationError, match="needs the state of parent"):
        row_index(asia, "either", {"lung": "yes"})
    with pytest.raises(ValidationError, match="is not a parent"):
        row_index(asia, "lung", {"smoke": "yes", "asia": "no"})
    with pytest.raises(UnknownStateError, match="no state 'maybe'"):
        state_position(asia, "lung", "maybe")


def test_query_response_over_parameter_sets_equals_one_engine_per_set(asia):
    rng = np.random.default_rng(0)
    tables = rng.dirichlet(np.ones(2), size=(5, 2))          # 5 parameter sets for lung | smoke
    got = query_response(asia, {"lung": "yes", "tub": "no"}, {"xray": "yes"}, {"lung": tables})
    for s in range(5):
        edited = asia.copy()
        edited.set_cpt("lung", tables[s])
        want = InferenceEngine(edited).query_probability({"lung": "yes", "tub": "no"}, {"xray": "yes"})
        assert got[s] == pytest.approx(want, abs=1e-12)


def test_bootstrap_spread_matches_bagged_posterior_and_refuses_a_stale_ensemble(asia):
    data = forward_sample(asia, 500, seed=1)
    fit = make_learner("bagged-mp", bags=20, seed=4).fit(asia, data)
    net = fit.network(asia)
    spread = bootstrap_spread(net, fit.ensemble, {"lung": "yes"}, {"xray": "yes"}, level=0.8)
    reference = bagged_posterior(net, fit.ensemble, "lung", {"xray": "yes"}, level=0.8)
    np.testing.assert_allclose(spread.values, reference["bags"][:, 0], atol=1e-12)
    assert (spread.mean, spread.low, spread.high) == pytest.approx(
        (reference["mean"][0], reference["low"][0], reference["high"][0]), abs=1e-12)
    assert spread.to_json()["bags"] == 20
    edited = net.copy()
    edited.add_arc("asia", "lung")
    with pytest.raises(ValidationError, match="no longer matches the family of 'lung'"):
        bootstrap_spread(edited, fit.ensemble, {"lung": "yes"})
