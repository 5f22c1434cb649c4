"""Learning a 2TBN's CPTs from sequences: ``ml`` and ``mp`` with parameters tied across slices (Murphy 2002,
§6.2.1).

The counts are sufficient statistics of the unrolled likelihood: B_0's families are counted on the first slice of
every sequence, the transition families on every pair of consecutive slices (t-1, t) of every sequence, all
slices sharing one table (tied parameters). Each set is one code table over the 2TBN's variables (X0 = slice t-1
or slice 0, Xt = slice t) counted by the project's ``np.bincount`` of mixed-radix family indices
(:func:`bnstudio.learn.params.suffstats.family_counts`); from the counts N:

* ``ml``: θ = N(x, π) / N(π), rows never seen uniform, entries floored as the project's ``ml`` does;
* ``mp``: θ = (α + N) / (α_π + N(π)) with the project's Dirichlet priors (``laplace``, ``bdeu``), and the
  posterior counts α + N kept as the 2TBN's Dirichlet counts, so error bars apply (bnstudio.uncertainty).

A family counts only where it is fully observed (available-case counting, as the project's ``ml``).
Sequences: a table with a sequence-id column and a time column (rows are ordered by time within a sequence;
times must be distinct there, gaps are not slices), or a list of tables, one per sequence, rows in time order.
Variable columns are matched by name; a variable without a column is hidden (its families are not learned
from it).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.errors import ValidationError
from bnstudio.learn.params.checks import check_choice
from bnstudio.learn.params.counting import MeanPosterior
from bnstudio.learn.params.floor import floor_rows
from bnstudio.learn.params.suffstats import family_counts
from bnstudio.temporal.evidence import evidence_codes
from bnstudio.temporal.model import FIRST, TRANSITION, TwoSliceNetwork

METHODS = ("ml", "mp")


def sequence_codes(tbn: TwoSliceNetwork, data: Any, sequence: str = "sequence", time: str = "time"
                   ) -> tuple[np.ndarray, np.ndarray]:
    """(codes (N, n) in ``tbn.radicals`` order, sequence number (N,)), rows of a sequence consecutive in time."""
    if isinstance(data, (list, tuple)):
        if not data:
            raise ValidationError("no sequences to learn from")
        parts = [evidence_codes(tbn, table) for table in data]
        ids = np.repeat(np.arange(len(parts)), [len(p) for p in parts])
        return np.concatenate(parts), ids
    columns = list(getattr(data, "columns", []))
    for name in (sequence, time):
        if name not in columns:
            raise ValidationError(f"the sequences table has no column '{name}' (columns: "
                                  f"{', '.join(map(str, columns[:8]))}); name the id and time columns, or give a "
                                  f"list of tables, one per sequence")
    ids = np.unique(np.asarray(data[sequence]), return_inverse=True)[1].ravel()
    times = np.asarray(data[time])
    order = np.lexsort((times, ids))
    ids, times = ids[order], times[order]
    same = (ids[1:] == ids[:-1]) & (times[1:] == times[:-1])
    if np.any(same):
        row = int(order[1:][same][0])
        raise ValidationError(f"row {row}: time {times[1:][same][0]!r} appears twice in its sequence "
                              f"({sequence} = {np.asarray(data[sequence])[row]!r})")
    codes = evidence_codes(tbn, data[[c for c in columns if c not in (sequence, time)]])
    return codes[order], ids


def fit_sequences(tbn: TwoSliceNetwork, data: Any, method: str = "mp", prior: str = "laplace", ess: float = 1.0,
                  sequence: str = "sequence", time: str = "time") -> TwoSliceNetwork:
    """A copy of ``tbn`` with CPTs learned from sequences (module docstring); ``mp`` keeps Dirichlet counts."""
    estimator = check_estimator(method, prior, ess)
    codes, ids = sequence_codes(tbn, data, sequence, time)
    if len(codes) == 0:
        raise ValidationError("the sequences have no rows: nothing to learn from")
    return estimated(tbn, tied_counts(tbn, codes, ids), estimator)


def check_estimator(method: str, prior: str, ess: float) -> MeanPosterior | None:
    """The project's ``mp`` estimator, or None for ``ml`` (options checked in one line each)."""
    check_choice("method", method, METHODS)
    return MeanPosterior(prior, ess) if method == "mp" else None


def estimated(tbn: TwoSliceNetwork, counts: dict[str, np.ndarray], estimator: MeanPosterior | None
              ) -> TwoSliceNetwork:
    """A copy of ``tbn`` with the CPTs the (expected) counts give: ``ml`` (floored frequencies, no Dirichlet
    counts) or ``mp`` (posterior mean, posterior counts kept)."""
    net = tbn.to_network()
    if estimator is None:
        cpts = {v: floor_rows(normalise_rows(c)) for v, c in counts.items()}
        alphas: dict[str, np.ndarray | None] = dict.fromkeys(net.variables)
    else:
        cpts, alphas = estimator.estimate(net, counts)
    net.set_parameters(cpts, alphas)
    return TwoSliceNetwork(net)


def tied_counts(tbn: TwoSliceNetwork, codes: np.ndarray, ids: np.ndarray) -> dict[str, np.ndarray]:
    """N(x, π) of every 2TBN family: B_0's on first slices, the transition's summed over consecutive pairs."""
    net = tbn.network
    column = {v: k for k, v in enumerate(net.variables)}
    first_cols = [column[r + FIRST] for r in tbn.radicals]
    step_cols = [column[r + TRANSITION] for r in tbn.radicals]
    start = np.r_[True, ids[1:] != ids[:-1]]
    firsts = np.full((int(start.sum()), len(net)), -1, dtype=np.int64)
    firsts[:, first_cols] = codes[start]
    later = np.flatnonzero(~start)
    pairs = np.full((len(later), len(net)), -1, dtype=np.int64)
    pairs[:, first_cols] = codes[later - 1]
    pairs[:, step_cols] = codes[later]
    initial = family_counts(net, firsts)
    step = family_counts(net, pairs) if len(later) else {v: np.zeros(net.family_shape(v)) for v in net.variables}
    return {v: (initial if v.endswith(FIRST) else step)[v].astype(float) for v in net.variables}

