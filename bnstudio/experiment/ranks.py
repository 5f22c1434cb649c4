"""Comparing several methods over several data sets by their ranks (Demšar, JMLR 7, 2006, §3.2.2).

On each of N data sets the k methods are ranked, 1 = best, ties sharing the mean of their ranks: r_ij. With
the average ranks R_j = (1/N) Σ_i r_ij:

* **Friedman**: χ²_F = 12N / (k(k+1)) · [Σ_j R_j² − k(k+1)²/4], χ² with k − 1 degrees of freedom under the null
  hypothesis that all methods are equivalent (Demšar eq. in §3.2.2). With ties it is divided by
  1 − Σ(t³ − t) / (N k (k² − 1)) over the tie groups t (as :func:`scipy.stats.friedmanchisquare`; no ties: 1).
  Iman and Davenport's F_F = (N − 1) χ²_F / (N(k − 1) − χ²_F), F-distributed with k − 1 and (k − 1)(N − 1)
  degrees of freedom, is less conservative and also given (undefined, NaN, when every data set ranks the
  methods alike: χ²_F = N(k − 1)). Both are approximations for N and k large enough (Demšar: N > 10, k > 5).
* **Nemenyi** (all pairs): two methods differ significantly when their average ranks differ by at least the
  critical difference CD = q_α √(k(k+1) / (6N)), q_α the studentized range quantile / √2 (Demšar Table 5a).
* **Holm** (each method against a baseline): z_j = (R_j − R_0) / √(k(k+1) / (6N)), two-sided normal p-values,
  tested in increasing order p_(1) ≤ … ≤ p_(k−1) against α / (k − i); the adjusted p-values
  max_{j ≤ i} min(1, (k − j) p_(j)) are reported, significant when below α.

Only data sets where every method's cell is complete take part (the others are counted as left out).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

import numpy as np

ALPHA = 0.05


@dataclass
class RankTest:
    """The Friedman test of ``methods`` on ``structure`` for ``metric`` over ``n`` data sets, with the Nemenyi
    critical difference and Holm's tests against ``baseline``."""

    structure: str
    metric: str
    methods: list[str]
    baseline: str
    n: int
    average_ranks: list[float]
    chi2: float
    p: float
    iman_davenport: float
    iman_davenport_p: float
    critical_difference: float
    holm_p: dict[str, float] = field(default_factory=dict)
    left_out: int = 0
    alpha: float = ALPHA

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def rank_matrix(values: np.ndarray, higher_is_better: bool = False) -> np.ndarray:
    """Per row (a data set), the 1-based ranks of its k values, 1 = best, ties sharing their mean rank."""
    from scipy.stats import rankdata

    values = np.asarray(values, dtype=float)
    return rankdata(-values if higher_is_better else values, axis=1)


def friedman(ranks: np.ndarray) -> tuple[float, float, float, float]:
    """(χ²_F with the tie correction, its p-value, Iman–Davenport F_F, its p-value) of an N × k rank matrix
    (module docstring; Demšar 2006 §3.2.2)."""
    from scipy.stats import chi2, f

    n, k = ranks.shape
    average = ranks.mean(axis=0)
    statistic = 12.0 * n / (k * (k + 1)) * (float((average ** 2).sum()) - k * (k + 1) ** 2 / 4.0)
    ties = sum(float((c ** 3 - c).sum()) for c in (np.unique(row, return_counts=True)[1] for row in ranks))
    correction = 1.0 - ties / (n * k * (k * k - 1))
    statistic = statistic / correction if correction > 0 else 0.0
    p = float(chi2.sf(statistic, k - 1))
    denominator = n * (k - 1) - statistic
    if n < 2 or denominator <= 0:      # one data set, or every data set ranks the methods alike: F undefined
        return statistic, p, math.nan, math.nan
    f_f = (n - 1) * statistic / denominator
    return statistic, p, f_f, float(f.sf(f_f, k - 1, (k - 1) * (n - 1)))


def nemenyi_cd(k: int, n: int, alpha: float = ALPHA) -> float:
    """The critical difference q_α √(k(k+1)/(6N)) of the Nemenyi test (Demšar 2006 §3.2.2, Table 5a)."""
    from scipy.stats import studentized_range

    q = float(studentized_range.ppf(1 - alpha, k, np.inf)) / math.sqrt(2.0)
    return q * math.sqrt(k * (k + 1) / (6.0 * n))


def holm(average_ranks: Sequence[float], names: Sequence[str], baseline: str, n: int) -> dict[str, float]:
    """Holm-adjusted two-sided p-values of each method against ``baseline`` from the average ranks (module
    docstring; Demšar 2006 §3.2.2)."""
    from scipy.stats import norm

    k = len(names)
    se = math.sqrt(k * (k + 1) / (6.0 * n))
    base = average_ranks[list(names).index(baseline)]
    others = [(float(2 * norm.sf(abs(r - base) / se)), name) for r, name in zip(average_ranks, names, strict=True)
              if name != baseline]
    others.sort()
    adjusted, running = {}, 0.0
    for i, (p, name) in enumerate(others):
        running = max(running, min(1.0, (len(others) - i) * p))
        adjusted[name] = running
    return adjusted


def rank_test(values: np.ndarray, methods: Sequence[str], baseline: str, metric: str, structure: str = "",
              higher_is_better: bool = False, left_out: int = 0, alpha: float = ALPHA) -> RankTest:
    """Friedman, Nemenyi and Holm for an N × k matrix of ``values`` (data sets × ``methods``)."""
    ranks = rank_matrix(values, higher_is_better)
    n, k = ranks.shape
    chi2, p, f_f, f_p = friedman(ranks)
    average = ranks.mean(axis=0).tolist()
    return RankTest(structure, metric, list(methods), baseline, n, average, chi2, p, f_f, f_p,
                    nemenyi_cd(k, n, alpha), holm(average, methods, baseline, n) if baseline in methods else {},
                    left_out, alpha)


def ranks_text(test: dict[str, Any]) -> str:
    """A rank test's methods from best to worst as "name rank (Holm p)", "(baseline)" for the baseline."""
    return "; ".join(f"{m} {r:.2f}" + (f" ({test['holm_p'][m]:.3g})" if m in test["holm_p"] else " (baseline)")
                     for r, m in sorted(zip(test["average_ranks"], test["methods"], strict=True)))


def rank_tests(table: dict[tuple[str, str, str], Any], datasets: Sequence[str], structures: Sequence[str],
               methods: Sequence[str], baseline: str, metric: str, higher_is_better: bool) -> list[RankTest]:
    """A :func:`rank_test` per structure over the data sets where every method's cell (a
    :class:`~bnstudio.experiment.summary.Cell`) is complete and has a value; needs 3 methods and 2 data sets."""
    out = []
    for structure in structures:
        present = [d for d in datasets if any((d, structure, m) in table for m in methods)]
        complete = [d for d in present if all(
            (d, structure, m) in table and not table[d, structure, m].partial
            and not math.isnan(table[d, structure, m].mean) for m in methods)]
        if len(methods) < 3 or len(complete) < 2:
            continue
        values = np.array([[table[d, structure, m].mean for m in methods] for d in complete])
        out.append(rank_test(values, methods, baseline, metric, structure, higher_is_better,
                             len(present) - len(complete)))
    return out
