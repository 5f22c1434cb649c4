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
from typing import TYPE_CHECKING, Iterator, Mapping, Sequence

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

    ``samples`` drawn, ``effective_samples`` = (Σw)²/Σw² (how many unweighted
    samples the weighted ones are worth), ``log_evidence`` the estimate of log p(e)."""

    posteriors: dict[str, np.ndarray]
    standard_errors: dict[str, np.ndarray]
    samples: int = 0
    effective_samples: float = 0.0
    log_evidence: float = 0.0


class _Weighted:
    """Running sums Σw·1[x], Σw²·1[x] per target state and Σw, Σw², all relative to exp(shift); with ``extra``
    ({key: size}) also Σw·1[i] and Σw·1[i]·1[q] over flat indices i, given each sample's indicator 1[q]."""

    def __init__(self, cards: Sequence[int], extra: Mapping[int, int] | None = None) -> None:
        self.shift = -np.inf
        self.w = self.w2 = 0.0
        self.wx = [np.zeros(c) for c in cards]
        self.w2x = [np.zeros(c) for c in cards]
        self.extra_w = {k: np.zeros(size) for k, size in (extra or {}).items()}
        self.extra_wq = {k: np.zeros(size) for k, size in (extra or {}).items()}

    def add(self, log_w: np.ndarray, codes: Sequence[np.ndarray], flat: Mapping[int, np.ndarray] | None = None,
            hit: np.ndarray | None = None) -> None:
        top = float(log_w.max())
        if top == -np.inf:
            return
        if top > self.shift:                      # rescale what was summed to the new shift
            old = np.exp(self.shift - top) if self.shift > -np.inf else 0.0
            self.w, self.w2 = self.w * old, self.w2 * old * old
            self.wx = [a * old for a in self.wx]
            self.w2x = [a * old * old for a in self.w2x]
            for sums in (self.extra_w, self.extra_wq):
                for key in sums:
                    sums[key] *= old
            self.shift = top
        w = np.exp(log_w - self.shift)
        w2 = w * w
        self.w += float(w.sum())
        self.w2 += float(w2.sum())
        for k, x in enumerate(codes):
            self.wx[k] += np.bincount(x, weights=w, minlength=len(self.wx[k]))
            self.w2x[k] += np.bincount(x, weights=w2, minlength=len(self.w2x[k]))
        if flat:
            wq = w * hit
            for key, index in flat.items():
                size = len(self.extra_w[key])
                self.extra_w[key] += np.bincount(index, weights=w, minlength=size)
                self.extra_wq[key] += np.bincount(index, weights=wq, minlength=size)

    def estimates(self) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """(p̂, se) per target: the ratio estimator and its delta-method standard error."""
        post, se = [], []
        for wx, w2x in zip(self.wx, self.w2x, strict=True):
            p = wx / self.w
            var = (w2x * (1.0 - 2.0 * p) + p * p * self.w2) / self.w ** 2
            post.append(p)
            se.append(np.sqrt(np.maximum(var, 0.0)))
        return post, se


class _Plan:
    """What a run samples: the ancestors of the targets and findings in topological order, the findings split
    into clamped (hard) and soft, each CPT flattened to (rows, |X|) with its cumulative boundaries."""

    def __init__(self, net: Network, tidx: Sequence[int], lams: ev.Likelihoods, index: ev.VariableIndex) -> None:
        self.index = index
        self.clamp = {v: int(np.argmax(lam[0])) for v, lam in lams.items() if np.count_nonzero(lam[0]) == 1}
        self.soft = {v: lam[0] for v, lam in lams.items() if v not in self.clamp}
        self.parents = [[index.position[p] for p in net.parents(v)] for v in net.variables]
        keep = ancestral_set(self.parents, set(tidx) | set(lams))
        self.order = [index.position[v] for v in net.topological_order() if index.position[v] in keep]
        self.tables = {v: normalise_rows(np.asarray(net.cpt(index.names[v]), dtype=float)).reshape(
            -1, index.cards[v]) for v in self.order}
        self.cumulative = {v: _cumulative(self.tables[v]) for v in self.order if v not in self.clamp}
        self.kept = list(tidx)

    def chunks(self, samples: int, rng: np.random.Generator, chunk: int, families: bool = False
               ) -> Iterator[tuple[int, np.ndarray, dict[int, np.ndarray], dict[int, np.ndarray]]]:
        """Per chunk: (size, log weights, the kept variables' codes, and with ``families`` each sampled
        variable's flat family index row · |X| + x)."""
        cards = self.index.cards
        last_use = _last_use(self.order, self.parents, self.kept)
        for start in range(0, samples, chunk):
            n = min(chunk, samples - start)
            codes: dict[int, np.ndarray] = {}
            flat: dict[int, np.ndarray] = {}
            log_w = np.zeros(n)
            for step, v in enumerate(self.order):
                rows = _rows(self.parents[v], codes, cards, n)
                if v in self.clamp:
                    codes[v] = np.full(n, self.clamp[v])
                    with np.errstate(divide="ignore"):
                        log_w += np.log(self.tables[v][rows, self.clamp[v]])
                else:
                    codes[v] = _draw(self.cumulative[v], rows, rng)
                    if v in self.soft:
                        with np.errstate(divide="ignore"):
                            log_w += np.log(self.soft[v][codes[v]])
                if families:
                    flat[v] = rows * cards[v] + codes[v]
                for done in last_use.get(step, ()):   # codes no later variable reads: the working set stays small
                    del codes[done]
            yield n, log_w, codes, flat


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
    plan = _Plan(net, tidx, lams, index)
    for v in tidx:
        if v in plan.clamp:
            raise ValidationError(f"'{index.names[v]}' is both a target and observed; its posterior is the finding")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    chunk = min(MAX_CHUNK, fitting(8 * (len(plan.order) + 4), memory_budget))
    sums = _Weighted([index.cards[v] for v in tidx])
    progress = Progress(reporter, "Likelihood weighting", -(-samples // chunk))
    drawn = 0
    for k, (n, log_w, codes, _) in enumerate(plan.chunks(samples, rng, chunk)):
        sums.add(log_w, [codes[t] for t in tidx])
        drawn += n
        progress.report(k + 1, {"samples": float(drawn)})
    progress.done()
    _check_weight(sums, samples, index, evidence)
    post, se = sums.estimates()
    log_e = sums.shift + float(np.log(sums.w / samples)) + float(lams.log_scale)
    return SampledAnswer(dict(zip(names, post, strict=True)), dict(zip(names, se, strict=True)), samples=samples,
                         effective_samples=sums.w ** 2 / sums.w2, log_evidence=log_e)


def _check_weight(sums: _Weighted, samples: int, index: ev.VariableIndex, evidence: ev.Evidence | None) -> None:
    if sums.w == 0.0:
        raise ImpossibleEvidence(f"no sample out of {samples} is consistent with the evidence "
                                 f"({ev.describe(index, evidence)}): it is impossible, or too unlikely for "
                                 f"likelihood weighting with this many samples")


@dataclass
class FamilyTerms:
    """Likelihood-weighting estimates of what the delta method needs (Singh Theorem 2) for q = ``query``:
    p̂(q | e) with its standard error, and per sampled variable p̂(v, f | e) (``family``) and p̂(v, f, q | e)
    (``joint``) in its family's shape; a variable left out (barren for the query) has D = 0."""

    p_q: float
    se_q: float
    family: dict[str, np.ndarray]
    joint: dict[str, np.ndarray]
    samples: int
    effective_samples: float


def family_terms(net: Network, query: Mapping[str, str], evidence: ev.Evidence | None = None,
                 samples: int = 100_000, seed: Seed = None, memory_budget: int = WORKING_SET,
                 reporter: Reporter | None = None) -> FamilyTerms:
    """The family terms of q = ``query`` (a joint assignment) given e from one likelihood-weighting run: with
    weights w and the indicator 1[q] of each sample, p̂(v, f | e) = Σ w 1[v, f] / Σ w and p̂(v, f, q | e) =
    Σ w 1[v, f] 1[q] / Σ w, accumulated by bincount over each family's flat index."""
    samples = _check_samples(samples)
    index = ev.VariableIndex(net.variables, [net.states(v) for v in net.variables])
    lams = ev.single_evidence(index, evidence)
    wanted = {index.index(name): index.state_index(index.index(name), state) for name, state in query.items()}
    plan = _Plan(net, list(wanted), lams, index)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    chunk = min(MAX_CHUNK, fitting(8 * (3 * len(plan.order) + 4), memory_budget))
    sizes = {v: plan.tables[v].size for v in plan.order}
    sums = _Weighted([2], extra=sizes)
    progress = Progress(reporter, "Likelihood weighting (family terms)", -(-samples // chunk))
    drawn = 0
    for k, (n, log_w, codes, flat) in enumerate(plan.chunks(samples, rng, chunk, families=True)):
        hit = np.ones(n, dtype=bool)
        for v, x in wanted.items():
            hit &= codes[v] == x
        sums.add(log_w, [hit.astype(np.int64)], flat, hit)
        drawn += n
        progress.report(k + 1, {"samples": float(drawn)})
    progress.done()
    _check_weight(sums, samples, index, evidence)
    post, se = sums.estimates()
    shapes = {v: net.family_shape(index.names[v]) for v in plan.order}
    family = {index.names[v]: (sums.extra_w[v] / sums.w).reshape(shapes[v]) for v in plan.order}
    joint = {index.names[v]: (sums.extra_wq[v] / sums.w).reshape(shapes[v]) for v in plan.order}
    return FamilyTerms(float(post[0][1]), float(se[0][1]), family, joint, samples, sums.w ** 2 / sums.w2)


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
