"""Polak–Ribière conjugate gradient with Brent's line minimisation (Zhou §3.2.2; ``optimizer="pr-brent"``)."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.errors import Cancelled
from bnstudio.jobs import RecordingReporter
from bnstudio.learn.params import make_learner
from bnstudio.learn.params.conjugate import bracket, brent, frprmn_converged, pr_brent_minimise
from bnstudio.learn.params.stopping import StopRule, StopRun
from tests.learn.test_gradient import noisy_naive_bayes_data


def quadratic(n: int, seed: int, condition: float = 10.0):
    """f(x) = ½ (x − x*)ᵀA(x − x*), A symmetric positive definite with eigenvalues 1 … ``condition``."""
    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(rng.normal(size=(n, n)))
    a = q @ np.diag(np.geomspace(1.0, condition, n)) @ q.T
    xstar = rng.normal(size=n)
    return (lambda x: (0.5 * (x - xstar) @ a @ (x - xstar), a @ (x - xstar))), xstar


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_a_quadratic_is_minimised_in_at_most_n_iterations(seed):
    """Conjugate directions with exact line minima reach a quadratic's minimum in n steps (Nocedal & Wright
    Thm 5.2). Brent's line minimum uses values only, so it is exact to ~√ε in t: after n steps the loss is
    below 1e-10 (from ~10), where steepest descent (β = 0) at condition 10 is still ~10⁻² away."""
    n = 8
    fun, xstar = quadratic(n, seed)
    seen = []
    out = pr_brent_minimise(fun, np.zeros(n), StopRule(max_iter=n, tol=0.0), seen.append, line_tol=1e-10)
    assert out.iterations <= n and len(seen) == out.iterations + 1
    assert out.loss <= 1e-10 and fun(out.x)[0] == out.loss
    assert np.max(np.abs(out.x - xstar)) <= 1e-5


def test_brent_finds_a_one_dimensional_minimum_inside_its_bracket():
    f = lambda t: (t - 2.7) ** 2 + np.cos(3 * t) * 0.1    # noqa: E731 (a one-line test function)
    a, b, c = bracket(f)
    assert min(a, c) < b < max(a, c) and f(b) <= min(f(a), f(c))
    t = brent(f, a, b, c, tol=1e-8)
    grid = np.linspace(min(a, c), max(a, c), 200_001)
    assert t == pytest.approx(grid[np.argmin(f(grid))], abs=1e-4)
    assert f(t) <= f(grid).min() + 1e-12


def test_the_stop_test_is_frprmns():
    """2|f_new − f_old| ≤ ftol(|f_new| + |f_old| + 1e-10): a relative change of ftol / 2 passes, 2 ftol not."""
    assert frprmn_converged(1.0 - 0.4e-6, 1.0, 1e-6)
    assert not frprmn_converged(1.0 - 1.2e-6, 1.0, 1e-6)
    assert frprmn_converged(0.0, 0.0, 0.0)            # the EPS keeps f = 0 meaningful
    assert not frprmn_converged(1e-9, 0.0, 1e-3)


def test_the_run_stops_when_a_step_lowers_the_loss_by_ftol_or_less_and_not_before():
    """On f = Σ cᵢ xᵢ⁴ (no exact line steps to a zero) each recorded step is checked against the test: the run
    ends at the first step that meets it — no earlier, no later."""
    c = np.array([1.0, 3.0, 0.5, 2.0])
    fun = lambda x: (float(c @ x ** 4), 4 * c * x ** 3)        # noqa: E731
    seen: list[np.ndarray] = []
    ftol = 1e-3
    out = pr_brent_minimise(fun, np.array([1.0, -2.0, 1.5, 0.7]), StopRule(max_iter=500, tol=ftol),
                            lambda x: seen.append(x.copy()))
    losses = [fun(x)[0] for x in seen]
    met = [2 * abs(b - a) <= ftol * (abs(a) + abs(b) + 1e-10) for a, b in zip(losses, losses[1:], strict=False)]
    assert out.reason == "converged" and len(met) >= 3
    assert met[-1] and not any(met[:-1])
    assert all(b <= a for a, b in zip(losses, losses[1:], strict=False))          # a line minimum never raises the loss


def test_max_iter_and_the_hooks_stop_reason_are_respected():
    fun, _ = quadratic(6, 3)
    out = pr_brent_minimise(fun, np.zeros(6), StopRule(max_iter=2, tol=0.0), lambda x: None)
    assert (out.reason, out.iterations) == ("max_iter", 2)
    calls = []

    def hook(x):
        calls.append(x)
        if len(calls) == 3:
            raise StopRun("max_time")
    out = pr_brent_minimise(fun, np.zeros(6), StopRule(max_iter=50, tol=0.0), hook)
    assert (out.reason, out.iterations) == ("max_time", 2)
    np.testing.assert_array_equal(out.x, calls[-1])


def test_clgd_pr_brent_reaches_the_lbfgs_optimum_when_run_to_convergence():
    """A unique optimum (L2 > 0: strictly convex in β): both optimisers find the same CLL."""
    net, data = noisy_naive_bayes_data(n=300)
    fits = {opt: make_learner("clgd", l2=1e-2, optimizer=opt, max_iter=2000, tol=1e-13).fit(net, data, target="C")
            for opt in ("lbfgs", "pr-brent")}
    assert fits["pr-brent"].stop_reason == "converged" and fits["pr-brent"].settings["optimizer"] == "pr-brent"
    cnll = {opt: fit.history[-1]["cnll"] for opt, fit in fits.items()}
    assert cnll["pr-brent"] == pytest.approx(cnll["lbfgs"], rel=1e-6)
    for v in net.variables:
        np.testing.assert_allclose(fits["pr-brent"].cpts[v], fits["lbfgs"].cpts[v], atol=1e-4)
    start = make_learner("mp").fit(net, data, target="C").history[-1]["cnll"]
    assert cnll["pr-brent"] < start - 1e-3          # it moved from the generative start


def test_clgd_pr_brent_reports_progress_and_can_be_cancelled():
    net, data = noisy_naive_bayes_data()
    fit = make_learner("clgd", optimizer="pr-brent", max_iter=4, tol=0.0).fit(net, data, target="C")
    assert fit.stop_reason == "max_iter" and len(fit.history) == 5      # the start and 4 iterations
    reporter = RecordingReporter(stop_after=3)
    before = net.parameter_version
    with pytest.raises(Cancelled, match="cancelled at iteration 3"):
        make_learner("clgd", optimizer="pr-brent").fit(net, data, target="C", reporter=reporter)
    assert [i.iteration for i in reporter.infos] == [1, 2, 3] and reporter.ended
    assert net.parameter_version == before
