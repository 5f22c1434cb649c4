"""The delta-method error bar on an expected utility: its gradient against central finite differences of the
EU (policies fixed), its variance against an explicit gᵀΣg with the Dirichlet covariance (Singh eq 3.9) and
against Monte Carlo over Dirichlet draws."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.decision import solve
from bnstudio.decision.errorbar import utility_error_bar
from bnstudio.decision.policy_net import policy_expected_utility
from bnstudio.decision.solve import split_evidence
from bnstudio.uncertainty.dirichlet import NoDirichletCounts
from tests.decision.helpers import oil, random_diagram

H = 1e-6


def _cases():
    yield oil(), {}
    yield oil(), {"Result": "open"}
    for seed in (0, 4, 7):
        diagram = random_diagram(seed)
        node = diagram.chance_names[-1]
        yield diagram, {node: diagram.states(node)[0]}


@pytest.mark.parametrize("case", range(5))
def test_gradient_matches_finite_differences_and_variance_the_explicit_quadratic_form(case):
    diagram, evidence = list(_cases())[case]
    ess = 12.0
    solution = solve(diagram, evidence)
    bar = utility_error_bar(diagram, solution, ess=ess)
    assert bar.mean == pytest.approx(solution.expected_utility, abs=1e-9)
    likelihoods, _ = split_evidence(diagram, evidence)
    rng = np.random.default_rng(case)
    checked = 0
    total = 0.0
    for var in diagram.chance_names:
        theta = diagram.cpt(var)
        g = bar.derivatives[var]
        for row in np.ndindex(theta.shape[:-1]):
            t, grow = theta[row], g[row]
            cov = (np.diag(t) - np.outer(t, t)) / (ess * t.sum() + 1.0)  # Singh eq 3.9, α_{v|f} = ESS
            total += float(grow @ cov @ grow)
            positive = np.flatnonzero(t > 10 * H)
            if positive.size < 2 or rng.random() < 0.5:
                continue
            i, j = rng.choice(positive, size=2, replace=False)
            step = np.zeros_like(theta)
            step[row + (i,)], step[row + (j,)] = H, -H
            up, _ = policy_expected_utility(diagram.with_parameters({var: theta + step}), solution.policies,
                                            likelihoods)
            down, _ = policy_expected_utility(diagram.with_parameters({var: theta - step}), solution.policies,
                                              likelihoods)
            scale = max(1.0, abs(grow[i]) + abs(grow[j]))
            assert (up - down) / (2 * H) == pytest.approx(grow[i] - grow[j], abs=1e-5 * scale), (var, row)
            checked += 1
    assert checked >= 1
    assert bar.variance == pytest.approx(total, rel=1e-9, abs=1e-12)
    assert bar.variance > 0


def test_utilities_of_decisions_alone_have_no_parameter_uncertainty():
    diagram = random_diagram(2)  # U0(D1, D2), U1(D2): no chance node reaches a utility
    assert all(diagram.kind(p) == "decision" for u in diagram.utilities for p in u.parents)
    bar = utility_error_bar(diagram, solve(diagram), ess=12.0)
    assert bar.variance == 0.0 and bar.mean == pytest.approx(solve(diagram).expected_utility, abs=1e-12)


def test_variance_agrees_with_monte_carlo_over_dirichlet_draws():
    """ESS 200 per row: the first-order (delta) variance is then within a few per cent of the true one
    (its error is O(1/α)); with r = 4000 draws the sampling error of the Monte-Carlo variance is about
    √(2/r) ≈ 2.2 % (normal draws), so 12 % is more than 4 standard errors of slack. The mean of EU(Θ) over
    the draws is exactly EU(Θ*) without evidence (EU is multilinear in independent rows), checked to 4 standard
    errors."""
    diagram = oil()
    solution = solve(diagram)
    bar = utility_error_bar(diagram, solution, ess=200.0, mc=4000, seed=7)
    samples = bar.mc_samples
    assert samples.shape == (4000,)
    assert samples.var() == pytest.approx(bar.variance, rel=0.12)
    assert abs(samples.mean() - bar.mean) < 4 * samples.std() / np.sqrt(samples.size)
    lo, hi = bar.interval
    assert 0.85 < np.mean((samples >= lo) & (samples <= hi)) < 0.95  # the 90 % normal interval covers ≈ 90 %


def test_monte_carlo_draws_do_not_depend_on_chunking():
    diagram = oil()
    solution = solve(diagram)
    a = utility_error_bar(diagram, solution, ess=30.0, mc=50, seed=3).mc_samples
    b = utility_error_bar(diagram, solution, ess=30.0, mc=50, seed=3, memory_budget=40_000).mc_samples
    np.testing.assert_allclose(a, b, rtol=1e-12)


def test_stored_counts_are_used_and_their_absence_is_one_line():
    diagram = oil()
    solution = solve(diagram)
    with pytest.raises(NoDirichletCounts, match="no Dirichlet counts for Oil, Result"):
        utility_error_bar(diagram, solution)
    counted = diagram.with_parameters(alphas={"Oil": 12.0 * diagram.cpt("Oil"), "Result": 12.0 * diagram.cpt("Result")})
    stored = utility_error_bar(counted, solve(counted))
    expert = utility_error_bar(diagram, solution, ess=12.0)
    assert stored.variance == pytest.approx(expert.variance, rel=1e-12)
