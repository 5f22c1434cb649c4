"""``bagged-mp``: bootstrap aggregation of the mean-posterior estimate (Singh §4.5.1).

T bootstrap replicates of the rows (multinomial resampling weights, seeded; ``m_bagging`` draws m = ⌊√n⌋ rows per
bag instead of n) each give an ``mp`` estimate. The bags are counted together — the bag is an array axis, one
``np.bincount`` over t·|family| bins per family — in chunks of t bags whose resampling weights fit
``memory_budget`` (bytes; :mod:`bnstudio.inference.batching`), drawn one chunk after the other from the same seeded
stream (so the bags do not depend on the budget), and kept as an ensemble of parameter sets (T, *family).
A query on a bagged model is answered by averaging the response over the bags (:func:`bagged_posterior`,
batched propagations with the bags as the engine's parameter axis, as many bags per propagation as fit the
engine's budget); the spread over bags is a bootstrap interval. The CPTs shown to the user (``FitResult.cpts``) are the mean parameters over the bags — a summary,
not what queries average. With ``bags=1`` and ``resample=False`` the result equals ``mp``. Every bag is floored
like ``mp`` (entries ≥ 1e-9, :mod:`~bnstudio.learn.params.floor`), so the bag means are too. ``bags`` is an integer
in [1, 10^5]; bags × CPT cells (the ensemble kept) may be at most :data:`MAX_ENSEMBLE`.
"""
from __future__ import annotations

import math
import time

import numpy as np

from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.core.network import Network
from bnstudio.defaults import CREDIBLE_LEVEL
from bnstudio.errors import ValidationError
from bnstudio.inference import DEFAULT_MEMORY_BUDGET, InferenceEngine
from bnstudio.inference.batching import fitting, parameter_batches, spans
from bnstudio.jobs import Progress, Reporter
from bnstudio.learn.bounds import MAX_BAGS
from bnstudio.learn.params.base import DataScorer, FitResult, ParameterLearner, documented_fit
from bnstudio.learn.params.checks import check_integer, check_memory_budget, check_seed
from bnstudio.learn.params.counting import check_prior, prior_counts
from bnstudio.learn.params.floor import floor_rows
from bnstudio.learn.params.suffstats import bootstrap_counts, check_codes, families, family_index

#: the most numbers an ensemble may hold (bags × CPT cells; 8 bytes each)
MAX_ENSEMBLE = 100_000_000


class BaggedMeanPosterior(ParameterLearner):
    """``bagged-mp`` (see module docstring)."""

    name = "bagged-mp"

    def __init__(self, bags: int = 30, prior: str = "laplace", ess: float = 1.0, m_bagging: bool = False,
                 resample: bool = True, seed: int | None = None, memory_budget: int = DEFAULT_MEMORY_BUDGET) -> None:
        self.bags = check_integer("bags", bags, low=1, high=MAX_BAGS)
        self.prior, self.ess = prior, check_prior(prior, ess)
        self.m_bagging, self.resample, self.seed = bool(m_bagging), bool(resample), check_seed(seed)
        self.memory_budget = check_memory_budget(memory_budget)

    def bag_weights(self, weights: np.ndarray, bags: int | None = None,
                    rng: np.random.Generator | None = None) -> np.ndarray:
        """(t, N) resampling multiplicities times the row weights: the next ``bags`` bags (default all T) of
        ``rng`` (default a fresh stream from the seed)."""
        n, bags = len(weights), self.bags if bags is None else bags
        if not self.resample:
            return np.tile(weights, (bags, 1))
        rng = np.random.default_rng(self.seed) if rng is None else rng
        draws = max(1, math.isqrt(n)) if self.m_bagging else n   # Singh §4.6.1: m = ⌊√n⌋
        return rng.multinomial(draws, np.full(n, 1.0 / n), size=bags) * weights[None, :]

    @documented_fit("""mp on ``bags`` bootstrap resamples; the CPTs are the bags' mean, the ensemble is kept for
        interval estimates.""")
    def fit(self, net: Network, data, weights=None, target: str | None = None, validation=None,
            reporter: Reporter | None = None) -> FitResult:
        start = time.perf_counter()
        codes, weights = check_codes(net, data, weights)
        cells = sum(int(np.prod(net.family_shape(v), dtype=float)) for v in net.variables)
        size = self.bags * cells
        if size > MAX_ENSEMBLE:
            raise ValidationError(f"bags: {self.bags} bags of {cells} CPT cells would hold {size:.3g} numbers "
                                  f"(limit {MAX_ENSEMBLE:.0e}); use fewer bags")
        progress = Progress(reporter, self.name, total=1)
        pseudo = prior_counts(net, self.prior, self.ess)
        fams = families(net)
        ensemble = {fam.var: np.empty((self.bags,) + fam.shape) for fam in fams}
        rng = np.random.default_rng(self.seed)
        # per bag and row: the multiplicity (drawn as integers, then weighted), the bin numbers and weights
        for part in spans(self.bags, fitting(32 * len(codes), self.memory_budget)):
            bag_w = self.bag_weights(weights, part.stop - part.start, rng)
            for fam in fams:
                counts = bootstrap_counts(family_index(codes, fam), bag_w, fam)
                ensemble[fam.var][part] = floor_rows(normalise_rows(counts + pseudo[fam.var][None]))
        cpts = {v: t.mean(axis=0) for v, t in ensemble.items()}
        theta = [cpts[v] for v in net.variables]
        entry = {"iteration": 1, **DataScorer(net, codes, weights, target).scores(theta)}
        if validation is not None:
            entry.update({f"val_{k}": s for k, s in DataScorer(net, validation, None, target).scores(theta).items()})
        entry["seconds"] = time.perf_counter() - start
        progress.report(1, {k: v for k, v in entry.items() if k != "iteration"})
        progress.done()
        settings = {"bags": self.bags, "prior": self.prior, "ess": self.ess, "m_bagging": self.m_bagging,
                    "resample": self.resample, "seed": self.seed}
        return FitResult(self.name, cpts, None, [entry], "closed_form", time.perf_counter() - start, settings,
                         ensemble=ensemble)


def bagged_posterior(net: Network, ensemble: dict[str, np.ndarray], target: str,
                     evidence: dict[str, str] | None = None, level: float = CREDIBLE_LEVEL,
                     engine: InferenceEngine | None = None) -> dict[str, np.ndarray]:
    """Average of p(target | e) over the bags, with the bootstrap interval (quantiles over bags) per state.

    Returns {"mean": (|X|,), "low": (|X|,), "high": (|X|,), "bags": (T, |X|)}.
    """
    engine = engine or InferenceEngine(net)
    columns = {name: np.array([net.states(name).index(state)]) for name, state in (evidence or {}).items()}
    if not columns:
        columns = {target: np.array([-1])}
    per_bag = np.concatenate([engine.posterior_batch(target, columns, parameters=bags)[target][:, 0, :]
                              for bags in parameter_batches(engine, ensemble, 1, "the bagged query")])
    tail = (1.0 - level) / 2
    return {"mean": per_bag.mean(axis=0), "low": np.quantile(per_bag, tail, axis=0),
            "high": np.quantile(per_bag, 1 - tail, axis=0), "bags": per_bag}
