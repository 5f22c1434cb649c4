"""Cut numeric columns into intervals: equal width, equal frequency, or supervised MDL (Fayyad & Irani 1993).

Each method returns a :class:`Discretiser` holding increasing cut points; intervals are closed on the right,
``(-inf, c1], (c1, c2], ..., (ck, inf)``, and :meth:`Discretiser.apply` cuts new data (e.g. a test set) the same
way with ``np.searchsorted``. Missing values (NaN) get code -1.

>>> d = equal_width([0.0, 10.0], 4)
>>> d.cuts.tolist(), d.labels[0], d.apply([2.5, 2.6, float("nan")]).tolist()
([2.5, 5.0, 7.5], '(-inf, 2.5]', [0, 1, -1])
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence, Union

import numpy as np

from bnstudio.data.mdl import mdl_cuts
from bnstudio.errors import ValidationError
from bnstudio.io.limits import STATES
from bnstudio.io.messages import listing, shorten

if TYPE_CHECKING:
    import pandas as pd

Spec = Union[str, tuple[str, int], "Discretiser"]
#: a numeric column whose values are all whole numbers, at most this many distinct, is categorical by default
#: (a 0/1 flag, a 1–10 rating): cutting it can only merge its values, and MDL often merges all of them into one
CATEGORICAL_MAX_DISTINCT = 10


def _format_cuts(cuts: np.ndarray) -> list[str]:
    """Shortest general-format text (4 to 17 significant digits) that keeps distinct cuts distinct."""
    for digits in range(4, 18):
        text = [f"{c:.{digits}g}" for c in cuts]
        if len(set(text)) == len(text):
            return text
    return [repr(float(c)) for c in cuts]


@dataclass(frozen=True)
class Discretiser:
    """Increasing cut points and the interval labels they define (one more label than cuts)."""

    cuts: np.ndarray
    labels: tuple[str, ...]

    @classmethod
    def from_cuts(cls, cuts: Sequence[float] | np.ndarray) -> "Discretiser":
        """A discretiser with the given cut points (sorted, duplicates removed) and standard labels."""
        cuts = np.unique(np.asarray(cuts, dtype=float))
        if not np.all(np.isfinite(cuts)):
            raise ValidationError(f"cut points must be finite numbers, got {listing(cuts.tolist(), quote=False)}")
        ends = ["-inf"] + _format_cuts(cuts) + ["inf"]
        labels = tuple(f"({lo}, {hi}]" for lo, hi in zip(ends[:-2], ends[1:-1], strict=True)) + (f"({ends[-2]}, inf)",)
        cuts.setflags(write=False)
        return cls(cuts, labels)

    @property
    def n_bins(self) -> int:
        return len(self.labels)

    def apply(self, values: Sequence[float] | np.ndarray) -> np.ndarray:
        """Interval code of each value (int64), -1 for NaN."""
        x = _numeric(values)
        codes = np.searchsorted(self.cuts, x, side="left").astype(np.int64)
        codes[np.isnan(x)] = -1
        return codes


def _numeric(values: Sequence[float] | np.ndarray, what: str = "values") -> np.ndarray:
    """A float array; NaN/None are missing; anything that is not a number raises ValidationError."""
    import pandas as pd  # here, not at import: a study worker loads this module and rarely cuts anything

    series = pd.Series(np.asarray(values, dtype=object).reshape(-1)) if not isinstance(values, np.ndarray) \
        or values.dtype == object else pd.Series(values.reshape(-1))
    x = pd.to_numeric(series, errors="coerce").to_numpy(dtype=float)
    bad = np.isnan(x) & series.notna().to_numpy()
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise ValidationError(f"{what} must be numbers: row {k + 1} holds {shorten(repr(series.iloc[k]))}")
    return x


def _finite(values: Sequence[float] | np.ndarray) -> np.ndarray:
    x = _numeric(values)
    x = x[~np.isnan(x)]
    if x.size == 0:
        raise ValidationError("cannot discretise: no non-missing values")
    return x


def _check_bins(bins: int) -> int:
    """A positive integer, at most the states a variable may have (:mod:`bnstudio.io.limits`)."""
    if isinstance(bins, bool) or not isinstance(bins, (int, float, np.integer, np.floating)) \
            or not np.isfinite(bins) or int(bins) != bins or bins < 1:
        raise ValidationError(f"the number of bins must be a positive integer, got {shorten(repr(bins))}")
    limit = STATES.value()
    if bins > limit:
        raise ValidationError(STATES.message("the number of bins is", int(bins), limit))
    return int(bins)


def equal_width(values: Sequence[float] | np.ndarray, bins: int) -> Discretiser:
    """``bins`` intervals of equal width between the smallest and largest value (fewer if all are equal)."""
    bins = _check_bins(bins)
    x = _finite(values)
    lo, hi = float(x.min()), float(x.max())
    if lo == hi:
        return Discretiser.from_cuts([])
    return Discretiser.from_cuts(lo + (hi - lo) * np.arange(1, bins) / bins)


def equal_frequency(values: Sequence[float] | np.ndarray, bins: int) -> Discretiser:
    """About ``len(values) / bins`` values per interval.

    Cuts lie halfway between adjacent distinct sorted values. The k-th cut goes to the gap between distinct
    values nearest to position ``round(k n / bins)`` of the sorted values (the lower gap if two are equally
    near), so tied values are never split; cuts that coincide are merged.
    """
    bins = _check_bins(bins)
    x = np.sort(_finite(values))
    gaps = np.flatnonzero(x[1:] != x[:-1]) + 1  # positions q with x[q-1] < x[q]
    if gaps.size == 0:
        return Discretiser.from_cuts([])
    target = np.round(np.arange(1, bins) * x.size / bins)
    i = np.searchsorted(gaps, target)
    below, above = gaps[np.clip(i - 1, 0, gaps.size - 1)], gaps[np.clip(i, 0, gaps.size - 1)]
    q = np.where(np.abs(above - target) < np.abs(target - below), above, below)
    return Discretiser.from_cuts((x[q - 1] + x[q]) / 2)


def mdl(values: Sequence[float] | np.ndarray, classes: Sequence | np.ndarray) -> Discretiser:
    """Supervised cuts: recursive entropy minimisation with the MDL stopping rule (Fayyad & Irani 1993).

    Rows where the value or the class is missing (NaN/None; -1 for integer class codes) are left out. See
    :func:`bnstudio.data.mdl.mdl_cuts` for the criterion.
    """
    import pandas as pd

    x = _numeric(values)
    cls = np.asarray(classes).reshape(-1)
    if cls.shape != x.shape:
        raise ValidationError(f"mdl needs one class per value: {x.size} values, {cls.size} classes")
    if np.issubdtype(cls.dtype, np.integer):
        raw = cls.astype(np.int64)
    else:
        raw = pd.factorize(cls, use_na_sentinel=True)[0]
    keep = (raw >= 0) & ~np.isnan(x)
    if not keep.any():
        raise ValidationError("cannot discretise: no row has both a value and a class")
    y = pd.factorize(raw[keep])[0]
    return Discretiser.from_cuts(mdl_cuts(x[keep], y))


def few_valued_integers(values: Sequence[float] | np.ndarray, max_distinct: int = CATEGORICAL_MAX_DISTINCT
                        ) -> bool:
    """Whether the non-missing ``values`` are whole numbers with at most ``max_distinct`` distinct values
    (``max_distinct`` = 0: never).

    >>> few_valued_integers([0, 1, 1, float("nan")]), few_valued_integers([0.5, 1.0]), few_valued_integers([0, 1], 0)
    (True, False, False)
    """
    if max_distinct <= 0:
        return False
    x = _numeric(values)
    x = x[~np.isnan(x)]
    return bool(np.all(x == np.round(x))) and np.unique(x).size <= max_distinct


def columns_to_cut(frame: pd.DataFrame, skip: Sequence[str] = (),
                   categorical_max_distinct: int = CATEGORICAL_MAX_DISTINCT) -> list[str]:
    """The numeric columns of ``frame`` to discretise by default: every numeric (not boolean) column not in
    ``skip`` (e.g. the class), except those :func:`few_valued_integers` keeps categorical."""
    import pandas as pd

    out = []
    for column in frame.columns:
        series = frame[column]
        if column in skip or not pd.api.types.is_numeric_dtype(series) or pd.api.types.is_bool_dtype(series):
            continue
        if not few_valued_integers(series.to_numpy(dtype=float, na_value=np.nan), categorical_max_distinct):
            out.append(column)
    return out


def discretise_frame(frame: pd.DataFrame, spec: Mapping[str, Spec], class_column: str | None = None
                     ) -> tuple[pd.DataFrame, dict[str, Discretiser]]:
    """Discretise several numeric columns of ``frame``.

    Parameters
    ----------
    frame : DataFrame
        The data; columns not in ``spec`` are copied unchanged.
    spec : mapping column -> method
        ``("equal_width", bins)``, ``("equal_frequency", bins)``, ``"mdl"`` (needs ``class_column``), or a
        fitted :class:`Discretiser` (to cut test data like the training data).
    class_column : str, optional
        The class for ``"mdl"``.

    Returns
    -------
    frame : DataFrame
        A copy whose discretised columns are pandas categoricals with the interval labels as categories
        (in interval order; :func:`~bnstudio.data.read.from_frame` keeps that order).
    discretisers : dict
        The fitted discretiser of each column; pass it as ``spec`` to cut other data the same way.
    """
    import pandas as pd

    out = frame.copy()
    fitted: dict[str, Discretiser] = {}
    for col, method in spec.items():
        if col not in frame.columns:
            raise ValidationError(f"cannot discretise '{col}': no such column")
        values = _numeric(frame[col].to_numpy(), what=f"values of column '{col}'")
        if isinstance(method, Discretiser):
            disc = method
        elif method == "mdl":
            if class_column is None or class_column not in frame.columns:
                raise ValidationError(f"mdl discretisation of '{col}' needs an existing class_column")
            disc = mdl(values, frame[class_column].to_numpy())
        elif isinstance(method, tuple) and len(method) == 2 and method[0] in ("equal_width", "equal_frequency"):
            disc = (equal_width if method[0] == "equal_width" else equal_frequency)(values, method[1])
        else:
            raise ValidationError(f"unknown discretisation {method!r} for '{col}': use ('equal_width', bins), "
                                  f"('equal_frequency', bins), 'mdl' or a Discretiser")
        fitted[col] = disc
        out[col] = pd.Categorical.from_codes(disc.apply(values), categories=pd.Index(disc.labels, dtype=object))
    return out, fitted
