"""Max-product on the compiled junction tree, in log space: the most probable explanation and max-marginals.

The max-product message from clique i to its parent j (Koller & Friedman §13.3) is

    m_{i→j}(S_ij) = max_{C_i \\ S_ij} log ψ_i + log λ_i + Σ_{k child of i} m_{k→i}

with ψ_i the product of the CPTs homed at i and λ_i the evidence likelihoods homed there. Everything is a sum
of logarithms, so nothing underflows however many findings or CPT entries meet (munin, pathfinder, a naive
Bayes with 1,000 observed attributes); a zero is -inf and stays so. At the root, max_x log p(x, e) is the
largest entry of its table (plus the log scale removed from soft evidence).

**Decoding** (traceback, K&F §13.3.1.2): the root's argmax fixes its variables; then, parents before children,
each clique fixes the variables it does not share with its parent by the argmax of its table sliced at the
values already fixed. Every choice is a maximiser of the max-marginal given its separator, so the assignment
is a global maximiser, whichever of several tied maximisers numpy's argmax (the first in C order) returns.

**Calibration** for the k best (:mod:`bnstudio.inference.kbest`): after the collect, each clique sends the
message to its children from its full table minus the child's own message (log space: a subtraction; where
both are -inf the entry is -inf, as the clique's table there is 0 whatever the child receives). The full table
of each clique is then its max-marginal log max_{x ⊇ x_C} p(x, e).

The evidence-free upward messages of one tree model are kept: a query recomputes only the messages whose
sending subtree holds evidence, as the sum-product propagation does.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from bnstudio.inference.trees import TreeModel


def _log(table: np.ndarray) -> np.ndarray:
    """log of a non-negative table, 0 giving -inf without a warning."""
    with np.errstate(divide="ignore"):
        return np.log(table)


class MaxTree:
    """Log potentials and the cached evidence-free max-messages of one tree model (one parameter set)."""

    def __init__(self, model: TreeModel) -> None:
        self.model = model
        jt = self.jt = model.jt
        prior = model.prior
        self.log_potentials = [_log(p[..., 0, 0]) + float(np.asarray(prior.scales.get(c, 0.0)).reshape(-1)[0])
                               for c, p in enumerate(prior.potentials)]
        self.children: list[list[int]] = [[] for _ in jt.cliques]
        for c, p in enumerate(jt.parent):
            if p >= 0:
                self.children[p].append(c)
        self._clean: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # clique -> (its table, its message up)

    def evidence_tables(self, lams: Mapping[int, np.ndarray]) -> tuple[dict[int, np.ndarray], int]:
        """{clique: Σ log λ homed there, broadcast to the clique} and the bit mask of those cliques."""
        prop = self.model.propagation(lams)
        tables = {}
        for c, arrays in prop.evidence.items():
            total = _log(arrays[0][..., 0, 0])
            for a in arrays[1:]:
                total = total + _log(a[..., 0, 0])
            tables[c] = total
        dirty = sum(1 << c for c in tables)
        return tables, dirty

    def _table(self, c: int, evidence: Mapping[int, np.ndarray], up: Mapping[int, np.ndarray]) -> np.ndarray:
        """log ψ_c + log λ_c + Σ of the children's messages (a fresh array)."""
        table = self.log_potentials[c] + evidence[c] if c in evidence else self.log_potentials[c].copy()
        for k in self.children[c]:
            table += up[k]
        return table

    def _send_up(self, c: int, table: np.ndarray) -> np.ndarray:
        axes, into = self.jt.plan(c, self.jt.parent[c])
        return (np.max(table, axis=axes) if axes else table).reshape(into)

    def collect(self, evidence: Mapping[int, np.ndarray], dirty: int
                ) -> tuple[dict[int, np.ndarray], list[np.ndarray]]:
        """The upward messages {clique: message to its parent} and every clique's table
        log ψ_c + log λ_c + Σ children's messages (the root's holds max_x log p(x, e))."""
        jt = self.jt
        up: dict[int, np.ndarray] = {}
        tables: list[np.ndarray] = [self.log_potentials[0]] * len(jt.cliques)
        for c in reversed(jt.preorder):
            p = jt.parent[c]
            if p >= 0 and not jt.below[c] & dirty and c in self._clean:
                tables[c], up[c] = self._clean[c]
                continue
            tables[c] = table = self._table(c, evidence, up)
            if p >= 0:
                up[c] = self._send_up(c, table)
                if not jt.below[c] & dirty:
                    self._clean[c] = (table, up[c])
        return up, tables

    @property
    def root(self) -> int:
        return self.jt.preorder[0]

    def decode(self, tables: Sequence[np.ndarray], n_vars: int) -> np.ndarray:
        """The maximising state of every tree variable (-1 for variables outside the tree), by traceback."""
        jt = self.jt
        x = [-1] * n_vars
        for c in jt.preorder:
            members = jt.cliques[c]
            _assign(x, members, tables[c][tuple(x[v] if x[v] >= 0 else slice(None) for v in members)])
        return np.array(x, dtype=np.int64)

    def calibrate(self, up: Mapping[int, np.ndarray], tables: Sequence[np.ndarray]) -> list[np.ndarray]:
        """The max-marginal log max_{x ⊇ x_C} p(x, e) (less the soft-evidence scale) of every clique."""
        jt = self.jt
        full = list(tables)
        for c in jt.preorder:
            for k in self.children[c]:
                axes, into = jt.plan(c, k)
                with np.errstate(invalid="ignore"):
                    rest = full[c] - up[k]  # the child's message is over this clique's axes already
                rest[np.isnan(rest)] = -np.inf
                full[k] = tables[k] + (np.max(rest, axis=axes) if axes else rest).reshape(into)
        return full


def _slice(table: np.ndarray, members: Sequence[int], x) -> np.ndarray:
    """A full clique table at the states fixed in ``x`` (-1: free); the free axes stay, in member order."""
    return table[tuple(int(x[v]) if x[v] >= 0 else slice(None) for v in members)]


def _assign(x, members: Sequence[int], table: np.ndarray) -> None:
    """Set the free members (x[v] < 0) of a clique to the (first) argmax of ``table``, a table over them."""
    if not table.ndim:
        return
    flat = int(np.argmax(table))
    free = [v for v in members if x[v] < 0]
    for v, s in zip(free, np.unravel_index(flat, table.shape), strict=True):
        x[v] = int(s)
