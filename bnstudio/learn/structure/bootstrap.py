"""Bootstrap arc confidence: how often each arc is learned again from resampled data.

A single learned structure commits to the independencies of one DAG although "other structures might be as
probable given the data" (tutorial, "Model Averaging (cont.)", MP1-141/142). The non-parametric bootstrap
(Friedman, Goldszmidt & Wyner 1999) resamples the N rows with replacement T times, re-runs the structure
learner on each resample and reports, for every arc, the fraction of resamples whose DAG contains it.
Score-equivalent scores cannot orient arcs inside an equivalence class, so :meth:`ArcConfidence.edge` also
gives the adjacency frequency (either way).

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> a = rng.integers(0, 2, 400); b = (a ^ (rng.random(400) < 0.1)).astype(int); c = rng.integers(0, 2, 400)
>>> conf = arc_confidence("chow-liu", np.column_stack([a, b, c]), ["A", "B", "C"], [("0", "1")] * 3,
...                       n_boot=20, seed=1)
>>> conf.arcs[("A", "B")], conf.edge("A", "C") < 1.0
(1.0, True)
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from bnstudio.errors import ValidationError
from bnstudio.jobs import Progress, Reporter


@dataclass
class ArcConfidence:
    """Frequency of every arc seen in at least one resample (arcs never learned are absent = 0)."""

    arcs: dict[tuple[str, str], float]
    n_boot: int
    seconds: float

    def edge(self, a: str, b: str) -> float:
        """Fraction of resamples with an arc between ``a`` and ``b`` in either direction."""
        return self.arcs.get((a, b), 0.0) + self.arcs.get((b, a), 0.0)

    def to_json(self) -> dict[str, Any]:
        return {"n_boot": self.n_boot, "seconds": self.seconds,
                "arcs": [[p, c, f] for (p, c), f in sorted(self.arcs.items(), key=lambda kv: (-kv[1], kv[0]))]}


def arc_confidence(algorithm: str, codes: np.ndarray, names: Sequence[str], states: Sequence[Sequence[str]], *,
                   n_boot: int = 100, seed: int | None = None, reporter: Reporter | None = None,
                   **options: Any) -> ArcConfidence:
    """Run ``learn_structure(algorithm, resample, names, states, **options)`` on ``n_boot`` bootstrap resamples.

    Deterministic given ``seed`` (it also seeds each run's restarts). Progress: one iteration per resample;
    a stop request raises :class:`~bnstudio.errors.Cancelled`.
    """
    from bnstudio.learn.structure.api import learn_structure

    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 1:
        raise ValidationError(f"n_boot must be a positive integer, got {n_boot!r}")
    start = time.perf_counter()
    codes = np.asarray(codes)
    rng = np.random.default_rng(seed)
    progress = Progress(reporter, f"bootstrap {algorithm}", total=int(n_boot))
    counts: dict[tuple[str, str], int] = {}
    for t in range(int(n_boot)):
        rows = rng.integers(0, codes.shape[0], codes.shape[0])
        result = learn_structure(algorithm, codes[rows], names, states, seed=int(rng.integers(2 ** 31)), **options)
        for arc in result.arcs:
            counts[arc] = counts.get(arc, 0) + 1
        progress.report(t + 1, {"arcs": float(len(result.arcs))}, message=f"resample {t + 1} of {n_boot}")
    progress.done()
    return ArcConfidence({a: c / n_boot for a, c in counts.items()}, int(n_boot), time.perf_counter() - start)
