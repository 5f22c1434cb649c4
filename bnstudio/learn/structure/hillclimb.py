"""Greedy hill climbing over DAGs with a table of move deltas, a tabu list and random restarts.

The search follows the tutorial ("Greedy Hill-Climbing", MP1-130 to MP1-132): start from a network (empty,
a tree or a given one), evaluate every add / delete / reverse-arc move, apply the best, stop when nothing
improves. Escapes from local maxima and plateaus:

* **tabu list**: the best move not leading back to a structure already visited in this climb (hashed by XOR
  of one random 64-bit key per arc) is applied even if it lowers the score, until ``tabu`` steps in a row
  pass without beating the best structure; the best one is returned. The tutorial keeps the K most recent
  structures; keeping all of them is a superset that also guarantees termination when, with missing cells,
  move deltas are measured on different rows and need not add up along a cycle;
* **random restarts**: from the best structure, apply ``perturb`` random legal moves and climb again.

Efficiency ("Exploiting Decomposability in Local Search", MP1-129): the deltas of all moves live in three
V x V arrays (add, delete, reverse). A move changes one or two families; only the deltas of moves that change
those families (their columns, and reversals of their outgoing arcs) are recomputed, through the objective
(see :class:`DecomposableObjective`; :mod:`~bnstudio.learn.structure.bnc` provides a non-decomposable one).
Cycle checks use a reachability matrix kept up to date. Everything is deterministic given ``seed``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from bnstudio.jobs import Progress
from bnstudio.learn.structure.constraints import Constraints
from bnstudio.learn.structure.scores import ScoreCache

Changes = dict[int, frozenset[int]]
ADD, DELETE, REVERSE = 0, 1, 2
KINDS = ("add", "delete", "reverse")


class Objective(Protocol):
    """What the search maximises: a total and the change a set of new parent sets would make."""

    def start(self, parents: list[frozenset[int]]) -> float: ...

    def delta(self, changes: Changes) -> float: ...

    def apply(self, changes: Changes) -> float: ...

    def stale(self, changes: Changes) -> set[int] | None: ...


class DecomposableObjective:
    """Σ_j Score(X_j | Pa_j) from a :class:`ScoreCache`; a move's delta only involves its families.

    With missing cells each family change is judged on the rows observing both versions of the family
    (:meth:`ScoreCache.move_delta`), so the reported total (rescaled family terms) need not grow every move.
    """

    def __init__(self, cache: ScoreCache) -> None:
        self.cache = cache
        self.fam: list[float] = []
        self.pa: list[frozenset[int]] = []

    def start(self, parents: list[frozenset[int]]) -> float:
        self.pa = list(parents)
        self.fam = [self.cache.family(j, ps) for j, ps in enumerate(parents)]
        return float(sum(self.fam))

    def delta(self, changes: Changes) -> float:
        return sum(self.cache.move_delta(j, self.pa[j], ps) for j, ps in changes.items())

    def apply(self, changes: Changes) -> float:
        for j, ps in changes.items():
            self.pa[j] = ps
            self.fam[j] = self.cache.family(j, ps)
        return float(sum(self.fam))

    def stale(self, changes: Changes) -> set[int] | None:
        return set(changes)


@dataclass
class SearchResult:
    """Best parent sets found, their objective value, one history entry per applied move and why the search
    ended: ``max_iter`` (the move limit was reached) or ``converged`` (no move improves any more)."""

    parents: list[frozenset[int]]
    score: float
    history: list[dict] = field(default_factory=list)
    stop_reason: str = "converged"


class HillClimber:
    """One search over DAGs on ``constraints.names``; see the module docstring."""

    def __init__(self, objective: Objective, constraints: Constraints, tabu: int = 0, restarts: int = 0,
                 perturb: int | None = None, max_iter: int | None = None, seed: int | None = None,
                 tol: float = 1e-9, progress: Progress | None = None) -> None:
        self.obj, self.cons = objective, constraints
        self.v = len(constraints.names)
        self.tabu, self.restarts, self.max_iter, self.tol = int(tabu), int(restarts), max_iter, tol
        self.perturb = max(1, self.v // 4) if perturb is None else int(perturb)
        self.rng = np.random.default_rng(seed)
        self.keys = self.rng.integers(0, 2 ** 63, size=(self.v, self.v), dtype=np.int64)
        self.maxp = self.v if constraints.max_parents is None else constraints.max_parents
        self.progress = progress
        self.history: list[dict] = []
        self.step = 0

    # ------------------------------------------------------------------ state
    def _reset(self, parents: list[frozenset[int]], gain: float = 0.0) -> None:
        """Set the state to ``parents``; ``gain`` is the sum of move deltas that led there from the start."""
        self.gain = gain
        self.pa = [set(p) for p in parents]
        self.kids: list[set[int]] = [set() for _ in range(self.v)]
        for j, ps in enumerate(self.pa):
            for i in ps:
                self.kids[i].add(j)
        self.hash = 0
        for j, ps in enumerate(self.pa):
            for i in ps:
                self.hash ^= int(self.keys[i, j])
        self.total = self.obj.start([frozenset(p) for p in self.pa])
        self.delta = np.full((3, self.v, self.v), -np.inf)
        self._closure()
        for j in range(self.v):
            self._refresh(j)

    def _closure(self) -> None:
        """reach[a, b]: a directed path a ~> b exists (children first, by a topological order)."""
        indeg = [len(p) for p in self.pa]
        order, stack = [], [j for j in range(self.v) if indeg[j] == 0]
        while stack:
            x = stack.pop()
            order.append(x)
            for c in self.kids[x]:
                indeg[c] -= 1
                if indeg[c] == 0:
                    stack.append(c)
        reach = np.zeros((self.v, self.v), dtype=bool)
        for x in reversed(order):
            for c in self.kids[x]:
                reach[x, c] = True
                reach[x] |= reach[c]
        self.reach = reach

    def _refresh(self, j: int) -> None:
        """Recompute the deltas of every move that changes the family of ``j``."""
        pa_j, cons, d = self.pa[j], self.cons, self.delta
        d[:, :, j] = -np.inf
        for i in range(self.v):
            if i == j:
                continue
            if i in pa_j:
                if cons.is_required(i, j):
                    continue
                d[DELETE, i, j] = self.obj.delta({j: frozenset(pa_j - {i})})
                if cons.allowed[j, i] and len(self.pa[i]) < self.maxp:
                    d[REVERSE, i, j] = self.obj.delta({j: frozenset(pa_j - {i}), i: frozenset(self.pa[i] | {j})})
            elif cons.allowed[i, j] and len(pa_j) < self.maxp:  # a 2-cycle is caught by the cycle check
                d[ADD, i, j] = self.obj.delta({j: frozenset(pa_j | {i})})
        d[REVERSE, j, :] = -np.inf
        if len(pa_j) < self.maxp:
            for k in self.kids[j]:
                if cons.allowed[k, j] and not cons.is_required(j, k):
                    d[REVERSE, j, k] = self.obj.delta({k: frozenset(self.pa[k] - {j}), j: frozenset(pa_j | {k})})

    def _changes(self, kind: int, i: int, j: int) -> Changes:
        if kind == ADD:
            return {j: frozenset(self.pa[j] | {i})}
        if kind == DELETE:
            return {j: frozenset(self.pa[j] - {i})}
        return {j: frozenset(self.pa[j] - {i}), i: frozenset(self.pa[i] | {j})}

    def _hash_after(self, kind: int, i: int, j: int) -> int:
        h = self.hash ^ int(self.keys[i, j])
        return h ^ int(self.keys[j, i]) if kind == REVERSE else h

    def _acyclic_after(self, kind: int, i: int, j: int) -> bool:
        if kind == ADD:
            return not self.reach[j, i]
        if kind == REVERSE:
            others = [c for c in self.kids[i] if c != j]
            return not (others and self.reach[others, j].any())
        return True

    def _apply(self, kind: int, i: int, j: int) -> None:
        self.gain += float(self.delta[kind, i, j])
        changes = self._changes(kind, i, j)
        self.hash = self._hash_after(kind, i, j)
        for x, ps in changes.items():
            for p in self.pa[x] - ps:
                self.kids[p].discard(x)
            for p in ps - self.pa[x]:
                self.kids[p].add(x)
            self.pa[x] = set(ps)
        stale = self.obj.stale(changes)
        self.total = self.obj.apply(changes)
        if kind == ADD:
            self.reach |= np.outer(self.reach[:, i] | (np.arange(self.v) == i),
                                   self.reach[j] | (np.arange(self.v) == j))
        else:
            self._closure()
        for x in range(self.v) if stale is None else sorted(stale):
            self._refresh(x)

    def _record(self, kind: int, i: int, j: int, change: float, phase: str) -> None:
        self.step += 1
        names = self.cons.names
        move = f"{KINDS[kind]} {names[i]}->{names[j]}"
        self.history.append({"iteration": self.step, "score": self.total, "move": move, "delta": change,
                             "phase": phase})
        if self.progress is not None:
            self.progress.report(self.step, {"score": self.total}, message=move)

    # ------------------------------------------------------------------ search
    def _best(self, threshold: float, tabu: set[int]) -> tuple[int, int, int, float] | None:
        flat = self.delta.ravel()
        candidates = np.flatnonzero(flat > threshold)
        for f in candidates[np.argsort(-flat[candidates], kind="stable")]:
            kind, rest = divmod(int(f), self.v * self.v)
            i, j = divmod(rest, self.v)
            if self._acyclic_after(kind, i, j) and self._hash_after(kind, i, j) not in tabu:
                return kind, i, j, float(flat[f])
        return None

    def _state(self) -> tuple[list[frozenset[int]], float, float]:
        return [frozenset(p) for p in self.pa], self.total, self.gain

    def _climb(self, phase: str) -> tuple[list[frozenset[int]], float, float]:
        """Climb from the current state; return the best (parents, total, gain) seen and go back to it.

        Progress is measured by the accumulated move deltas (``gain``), which equal total differences on
        complete data and stay meaningful when missing cells make moves judged on their own rows."""
        best = self._state()
        visited = {self.hash}
        since_best = 0
        while self.max_iter is None or self.step < self.max_iter:
            tol = self.tol * max(1.0, abs(self.total))
            move = self._best(tol if self.tabu == 0 else -np.inf, visited)
            if move is None or (move[3] <= tol and since_best >= self.tabu):
                break
            self._apply(*move[:3])
            self._record(*move, phase=phase)
            visited.add(self.hash)
            if self.gain > best[2] + tol:
                best, since_best = self._state(), 0
            else:
                since_best += 1
                if since_best > self.tabu:
                    break
        if [frozenset(p) for p in self.pa] != best[0]:
            self._reset(best[0], best[2])
        return best

    def _perturb(self) -> None:
        for _ in range(self.perturb):
            legal = np.flatnonzero(np.isfinite(self.delta.ravel()))
            self.rng.shuffle(legal)
            for f in legal:
                kind, rest = divmod(int(f), self.v * self.v)
                i, j = divmod(rest, self.v)
                if self._acyclic_after(kind, i, j):
                    change = float(self.delta.ravel()[f])
                    self._apply(kind, i, j)
                    self._record(kind, i, j, change, phase="perturb")
                    break

    def run(self, start: list[frozenset[int]]) -> SearchResult:
        """Climb from ``start`` (parent sets, constraints already checked), then do the restarts."""
        self._reset(start)
        best = self._climb("climb")
        for r in range(self.restarts):
            if self.max_iter is not None and self.step >= self.max_iter:
                break        # the move limit holds for the random moves of a restart too
            self._perturb()
            found = self._climb(f"restart {r + 1}")
            if found[2] > best[2] + self.tol * max(1.0, abs(best[1])):
                best = found
            self._reset(best[0], best[2])
        limited = self.max_iter is not None and self.step >= self.max_iter
        return SearchResult(best[0], best[1], self.history, "max_iter" if limited else "converged")
