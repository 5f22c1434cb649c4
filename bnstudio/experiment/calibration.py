"""Calibration of a study's methods, pooled over folds and seeds: the report's reliability diagram per data set.

Each task stores (:func:`bnstudio.experiment.scores.bin_sums`), for the ten equal-width bins of the predicted
state's probability c = max_k p(k | e) of :func:`bnstudio.evaluate.curves.reliability`, the bin's weight W_b,
its summed confidence C_b = Σ c and its summed right answers R_b = Σ 1{argmax = y} — sums, not means, so the
held-out rows of every fold and seed pool exactly: the pooled bin is (Σ W_b, Σ C_b, Σ R_b) over the tasks, its
confidence C_b / W_b and accuracy R_b / W_b, and the pooled ECE = Σ_b (W_b / W) |R_b / W_b − C_b / W_b|
(Guo et al. 2017, eq. 3) is the ECE of the concatenated posteriors (a test checks it against
:func:`~bnstudio.evaluate.curves.reliability`); both go through :func:`~bnstudio.evaluate.curves.reliability_from_sums`
(numpy only: bnstudio.evaluate loads its scoring modules on first use, not for this).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from bnstudio.evaluate.curves import reliability_from_sums

#: the keys of a task's stored bins (``metrics["calibration"]``): weight, confidence sum, right-answer sum
BIN_KEYS = ("weight", "confidence", "right")


def _checked(part: Mapping[str, Any], bins: int) -> list[np.ndarray]:
    """One task's stored bins as arrays; a field of the wrong shape is a ValueError (a damaged study file)."""
    out = [np.asarray(part[k], dtype=float) for k in BIN_KEYS]
    if any(v.shape != (bins,) for v in out):
        raise ValueError(f"calibration bins must hold {bins} numbers each")
    return out


def pooled_reliability(parts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The reliability diagram and ECE of the rows behind the stored bins ``parts`` together, in the form of
    :meth:`bnstudio.evaluate.curves.Reliability.to_json` (edges, weight, confidence, accuracy, ece)."""
    if not parts:
        raise ValueError("no calibration bins to pool")
    bins = len(parts[0]["weight"])
    weight, conf, right = np.sum([_checked(p, bins) for p in parts], axis=0)
    return reliability_from_sums(weight, conf, right).to_json()


def calibration_series(rows: Sequence[Mapping[str, Any]], dataset: str, structures: Sequence[str],
                       methods: Sequence[str], expected: int) -> tuple[list[dict[str, Any]], int]:
    """The reliability series (as :mod:`bnstudio.figures.validation` draws them) of every structure + method
    on ``dataset``, from the bins of its finished tasks pooled; a method with fewer than ``expected`` tasks with
    bins says how many it has in its label. Also the number of finished tasks without bins (computed before
    the bins were stored, or with no row of the target observed)."""
    series, without = [], 0
    for structure in structures:
        for method in methods:
            done = [r for r in rows if r.get("status") == "done" and
                    (r["dataset"], r["structure"], r["method"]) == (dataset, structure, method)]
            parts = [m["calibration"] for r in done if (m := r.get("metrics") or {}).get("calibration")]
            without += len(done) - len(parts)
            if not parts:
                continue
            label = f"{structure}+{method}"
            if len(parts) < expected:
                label += f" (partial: {len(parts)}/{expected})"
            series.append({"label": label, **pooled_reliability(parts)})
    return series, without
