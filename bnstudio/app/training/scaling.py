"""Which runs a plot's y axis leaves out, so one far-off run does not flatten the others (Qt-free).

A run is *off the scale* when its last value lies further from the median of the runs' last values than
``factor`` times their median absolute deviation (with a floor of 1 % of the median's size, so near-equal runs
never count as off): the robust z-score of Iglewicz & Hoaglin (1993), used only with three runs or more. The
y range then spans every point of the other runs; the plot names the runs it left out.

>>> off_scale({"mp": 0.30, "clgd": 0.28, "wanbia": 0.29, "ml": 1.5})
['ml']
>>> off_scale({"mp": 0.30, "clgd": 0.28})
[]
>>> y_range({"mp": [0.3, 0.31], "clgd": [0.35, 0.28], "ml": [1.5]}, skip=["ml"])
(0.28, 0.35)
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

import numpy as np

#: how many (floored) median absolute deviations from the median make a run off the scale
FACTOR = 6.0
#: the deviation floor, relative to the median's size
FLOOR = 0.01


def off_scale(last: Mapping[Any, float], factor: float = FACTOR) -> list[Any]:
    """The runs (keys of ``last``, each run's last value) whose value is an outlier (module docstring)."""
    keys = [k for k, v in last.items() if np.isfinite(v)]
    if len(keys) < 3:
        return []
    values = np.array([last[k] for k in keys], dtype=float)
    median = float(np.median(values))
    deviation = np.abs(values - median)
    spread = max(float(np.median(deviation)), FLOOR * abs(median), 1e-12)
    return [k for k, d in zip(keys, deviation, strict=True) if d > factor * spread]


def y_range(points: Mapping[Any, Iterable[float]], skip: Iterable[Any] = ()) -> tuple[float, float] | None:
    """(lowest, highest) finite value over the runs not in ``skip``; None when there is none."""
    left = set(skip)
    values = [np.asarray(list(v), dtype=float) for k, v in points.items() if k not in left]
    values = [v[np.isfinite(v)] for v in values]
    values = [v for v in values if v.size]
    if not values:
        return None
    every = np.concatenate(values)
    return float(every.min()), float(every.max())
