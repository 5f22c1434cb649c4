"""Learn the parameters of a leaky noisy-MAX (noisy-OR) from data by EM over its few parameters.

The model (:mod:`bnstudio.core.canonical`) has one hidden cause per parent, Y_i ~ c_i(. | x_i), and a hidden
leak Y_L ~ c_L; the child is the most severe of them. Given the family counts N(x, y) (complete family data, or
the expected counts of an outer EM), EM treats the hidden causes as missing data (Dempster, Laird & Rubin 1977;
for noisy-OR: Vomlel 2006, "Noisy-or classifier"). With F_-m(j | x) = P(every cause but m has index >= j)
(the cumulatives of the other causes multiplied) and P(y | x) the CPT, the E-step posterior of cause m is::

    P(Y_m = t | x, y) = c_m(t | x_m) * F_-m(y | x) / P(y | x)                              if t = y
                      = c_m(t | x_m) * (F_-m(y | x) - F_-m(y + 1 | x)) / P(y | x)          if t is less severe
                      = 0                                                                   if t is more severe

and the M-step sets c_m(. | x_m) proportional to the expected counts of Y_m = t summed over the data with
X_m = x_m (the distinguished parent states stay fixed). Every iteration is vectorised over the whole table and
the log-likelihood sum N(x, y) log P(y | x) never decreases (the EM property; tests check it). The child's states
are taken in severity order throughout (the counts are permuted by the model's ``child_order`` once per step), so
a table listing its absent state first is fitted by the same maths.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from bnstudio.core.canonical import NoisyMax, tail_sums
from bnstudio.errors import Cancelled, ValidationError
from bnstudio.jobs import IterationInfo, NullReporter, Reporter


@dataclass
class NoisyMaxFit:
    """The fitted model, the log-likelihood after each iteration (first: the initial model's) and why it stopped."""

    model: NoisyMax
    history: list[float] = field(default_factory=list)
    stop_reason: str = ""


def log_likelihood(model: NoisyMax, counts: np.ndarray) -> float:
    """sum N(x, y) log P(y | x) (-inf if some observed case is impossible)."""
    cpt = model.expand()
    seen = counts > 0
    if np.any(cpt[seen] <= 0):
        return -math.inf
    return float(np.sum(counts[seen] * np.log(cpt[seen])))


def _causes(model: NoisyMax) -> list[np.ndarray]:
    """The cumulative of every cause (parents, then the leak), broadcastable to the CPT's shape."""
    k = len(model.links)
    out = []
    for i, link in enumerate(model.links):
        shape = [1] * k + [link.shape[1]]
        shape[i] = link.shape[0]
        out.append(tail_sums(link).reshape(shape))
    out.append(tail_sums(np.asarray(model.leak)).reshape((1,) * k + (-1,)))
    return out


def em_step(model: NoisyMax, counts: np.ndarray) -> NoisyMax:
    """One EM iteration (see the module docstring)."""
    k, shape = len(model.links), model.shape
    causes = _causes(model)
    counts = model.to_severity(counts)  # y in severity order, as the causes' cumulatives
    cpt = model.severity_table()
    weight = np.divide(counts, cpt, out=np.zeros(shape), where=counts > 0)
    new_links, new_leak = [], None
    for m in range(k + 1):
        others = np.ones(shape)
        for j, cum in enumerate(causes):
            if j != m:
                others = others * cum
        others_next = np.concatenate([others[..., 1:], np.zeros(shape[:-1] + (1,))], -1)
        less = weight * (others - others_next)  # y observed, the cause less severe than y
        before = np.cumsum(less, -1) - less       # sum over y < t: t less severe than y
        inner = weight * others + before
        axes = tuple(a for a in range(k) if a != m)
        if m < k:
            link = model.links[m] * inner.sum(axis=axes)
            rows = link.sum(-1, keepdims=True)
            link = np.divide(link, rows, out=model.links[m].copy(), where=rows > 0)
            link[model.distinguished[m]] = model.links[m][model.distinguished[m]]
            new_links.append(link)
        else:
            leak = model.leak * inner.sum(axis=tuple(range(k)))
            new_leak = leak / leak.sum() if leak.sum() > 0 else model.leak
    assert new_leak is not None  # set at m == k, the loop's last step
    return NoisyMax(tuple(new_links), new_leak, model.distinguished, model.child_order)


def initial_model(shape: tuple[int, ...], distinguished: tuple[int, ...],
                  child_order: tuple[int, ...] | None = None) -> NoisyMax:
    """Every non-distinguished parent state and the leak uniform over the child's states (``child_order``: as in
    :class:`~bnstudio.core.canonical.NoisyMax`)."""
    card = shape[-1]
    links = []
    for size, d in zip(shape[:-1], distinguished, strict=True):
        link = np.full((size, card), 1.0 / card)
        link[d] = np.eye(card)[-1]
        links.append(link)
    return NoisyMax(tuple(links), np.full(card, 1.0 / card), tuple(distinguished), child_order)


def fit_noisy_max(counts: np.ndarray, distinguished: tuple[int, ...] | None = None, init: NoisyMax | None = None,
                  max_iter: int = 500, tol: float = 1e-9, reporter: Reporter | None = None,
                  child_order: tuple[int, ...] | None = None) -> NoisyMaxFit:
    """EM for a leaky noisy-MAX from the family counts ``counts`` (the CPT's shape, parents first, the child's
    states in the table's order).

    ``distinguished``: each parent's distinguished state (default: its last); ``child_order``: the table's child
    states in severity order (default: ``init``'s, else the identity: the last state is the absent one);
    ``init``: the starting model (default :func:`initial_model`). Stops when an iteration gains less than ``tol``
    times |log-likelihood| (``"converged"``) or after ``max_iter`` iterations (``"max_iter"``); a reporter asking
    to stop raises :class:`~bnstudio.errors.Cancelled`.
    """
    counts = np.asarray(counts, dtype=float)
    if counts.ndim < 1 or counts.shape[-1] < 2 or not np.all(np.isfinite(counts)) or np.any(counts < 0):
        raise ValidationError("noisy-MAX counts: a non-negative table of the CPT's shape with >= 2 child states")
    if distinguished is None:
        distinguished = tuple(size - 1 for size in counts.shape[:-1])
    model = init if init is not None else initial_model(counts.shape, tuple(distinguished), child_order)
    if model.shape != counts.shape:
        raise ValidationError(f"noisy-MAX counts of shape {counts.shape} for a model of shape {model.shape}")
    if child_order is not None and init is not None and tuple(model.order) != tuple(child_order):
        raise ValidationError(f"noisy-MAX child order {list(child_order)} for a starting model ordered "
                              f"{model.order.tolist()}")
    reporter = reporter or NullReporter()
    reporter.begin("noisy-MAX EM", max_iter)
    fit = NoisyMaxFit(model, [log_likelihood(model, counts)], "max_iter")
    try:
        for iteration in range(1, max_iter + 1):
            model = em_step(model, counts)
            fit.model = model
            fit.history.append(log_likelihood(model, counts))
            if reporter.iteration(IterationInfo(iteration, {"loglik": fit.history[-1]})):
                raise Cancelled("noisy-MAX EM cancelled")
            if abs(fit.history[-1] - fit.history[-2]) <= tol * max(abs(fit.history[-1]), 1.0):
                fit.stop_reason = "converged"
                break
    finally:
        reporter.end()
    return fit


def closest_noisy_max(table: np.ndarray, **options) -> NoisyMaxFit:
    """The noisy-MAX closest to ``table`` (EM with its rows as weights, :func:`fit_noisy_max`) under the
    conventions of the tools that write such tables: each parent's distinguished state last (GeNIe) or first, and
    the child's absent state last (GeNIe) or first (a Hugin Boolean node lists "false" first), the child's other
    states keeping their order. The fit of the highest log-likelihood wins; a tie keeps GeNIe's convention."""
    table = np.asarray(table, dtype=float)
    card = table.shape[-1]
    last = tuple(size - 1 for size in table.shape[:-1])
    absent_first = tuple(range(1, card)) + (0,)      # severity order: the table's state 0 last
    best: NoisyMaxFit | None = None
    for distinguished in dict.fromkeys([last, (0,) * len(last)]):
        for order in (None, absent_first):
            fit = fit_noisy_max(table, distinguished, child_order=order, **options)
            if best is None or fit.history[-1] > best.history[-1] + 1e-12 * max(abs(best.history[-1]), 1.0):
                best = fit
    assert best is not None  # the first fit is always taken
    return best


def fit_node(net, var: str, codes: np.ndarray, **options) -> NoisyMaxFit:
    """EM for the noisy-MAX of ``var`` from the rows of ``codes`` (aligned to ``net``) where its family is observed;
    the start, the distinguished states and the child's order are ``var``'s current noisy-MAX if it has one. The
    network is not changed (apply with :func:`bnstudio.core.canonical.set_canonical`)."""
    from bnstudio.core.canonical import canonical_of
    from bnstudio.learn.params.suffstats import family_counts

    current = canonical_of(net, var)
    if isinstance(current, NoisyMax):
        options.setdefault("init", current)
        options.setdefault("distinguished", current.distinguished)
    return fit_noisy_max(family_counts(net, codes)[var], **options)
