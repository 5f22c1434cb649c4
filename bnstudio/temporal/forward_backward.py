"""Filtering, smoothing and prediction in a 2TBN by forward-backward over the interface (Murphy 2002, §3.3–3.4).

The forward interface I_t (the variables of slice t with a child in slice t+1, ``tbn.interface``) d-separates
the past from the future, so one table over I_t carries everything slice t+1 needs:

    α_0(I_0) ∝ Σ_{Z_0 \\ I_0} p(Z_0) λ_0(Z_0)
    α_t(I_t) ∝ Σ_{I_{t-1}} α_{t-1}(I_{t-1}) Σ_{Z_t \\ I_t} Π_i p(X^i_t | Pa) λ_t(Z_t)          (forward, filtering)
    β_{t-1}(I_{t-1}) ∝ Σ_{Z_t} Π_i p(X^i_t | Pa) λ_t(Z_t) β_t(I_t),  β_{T-1} = 1                (backward)

with λ_t the indicator of slice t's evidence (all ones where unobserved). The filtered belief p(X_t | e_{0..t})
is the slice-t product α_{t-1} · CPTs · λ_t summed onto X_t; the smoothed p(X_t | e_{0..T-1}) the same product
times β_t; a prediction p(X_{t+k} | e_{0..t}) filters on through k slices without evidence. Each α_t is scaled
to sum 1 and log p(e_{0..T-1}) = Σ_t log c_t is the sum of the scales (Rabiner 1989, §V.A).

Inside a slice every sum is a sum of products of the slice's labelled tables (:class:`Contraction`): numpy's
greedy contraction order is found once from the shapes, then each slice runs the same few two-operand
``numpy.einsum`` calls; only time is a Python loop. Filtering keeps one α at a time (memory independent of T, and
the evidence rows may be a stream); smoothing keeps every α_t (T tables over I_t). EM runs many sequences of one
length at once along a leading axis (``SliceAlgebra(batched=True)``). At most 52 variables in a slice and its
interface together (numpy's einsum labels; 51 when batched).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from bnstudio.errors import ImpossibleEvidence, ValidationError
from bnstudio.jobs import Progress, Reporter
from bnstudio.temporal.evidence import check_codes, evidence_codes
from bnstudio.temporal.model import TwoSliceNetwork

#: numpy's einsum accepts this many distinct labels
MAX_LABELS = 52
#: slices between two progress reports
REPORT_EVERY = 512

Factor = tuple[np.ndarray, list[int]]


@dataclass(frozen=True)
class TemporalBeliefs:
    """Beliefs over slices: ``beliefs[X]`` is a (slices, |X|) array whose row k is the belief of X in slice
    ``slices[k]``; ``log_likelihood`` is log p(e) of the evidence used; ``kind`` filtering, smoothing or
    prediction."""

    kind: str
    slices: np.ndarray
    beliefs: dict[str, np.ndarray]
    log_likelihood: float


class SliceAlgebra:
    """The factors of a slice as einsum operands: label k is variable k of the slice (``tbn.radicals`` order),
    label n + j the j-th interface variable of the previous slice. ``batched``: evidence, α and β carry a
    leading axis of sequences (the last label), one row of codes per sequence, CPTs shared."""

    def __init__(self, tbn: TwoSliceNetwork, batched: bool = False) -> None:
        radicals = tbn.radicals
        n = len(radicals)
        if n + len(tbn.interface) + int(batched) > MAX_LABELS:
            raise ValidationError(f"forward-backward handles at most {MAX_LABELS} variables in a slice and its "
                                  f"interface together; '{tbn.name}' has {n} + {len(tbn.interface)}: query the "
                                  f"unrolled network instead")
        self.tbn, self.n = tbn, n
        pos = {r: k for k, r in enumerate(radicals)}
        self.interface = [pos[r] for r in tbn.interface]
        self.previous = [n + j for j in range(len(self.interface))]
        self.batch = [MAX_LABELS - 1] if batched else []
        #: the labels of α_t (and of β_t as a factor of slice t), and of α_{t-1} and β_{t-1} in slice t
        self.now, self.before = self.batch + self.interface, self.batch + self.previous
        self.initial: list[Factor] = [(tbn.initial_cpt(r), [pos[p] for p in tbn.initial_parents(r)] + [k])
                                      for k, r in enumerate(radicals)]
        lagged = {r: n + j for j, r in enumerate(tbn.interface)}
        self.transition: list[Factor] = [
            (tbn.transition_cpt(r), [lagged[p] if lag else pos[p] for p, lag in tbn.transition_parents(r)] + [k])
            for k, r in enumerate(radicals)]
        # row c of lookup[k] is λ for code c; row -1 (the last) all ones: unobserved
        self.lookup = [np.vstack([np.eye(tbn.cardinality(r)), np.ones(tbn.cardinality(r))]) for r in radicals]
        self._paths: dict[tuple, Any] = {}

    def evidence(self, row: np.ndarray) -> list[Factor]:
        return [(self.lookup[k][row[..., k]], self.batch + [k]) for k in range(self.n)]

    def contract(self, key: tuple, factors: list[Factor], output: Sequence[int]) -> np.ndarray:
        """Σ over every label not in ``output`` of the product of ``factors``; the plan is made once per ``key``
        (which names the kind of factor list) and reused (:class:`Contraction`)."""
        plan = self._paths.get(key)
        if plan is None:
            plan = self._paths[key] = Contraction([f[1] for f in factors], [f[0].shape for f in factors], output)
        return plan([f[0] for f in factors])

    def slice_factors(self, t: int, row: np.ndarray, alpha: np.ndarray | None) -> list[Factor]:
        """The factors of slice t: B_0's CPTs at t = 0, else α_{t-1} over the previous interface and the
        transition CPTs; then slice t's evidence."""
        if t == 0 or alpha is None:
            return self.initial + self.evidence(row)
        return [(alpha, self.before)] + self.transition + self.evidence(row)


class Contraction:
    """A sum of products of labelled tables as a fixed sequence of small einsums: numpy's greedy order
    (``einsum_path``) found once from the shapes, each step then a plain two-operand ``einsum`` (numpy's C loop,
    no planning per call)."""

    def __init__(self, labels: Sequence[Sequence[int]], shapes: Sequence[tuple[int, ...]],
                 output: Sequence[int]) -> None:
        operands: list[Any] = []
        for lab, shape in zip(labels, shapes, strict=True):
            operands += [np.broadcast_to(np.zeros(()), shape), list(lab)]
        path = np.einsum_path(*operands, list(output), optimize="greedy")[0][1:]
        current = [list(lab) for lab in labels]
        self.steps: list[tuple[list[int], list[list[int]], list[int]]] = []
        for step in path:
            order = sorted(step, reverse=True)
            taken = [current.pop(i) for i in order]
            needed = set(output).union(*map(set, current)) if current else set(output)
            result = [lab for lab in dict.fromkeys(x for t in taken for x in t) if lab in needed]
            self.steps.append((order, taken, result))
            current.append(result)
        self.last, self.output = current[0], list(output)

    def __call__(self, tables: Sequence[np.ndarray]) -> np.ndarray:
        ops = list(tables)
        for order, taken, result in self.steps:
            args: list[Any] = []
            for i, lab in zip(order, taken, strict=True):
                args += [ops.pop(i), lab]
            ops.append(np.einsum(*args, result))
        return np.einsum(ops[0], self.last, self.output)


def _rows(tbn: TwoSliceNetwork, evidence: Any) -> Iterable[np.ndarray]:
    """Evidence rows: a table or array (checked whole), or an iterable of code rows (checked row by row)."""
    if isinstance(evidence, Iterator):
        return (check_codes(tbn, np.asarray(row, dtype=np.int64)[None])[0] for row in evidence)
    return evidence_codes(tbn, evidence)


def _targets(tbn: TwoSliceNetwork, targets: str | Sequence[str] | None) -> list[str]:
    names = list(tbn.radicals) if targets is None else [targets] if isinstance(targets, str) else list(targets)
    for name in names:
        tbn.states(name)  # a one-line error for an unknown name
    return names


def _scaled(table: np.ndarray, t: int, batched: bool = False) -> tuple[np.ndarray, Any]:
    """(table / its sum, log of the sum); ``batched``: per sequence (leading axis), the logs an array."""
    if not batched:
        total = float(table.sum())
        if not total > 0:
            raise ImpossibleEvidence(f"the evidence of slice {t} is impossible given the evidence before it")
        return table / total, float(np.log(total))
    totals = table.reshape(len(table), -1).sum(axis=1)
    if not np.all(totals > 0):
        s = int(np.flatnonzero(~(totals > 0))[0])
        raise ImpossibleEvidence(f"the evidence of slice {t} of sequence {s} is impossible given the evidence "
                                 f"before it")
    return table / totals.reshape((-1,) + (1,) * (table.ndim - 1)), np.log(totals)


def iter_filter(tbn: TwoSliceNetwork, evidence: Any, targets: str | Sequence[str] | None = None,
                reporter: Reporter | None = None) -> Iterator[tuple[int, dict[str, np.ndarray], float]]:
    """(t, {X: p(X_t | e_{0..t})}, log p(e_{0..t})) slice after slice, keeping one α: memory independent of T.

    ``evidence`` is a table (:mod:`bnstudio.temporal.evidence`) or an iterator of code rows (radicals order).
    """
    algebra, names = SliceAlgebra(tbn), _targets(tbn, targets)
    where = [tbn.radicals.index(x) for x in names]
    progress = Progress(reporter, "filtering")
    alpha, log_lik = None, 0.0
    for t, row in enumerate(_rows(tbn, evidence)):
        factors = algebra.slice_factors(t, row, alpha)
        kind = "first" if t == 0 else "next"
        alpha, log_c = _scaled(algebra.contract((kind, "interface"), factors, algebra.now), t)
        log_lik += log_c
        beliefs = {x: _scaled(algebra.contract((kind, k), factors, [k]), t)[0]
                   for x, k in zip(names, where, strict=True)}
        if t % REPORT_EVERY == REPORT_EVERY - 1:
            progress.report(t + 1, {"log_likelihood": log_lik})
        yield t, beliefs, log_lik
    progress.done()


def _collect(kind: str, tbn: TwoSliceNetwork, names: list[str], steps: Iterable[tuple[int, dict, float]],
             first: int = 0) -> TemporalBeliefs:
    rows: dict[str, list[np.ndarray]] = {x: [] for x in names}
    slices: list[int] = []
    log_lik = 0.0  # the last step's: the log-likelihood of all the evidence
    for t, beliefs, step_log_lik in steps:
        log_lik = step_log_lik
        if t >= first:
            slices.append(t)
            for x in names:
                rows[x].append(beliefs[x])
    out = {x: np.array(r).reshape(len(slices), tbn.cardinality(x)) for x, r in rows.items()}
    return TemporalBeliefs(kind, np.array(slices, dtype=np.int64), out, log_lik)


def filtering(tbn: TwoSliceNetwork, evidence: Any, targets: str | Sequence[str] | None = None,
              reporter: Reporter | None = None) -> TemporalBeliefs:
    """p(X_t | e_{0..t}) for every slice t of the evidence and every target (all variables by default)."""
    names = _targets(tbn, targets)
    return _collect("filtering", tbn, names, iter_filter(tbn, evidence, names, reporter))


def prediction(tbn: TwoSliceNetwork, evidence: Any, horizon: int, targets: str | Sequence[str] | None = None,
               reporter: Reporter | None = None) -> TemporalBeliefs:
    """p(X_{t+k} | e_{0..t}) for k = 1..``horizon``, t the last slice of the evidence: filtering on through
    ``horizon`` slices without evidence (their numbers are t+1, ..., t+horizon)."""
    if isinstance(horizon, bool) or not isinstance(horizon, (int, np.integer)) or horizon < 1:
        raise ValidationError(f"the prediction horizon must be an integer of at least 1, got {horizon!r}")
    names = _targets(tbn, targets)
    codes = evidence_codes(tbn, evidence)
    if len(codes) == 0:
        raise ValidationError("prediction needs evidence of at least one slice")
    blank = np.full(len(tbn.radicals), -1, dtype=np.int64)
    rows = iter([*codes, *([blank] * int(horizon))])
    return _collect("prediction", tbn, names, iter_filter(tbn, rows, names, reporter), first=len(codes))


def forward_pass(algebra: SliceAlgebra, codes: np.ndarray, progress: Progress | None = None
                 ) -> tuple[list[np.ndarray], float]:
    """(α_t for every slice, log p(e)): the forward recursion, each α_t kept. ``codes[t]`` is slice t's row,
    or (batched algebra) one row per sequence; log p(e) is then summed over the sequences."""
    alphas: list[np.ndarray] = []
    log_lik: Any = 0.0
    alpha = None
    for t in range(len(codes)):
        factors = algebra.slice_factors(t, codes[t], alpha)
        alpha, log_c = _scaled(algebra.contract(("first" if t == 0 else "next", "interface"), factors,
                                                algebra.now), t, bool(algebra.batch))
        alphas.append(alpha)
        log_lik += log_c
        if progress is not None and t % REPORT_EVERY == REPORT_EVERY - 1:
            progress.report(t + 1, {"log_likelihood": float(np.sum(log_lik))})
    return alphas, float(np.sum(log_lik))


def backward_pass(algebra: SliceAlgebra, codes: np.ndarray, alphas: list[np.ndarray]
                  ) -> Iterator[tuple[int, list[Factor]]]:
    """(t, slice t's factors times β_t) from the last slice to the first: summed onto any labels of slice t
    (and, for t > 0, of the previous interface) they give the posterior given all the evidence, up to scale."""
    sequences = tuple(np.shape(codes)[1:-1])  # (S,) when batched
    beta = np.ones(sequences + tuple(algebra.tbn.cardinality(algebra.tbn.radicals[k]) for k in algebra.interface))
    for t in range(len(codes) - 1, -1, -1):
        factors = algebra.slice_factors(t, codes[t], alphas[t - 1] if t else None)
        with_beta = factors + [(beta, algebra.now)]
        yield t, with_beta
        if t:
            beta = _scaled(algebra.contract(("beta",), with_beta[1:], algebra.before), t, bool(algebra.batch))[0]


def smoothing(tbn: TwoSliceNetwork, evidence: Any, targets: str | Sequence[str] | None = None,
              reporter: Reporter | None = None) -> TemporalBeliefs:
    """p(X_t | e_{0..T-1}) for every slice t and target: a forward pass keeping each α_t (T tables over the
    interface), then a backward pass carrying β_t (module docstring)."""
    algebra, names = SliceAlgebra(tbn), _targets(tbn, targets)
    where = [tbn.radicals.index(x) for x in names]
    codes = evidence_codes(tbn, evidence)
    T = len(codes)
    progress = Progress(reporter, "smoothing", total=2 * T)
    alphas, log_lik = forward_pass(algebra, codes, progress)
    out = {x: np.empty((T, tbn.cardinality(x))) for x in names}
    for t, with_beta in backward_pass(algebra, codes, alphas):
        kind = "first" if t == 0 else "next"
        for x, k in zip(names, where, strict=True):
            out[x][t] = _scaled(algebra.contract((kind, "smooth", k), with_beta, [k]), t)[0]
        if t % REPORT_EVERY == 0:
            progress.report(2 * T - t, {"log_likelihood": log_lik})
    progress.done()
    return TemporalBeliefs("smoothing", np.arange(T, dtype=np.int64), out, log_lik)
