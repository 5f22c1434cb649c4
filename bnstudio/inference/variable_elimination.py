"""Query-specific variable elimination for networks whose full junction tree exceeds the memory budget.

After relevance pruning (:mod:`bnstudio.inference.pruning`) the remaining factors are the CPTs of the
requisite variables with hard evidence sliced in and soft evidence as extra one-variable factors. Non-target
variables are summed out in a greedy min-fill order of the factors' interaction graph; each step is one
``einsum`` over the factors that mention the variable (Zhang & Poole 1994). Every intermediate table is sized
before it is allocated and the budget is enforced; tables are rescaled to max 1 with the log scale carried,
so p(e) stays finite on large networks.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from bnstudio.errors import MemoryBudgetExceeded
from bnstudio.inference.elimination import CliqueTooLarge, elimination_order

Factor = tuple[np.ndarray, tuple[int, ...]]


def restrict(table: np.ndarray, scope: Sequence[int], hard: dict[int, int]) -> Factor:
    """Slice hard evidence {var: state} into a factor and drop those axes."""
    index = tuple(hard.get(v, slice(None)) for v in scope)
    return table[index], tuple(v for v in scope if v not in hard)


MAX_OPERANDS = 16


def _combine(factors: list[Factor], out_scope: tuple[int, ...]) -> np.ndarray:
    """Π factors summed onto ``out_scope`` with einsum (local subscripts keep it under 52 letters).

    Many factors are first multiplied in groups (einsum takes a bounded number of operands).
    """
    factors = list(factors)
    while len(factors) > MAX_OPERANDS:
        group, factors = factors[:MAX_OPERANDS], factors[MAX_OPERANDS:]
        scope = tuple(dict.fromkeys(v for _, s in group for v in s))
        factors.append((_combine(group, scope), scope))
    local = {v: k for k, v in enumerate(dict.fromkeys(v for _, s in factors for v in s))}
    args: list = []
    for table, scope in factors:
        args += [table, [local[v] for v in scope]]
    return np.einsum(*args, [local[v] for v in out_scope])


def eliminate(factors: list[Factor], cards: Sequence[int], keep: Sequence[int],
              budget_entries: float) -> tuple[np.ndarray, float]:
    """Sum out every variable except ``keep``; returns (table over ``keep`` in that order, log scale).

    The true (unscaled) result is ``table * exp(log_scale)``. Raises :class:`MemoryBudgetExceeded` before
    building any table with more than ``budget_entries`` entries.
    """
    scope_vars = sorted({v for _, s in factors for v in s} | set(keep))
    local = {v: k for k, v in enumerate(scope_vars)}
    adj: list[set[int]] = [set() for _ in scope_vars]
    for _, scope in factors:
        for a in scope:
            adj[local[a]].update(local[b] for b in scope if b != a)
    local_cards = [cards[v] for v in scope_vars]
    try:  # the order stops at the first table over budget: no time spent on a query that cannot run
        order = elimination_order(adj, local_cards, "min-fill", keep=[local[v] for v in keep],
                                  max_clique=budget_entries)
    except CliqueTooLarge as exc:
        raise MemoryBudgetExceeded(_budget_message(exc.n_vars, exc.size, budget_entries)) from None
    pending = [scope_vars[k] for k in order[:len(scope_vars) - len(set(keep))]]
    log_scale = 0.0
    factors = list(factors)
    for v in pending:
        related = [f for f in factors if v in f[1]]
        if not related:
            continue
        factors = [f for f in factors if v not in f[1]]
        union = tuple(dict.fromkeys(u for _, s in related for u in s))
        _check_budget(union, cards, budget_entries)
        out_scope = tuple(u for u in union if u != v)
        table = _combine(related, out_scope)
        table, log_scale = _rescale(table, log_scale)
        factors.append((table, out_scope))
    keep = tuple(keep)
    _check_budget(keep, cards, budget_entries)
    table = _combine(factors, keep) if factors else np.ones(tuple(cards[v] for v in keep))
    table, log_scale = _rescale(table, log_scale)
    return table, log_scale


def _rescale(table: np.ndarray, log_scale: float) -> tuple[np.ndarray, float]:
    top = float(table.max()) if table.size else 0.0
    if top <= 0:
        return table, -math.inf
    return table / top, log_scale + math.log(top)


def _check_budget(scope: Sequence[int], cards: Sequence[int], budget_entries: float) -> None:
    size = math.prod(cards[v] for v in scope)
    if size > budget_entries:
        raise MemoryBudgetExceeded(_budget_message(len(scope), size, budget_entries))


def _budget_message(n_vars: int, size: int, budget_entries: float) -> str:
    return (f"this query needs a table over {n_vars} variables with {size:.3g} entries ({size * 8 / 2**30:.3g} "
            f"GiB), more than the memory budget of {budget_entries * 8 / 2**30:.3g} GiB")
