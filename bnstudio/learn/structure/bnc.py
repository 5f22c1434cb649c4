"""BNC: structure chosen by the conditional log-likelihood of the class, parameters by maximum likelihood.

Grossman & Domingos (2004, §3): hill climbing over add / delete / reverse-arc moves (the search of
:mod:`~bnstudio.learn.structure.hillclimb`), each candidate network scored by

    CLL(G | D) = Σ_n log p(c_n | x_n)      with ML parameters θ = N(x, π) / N(π)          (G&D eq 3)

in two variants: **BNC-kP** (``score="cll"``, at most k parents per variable) and **BNC-MDL**
(``score="cll-mdl"``: CLL − (log N / 2) · #free parameters). Closed form on complete rows: with
s_nc = Σ_{f ∋ C} log θ_f(row n with C = c), log p(c_n | x_n) = s_n,c_n − logsumexp_c s_nc; families not
containing the class cancel. So the search keeps one (|C|, N) contribution array per family containing the
class and their sum S; a candidate changing such a family costs one bincount and one (|C|, N) logsumexp, and
moves elsewhere change only the MDL penalty. CLL is not decomposable, so after a move touching a class
family every such move's delta is recomputed (other moves keep theirs).

Rows: only rows with every cell observed are used (as G&D, who ignore missing values like TAN does).
"""
from __future__ import annotations

import numpy as np

from bnstudio.errors import ValidationError
from bnstudio.learn.structure.scores import DataColumns

Changes = dict[int, frozenset[int]]
LOG_ZERO = -1e4   # stands for log 0 (e^-1e4 underflows to 0) without producing -inf - -inf = nan


def complete_rows(codes: np.ndarray) -> np.ndarray:
    """The rows of ``codes`` without a missing cell; a :class:`ValidationError` if there are none."""
    keep = (codes >= 0).all(axis=1)
    if not keep.any():
        raise ValidationError("bnc needs complete rows (no missing cell) and the data has none")
    return codes[keep]


class ConditionalObjective:
    """CLL of ``target`` (minus the MDL penalty when ``mdl``) for the hill climber's objective protocol."""

    def __init__(self, data: DataColumns, target: int, mdl: bool = False) -> None:
        self.data, self.t, self.mdl = data, target, mdl
        self.r = int(data.cards[target])
        self.y = data.columns[target].astype(np.int64)     # narrow codes: y · stride must not wrap
        self.weight = 0.5 * np.log(data.n_rows) if mdl else 0.0
        self.rows = np.arange(data.n_rows)
        self.pa: list[frozenset[int]] = []
        self.contrib: dict[int, np.ndarray] = {}

    # ------------------------------------------------------------------ pieces
    def n_params(self, j: int, parents: frozenset[int]) -> int:
        cards = self.data.cards
        return int((cards[j] - 1) * np.prod([cards[p] for p in parents], dtype=np.int64))

    def involves(self, j: int, parents: frozenset[int]) -> bool:
        return j == self.t or self.t in parents

    def family_logs(self, j: int, parents: frozenset[int]) -> np.ndarray:
        """(|C|, N): log θ_j(row n with the class set to c) under ML parameters of this family."""
        variables = tuple(sorted(parents)) + (j,)
        idx, _, size = self.data.index(variables)
        r_j = int(self.data.cards[j])
        counts = np.bincount(idx, minlength=size).reshape(-1, r_j).astype(float)
        totals = counts.sum(axis=1, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            logs = np.where(totals > 0, np.log(counts) - np.log(np.maximum(totals, 1.0)), -np.log(r_j)).ravel()
        logs = np.maximum(logs, LOG_ZERO)  # finite, so contributions can be subtracted again
        stride = int(np.prod([self.data.cards[v] for v in variables[variables.index(self.t) + 1:]], dtype=np.int64))
        base = idx - self.y * stride
        return logs[base[None, :] + stride * np.arange(self.r)[:, None]]

    def cll(self, s: np.ndarray) -> float:
        """Σ_n s[c_n, n] − logsumexp_c s[c, n] for class-major scores ``s`` of shape (|C|, N)."""
        if self.r == 2:
            lse = np.logaddexp(s[0], s[1])
        else:
            top = s.max(axis=0)
            lse = top + np.log(np.exp(s - top).sum(axis=0))
        return float(s[self.y, self.rows].sum() - lse.sum())

    # ------------------------------------------------------------------ objective protocol
    def start(self, parents: list[frozenset[int]]) -> float:
        self.pa = list(parents)
        self.contrib = {j: self.family_logs(j, ps) for j, ps in enumerate(parents) if self.involves(j, ps)}
        self.s = np.zeros((self.r, self.data.n_rows))
        for arr in self.contrib.values():
            self.s += arr
        self.value = self.cll(self.s)
        self.params = sum(self.n_params(j, ps) for j, ps in enumerate(parents))
        return self.value - self.weight * self.params

    def _penalty_change(self, changes: Changes) -> float:
        if not self.mdl:
            return 0.0
        return self.weight * sum(self.n_params(j, ps) - self.n_params(j, self.pa[j]) for j, ps in changes.items())

    def _new_s(self, changes: Changes) -> tuple[np.ndarray | None, dict[int, np.ndarray | None]]:
        touched = {j: ps for j, ps in changes.items() if self.involves(j, ps) or self.involves(j, self.pa[j])}
        if not touched:
            return None, {}
        s = self.s.copy()
        new: dict[int, np.ndarray | None] = {}
        for j, ps in touched.items():
            if j in self.contrib:
                s -= self.contrib[j]
            new[j] = logs = self.family_logs(j, ps) if self.involves(j, ps) else None
            if logs is not None:
                s += logs
        return s, new

    def delta(self, changes: Changes) -> float:
        s, _ = self._new_s(changes)
        gain = 0.0 if s is None else self.cll(s) - self.value
        return gain - self._penalty_change(changes)

    def apply(self, changes: Changes) -> float:
        s, new = self._new_s(changes)
        self.params += sum(self.n_params(j, ps) - self.n_params(j, self.pa[j]) for j, ps in changes.items())
        if s is not None:
            self.s, self.value = s, self.cll(s)
            for j, arr in new.items():
                if arr is None:
                    self.contrib.pop(j, None)
                else:
                    self.contrib[j] = arr
        for j, ps in changes.items():
            self.pa[j] = ps
        return self.value - self.weight * self.params

    def stale(self, changes: Changes) -> set[int] | None:
        touched = any(self.involves(j, ps) or self.involves(j, self.pa[j]) for j, ps in changes.items())
        return None if touched else set(changes)
