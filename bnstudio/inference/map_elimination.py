"""Exact MAP over chosen variables by constrained variable elimination: sum out the rest, then maximise.

MAP over M given e is argmax_m Σ_h p(m, h, e). Sums and maxima do not commute, so every variable of H (the
unobserved non-MAP variables of An(M ∪ E); the others are barren and sum to 1) is summed out before any
variable of M is maximised (Dechter 1999, bucket elimination for MAP; Park & Darwiche 2004 on the constrained
width): the sum phase takes a min-fill order of H (keeping M), with tables rescaled to max 1 and the log scale
carried (:func:`bnstudio.inference.variable_elimination.combine_scaled`); the max phase takes a min-fill order
of the factors left over M, in log space, and records each maximised variable's argmax given the rest of its
bucket, so a traceback in reverse order decodes m*. Both orders are bounded by the memory budget: when one of
them needs a larger table, :class:`~bnstudio.errors.MemoryBudgetExceeded` says so and the caller may fall
back to an anytime search (:mod:`bnstudio.inference.map_search`). With H empty this is the MPE by elimination.
"""
from __future__ import annotations

import math
from typing import Callable, Mapping, Sequence

import numpy as np

from bnstudio.inference.elimination import elimination_plan
from bnstudio.inference.pruning import ancestral_set
from bnstudio.inference.variable_elimination import Factor, combine_scaled, restrict, squeeze


def map_factors(families: Sequence[tuple[int, ...]], parents: Sequence[Sequence[int]], cards: Sequence[int],
                cpt: Callable[[int], np.ndarray], map_vars: Sequence[int], lams: Mapping[int, np.ndarray]
                ) -> tuple[list[Factor], float]:
    """The factors of An(M ∪ E): CPTs with hard findings sliced in, soft findings as one-variable factors,
    one-state axes squeezed out; constants go into the returned log scale (-inf: e impossible there)."""
    hard = {v: int(np.argmax(lam[0])) for v, lam in lams.items() if np.count_nonzero(lam[0]) == 1}
    log_scale = sum(math.log(lams[v][0, s]) for v, s in hard.items())
    raw = [restrict(cpt(v)[0], families[v], hard) for v in ancestral_set(parents, set(map_vars) | set(lams))]
    raw += [(lam[0], (v,)) for v, lam in lams.items() if v not in hard]
    factors = []
    for table, scope in raw:
        table, scope = squeeze(table, scope, cards)
        if scope:
            factors.append((table, scope))
        else:
            value = float(table)
            log_scale += math.log(value) if value > 0 else -math.inf
    return factors, log_scale


def _plan(factors: Sequence[Factor], cards: Sequence[int], keep: Sequence[int], budget: float) -> list[int]:
    """A min-fill order of the factors' variables outside ``keep`` (raises CliqueTooLarge over ``budget``)."""
    names = sorted({v for _, s in factors for v in s} | set(keep))
    local = {v: k for k, v in enumerate(names)}
    adj: list[set[int]] = [set() for _ in names]
    for _, scope in factors:
        for a in scope:
            adj[local[a]].update(local[b] for b in scope if b != a)
    order, _ = elimination_plan(adj, [cards[v] for v in names], "min-fill", keep=[local[v] for v in keep],
                                max_clique=budget)
    return [names[k] for k in order[:len(names) - len(keep)]]


def _buckets(factors: list[Factor]) -> dict[int, set[int]]:
    out: dict[int, set[int]] = {}
    for f, (_, scope) in enumerate(factors):
        for v in scope:
            out.setdefault(v, set()).add(f)
    return out


def sum_out(factors: list[Factor], cards: Sequence[int], keep: Sequence[int], budget: float
            ) -> tuple[list[Factor], float]:
    """Σ over every variable not in ``keep``: the factors left (scopes within ``keep``) and a log scale."""
    order = _plan(factors, cards, keep, budget)
    store = dict(enumerate(factors))
    buckets = _buckets(factors)
    log_scale, fresh = 0.0, len(factors)
    for v in order:
        ids = buckets.pop(v, set())
        related = [store.pop(f) for f in sorted(ids)]
        union = tuple(dict.fromkeys(u for _, s in related for u in s))
        out_scope = tuple(u for u in union if u != v)
        table, scale = combine_scaled(related, out_scope)
        log_scale += scale
        if out_scope:
            store[fresh] = (table, out_scope)
            for u in out_scope:
                buckets[u] = (buckets[u] - ids) | {fresh}
            fresh += 1
        elif float(table) <= 0:  # a component summed to 0 (its scale is -inf already)
            log_scale = -math.inf
    return list(store.values()), log_scale


def _aligned(table: np.ndarray, scope: Sequence[int], union: Sequence[int]) -> np.ndarray:
    """``table`` over ``scope`` transposed and reshaped to broadcast over ``union``."""
    perm = sorted(range(len(scope)), key=lambda k: union.index(scope[k]))
    shape = [1] * len(union)
    for k in perm:
        shape[union.index(scope[k])] = table.shape[k]
    return table.transpose(perm).reshape(shape)


def max_out(factors: list[Factor], cards: Sequence[int], budget: float) -> tuple[float, dict[int, int]]:
    """max over every variable of Σ log factors (the tables are logs): the value and a maximiser."""
    order = _plan(factors, cards, (), budget)
    store = dict(enumerate(factors))
    buckets = _buckets(factors)
    records: list[tuple[int, tuple[int, ...], np.ndarray]] = []
    fresh = len(factors)
    for v in order:
        ids = buckets.pop(v, set())
        related = [store.pop(f) for f in sorted(ids)]
        union = tuple(dict.fromkeys(u for _, s in related for u in s))
        total = sum((_aligned(t, s, union) for t, s in related), np.zeros((1,) * len(union)))
        axis = union.index(v)
        records.append((v, tuple(u for u in union if u != v), np.argmax(total, axis=axis)))
        out_scope = records[-1][1]
        store[fresh] = (np.max(total, axis=axis), out_scope)
        for u in out_scope:
            buckets[u] = (buckets[u] - ids) | {fresh}
        fresh += 1
    value = float(sum(float(t) for t, _ in store.values()))
    x: dict[int, int] = {}
    for v, rest, arg in reversed(records):
        x[v] = int(arg[tuple(x[u] for u in rest)])
    return value, x


def exact_map(factors: list[Factor], cards: Sequence[int], map_vars: Sequence[int], budget: float
              ) -> tuple[float, dict[int, int]]:
    """(log max_m p(m, e) less the factors' own log scale, argmax m) for the MAP variables with two or more
    states; raises MemoryBudgetExceeded (CliqueTooLarge) when a constrained step needs over ``budget``
    entries."""
    keep = [v for v in map_vars if cards[v] > 1]
    left, log_scale = sum_out(factors, cards, keep, budget)
    with np.errstate(divide="ignore"):
        logs = [(np.log(t), s) for t, s in left]
    value, x = max_out(logs, cards, budget)
    for v in keep:
        x.setdefault(v, 0)  # a MAP variable no factor mentions (all its states equally likely)
    return value + log_scale, x
