"""Generative estimates by counting: maximum likelihood (``ml``) and mean posterior (``mp``).

* ``ml``: θ_{x|π} = N(x, π) / N(π) (Zhou eq 3.14; Friedman & Goldszmidt, "ML estimation"). With missing cells
  a row counts for a family only where the whole family is observed (Zhou §4.2.3, Theorem 4.1: for naive
  Bayes with MCAR data this is the ML estimate). Rows never seen (N(π) = 0) get a uniform distribution.
  A cell never seen in its row (N(x, π) = 0) would get 0, which makes every row using it impossible — held-out
  rows, and training rows with missing cells whose only completions use it; such a row is instead mixed with
  the uniform row so that its smallest entry is ε = 1e-9 (:func:`~bnstudio.learn.params.floor.floor_rows`).
  Every other row is exact relative frequencies.
* ``mp``: with a Dirichlet prior α_{x|π}, the posterior is Dirichlet(α + N) and its mean
  θ_{x|π} = (α_{x|π} + N(x, π)) / (α_π + N(π)) (Singh eq 2.1–2.3; tutorial, "Bayesian estimation"). Priors:
  ``laplace`` (``ess`` pseudo-counts per cell, default 1), ``bdeu`` (α = ess / (|Pa| · |X|)) and ``network``
  (BDe: α = ess · p_prior(x, π) from a prior network). The posterior counts α + N are kept as ``alpha`` for
  error bars. The prior keeps every entry ≥ α_{x|π} / (α_π + N(π)) > 0; the 1e-9 floor applies only if that is
  smaller (a tiny ``ess`` with a huge data weight). ``ess`` must lie in [1e-6, 1e9].
"""
from __future__ import annotations

import time
import warnings

import numpy as np

from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.core.network import Network
from bnstudio.errors import ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.jobs import Progress, Reporter
from bnstudio.learn.params.base import DataScorer, FitResult, ParameterLearner, documented_fit
from bnstudio.learn.params.checks import check_choice, check_ess
from bnstudio.learn.params.floor import floor_rows
from bnstudio.learn.params.streamed import fit_streamed, is_streamed
from bnstudio.learn.params.suffstats import check_codes, family_counts

PRIORS = ("laplace", "bdeu", "network")


def prior_counts(net: Network, prior: str = "laplace", ess: float = 1.0,
                 prior_network: Network | None = None) -> dict[str, np.ndarray]:
    """Dirichlet pseudo-counts α per family (see module docstring)."""
    check_prior(prior, ess)
    if prior == "laplace":
        return {v: np.full(net.family_shape(v), float(ess)) for v in net.variables}
    if prior == "bdeu":
        return {v: np.full(net.family_shape(v), ess / np.prod(net.family_shape(v))) for v in net.variables}
    if prior == "network":
        if prior_network is None:
            raise ValidationError("the 'network' prior needs a prior network")
        for v in net.variables:
            if v not in prior_network or prior_network.states(v) != net.states(v):
                raise ValidationError(f"prior network must have variable '{v}' with states {net.states(v)}")
        joint = InferenceEngine(prior_network).family_marginals()
        out = {}
        for v in net.variables:
            order = [prior_network.parents(v).index(p) for p in net.parents(v)] \
                if set(prior_network.parents(v)) == set(net.parents(v)) else None
            if order is None:
                raise ValidationError(f"prior network gives '{v}' other parents than the network")
            table = joint[v].transpose(order + [len(order)])
            out[v] = ess * table
        return out
    raise AssertionError(prior)   # check_prior accepted only PRIORS


def check_prior(prior: str, ess: float) -> float:
    """The prior's name and its equivalent sample size (see :func:`~bnstudio.learn.params.checks.check_ess`)."""
    check_choice("prior", prior, PRIORS)
    return check_ess(ess)


def training_scores(net: Network, cpts: dict, counts: dict, data: np.ndarray, weights: np.ndarray,
                    target: str | None) -> dict[str, float]:
    """Mean NLL (and CNLL with a target). Complete data without a target: -Σ_f Σ N_f log θ_f / N from the
    counts already made (no second pass over the rows)."""
    if target is None and data.min() >= 0:
        return {"nll": count_nll(net, cpts, counts, weights.sum())}
    scorer = DataScorer(net, data, weights, target, counts=counts, keep_x=False)    # scored once
    return scorer.scores([cpts[v] for v in net.variables])


def count_nll(net: Network, cpts: dict, counts: dict, total: float) -> float:
    """-Σ_f Σ N_f log θ_f / N: the mean NLL of complete rows from their family counts (0 log 0 = 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ll = sum(float(np.where(counts[v] > 0, counts[v] * np.log(cpts[v]), 0.0).sum()) for v in net.variables)
    return -ll / total


def one_shot(method: str, net: Network, cpts: dict, alpha: dict | None, scores: dict[str, float], target,
             validation, reporter: Reporter | None, settings: dict, start: float) -> FitResult:
    """The result of a closed-form fit: one history entry with its training ``scores`` (and validation's, with
    the CNLL of ``target`` when given)."""
    progress = Progress(reporter, method, total=1)
    theta = [cpts[v] for v in net.variables]
    entry = {"iteration": 1, **scores}
    if validation is not None:
        entry.update({f"val_{k}": s for k, s in DataScorer(net, validation, None, target).scores(theta).items()})
    entry["seconds"] = time.perf_counter() - start
    progress.report(1, {k: v for k, v in entry.items() if k != "iteration"})
    progress.done()
    return FitResult(method, cpts, alpha, [entry], "closed_form", time.perf_counter() - start, settings)


class MaximumLikelihood(ParameterLearner):
    """``ml``: relative frequencies of fully observed families."""

    name = "ml"

    @documented_fit("""Relative frequencies N(x, π) / N(π) of the fully observed families (Zhou eq 3.14); rows never seen
        uniform, cells never seen floored at 1e-9.""")
    def fit(self, net: Network, data, weights=None, target: str | None = None, validation=None,
            reporter: Reporter | None = None) -> FitResult:
        start = time.perf_counter()
        if is_streamed(data):
            return fit_streamed(self, net, data, target, validation, reporter)
        codes, weights = check_codes(net, data, weights)
        counts = family_counts(net, codes, weights)
        counts.update(unobserved_parent_counts(net, codes, weights))
        cpts = {v: floor_rows(normalise_rows(c)) for v, c in counts.items()}
        scores = training_scores(net, cpts, counts, codes, weights, target)
        return one_shot(self.name, net, cpts, None, scores, target, validation, reporter, {}, start)


def unobserved_parent_counts(net: Network, codes: np.ndarray, weights: np.ndarray) -> dict[str, np.ndarray]:
    """Counts of the families with a parent missing in every row (a warning names the parents): with no complete
    row such a family would come out uniform. The data say nothing about how the child depends on a parent never
    seen, so its counts N(x, π') over the other parents π' are used for every state of the never-seen ones: the
    ML estimate with those parents marginalised out (one maximiser of the observed-data likelihood)."""
    positive = weights > 0
    unseen = {v for k, v in enumerate(net.variables) if not np.any(codes[positive, k] >= 0)}
    if not unseen:
        return {}
    warn_unseen(net, unseen)
    return marginal_counts(net, codes, weights, unseen)


def warn_unseen(net: Network, unseen: set[str]) -> None:
    """Name the variables missing in every row and the children learned with them marginalised out."""
    children = [v for v in net.variables if unseen & set(net.parents(v)) and v not in unseen]
    warnings.warn(f"column(s) {', '.join(repr(v) for v in sorted(unseen))} missing in every row: their CPTs stay "
                  f"uniform" + (f", and their children's ({', '.join(repr(c) for c in children[:5])}"
                                f"{', ...' if len(children) > 5 else ''}) are learned with them marginalised out"
                                if children else ""), stacklevel=2)  # at the learner's step that counted


def marginal_counts(net: Network, codes: np.ndarray, weights: np.ndarray | None,
                    unseen: set[str]) -> dict[str, np.ndarray]:
    """N(x, π') of the children of the ``unseen`` variables over their other parents π', broadcast over the
    unseen parents' states (see :func:`unobserved_parent_counts`)."""
    children = [v for v in net.variables if unseen & set(net.parents(v)) and v not in unseen]
    if weights is None:
        weights = np.ones(len(codes))
    column = {v: k for k, v in enumerate(net.variables)}
    out = {}
    for child in children:
        parents = net.parents(child)
        kept = [p for p in parents if p not in unseen] + [child]
        cards = [net.cardinality(v) for v in kept]
        sub = codes[:, [column[v] for v in kept]]
        rows = (sub >= 0).all(axis=1)
        flat = np.ravel_multi_index(tuple(sub[rows].T), cards)
        counts = np.bincount(flat, weights=weights[rows], minlength=int(np.prod(cards))).reshape(cards)
        shape = [1 if p in unseen else net.cardinality(p) for p in parents] + [net.cardinality(child)]
        full = [net.cardinality(p) for p in parents] + [net.cardinality(child)]
        out[child] = np.broadcast_to(counts.reshape(shape), full).copy()
    return out


class MeanPosterior(ParameterLearner):
    """``mp``: posterior mean under a Dirichlet prior; keeps the posterior counts as ``alpha``."""

    name = "mp"

    def __init__(self, prior: str = "laplace", ess: float = 1.0, prior_network: Network | None = None) -> None:
        self.ess = check_prior(prior, ess)
        self.prior, self.prior_network = prior, prior_network

    @documented_fit("""The Dirichlet posterior mean (α + N(x, π)) / (α_π + N(π)) (Singh eq 2.1–2.3), keeping α + N as the
        Dirichlet counts.""")
    def fit(self, net: Network, data, weights=None, target: str | None = None, validation=None,
            reporter: Reporter | None = None) -> FitResult:
        start = time.perf_counter()
        if is_streamed(data):
            return fit_streamed(self, net, data, target, validation, reporter)
        codes, weights = check_codes(net, data, weights)
        counts = family_counts(net, codes, weights)
        cpts, alpha = self.estimate(net, counts)
        scores = training_scores(net, cpts, counts, codes, weights, target)
        return one_shot(self.name, net, cpts, alpha, scores, target, validation, reporter, self.settings(), start)

    def estimate(self, net: Network, counts: dict[str, np.ndarray]) -> tuple[dict, dict]:
        """(CPTs, posterior counts α + N) from the data's family counts N."""
        pseudo = prior_counts(net, self.prior, self.ess, self.prior_network)
        alpha = {v: pseudo[v] + counts[v] for v in net.variables}
        return {v: floor_rows(normalise_rows(a)) for v, a in alpha.items()}, alpha

    def settings(self) -> dict:
        return {"prior": self.prior, "ess": self.ess}
