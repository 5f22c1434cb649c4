"""Anytime MAP when the constrained elimination does not fit: hill climbing with exact p(m, e), and a bound.

Start from the better of two guesses — each MAP variable at its own most probable state (the marginals of one
calibration) and, when the whole tree fits, the MPE restricted to M — then move, while it improves p(m, e),
to the best assignment differing in one variable. Every neighbour's p(m', e) is exact: all of them are one
batched propagation (:meth:`InferenceEngine.log_evidence_batch`), one evidence case each. The answer is a
lower bound on the MAP value max_m p(m | e); the upper bound is p(X = x | e) ≥ p(m | e) for every MAP variable
X and every m agreeing with x, so max_m p(m | e) ≤ min_X max_x p(x | e) (one calibration: cheap, loose when
the MAP variables are many).
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from bnstudio.errors import MemoryBudgetExceeded

if TYPE_CHECKING:
    from bnstudio.inference.engine import InferenceEngine

MAX_SWEEPS = 200  # moves of the hill climb at most (each move improves p(m, e) strictly)


def _cases(engine: InferenceEngine, evidence: Mapping[str, Any], names: Sequence[str], rows: np.ndarray
           ) -> dict[str, np.ndarray]:
    """Evidence cases for :meth:`log_evidence_batch`: the findings repeated, the MAP variables coded per row."""
    index = engine.compiled.index
    n = rows.shape[0]
    out: dict[str, np.ndarray] = {}
    for name, spec in evidence.items():
        var = index.index(name)
        if isinstance(spec, (str, int, np.integer)):
            out[name] = np.full(n, index.state_index(var, spec), dtype=np.int64)
        else:
            out[name] = np.repeat(np.asarray(spec, dtype=float)[None, :], n, axis=0)
    for k, name in enumerate(names):
        out[name] = rows[:, k].astype(np.int64)
    return out


def _neighbours(current: np.ndarray, cards: Sequence[int]) -> np.ndarray:
    """Every assignment differing from ``current`` in exactly one variable, one per row."""
    rows = []
    for k, card in enumerate(cards):
        for s in range(card):
            if s != current[k]:
                row = current.copy()
                row[k] = s
                rows.append(row)
    return np.array(rows, dtype=np.int64).reshape(-1, len(cards))


def _starts(engine: InferenceEngine, names: Sequence[str], evidence: Mapping[str, Any],
            marginals: Mapping[str, np.ndarray]) -> np.ndarray:
    """The starting guesses: marginal argmaxes, and the MPE restricted to the MAP variables when it fits."""
    index = engine.compiled.index
    starts = [[int(np.argmax(marginals[n])) for n in names]]
    try:
        best = engine.mpe(evidence).best.assignment
        starts.append([index.state_index(index.index(n), best[n]) for n in names])
    except MemoryBudgetExceeded:
        pass
    return np.array(starts, dtype=np.int64)


def local_search(engine: InferenceEngine, names: Sequence[str], evidence: Mapping[str, Any], log_e: float
                 ) -> tuple[dict[str, int], float, float, int]:
    """Hill climbing for argmax_m p(m, e): (state indices, log p(m, e) found, log upper bound on
    max_m p(m, e), number of moves) (see module docstring)."""
    cards = [engine.compiled.index.cards[engine.compiled.index.index(n)] for n in names]
    marginals = engine.posterior(list(names), evidence)
    upper = log_e + min(math.log(float(np.max(marginals[n]))) for n in names)
    starts = _starts(engine, names, evidence, marginals)
    values = engine.log_evidence_batch(_cases(engine, evidence, names, starts))
    current, value = starts[int(np.argmax(values))], float(np.max(values))
    moves = 0
    while moves < MAX_SWEEPS:
        rows = _neighbours(current, cards)
        if not len(rows):
            break
        scores = engine.log_evidence_batch(_cases(engine, evidence, names, rows))
        k = int(np.argmax(scores))
        if not scores[k] > value:
            break
        current, value, moves = rows[k], float(scores[k]), moves + 1
    return {n: int(s) for n, s in zip(names, current, strict=True)}, value, max(upper, value), moves
