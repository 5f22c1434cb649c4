"""``em``: expectation–maximisation for missing cells and latent variables (Zhou §3.2.3; tutorial, "EM").

E-step: expected counts E[N(x, π)] = Σ_n w_n p(x, π | e_n) — complete rows by counting, rows missing only the
target in closed form, all other rows grouped into unique patterns and sent through batched calibrations, in
chunks that fit ``memory_budget`` (bytes; :mod:`bnstudio.inference.batching`), the counts summed over the chunks
(:class:`~bnstudio.learn.params.terms.Terms`): memory stays bounded and time grows linearly with the rows. M-step: ``ml`` (θ ∝ E[N]) or ``mp`` (θ ∝ α + E[N]).

The returned parameters are the M-step after the last recorded E-step (the history's last entry is the
E-step before it). With the ``ml`` M-step the log-likelihood never decreases; with ``mp`` the monotone quantity is the
log-posterior LL + Σ α log θ (the posterior-mean update is the MAP update for a Dirichlet(α + 1) prior), and
that is what the stopping rule watches. Stops when the relative change is below ``tol`` ("converged"); a
non-finite or falling objective (numerical trouble: EM never lowers it in exact arithmetic) stops the run as
"diverged" and returns the best parameters evaluated. ``restarts`` adds runs from seeded random CPTs
(Dirichlet(1) rows); the run with the best final objective is kept.

Never a broken network: the start is floored (:func:`~bnstudio.learn.params.floor.floor_rows`), so every
training row has p(e) > 0 there and, the objective never falling, at every iterate; the returned CPTs are
floored too (an ``ml`` M-step gives 0 to cells no row reaches, which would make held-out rows impossible).
"""
from __future__ import annotations

import time

import numpy as np

from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.core.network import Network
from bnstudio.errors import ValidationError
from bnstudio.inference import DEFAULT_MEMORY_BUDGET
from bnstudio.jobs import Progress, Reporter
from bnstudio.learn.bounds import MAX_RESTARTS
from bnstudio.learn.params.base import DataScorer, FitResult, IterativeLearner, documented_fit
from bnstudio.learn.params.checks import check_choice, check_integer, check_memory_budget, check_seed
from bnstudio.learn.params.counting import check_prior, prior_counts
from bnstudio.learn.params.floor import floor_rows
from bnstudio.learn.params.streamed import StreamedEStep, is_streamed
from bnstudio.learn.params.suffstats import check_codes
from bnstudio.learn.params.terms import Terms


class ExpectationMaximisation(IterativeLearner):
    """``em`` with an ``ml`` or ``mp`` M-step (see module docstring)."""

    name = "em"

    def __init__(self, m_step: str = "ml", prior: str = "laplace", ess: float = 1.0, max_iter: int = 100,
                 tol: float = 1e-6, max_time: float = float("inf"), restarts: int = 0, init: str = "current",
                 seed: int | None = None, memory_budget: int = DEFAULT_MEMORY_BUDGET) -> None:
        self.m_step = check_choice("m_step", m_step, ("ml", "mp"))
        self.init = check_choice("init", init, ("current", "random"))
        self.prior, self.ess = prior, check_prior(prior, ess)
        self._set_stopping(max_iter, tol, max_time)
        self.restarts = check_integer("restarts", restarts, low=0, high=MAX_RESTARTS)
        self.seed = check_seed(seed)
        self.memory_budget = check_memory_budget(memory_budget)

    @documented_fit("""Expectation maximisation over the missing cells: expected family counts from the batched engine
        (E-step), then ml or mp from them (M-step), until the log-likelihood gain falls below ``tol`` (Zhou §3.2.3).""")
    def fit(self, net: Network, data, weights=None, target: str | None = None, validation=None,
            reporter: Reporter | None = None) -> FitResult:
        start = time.perf_counter()
        if is_streamed(data):
            e_step: InMemoryEStep | StreamedEStep = StreamedEStep(net, data, target, self.memory_budget, reporter)
        else:
            e_step = InMemoryEStep(net, data, weights, target, self.memory_budget)
        rng = np.random.default_rng(self.seed)
        pseudo = prior_counts(net, self.prior, self.ess) if self.m_step == "mp" else None
        progress = Progress(reporter, self.name, total=self.max_iter * (1 + self.restarts))
        val_scorer = (DataScorer(net, validation, None, target, memory_budget=self.memory_budget)
                      if validation is not None else None)
        best = None
        for run in range(1 + self.restarts):
            random_start = run > 0 or self.init == "random"
            theta = [floor_rows(rng.dirichlet(np.ones(net.cardinality(v)), size=net.family_shape(v)[:-1])
                                if random_start else net.cpt(v)) for v in net.variables]
            outcome = self._run(net, e_step, theta, pseudo, val_scorer, progress, start, len(best[1]) if best else 0)
            if best is None or outcome[2] > best[2]:
                best = outcome
        progress.done()
        assert best is not None  # there is at least one run
        theta, history, _, reason, counts = best
        cpts = {v: floor_rows(t) for v, t in zip(net.variables, theta, strict=True)}
        alpha = None if pseudo is None else {v: pseudo[v] + c for v, c in zip(net.variables, counts, strict=True)}
        settings = {"m_step": self.m_step, "prior": self.prior, "ess": self.ess, "restarts": self.restarts,
                    "max_iter": self.max_iter, "tol": self.tol, "seed": self.seed}
        return FitResult(self.name, cpts, alpha, history, reason, time.perf_counter() - start, settings)

    def _objective(self, ll: float, theta: list[np.ndarray], pseudo) -> float:
        if pseudo is None:
            return ll
        with np.errstate(divide="ignore"):
            return ll + sum(float((a * np.log(np.maximum(t, 1e-300))).sum())
                            for a, t in zip(pseudo.values(), theta, strict=True))

    def _run(self, net, e_step, theta, pseudo, val_scorer, progress, start, offset):
        """EM from ``theta``; returns (θ to keep, history, objective, stop reason, E-counts).

        θ to keep is the M-step after the last E-step, or on "diverged" the best θ evaluated (with its counts).
        """
        history: list[dict[str, float]] = []
        previous = -np.inf
        reason = "max_iter"
        best = None
        rule = self.stop_rule()
        for iteration in range(1, rule.max_iter + 1):
            ll, counts, total = e_step(theta)                          # E-step at the current θ
            objective = self._objective(ll, theta, pseudo)
            entry = {"iteration": iteration, "nll": -ll / total}
            if e_step.target is not None:
                entry["cnll"] = e_step.cnll(theta)
            if val_scorer is not None:
                entry.update({f"val_{k}": s for k, s in val_scorer.scores(theta).items()})
            entry["seconds"] = time.perf_counter() - start
            history.append(entry)
            progress.report(offset + iteration, {k: v for k, v in entry.items() if k != "iteration"})
            if best is None and not np.isfinite(objective):
                raise ValidationError("em: the starting parameters give some training row probability 0")
            stop = rule.reason(iteration, previous, objective, progress.elapsed) if iteration > 1 else None
            if stop == "diverged":
                assert best is not None   # stop is None on the first iteration, which sets best
                return best[0], history, best[1], stop, best[2]
            if best is None or objective > best[1]:
                best = (theta, objective, counts)
            theta = [normalise_rows(c + (pseudo[v] if pseudo is not None else 0.0))    # M-step
                     for c, v in zip(counts, net.variables, strict=True)]
            if stop:
                reason = stop
                break
            previous = objective
        return theta, history, objective, reason, counts


class InMemoryEStep:
    """EM's E-step over rows in memory: ``(Σ_n w_n log p(e_n), expected counts per family, Σ_n w_n)`` at θ.
    Row kinds and family indices are prepared once for all iterations; rows of weight 0 are dropped (they add
    nothing and may have p(e) = 0 at an iterate)."""

    def __init__(self, net: Network, data, weights, target: str | None, memory_budget: int) -> None:
        codes, weights = check_codes(net, data, weights)
        if weights.min() == 0:
            codes, weights = codes[weights > 0], weights[weights > 0]
        self.terms = Terms(net, memory_budget)
        self.rows = self.terms.prepare(codes)
        self.weights, self.target = weights, target
        self.scorer = DataScorer(net, codes, weights, target, terms=self.terms) if target is not None else None

    def __call__(self, theta: list[np.ndarray]) -> tuple[float, list[np.ndarray], float]:
        self.terms.set_cpts(theta)
        stats = self.terms.stats(self.rows, self.weights)
        assert stats.counts is not None  # asked for by default
        return float((self.weights * stats.logp).sum()), stats.counts, float(self.weights.sum())

    def cnll(self, theta: list[np.ndarray]) -> float:
        """The mean CNLL of the target at θ (the CPTs of the last call)."""
        assert self.scorer is not None  # called only with a target
        return self.scorer.scores()["cnll"]
