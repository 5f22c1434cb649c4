"""Where parameter uncertainty comes from: a Dirichlet distribution on every CPT row (Singh eq 2.1–2.3).

Row v|f of X's CPT is Θ_{v|f} ~ Dirichlet(α_{v,1|f}, ..., α_{v,r|f}) with mean θ* = α / α_{v|f}, where
α_{v|f} = Σ_x α_{v,x|f} is the row's effective sample size. The counts come from ``mp`` learning (prior +
data, kept as ``net.alpha``) or from an expert's effective sample size on hand-entered CPTs: α = ESS · θ.
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import ValidationError


class NoDirichletCounts(ValidationError):
    """A network whose CPT rows carry no Dirichlet counts, so error bars are undefined."""


def dirichlet_counts(net: Network, ess: float | Mapping[str, float | np.ndarray] | None = None
                     ) -> dict[str, np.ndarray]:
    """α for every CPT: ``net.alpha`` where present, else ESS · θ from ``ess``.

    ``ess`` may be one number for every row, or {variable: number or per-row array of shape
    ``family_shape[:-1]``}; given, it overrides the stored counts of the variables it names.
    """
    out = {}
    missing = []
    for var in net.variables:
        row_ess = ess if isinstance(ess, (int, float)) else (ess or {}).get(var)
        if row_ess is not None:
            row_ess = np.asarray(row_ess, dtype=float)
            if not np.all(np.isfinite(row_ess) & (row_ess > 0)):
                bad = row_ess[~(np.isfinite(row_ess) & (row_ess > 0))].ravel()[0]
                raise ValidationError(f"the effective sample size of '{var}' must be a positive finite number, "
                                      f"got {bad:g}")
            out[var] = np.broadcast_to(row_ess, net.family_shape(var)[:-1])[..., None] * net.cpt(var)
        elif net.alpha(var) is not None:
            out[var] = np.array(net.alpha(var))
        else:
            missing.append(var)
    if missing:
        raise NoDirichletCounts(f"no Dirichlet counts for {', '.join(missing[:5])}"
                                f"{' and more' if len(missing) > 5 else ''}: set an effective sample size "
                                f"or learn from data (mp)")
    for var, a in out.items():
        if np.any(a.sum(axis=-1) <= 0):
            raise ValidationError(f"a row of '{var}' has Dirichlet counts summing to 0")
    return out


def check_draws(r: object, minimum: int = 1) -> int:
    """``r`` as a number of parameter draws: an integer >= ``minimum`` (else a ValidationError)."""
    if isinstance(r, bool) or not isinstance(r, (int, np.integer)) or r < minimum:
        raise ValidationError(f"the number of parameter draws must be an integer >= {minimum}, got {r!r}")
    return int(r)


def parameter_streams(alpha: Mapping[str, np.ndarray], seed: int | None = None) -> dict[str, np.random.Generator]:
    """One independent random stream per CPT, children of ``seed``: see :func:`sample_parameters`."""
    return dict(zip(alpha, np.random.default_rng(seed).spawn(len(alpha)), strict=True))


def sample_parameters(alpha: Mapping[str, np.ndarray], r: int,
                      seed: int | Mapping[str, np.random.Generator] | None = None) -> dict[str, np.ndarray]:
    """r parameter sets drawn from the Dirichlet rows at once: {var: (r, *family)} (normalised Gamma draws).

    Zero counts (θ* = 0) stay exactly 0 in every draw. A row whose Gamma draws all underflow to 0 (tiny
    counts) puts its mass on its largest count, the limit of such a Dirichlet. Each CPT draws from its own
    stream (:func:`parameter_streams` of ``seed``), draw after draw; passing those streams as ``seed``
    continues them, so r draws made in chunks equal r draws made at once.
    """
    check_draws(r)
    streams = seed if isinstance(seed, Mapping) else parameter_streams(alpha, seed)
    out = {}
    for var, a in alpha.items():
        g = streams[var].standard_gamma(np.broadcast_to(a, (r,) + a.shape))
        total = g.sum(axis=-1, keepdims=True)
        empty = total[..., 0] <= 0
        if np.any(empty):
            fallback = np.broadcast_to(np.eye(a.shape[-1])[np.argmax(a, axis=-1)], g.shape)
            g[empty] = fallback[empty]
            total = g.sum(axis=-1, keepdims=True)
        out[var] = g / total
    return out
