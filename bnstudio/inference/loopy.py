"""Loopy belief propagation: sum-product on the network's factor graph, iterated until the messages settle.

Exact on polytrees; on networks with loops an approximation that is often good when it converges (Murphy,
Weiss & Jordan 1999) and carries no error bound, so the answer says whether it converged and after how many
iterations (docs/inference.md §12). Each CPT is a factor over its family; a finding multiplies its variable's
messages by its likelihood λ. With messages normalised to sum 1, one sweep computes, for every factor f and
every variable v of f (flooding schedule, optionally damped: m ← (1 − d) m_new + d m_old),

    m_{v→f}(x_v) ∝ λ_v(x_v) Π_{g ∋ v, g ≠ f} m_{g→v}(x_v),
    m_{f→v}(x_v) ∝ Σ_{x_f \\ x_v} f(x_f) Π_{u ∈ f, u ≠ v} m_{u→f}(x_u),

and the belief is b_v ∝ λ_v Π_f m_{f→v}. Only the ancestors of the targets and the findings take part (the
others are barren). The products over a variable's factors leave one out by prefix and suffix products, so no
division by a zero message occurs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import numpy as np

from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.errors import ImpossibleEvidence, ValidationError
from bnstudio.inference import evidence as ev
from bnstudio.inference.pruning import ancestral_set
from bnstudio.jobs import Progress, Reporter

if TYPE_CHECKING:
    from bnstudio.core.network import Network


@dataclass
class LoopyAnswer:
    """Beliefs of the targets, whether the messages converged (largest change below ``tol``) and in how many
    sweeps; ``change`` is the largest message change of the last sweep."""

    posteriors: dict[str, np.ndarray]
    converged: bool
    iterations: int
    change: float
    method: str = "loopy-bp"


class _FactorGraph:
    """Factors (CPTs of the relevant variables), each with its scope, and per variable the (factor, axis)
    pairs it appears in."""

    def __init__(self, net: Network, keep: Sequence[int], index: ev.VariableIndex) -> None:
        self.cards = index.cards
        self.scopes: list[list[int]] = []
        self.tables: list[np.ndarray] = []
        self.member: dict[int, list[tuple[int, int]]] = {v: [] for v in keep}
        for v in keep:
            name = index.names[v]
            scope = [index.position[p] for p in net.parents(name)] + [v]
            f = len(self.scopes)
            self.scopes.append(scope)
            self.tables.append(normalise_rows(np.asarray(net.cpt(name), dtype=float)))
            for axis, u in enumerate(scope):
                self.member[u].append((f, axis))


def loopy_belief_propagation(net: Network, targets: str | Sequence[str], evidence: ev.Evidence | None = None,
                             max_iter: int = 100, tol: float = 1e-6, damping: float = 0.0,
                             reporter: Reporter | None = None) -> LoopyAnswer:
    """Beliefs p̃(X | e) of each target by loopy belief propagation (module docstring).

    Stops when the largest message change of a sweep is below ``tol`` or after ``max_iter`` sweeps (then
    ``converged`` is False). ``damping`` in [0, 1) mixes each new message with the old one."""
    names = [targets] if isinstance(targets, str) else list(targets)
    if not (0.0 <= damping < 1.0):
        raise ValidationError(f"damping must be in [0, 1), got {damping!r}")
    if isinstance(max_iter, bool) or not isinstance(max_iter, int) or max_iter < 1:
        raise ValidationError(f"max_iter must be a positive integer, got {max_iter!r}")
    index = ev.VariableIndex(net.variables, [net.states(v) for v in net.variables])
    tidx = [index.index(t) for t in names]
    lams = ev.single_evidence(index, evidence)
    parents = [[index.position[p] for p in net.parents(v)] for v in net.variables]
    keep = sorted(ancestral_set(parents, set(tidx) | set(lams)))
    graph = _FactorGraph(net, keep, index)
    lam = {v: lams[v][0] if v in lams else np.ones(index.cards[v]) for v in keep}
    to_var = [[np.full(index.cards[u], 1.0 / index.cards[u]) for u in scope] for scope in graph.scopes]
    to_factor = [[m.copy() for m in row] for row in to_var]
    progress = Progress(reporter, "Loopy belief propagation", max_iter)
    change, sweep = np.inf, 0
    for sweep in range(1, max_iter + 1):
        _variable_messages(graph, lam, to_var, to_factor)
        change = _factor_messages(graph, to_var, to_factor, damping)
        progress.report(sweep, {"change": change})
        if change < tol:
            break
    progress.done()
    beliefs = {}
    for name, v in zip(names, tidx, strict=True):
        b = lam[v] * np.prod([to_var[f][axis] for f, axis in graph.member[v]], axis=0)
        total = b.sum()
        if not total > 0:
            raise ImpossibleEvidence(f"loopy belief propagation gives '{name}' no possible state under the "
                                     f"evidence ({ev.describe(index, evidence)}): it is impossible")
        beliefs[name] = b / total
    return LoopyAnswer(beliefs, bool(change < tol), sweep, float(change))


def _variable_messages(graph: _FactorGraph, lam: dict[int, np.ndarray], to_var: list[list[np.ndarray]],
                       to_factor: list[list[np.ndarray]]) -> None:
    """m_{v→f} = λ_v Π_{g ≠ f} m_{g→v} for every variable, leaving each factor out by prefix/suffix products."""
    for v, members in graph.member.items():
        stack = np.array([to_var[f][axis] for f, axis in members])
        prefix = np.cumprod(np.vstack([np.ones_like(stack[:1]), stack[:-1]]), axis=0)
        suffix = np.cumprod(np.vstack([np.ones_like(stack[:1]), stack[:0:-1]]), axis=0)[::-1]
        out = lam[v] * prefix * suffix
        sums = out.sum(axis=1, keepdims=True)
        out = np.where(sums > 0, out / np.where(sums > 0, sums, 1.0), out)
        for k, (f, axis) in enumerate(members):
            to_factor[f][axis] = out[k]


def _factor_messages(graph: _FactorGraph, to_var: list[list[np.ndarray]], to_factor: list[list[np.ndarray]],
                     damping: float) -> float:
    """m_{f→v} for every factor and variable of it; returns the largest change of any message."""
    change = 0.0
    for f, (scope, table) in enumerate(zip(graph.scopes, graph.tables, strict=True)):
        axes = list(range(len(scope)))
        incoming = to_factor[f]
        for axis in axes:
            operands: list = [table, axes]
            for other in axes:
                if other != axis:
                    operands += [incoming[other], [other]]
            new = np.einsum(*operands, [axis])
            total = new.sum()
            new = new / total if total > 0 else new
            if damping:
                new = (1.0 - damping) * new + damping * to_var[f][axis]
            change = max(change, float(np.abs(new - to_var[f][axis]).max()))
            to_var[f][axis] = new
    return change
