"""Error bars on filtered and smoothed beliefs p(X_t = x | e) of a 2TBN from its Dirichlet counts, every slice at
once (docs/temporal.md, "Error bars over time").

The 2TBN's rows are the parameters: B_0's rows appear in slice 0, every transition row in each slice t ≥ 1 (tied).
p(q, e) is multilinear in the copies, so the derivative with respect to a tied entry θ_{v|u} is the sum over its
copies (Darwiche 2003, §3: ∂p(e)/∂θ_{x|u} = p(x, u, e)/θ_{x|u}); with q = p(X_t = x | e) (Singh 2004, eq 3.5)

    ∂q/∂θ_{v|u} = D_{v,u} / θ_{v|u},   D_{v,u} = Σ_s [p(v_s, u_s, q | e) − q·p(v_s, u_s | e)]
                                              = M_t(x, v, u) − q·Σ_x' M_t(x', v, u)

with M_t(x, v, u) = Σ_s p(X_t = x, v_s, u_s | e): the expected number of slices whose family takes (v, u), jointly
with X_t = x (EM's expected counts, split by the query; Σ_x' gives them whole). The
variance gᵀΣg with the tied row's Dirichlet covariance, rows independent, is then exactly Singh's Theorem 2 on the
2TBN with these D: :func:`bnstudio.uncertainty.delta.theorem2` does it, and the intervals are
:func:`bnstudio.uncertainty.intervals.credible_intervals`.

M_t for every t comes from one forward and one backward pass whose messages carry, beside α_t and β_t, the
count-weighted messages (a K axis, K = the 2TBN's number of CPT entries):

    F_t(I_t, k) = Σ_{s≤t} p(I_t, fam_s = k, e_{0..t}) = Σ F_{t-1} φ_t + Σ α_{t-1} φ_t 1[fam_t = k]
    B_{t-1}(I_{t-1}, k) = Σ_{s≥t} p(fam_s = k, e_{t..T-1} | I_{t-1}) = Σ φ_t B_t + Σ φ_t β_t 1[fam_t = k]

scaled with α_t and β_t (one table [α, F] and one [β, B], the scale from the first entry), and at slice t
M_t(x, ·) ∝ Σ F_{t-1} φ_t β_t + Σ α_{t-1} φ_t B_t + Σ α_{t-1} φ_t β_t 1[fam_t = ·], restricted to X_t = x. Time is
O(T); filtering keeps one [α, F] (memory independent of T), smoothing keeps T of them (T·|I|·(K + 1) numbers).
In filtering mode slices after t are left out: their rows change q only along θ itself (D ∝ θ), which the
Dirichlet covariance annihilates, so the variance is that of the unrolled network of any length.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Sequence

import numpy as np

from bnstudio.defaults import CREDIBLE_LEVEL
from bnstudio.errors import ImpossibleEvidence, UnknownStateError, ValidationError
from bnstudio.jobs import Progress, Reporter
from bnstudio.temporal.evidence import evidence_codes
from bnstudio.temporal.forward_backward import MAX_LABELS, REPORT_EVERY, Factor, SliceAlgebra
from bnstudio.temporal.model import FIRST, TRANSITION, TwoSliceNetwork
from bnstudio.uncertainty.delta import QueryVariance, RowContribution, theorem2
from bnstudio.uncertainty.dirichlet import NoDirichletCounts, dirichlet_counts
from bnstudio.uncertainty.intervals import FLAG_TEXT, credible_intervals

MODES = ("filter", "smooth")
#: einsum labels of the count axis and of the query's copy (the batch label is free: nothing is batched here);
#: the labels below QUERY copy a family's variables onto the count axis
COUNT, QUERY = MAX_LABELS - 1, MAX_LABELS - 2


@dataclass
class TemporalBars:
    """p(variable_t = state | e) for each of ``slices``, with its delta-method error bars (module docstring).

    ``normal`` may reach outside [0, 1] (``normal_clipped`` does not); ``beta`` is NaN where no Beta has the mean
    and variance, which that slice's ``flags`` say (keys of :data:`bnstudio.uncertainty.FLAG_TEXT`).
    ``contributions[k]`` are the 2TBN rows adding most variance at slice ``slices[k]`` (tied rows named ``Xt``).
    """

    variable: str
    state: str
    mode: str
    level: float
    slices: np.ndarray
    mean: np.ndarray
    sd: np.ndarray
    normal: np.ndarray
    normal_clipped: np.ndarray
    beta: np.ndarray
    flags: list[list[str]]
    contributions: list[list[RowContribution]] = field(repr=False)
    log_likelihood: float = 0.0

    @property
    def variance(self) -> np.ndarray:
        return self.sd ** 2

    def to_json(self) -> dict[str, Any]:
        """The ``bnstudio query --filter|--smooth ... --errorbars --json`` record."""
        return {"kind": "filtering" if self.mode == "filter" else "smoothing", "target": {self.variable: self.state},
                "level": self.level, "log_likelihood": self.log_likelihood, "slices": self.slices.tolist(),
                "mean": self.mean.tolist(), "sd": self.sd.tolist(), "normal": self.normal.tolist(),
                "normal_clipped": self.normal_clipped.tolist(),
                "beta": [None if np.isnan(b[0]) else b for b in self.beta.tolist()],
                "flags": self.flags, "flag_text": [[FLAG_TEXT[f] for f in fl] for fl in self.flags],
                "contributions": [[{"variable": c.variable, "parents": c.parents, "variance": c.variance,
                                    "ess": c.ess} for c in row] for row in self.contributions]}


class CountAlgebra:
    """The slice factors of :class:`SliceAlgebra` plus the count axis: entry 0 the plain message (α or β),
    entry 1 + offset[V] + j the j-th entry (row-major) of the 2TBN CPT of V."""

    def __init__(self, tbn: TwoSliceNetwork) -> None:
        self.slices = SliceAlgebra(tbn)
        net = tbn.network
        self.names = [r + FIRST for r in tbn.radicals] + [r + TRANSITION for r in tbn.radicals]
        families = self.slices.initial + self.slices.transition
        widest = max(len(labels) for _, labels in families)
        n = len(tbn.radicals)
        if n + len(tbn.interface) + 2 + widest > MAX_LABELS:
            raise ValidationError(f"error bars over time handle at most {MAX_LABELS} variables in a slice, its "
                                  f"interface and a family together; '{tbn.name}' has {n} + "
                                  f"{len(tbn.interface)} + {widest}")
        sizes = [net.cpt(v).size for v in self.names]
        self.size = dict(zip(self.names, sizes, strict=True))
        self.offset = dict(zip(self.names, 1 + np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(int), strict=True))
        self.width = 1 + int(sum(sizes))
        # 1[fam = k] as one identity per family variable, onto fresh labels below QUERY (never a |fam|² table)
        self.indicator: dict[str, tuple[list[Factor], list[int]]] = {}
        for name, (table, labels) in zip(self.names, families, strict=True):
            fresh = [QUERY - 1 - j for j in range(len(labels))]
            self.indicator[name] = ([(np.eye(k), [lab, f])
                                     for k, lab, f in zip(table.shape, labels, fresh, strict=True)], fresh)

    def families(self, t: int) -> list[str]:
        return self.names[:len(self.names) // 2] if t == 0 else self.names[len(self.names) // 2:]

    def contract(self, key: tuple, factors: list[Factor], output: Sequence[int]) -> np.ndarray:
        return self.slices.contract(("counts",) + key, factors, output)

    def own(self, t: int, factors: list[Factor], output: list[int], key: str) -> np.ndarray:
        """Σ factors · 1[fam_t = k] onto ``output`` + the count axis (its entry 0 left 0)."""
        kind = "first" if t == 0 else "next"
        total: np.ndarray | None = None
        for name in self.families(t):
            copies, fresh = self.indicator[name]
            table = self.contract((kind, key, name), factors + copies, output + fresh)
            shape = tuple(table.shape[:len(output)])
            if total is None:
                total = np.zeros(shape + (self.width,))
            start = self.offset[name]
            total[..., start:start + self.size[name]] += table.reshape(shape + (self.size[name],))
        assert total is not None
        return total


def _scale(table: np.ndarray, t: int) -> tuple[np.ndarray, float]:
    """(table / the sum of its entry 0, log of that sum)."""
    total = float(table[..., 0].sum())
    if not total > 0:
        raise ImpossibleEvidence(f"the evidence of slice {t} is impossible given the evidence before it")
    return table / total, math.log(total)


def _forward(algebra: CountAlgebra, t: int, row: np.ndarray, before: np.ndarray | None
             ) -> tuple[np.ndarray, float]:
    """([α_t, F_t] from [α_{t-1}, F_{t-1}] (module docstring), scaled by α_t's sum; log of the scale)."""
    sa = algebra.slices
    if t == 0:
        factors = sa.slice_factors(0, row, None)
        table = algebra.own(0, factors, sa.now, "forward")
        table[..., 0] = sa.contract(("first", "interface"), factors, sa.now)
    else:
        assert before is not None
        factors = sa.slice_factors(t, row, before[..., 0])
        table = algebra.own(t, factors, sa.now, "forward")
        table += algebra.contract(("forward",), [(before, sa.before + [COUNT])] + factors[1:], sa.now + [COUNT])
    return _scale(table, t)


def _backward(algebra: CountAlgebra, t: int, row: np.ndarray, after: np.ndarray) -> np.ndarray:
    """[β_{t-1}, B_{t-1}] from [β_t, B_t] (t ≥ 1), scaled by β_{t-1}'s sum."""
    sa = algebra.slices
    phi = sa.transition + sa.evidence(row)
    table = algebra.own(t, phi + [(after[..., 0], sa.now)], sa.before, "backward")
    table += algebra.contract(("backward",), phi + [(after, sa.now + [COUNT])], sa.before + [COUNT])
    return _scale(table, t)[0]


def _combine(algebra: CountAlgebra, t: int, row: np.ndarray, before: np.ndarray | None, after: np.ndarray | None,
             where: int, card: int) -> tuple[np.ndarray, np.ndarray]:
    """(p(X_t | e) (|X|,), M_t(x, k) = Σ_s p(X_t = x, fam_s = k | e) (|X|, width)) at slice t; ``after`` None
    means β_t = 1, B_t = 0 (filtering)."""
    sa = algebra.slices
    kind = "first" if t == 0 else "next"
    copy: Factor = (np.eye(card), [where, QUERY])
    phi = (sa.initial if t == 0 else sa.transition) + sa.evidence(row)
    beta = [] if after is None else [(after[..., 0], sa.now)]
    alpha = [] if before is None else [(before[..., 0], sa.before)]
    table = algebra.own(t, alpha + phi + beta + [copy], [QUERY], "own" + ("" if after is None else "+beta"))
    if before is not None:
        table += algebra.contract(("past", after is None), [(before, sa.before + [COUNT])] + phi + beta + [copy],
                                  [QUERY, COUNT])
    else:
        table[:, 0] = algebra.contract(("first", after is None), phi + beta + [copy], [QUERY])
    if after is not None:
        future = algebra.contract((kind, "future"), alpha + phi + [(after, sa.now + [COUNT]), copy], [QUERY, COUNT])
        table[:, 1:] += future[:, 1:]
    total = float(table[:, 0].sum())
    if not total > 0:
        raise ImpossibleEvidence(f"the evidence of slice {t} is impossible given the evidence before it")
    table /= total
    return table[:, 0].copy(), table


def slice_variance(tbn: TwoSliceNetwork, algebra: CountAlgebra, alpha: Mapping[str, np.ndarray], q: np.ndarray,
                   m: np.ndarray, x: int) -> QueryVariance:
    """Theorem 2 on the 2TBN with D = M_t(x, ·) − q·Σ_x' M_t(x', ·): its ``derivatives`` are the tied
    ∂q/∂θ (the sum over the copies), its ``variance`` gᵀΣg with one Dirichlet covariance per 2TBN row."""
    d = m[x, 1:] - q[x] * m[:, 1:].sum(axis=0)
    net = tbn.network
    d_terms = {v: d[algebra.offset[v] - 1:algebra.offset[v] - 1 + net.cpt(v).size].reshape(net.cpt(v).shape)
               for v in algebra.names}
    return theorem2(net, alpha, float(q[x]), d_terms)


def check_target(tbn: TwoSliceNetwork, variable: str, state: str) -> int:
    """The code of ``state`` among ``variable``'s states (one-line errors for an unknown name)."""
    states = tbn.states(variable)
    if state not in states:
        raise UnknownStateError(f"'{state}' is not a state of '{variable}' (states: {', '.join(states)})")
    return states.index(state)


def tied_counts_alpha(tbn: TwoSliceNetwork, ess: float | None = None) -> dict[str, np.ndarray]:
    """The 2TBN's Dirichlet counts (``mp`` learning) or ESS·θ; a 2TBN without them is refused saying how to get
    them."""
    try:
        return dirichlet_counts(tbn.network, ess)
    except NoDirichletCounts as exc:
        missing = str(exc).split(":")[0].removeprefix("no Dirichlet counts for ")
        raise NoDirichletCounts(f"the 2TBN '{tbn.name}' has no Dirichlet counts for {missing}: learn it from "
                                f"sequences with mp (bnstudio.temporal.fit_sequences(tbn, data, method='mp')) or "
                                f"give an expert effective sample size per row (ess=A; on the command line --ess A)") from None


def check_slices(slices: Sequence[int] | None, T: int) -> np.ndarray:
    """The slices to report as an int64 array (all T by default); one line if one is not a slice of the evidence."""
    if T == 0:
        raise ValidationError("error bars over time need evidence of at least one slice (one row per slice)")
    wanted = np.arange(T) if slices is None else np.asarray(slices)
    if wanted.ndim != 1 or not np.issubdtype(wanted.dtype, np.integer) or np.any((wanted < 0) | (wanted >= T)):
        raise ValidationError(f"slices must be whole numbers from 0 to {T - 1} (the evidence has {T} rows)")
    return wanted.astype(np.int64)


class ErrorBarSweep:
    """One forward pass (and for "smooth" one backward pass) over the evidence (module docstring): iterating
    gives (t, Theorem 2 of p(variable_t = state | e)) for each slice t of ``wanted`` as soon as it is known (in
    time order when filtering, backwards when smoothing), so filtering keeps one [α, F] table and nothing per
    slice; ``log_likelihood`` is log p(e) once iterated. ``codes`` as :func:`evidence_codes` gives them."""

    def __init__(self, tbn: TwoSliceNetwork, codes: np.ndarray, variable: str, state: str, wanted: np.ndarray,
                 mode: str, alpha: Mapping[str, np.ndarray], reporter: Reporter | None = None) -> None:
        if mode not in MODES:
            raise ValidationError(f"the mode of error bars over time must be one of {', '.join(MODES)}, "
                                  f"got {mode!r}")
        self.x = check_target(tbn, variable, state)
        self.tbn, self.codes, self.mode, self.alpha, self.reporter = tbn, codes, mode, alpha, reporter
        self.ask = np.zeros(len(codes), dtype=bool)      # T bytes, not a set of T integers
        self.ask[np.asarray(wanted, dtype=np.int64)] = True
        self.algebra = CountAlgebra(tbn)
        self.where, self.card = tbn.radicals.index(variable), tbn.cardinality(variable)
        self.log_likelihood = 0.0

    def _answer(self, t: int, before: np.ndarray | None, after: np.ndarray | None) -> QueryVariance:
        q, m = _combine(self.algebra, t, self.codes[t], before, after, self.where, self.card)
        return slice_variance(self.tbn, self.algebra, self.alpha, q, m, self.x)

    def __iter__(self) -> Iterator[tuple[int, QueryVariance]]:
        T, smooth = len(self.codes), self.mode == "smooth"
        progress = Progress(self.reporter, f"error bars ({self.mode})", total=2 * T if smooth else T)
        before: np.ndarray | None = None
        forwards: list[np.ndarray] = []
        self.log_likelihood = 0.0
        for t in range(T):
            if not smooth and self.ask[t]:
                yield t, self._answer(t, before, None)
            before, log_c = _forward(self.algebra, t, self.codes[t], before)
            self.log_likelihood += log_c
            if smooth:
                forwards.append(before)
            if t % REPORT_EVERY == REPORT_EVERY - 1:
                progress.report(t + 1, {"log_likelihood": self.log_likelihood})
        if smooth:
            after = np.zeros(forwards[0].shape)
            after[..., 0] = 1.0
            for t in range(T - 1, -1, -1):
                if self.ask[t]:
                    yield t, self._answer(t, forwards[t - 1] if t else None, after)
                if t:
                    after = _backward(self.algebra, t, self.codes[t], after)
                if t % REPORT_EVERY == 0:
                    progress.report(2 * T - t, {"log_likelihood": self.log_likelihood})
        progress.done()


def query_variances(tbn: TwoSliceNetwork, codes: np.ndarray, variable: str, state: str, wanted: np.ndarray,
                    mode: str, alpha: Mapping[str, np.ndarray]) -> tuple[list[QueryVariance], float]:
    """([Theorem 2 of p(variable_t = state | e) for t in ``wanted``], log p(e)): :class:`ErrorBarSweep`, kept."""
    sweep = ErrorBarSweep(tbn, codes, variable, state, wanted, mode, alpha)
    found = dict(sweep)
    return [found[int(t)] for t in wanted], sweep.log_likelihood


def temporal_error_bars(tbn: TwoSliceNetwork, evidence: Any, variable: str, state: str,
                        slices: Sequence[int] | None = None, mode: str = "smooth", level: float = CREDIBLE_LEVEL,
                        ess: float | None = None, top: int = 3, reporter: Reporter | None = None) -> TemporalBars:
    """Delta-method error bars of p(variable_t = state | e) for every slice t of the evidence table (or the
    given ``slices``): ``mode`` "smooth" conditions on all the evidence, "filter" on the evidence up to t.

    Dirichlet counts from the 2TBN (``mp`` learning, :func:`~bnstudio.temporal.learning.fit_sequences`) or
    ``ess``; tied transition rows are single parameters shared by every slice (module docstring). ``top``: how
    many contributing rows to keep per slice."""
    if not 0.0 < level < 1.0:
        raise ValidationError(f"the credible level must be between 0 and 1 (exclusive), got {level:g}")
    alpha = tied_counts_alpha(tbn, ess)
    codes = evidence_codes(tbn, evidence)
    wanted = check_slices(slices, len(codes))
    sweep = ErrorBarSweep(tbn, codes, variable, state, wanted, mode, alpha, reporter)
    found = {t: (r.mean, r.variance, credible_intervals(r.mean, r.variance, level), r.top_contributions(top))
             for t, r in sweep}                     # the per-slice summary only: no K-sized table kept per slice
    rows = [found[int(t)] for t in wanted]
    intervals = [r[2] for r in rows]
    nan = (math.nan, math.nan)
    return TemporalBars(variable, state, mode, level, wanted, np.array([r[0] for r in rows]),
                        np.sqrt(np.maximum([r[1] for r in rows], 0.0)).reshape(len(rows)),
                        np.array([i.normal for i in intervals]).reshape(-1, 2),
                        np.array([i.normal_clipped for i in intervals]).reshape(-1, 2),
                        np.array([i.beta or nan for i in intervals]).reshape(-1, 2),
                        [list(i.flags) for i in intervals], [r[3] for r in rows], sweep.log_likelihood)
