"""The tornado (every CPT parameter ranked by its swing of p(q | e)): exact ends against re-running the engine
on edited CPTs, slopes against finite differences, ranges against the Beta quantiles (docs/uncertainty.md)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from bnstudio.cli import main
from bnstudio.display.notebook import show
from bnstudio.errors import ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from bnstudio.uncertainty import covaried_rows, dirichlet_counts, tornado

ASIA = "resources/networks/asia.bif"
ALARM = "resources/networks/alarm.bif"


def q_with_entry(net, variable, index, value, query, evidence) -> float:
    """p(query | evidence) with θ at ``index`` set to ``value`` and its row co-varied, by a fresh engine."""
    edited = net.copy()
    table = np.array(net.cpt(variable), dtype=float)
    row, state = index[:-1], index[-1]
    table[row] = covaried_rows(table[row], state, np.array([value]))[0]
    edited.set_cpt(variable, table)
    return InferenceEngine(edited).query_probability(query, evidence)


def test_bar_ends_are_the_query_recomputed_with_the_edited_cpt():
    net = read_network(ALARM)
    query, evidence = {"HYPOVOLEMIA": "TRUE"}, {"BP": "LOW", "HRBP": "HIGH"}
    result = tornado(net, query, evidence, top=8)
    assert result.range == "±10%" and len(result.bars) == 8
    assert result.q0 == pytest.approx(InferenceEngine(net).query_probability(query, evidence), abs=1e-12)
    for bar in result.bars:
        index = tuple(net.states(p).index(s) for p, s in bar.parents.items()) + (net.states(bar.variable).index(bar.state),)
        assert bar.theta_low == pytest.approx(max(bar.theta0 * 0.9, 0.0))
        assert bar.theta_high == pytest.approx(min(bar.theta0 * 1.1, 1.0))
        for theta, q in ((bar.theta_low, bar.q_low), (bar.theta_high, bar.q_high)):
            assert q == pytest.approx(q_with_entry(net, bar.variable, index, theta, query, evidence), abs=1e-10)
        h = 1e-6
        numeric = (q_with_entry(net, bar.variable, index, bar.theta0 + h, query, evidence)
                   - q_with_entry(net, bar.variable, index, bar.theta0 - h, query, evidence)) / (2 * h)
        assert bar.slope == pytest.approx(numeric, rel=1e-4, abs=1e-8)
    swings = [b.swing for b in result.bars]
    assert swings == sorted(swings, reverse=True)


def test_the_largest_swing_of_all_parameters_is_the_first_bar():
    """Every parameter of asia swept exactly (one free parameter per two-state row): the tornado's first bar is
    the parameter with the largest exact swing."""
    net = read_network(ASIA)
    query, evidence = {"lung": "yes"}, {"dysp": "yes", "xray": "yes"}
    best, best_swing = None, -1.0
    for var in net.variables:
        theta = net.cpt(var)
        for row in itertools.product(*(range(n) for n in theta.shape[:-1])):
            index = row + (0,)
            low, high = np.clip(theta[index] * np.array([0.9, 1.1]), 0, 1)
            swing = abs(q_with_entry(net, var, index, high, query, evidence)
                        - q_with_entry(net, var, index, low, query, evidence))
            if swing > best_swing:
                best, best_swing = (var, row), swing
    first = tornado(net, query, evidence, top=3).bars[0]
    assert (first.variable, tuple(net.states(p).index(s) for p, s in first.parents.items())) == best
    assert first.swing == pytest.approx(best_swing, rel=1e-9)


def test_with_counts_each_range_is_the_beta_credible_interval():
    net = read_network(ASIA)
    alpha = dirichlet_counts(net, 20.0)
    result = tornado(net, {"lung": "yes"}, {"dysp": "yes"}, top=4, level=0.8, alpha=alpha)
    assert result.range == "credible 80%"
    for bar in result.bars:
        row = tuple(net.states(p).index(s) for p, s in bar.parents.items())
        k = net.states(bar.variable).index(bar.state)
        a = alpha[bar.variable][row][k]
        b = alpha[bar.variable][row].sum() - a
        assert (bar.theta_low, bar.theta_high) == pytest.approx(stats.beta.ppf([0.1, 0.9], a, b))


def test_bad_arguments_get_one_line():
    net = read_network(ASIA)
    for kwargs, message in (({"top": 0}, "at least one bar"), ({"level": 1.0}, "credible level"),
                            ({"spread": 0.0}, "relative spread")):
        with pytest.raises(ValidationError, match=message):
            tornado(net, {"lung": "yes"}, **kwargs)


def test_notebook_draws_the_chart():
    net = read_network(ASIA)
    result = tornado(net, {"lung": "yes"}, {"dysp": "yes"}, top=3)
    html = result._repr_html_()
    assert html == show(result).html
    assert "θ(lung=yes | smoke=yes)" in html and html.count("<rect") == 6


def test_errorbars_command_lists_the_tornado(capsys):
    import json

    assert main(["errorbars", ASIA, "--ess", "20", "--target", "lung=yes", "--evidence", "dysp=yes",
                 "--tornado", "2", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)["results"][0]["tornado"]
    assert record["range"] == "credible 90%" and len(record["bars"]) == 2
    assert record["bars"][0]["variable"] == "lung" and record["bars"][0]["parents"] == {"smoke": "yes"}
