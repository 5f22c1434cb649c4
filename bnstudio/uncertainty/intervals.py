"""Credible intervals for a query response from its mean and variance (Singh §3.5).

* normal: mean ± z·σ with z = Φ⁻¹(1 − δ/2); it may spill outside [0, 1] (flagged; a clipped copy is given);
* Beta by the method of moments: with k = m(1 − m)/σ² − 1, a = m·k and b = (1 − m)·k, and the central
  quantile interval. A Beta needs σ² < m(1 − m) (else "degenerate"); a < 1 or b < 1 makes it U- or J-shaped
  (flagged: mass piles up at 0 or 1 and the interval is less trustworthy). When a + b exceeds
  :data:`BETA_NORMAL_LIMIT` (an effective sample size of 1e300 gives a ≈ 1e299) the quantile routine loses
  precision and then returns NaN (or, in some scipy releases, warns that its series gave up, which is taken
  the same way below that limit too); the Beta is then normal to within O(1/√(a + b)) in skewness, so its
  quantiles are taken as m ± z·σ (clipped to [0, 1]). No NaN reaches the result.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

from bnstudio.defaults import CREDIBLE_LEVEL
from bnstudio.errors import ValidationError

BETA_NORMAL_LIMIT = 1e12  # a + b above which the Beta quantiles are its normal limit's (see module docstring)

FLAG_TEXT = {
    "normal_outside_unit_interval": "the normal interval reaches outside [0, 1]; it is shown clipped",
    "beta_u_shaped": "the Beta fit is U- or J-shaped (a or b below 1): the answer may sit near 0 or 1",
    "beta_degenerate": "the variance is too large for any Beta distribution with this mean",
    "zero_variance": "no parameter uncertainty reaches this query (variance 0)",
}


@dataclass
class Intervals:
    """Normal and Beta credible intervals at ``level`` with flags (keys of :data:`FLAG_TEXT`)."""

    level: float
    normal: tuple[float, float]
    normal_clipped: tuple[float, float]
    beta: tuple[float, float] | None
    beta_params: tuple[float, float] | None
    flags: list[str] = field(default_factory=list)


def beta_moments(mean: float, variance: float) -> tuple[float, float] | None:
    """(a, b) with this mean and variance, or None when no Beta has them."""
    if not 0.0 < mean < 1.0 or variance <= 0 or variance >= mean * (1 - mean):
        return None
    k = mean * (1 - mean) / variance - 1.0
    return mean * k, (1 - mean) * k


def credible_intervals(mean: float, variance: float, level: float = CREDIBLE_LEVEL) -> Intervals:
    """Both intervals and their flags for a response with this mean and (delta-method) variance."""
    if not 0.0 < level < 1.0:
        raise ValidationError(f"the credible level must be between 0 and 1 (exclusive), got {level:g}")
    if not (math.isfinite(mean) and math.isfinite(variance)):
        raise ValidationError(f"credible intervals need a finite mean and variance, got {mean:g} and {variance:g}")
    from scipy import stats  # here, not at the top: importing scipy.stats takes ~0.5 s (the app's start-up)

    sd = max(variance, 0.0) ** 0.5
    z = stats.norm.ppf(0.5 + level / 2)
    normal = (mean - z * sd, mean + z * sd)
    clipped = (min(max(normal[0], 0.0), 1.0), min(max(normal[1], 0.0), 1.0))
    flags = []
    if variance <= 0:
        flags.append("zero_variance")
    if normal[0] < 0 or normal[1] > 1:
        flags.append("normal_outside_unit_interval")
    params = beta_moments(mean, variance)
    beta = None
    if params is None:
        if variance > 0:
            flags.append("beta_degenerate")
    else:
        a, b = params
        beta = _beta_quantiles(a, b, level, clipped)
        if a < 1 or b < 1:
            flags.append("beta_u_shaped")
    return Intervals(level, (float(normal[0]), float(normal[1])), clipped, beta, params, flags)


def _beta_quantiles(a: float, b: float, level: float, normal: tuple[float, float]) -> tuple[float, float]:
    """The central ``level`` interval of Beta(a, b); its normal limit ``normal`` (already clipped to [0, 1])
    when a + b is huge."""
    if a + b <= BETA_NORMAL_LIMIT:
        from scipy import stats

        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)    # scipy 1.14: "Series evaluation exceeded ..."
            try:
                low, high = float(stats.beta.ppf(0.5 - level / 2, a, b)), float(stats.beta.ppf(0.5 + level / 2, a, b))
            except RuntimeWarning:
                low = high = math.nan
        if math.isfinite(low) and math.isfinite(high):
            return low, high
    return float(normal[0]), float(normal[1])
