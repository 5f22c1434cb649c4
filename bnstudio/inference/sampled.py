"""Likelihood weighting: posteriors by importance sampling, with their Monte-Carlo standard errors.

For networks whose junction tree exceeds the memory budget (a 40x40 grid), and on request otherwise
(docs/inference.md §12). Each sample draws the unobserved variables ancestrally from their CPTs, the observed
ones clamped to their finding, and carries the weight w = Π_{e ∈ E} p(e | pa(e)) · Π_{soft} λ_v(x_v) (a soft
finding is a virtual child of its variable). With the prior as proposal (Fung & Chang 1990; Shachter & Peot
1990) the self-normalised estimate and its delta-method standard error for a ratio estimator are

    p̂(x | e) = Σ_i w_i 1[x_i = x] / Σ_i w_i,
    se(p̂)²   = Σ_i w_i² (1[x_i = x] − p̂)² / (Σ_i w_i)²,

and p̂(e) = (1/n) Σ_i w_i, with the effective sample size ESS = (Σ w)² / Σ w². Only the ancestors of the targets
and the findings are sampled (every other variable is barren and sums out): the cost follows the query.
Samples are drawn in chunks within the memory budget (docs/architecture.md §3.15), weights kept as logs with a
running shift, so thousands of findings cannot underflow; each chunk is one numpy pass per variable.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.errors import ImpossibleEvidence, ValidationError
from bnstudio.inference import evidence as ev
from bnstudio.inference.batching import WORKING_SET, fitting
from bnstudio.inference.pruning import ancestral_set
from bnstudio.jobs import Progress, Reporter

if TYPE_CHECKING:
    from bnstudio.core.network import Network

MAX_CHUNK = 1 << 13  # samples per chunk: larger chunks are no faster (their codes leave the caches)
Seed = int | np.random.Generator | None


@dataclass
class SampledAnswer:
    """Approximate posteriors with their Monte-Carlo standard errors ({target: (|X|,)} each).

    ``method`` names the algorithm; ``samples`` drawn, ``effective_samples`` = (Σw)²/Σw² (how many unweighted
    samples the weighted ones are worth), ``log_evidence`` the estimate of log p(e)."""

    posteriors: dict[str, np.ndarray]
    standard_errors: dict[str, np.ndarray]
    method: str = "likelihood-weighting"
    samples: int = 0
    effective_samples: float = 0.0
    log_evidence: float = 0.0


class _Weighted:
    """Running sums Σw·1[x], Σw²·1[x] per target state and Σw, Σw², all relative to exp(shift)."""

    def __init__(self, cards: Sequence[int]) -> None:
        self.shift = -np.inf
        self.w = self.w2 = 0.0
        self.wx = [np.zeros(c) for c in cards]
        self.w2x = [np.zeros(c) for c in cards]

    def add(self, log_w: np.ndarray, codes: Sequence[np.ndarray]) -> None:
        top = float(log_w.max())
        if top == -np.inf:
            return
        if top > self.shift:                      # rescale what was summed to the new shift
            old = np.exp(self.shift - top) if self.shift > -np.inf else 0.0
            self.w, self.w2 = self.w * old, self.w2 * old * old
            self.wx = [a * old for a in self.wx]
            self.w2x = [a * old * old for a in self.w2x]
            self.shift = top
        w = np.exp(log_w - self.shift)
        w2 = w * w
        self.w += float(w.sum())
        self.w2 += float(w2.sum())
        for k, x in enumerate(codes):
            self.wx[k] += np.bincount(x, weights=w, minlength=len(self.wx[k]))
            self.w2x[k] += np.bincount(x, weights=w2, minlength=len(self.w2x[k]))

    def estimates(self) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """(p̂, se) per target: the ratio estimator and its delta-method standard error."""
        post, se = [], []
        for wx, w2x in zip(self.wx, self.w2x):
            p = wx / self.w
            var = (w2x * (1.0 - 2.0 * p) + p * p * self.w2) / self.w ** 2
            post.append(p)
            se.append(np.sqrt(np.maximum(var, 0.0)))
        return post, se


def likelihood_weighting(net: Network, targets: str | Sequence[str], evidence: ev.Evidence | None = None,
                         samples: int = 100_000, seed: Seed = None, memory_budget: int = WORKING_SET,
                         reporter: Reporter | None = None) -> SampledAnswer:
    """p(X | e) of each target by likelihood weighting, with Monte-Carlo standard errors (module docstring).

    ``evidence`` takes what the exact engine takes (a state, its index or a likelihood vector per variable).
    Raises :class:`ImpossibleEvidence` when no sample has positive weight (the evidence is impossible, or too
    unlikely for this many samples: the message says which it may be). Cancellable through ``reporter``
    once per chunk."""
    names = [targets] if isinstance(targets, str) else list(targets)
    samples = _check_samples(samples)
    index = ev.VariableIndex(net.variables, [net.states(v) for v in net.variables])
    tidx = [index.index(t) for t in names]
    lams = ev.single_evidence(index, evidence)
    clamp = {v: int(np.argmax(lam[0])) for v, lam in lams.items() if np.count_nonzero(lam[0]) == 1}
    soft = {v: lam[0] for v, lam in lams.items() if v not in clamp}
    for v in tidx:
        if v in clamp:
            raise ValidationError(f"'{index.names[v]}' is both a target and observed; its posterior is the finding")
    parents = [[index.position[p] for p in net.parents(v)] for v in net.variables]
    keep = ancestral_set(parents, set(tidx) | set(lams))
    order = [index.position[v] for v in net.topological_order() if index.position[v] in keep]
    tables = {v: normalise_rows(np.asarray(net.cpt(index.names[v]), dtype=float)).reshape(-1, index.cards[v])
              for v in order}
    cumulative = {v: _cumulative(tables[v]) for v in order if v not in clamp}
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    chunk = min(MAX_CHUNK, fitting(8 * (len(order) + 4), memory_budget))
    last_use = _last_use(order, parents, tidx)
    sums = _Weighted([index.cards[v] for v in tidx])
    progress = Progress(reporter, "Likelihood weighting", -(-samples // chunk))
    for k, start in enumerate(range(0, samples, chunk)):
        n = min(chunk, samples - start)
        codes: dict[int, np.ndarray] = {}
        log_w = np.zeros(n)
        for step, v in enumerate(order):
            rows = _rows(parents[v], codes, index.cards, n)
            if v in clamp:
                codes[v] = np.full(n, clamp[v])
                with np.errstate(divide="ignore"):
                    log_w += np.log(tables[v][rows, clamp[v]])
            else:
                codes[v] = _draw(cumulative[v], rows, rng)
                if v in soft:
                    with np.errstate(divide="ignore"):
                        log_w += np.log(soft[v][codes[v]])
            for done in last_use.get(step, ()):   # codes no later variable reads: the working set stays small
                del codes[done]
        sums.add(log_w, [codes[t] for t in tidx])
        progress.report(k + 1, {"samples": float(start + n)})
    progress.done()
    if sums.w == 0.0:
        raise ImpossibleEvidence(f"no sample out of {samples} is consistent with the evidence "
                                 f"({ev.describe(index, evidence)}): it is impossible, or too unlikely for "
                                 f"likelihood weighting with this many samples")
    post, se = sums.estimates()
    log_e = sums.shift + float(np.log(sums.w / samples)) + float(lams.log_scale)
    return SampledAnswer(dict(zip(names, post)), dict(zip(names, se)), samples=samples,
                         effective_samples=sums.w ** 2 / sums.w2, log_evidence=log_e)


def _check_samples(samples: object) -> int:
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 1:
        raise ValidationError(f"the number of samples must be a positive integer, got {samples!r}")
    return int(samples)


def _cumulative(table: np.ndarray) -> np.ndarray:
    """The cumulative sums of each row but the last (always 1), as (|X| − 1, rows), one contiguous array per
    state boundary: a draw compares a uniform with one gathered column at a time."""
    return np.ascontiguousarray(np.cumsum(table, axis=1)[:, :-1].T)


def _rows(parents: Sequence[int], codes: Mapping[int, np.ndarray], cards: Sequence[int], n: int) -> np.ndarray:
    """Each sample's row of a CPT (mixed radix of its parents' codes, the first parent slowest)."""
    if not parents:
        return np.zeros(n, dtype=np.int64)
    rows = codes[parents[0]].copy()
    for p in parents[1:]:
        rows *= cards[p]
        rows += codes[p]
    return rows


def _last_use(order: Sequence[int], parents: Sequence[Sequence[int]], targets: Sequence[int]) -> dict[int, list[int]]:
    """{step: variables whose codes are read for the last time at that step of ``order``} (a variable is read
    by its children; targets are kept to the end)."""
    step_of = {v: k for k, v in enumerate(order)}
    last = {v: k for k, v in enumerate(order)}
    for v in order:
        for p in parents[v]:
            last[p] = max(last[p], step_of[v])
    out: dict[int, list[int]] = {}
    for v, k in last.items():
        if v not in targets:
            out.setdefault(k, []).append(v)
    return out


def _draw(cumulative: np.ndarray, rows: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One state per sample: the number of cumulative boundaries a uniform draw passes (the inverse CDF)."""
    u = rng.random(rows.shape[0])
    out = np.zeros(rows.shape[0], dtype=np.int64)
    for bound in cumulative:
        out += u >= bound[rows]
    return out
