"""What a study found, from its store: tables, wins/draws/losses and paired tests (no plotting here).

* **Cells** (Zhou Table 4-2): per data set, structure and method, the mean and the sample standard deviation of a
  metric over the folds and seeds that finished.
* **Comparisons**: each method against the study's baseline on the same structure, paired by data set on the
  cells' means: wins / draws / losses (a draw: the means differ by at most :data:`DRAW_TOLERANCE`), the
  two-sided Wilcoxon signed-rank test on the differences (zeros dropped) and the two-sided sign test
  (binomial, p = 1/2, on wins vs losses), both from scipy.
* **Query studies**: per query, the mean squared error of each method's answers over the data sets (Singh
  §4.6), its split into bias² and variance over the data sets, and the same comparisons paired by query.

Lower is better for error, brier, ae, se, mse, time and iterations; higher for cll, ll and auc.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Sequence

import numpy as np

HIGHER_IS_BETTER = frozenset({"cll", "ll", "auc"})
DRAW_TOLERANCE = 1e-9


@dataclass
class Cell:
    """A metric over the folds × seeds of one (data set, structure, method); ``dropped``: NaN values left out
    (shown in the report, never silently)."""

    mean: float
    sd: float
    n: int
    dropped: int = 0


@dataclass
class Comparison:
    """``method`` against ``baseline`` on ``structure`` for ``metric``, paired over ``n`` data sets or queries."""

    structure: str
    method: str
    baseline: str
    metric: str
    n: int
    wins: int
    draws: int
    losses: int
    wilcoxon_p: float
    sign_p: float
    mean_difference: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def metric_values(rows: Iterable[dict[str, Any]], metric: str) -> dict[tuple[str, str, str], list[float]]:
    """(data set, structure, method) -> the metric of every finished fold/seed (a metric a task does not have,
    such as AUC of a three-class target, left out; ±inf kept, NaN kept for :func:`cells` to count)."""
    out: dict[tuple[str, str, str], list[float]] = {}
    for row in rows:
        value = (row.get("metrics") or {}).get(metric)
        if row.get("status") == "done" and value is not None:
            out.setdefault((row["dataset"], row["structure"], row["method"]), []).append(float(value))
    return out


def cells(rows: Iterable[dict[str, Any]], metric: str) -> dict[tuple[str, str, str], Cell]:
    """Mean and sample standard deviation (0 for one value) of ``metric`` per (data set, structure, method);
    NaN values are left out and counted in ``dropped``."""
    out = {}
    for key, values in metric_values(rows, metric).items():
        v = np.array(values)
        kept = v[~np.isnan(v)]
        with np.errstate(invalid="ignore"):    # sd of values with an infinity is NaN: reported as such
            sd = float(np.std(kept, ddof=1)) if len(kept) > 1 else 0.0
        out[key] = Cell(float(kept.mean()) if len(kept) else math.nan, sd, len(kept), int(len(v) - len(kept)))
    return out


def _rank_safe(gain: np.ndarray) -> np.ndarray:
    """``gain`` with ±inf replaced by ±(twice the largest finite |gain|, or 1): the same ranks of |gain| and the
    same signs, which is all the Wilcoxon and sign tests use."""
    finite = np.abs(gain[np.isfinite(gain)])
    big = 2.0 * float(finite.max()) if finite.size and finite.max() > 0 else 1.0
    return np.where(np.isinf(gain), np.sign(gain) * big, gain)


def paired_comparison(method_values: Sequence[float], baseline_values: Sequence[float], metric: str,
                      structure: str = "", method: str = "", baseline: str = "") -> Comparison:
    """Wins/draws/losses and the Wilcoxon signed-rank and sign tests of paired values (see module docstring)."""
    from scipy.stats import binomtest, wilcoxon

    a, b = np.asarray(method_values, dtype=float), np.asarray(baseline_values, dtype=float)
    both = ~(np.isnan(a) | np.isnan(b))
    a, b = a[both], b[both]
    with np.errstate(invalid="ignore"):
        gain = (a - b) if metric in HIGHER_IS_BETTER else (b - a)      # > 0: the method is better
    gain = _rank_safe(np.nan_to_num(gain, nan=0.0))     # inf - inf: both infinitely bad, a draw
    wins, losses = int((gain > DRAW_TOLERANCE).sum()), int((gain < -DRAW_TOLERANCE).sum())
    nonzero = gain[np.abs(gain) > DRAW_TOLERANCE]
    wilcoxon_p = float(wilcoxon(nonzero).pvalue) if len(nonzero) > 0 else 1.0
    sign_p = float(binomtest(wins, wins + losses, 0.5).pvalue) if wins + losses > 0 else 1.0
    return Comparison(structure, method, baseline, metric, len(gain), wins, len(gain) - wins - losses, losses,
                      wilcoxon_p, sign_p, float(np.mean(a - b)) if len(a) else math.nan)


def comparisons(rows: list[dict[str, Any]], metric: str, structures: Sequence[str], methods: Sequence[str],
                baseline: str) -> list[Comparison]:
    """Every method against ``baseline`` on every structure, paired by data set."""
    table = cells(rows, metric)
    datasets = sorted({d for d, _, _ in table})
    out = []
    for structure in structures:
        for method in methods:
            if method == baseline:
                continue
            pairs = [(table[d, structure, method].mean, table[d, structure, baseline].mean) for d in datasets
                     if (d, structure, method) in table and (d, structure, baseline) in table]
            if pairs:
                a, b = zip(*pairs)
                out.append(paired_comparison(a, b, metric, structure, method, baseline))
    return out


# ---------------------------------------------------------------------------------------------- query studies
def query_summary(rows: list[dict[str, Any]], structures: Sequence[str], methods: Sequence[str],
                  baseline: str) -> dict[str, Any]:
    """Per method: per-query MSE, bias² and variance over data sets; comparisons with the baseline by query."""
    answers = _by_method(rows, "answers")
    truth = next((np.asarray(r["metrics"]["truth"]) for r in rows if r.get("status") == "done"), None)
    per_method: dict[str, Any] = {}
    for (structure, method), values in answers.items():
        mse = ((values - truth) ** 2).mean(axis=0)
        bias2 = (values.mean(axis=0) - truth) ** 2
        per_method[f"{structure}/{method}"] = {"structure": structure, "method": method, "datasets": len(values),
                                               "mse": mse.tolist(), "bias2": bias2.tolist(),
                                               "variance": values.var(axis=0).tolist(), "mean_mse": float(mse.mean())}
    mean_cpt = _by_method(rows, "mean_cpt_answers")
    for (structure, method), values in mean_cpt.items():
        mse = ((values - truth) ** 2).mean(axis=0)
        per_method[f"{structure}/{method} (mean CPTs)"] = {
            "structure": structure, "method": f"{method} (mean CPTs)", "datasets": len(values), "mse": mse.tolist(),
            "bias2": ((values.mean(axis=0) - truth) ** 2).tolist(), "variance": values.var(axis=0).tolist(),
            "mean_mse": float(mse.mean())}
    compared = []
    for structure in structures:
        base = per_method.get(f"{structure}/{baseline}")
        if base is None:
            continue
        for entry in per_method.values():
            if entry["structure"] == structure and entry["method"] != baseline:
                compared.append(paired_comparison(entry["mse"], base["mse"], "mse", structure, entry["method"],
                                                  baseline))
    return {"truth": None if truth is None else truth.tolist(), "methods": per_method,
            "comparisons": [c.to_json() for c in compared]}


def _by_method(rows: list[dict[str, Any]], key: str) -> dict[tuple[str, str], np.ndarray]:
    """(structure, method) -> (data sets, queries) answers, data sets in a fixed (name) order."""
    grouped: dict[tuple[str, str], list[tuple[str, list[float]]]] = {}
    for row in rows:
        metrics = row.get("metrics") or {}
        if row.get("status") == "done" and key in metrics:
            grouped.setdefault((row["structure"], row["method"]), []).append((row["dataset"], metrics[key]))
    return {k: np.array([a for _, a in sorted(v)]) for k, v in grouped.items()}
