"""Query-specific variable elimination on the CPTs that relevance reasoning keeps.

After relevance pruning (:mod:`bnstudio.inference.pruning`) the remaining factors are the CPTs of the
requisite variables with hard evidence sliced in and soft evidence as extra one-variable factors. Non-target
variables are summed out in a greedy min-fill order of the factors' interaction graph; each step is one
``einsum`` over the factors that mention the variable (Zhang & Poole 1994). Every intermediate table is sized
before it is allocated and the budget is enforced; tables are rescaled to max 1 with the log scale carried,
so p(e) stays finite on large networks (docs/inference.md §6).

Within one step the product of many factors (a naive Bayes class with 1,000 observed children: 1,001 factors
over C) can itself underflow: every factor is at most 1, so the product only shrinks, and a step whose result
has its largest entry below :data:`TINY` is recomputed one factor at a time, rescaled to max 1 after each
(:func:`combine_scaled`). Variables with one state are squeezed out of every factor first: their axes have
length 1, so a factor keeps its values on the other axes, and a one-state variable never enters a table or
an einsum subscript (docs/inference.md §7).

:func:`possible` decides whether the factors of a component no target needs can be non-zero together
(Z_c > 0), so evidence that is impossible far from the targets is still reported. It works on supports (the
Boolean semiring: "some configuration has every factor positive"), where a factor without zeros constrains
nothing and a variable that one factor alone mentions can be maximised out of it on the spot; whatever is
left, usually nothing, is eliminated with tables clipped to 0/1.
"""
from __future__ import annotations

import math
from typing import Hashable, Sequence, TypeVar

import numpy as np

from bnstudio.errors import MemoryBudgetExceeded
from bnstudio.inference.elimination import CliqueTooLarge, elimination_plan

Factor = tuple[np.ndarray, tuple[int, ...]]
#: a variable in a scope for :func:`combine`: an index here, a name in bnstudio.decision.rollback
V = TypeVar("V", bound=Hashable)
MAX_OPERANDS = 16
TINY = 1e-200  # a product whose largest entry is below this is recomputed with rescaling (see combine_scaled)
STEP_COST = 8000  # an einsum or a message costs about as much Python and numpy overhead as this many entries


def restrict(table: np.ndarray, scope: Sequence[int], hard: dict[int, int]) -> Factor:
    """Slice hard evidence {var: state} into a factor and drop those axes."""
    if not hard.keys() & set(scope):
        return table, tuple(scope)
    index = tuple(hard.get(v, slice(None)) for v in scope)
    return table[index], tuple(v for v in scope if v not in hard)


def combine(factors: list[tuple[np.ndarray, tuple[V, ...]]], out_scope: tuple[V, ...]) -> np.ndarray:
    """Π factors summed onto ``out_scope`` with einsum (local subscripts keep it under 52 letters).

    Many factors are first multiplied in groups (einsum takes a bounded number of operands).
    """
    factors = list(factors)
    while len(factors) > MAX_OPERANDS:
        group, factors = factors[:MAX_OPERANDS], factors[MAX_OPERANDS:]
        scope = tuple(dict.fromkeys(v for _, s in group for v in s))
        factors.append((combine(group, scope), scope))
    local = {v: k for k, v in enumerate(dict.fromkeys(v for _, s in factors for v in s))}
    args: list = []
    for table, scope in factors:
        args += [table, [local[v] for v in scope]]
    return np.einsum(*args, [local[v] for v in out_scope])


def squeeze(table: np.ndarray, scope: Sequence[int], cards: Sequence[int]) -> Factor:
    """The factor without the axes of one-state variables (length 1: the values on the other axes stay)."""
    if all(cards[v] > 1 for v in scope):
        return table, tuple(scope)
    kept = tuple(v for v in scope if cards[v] > 1)
    return table.reshape(tuple(cards[v] for v in kept)), kept


def combine_scaled(factors: list[Factor], out_scope: tuple[int, ...]) -> tuple[np.ndarray, float]:
    """(table, log scale) with Π factors summed onto ``out_scope`` = ``table · exp(log scale)``, the table
    rescaled to max 1 (an all-zero result has log scale -inf).

    First :func:`combine` at full speed; factors are at most 1 (CPTs, likelihoods and rescaled tables), so the
    running product only shrinks and the result is exact unless its largest entry is tiny. Then — when it is
    below :data:`TINY`, say a class with 1,000 observed children, Π_i p(x_i | c) ≈ 1e-400 — it is recomputed
    one factor at a time over the union of the scopes, rescaled to max 1 after each product, so the answer
    loses nothing to underflow (docs/inference.md §6).
    """
    table = combine(factors, out_scope)
    top = float(table.max()) if table.size else 0.0
    if top >= TINY:
        return table / top, math.log(top)
    acc, log_scale = np.ones(()), 0.0
    scope: tuple[int, ...] = ()
    for f_table, f_scope in factors:
        union = tuple(dict.fromkeys(scope + tuple(f_scope)))
        acc, log_scale = _rescale(combine([(acc, scope), (f_table, f_scope)], union), log_scale)
        scope = union
        if log_scale == -math.inf:
            return np.zeros(table.shape), -math.inf
    return _rescale(combine([(acc, scope)], out_scope), log_scale)


def eliminate(factors: list[Factor], cards: Sequence[int], keep: Sequence[int],
              budget_entries: float, boolean: bool = False, max_cost: float | None = None
              ) -> tuple[np.ndarray, float] | None:
    """Sum out every variable except ``keep``; returns (table over ``keep`` in that order, log scale).

    The true (unscaled) result is ``table * exp(log_scale)``. With ``boolean`` every intermediate table is
    clipped to 0/1 instead (the support of the result; log scale 0). Raises :class:`MemoryBudgetExceeded`
    before building any table with more than ``budget_entries`` entries. With ``max_cost``, returns None
    (having computed nothing but the order) when the order's cost — the total size of the tables it builds
    plus :data:`STEP_COST` per factor — exceeds it. One-state variables are squeezed out of the factors
    (:func:`squeeze`); those in ``keep`` come back as axes of length 1.
    """
    full_keep = keep = tuple(keep)
    scope_vars: Sequence[int] = sorted({v for _, s in factors for v in s} | set(keep))
    if any(cards[v] == 1 for v in scope_vars):
        factors = [squeeze(table, scope, cards) for table, scope in factors]
        keep, scope_vars = (tuple(v for v in vs if cards[v] > 1) for vs in (full_keep, scope_vars))
    local = {v: k for k, v in enumerate(scope_vars)}
    adj: list[set[int]] = [set() for _ in scope_vars]
    buckets: list[set[int]] = [set() for _ in scope_vars]
    for f, (_, scope) in enumerate(factors):
        for a in scope:
            adj[local[a]].update(local[b] for b in scope if b != a)
            buckets[local[a]].add(f)
    local_cards = [cards[v] for v in scope_vars]
    try:  # the order stops at the first table over budget: no time spent on a query that cannot run
        order, cost = elimination_plan(adj, local_cards, "min-fill", keep=[local[v] for v in keep],
                                       max_clique=budget_entries)
    except CliqueTooLarge as exc:
        raise MemoryBudgetExceeded(budget_message(exc.n_vars, exc.size, budget_entries)) from None
    if max_cost is not None and cost + STEP_COST * len(factors) > max_cost:
        return None
    store: dict[int, Factor] = dict(enumerate(factors))
    log_scale = 0.0
    for k in order[:len(scope_vars) - len(set(keep))]:
        ids = sorted(buckets[k])
        if not ids:
            continue
        related = [store.pop(f) for f in ids]
        union = tuple(dict.fromkeys(u for _, s in related for u in s))
        out_scope = tuple(u for u in union if u != scope_vars[k])
        table, step_scale = _step(related, out_scope, boolean)
        log_scale += step_scale
        new = len(factors) + k
        store[new] = (table, out_scope)
        for u in union:
            buckets[local[u]].difference_update(ids)
        for u in out_scope:
            buckets[local[u]].add(new)
    check_budget(keep, cards, budget_entries)
    rest = list(store.values())
    table, step_scale = _step(rest, keep, boolean) if rest else (np.ones(tuple(cards[v] for v in keep)), 0.0)
    log_scale += step_scale
    if len(keep) != len(full_keep):
        table = table.reshape(tuple(cards[v] for v in full_keep))
    return table, log_scale


def _step(factors: list[Factor], out_scope: tuple[int, ...], boolean: bool) -> tuple[np.ndarray, float]:
    """One elimination step: Π factors summed onto ``out_scope``, as (table, log scale) — rescaled
    (:func:`combine_scaled`), or clipped to 0/1 with ``boolean``."""
    return _clip(combine(factors, out_scope), 0.0) if boolean else combine_scaled(factors, out_scope)


def possible(factors: list[Factor], cards: Sequence[int], budget_entries: float) -> bool:
    """Whether some configuration gives every factor a positive value (see module docstring).

    On supports: a factor without zeros is dropped; a variable only one factor mentions is maximised out of
    it at once (``any`` over its axis — a CPT's own variable always has a positive entry, so that factor
    goes); a factor that becomes all-true is dropped, which may leave other variables to one factor; and so
    on. What is left, where every variable is shared, is eliminated exactly.
    """
    tables: dict[int, np.ndarray] = {}
    scopes: dict[int, tuple[int, ...]] = {}
    users: dict[int, set[int]] = {}
    for i, (table, scope) in enumerate(factors):
        support = table > 0
        if support.all():
            continue
        if support.ndim == 0:  # e.g. a fully observed family of probability 0
            return False
        tables[i], scopes[i] = support, tuple(scope)
        for v in scope:
            users.setdefault(v, set()).add(i)
    work = [i for i in tables if any(len(users[v]) == 1 for v in scopes[i])]
    while work:
        i = work.pop()
        if i not in tables:
            continue
        scope = scopes[i]
        private = tuple(k for k, v in enumerate(scope) if len(users[v]) == 1)
        if not private:
            continue
        table = np.asarray(tables[i].any(axis=private))
        shared = tuple(v for v in scope if len(users[v]) > 1)
        if table.ndim == 0 and not table:
            return False
        if table.all():
            del tables[i], scopes[i]
            for v in scope:
                users[v].discard(i)
                if len(users[v]) == 1:
                    work.append(next(iter(users[v])))
        else:
            tables[i], scopes[i] = table, shared
            for k in private:
                users[scope[k]].discard(i)
    if not tables:
        return True
    result = eliminate([(tables[i].astype(float), scopes[i]) for i in tables], cards, (), budget_entries,
                       boolean=True)
    assert result is not None  # None only with max_cost
    table, _ = result
    return bool(table > 0)


def _rescale(table: np.ndarray, log_scale: float) -> tuple[np.ndarray, float]:
    top = float(table.max()) if table.size else 0.0
    if top <= 0:
        return table, -math.inf
    return table / top, log_scale + math.log(top)


def _clip(table: np.ndarray, log_scale: float) -> tuple[np.ndarray, float]:
    return (table > 0).astype(float), 0.0


def check_budget(scope: Sequence[int], cards: Sequence[int], budget_entries: float) -> None:
    size = math.prod(cards[v] for v in scope)
    if size > budget_entries:
        raise MemoryBudgetExceeded(budget_message(len(scope), size, budget_entries))


def budget_message(n_vars: int, size: int, budget_entries: float) -> str:
    return (f"this query needs a table over {n_vars} variables with {size:.3g} entries ({size * 8 / 2**30:.3g} "
            f"GiB), more than the memory budget of {budget_entries * 8 / 2**30:.3g} GiB")
