"""What a view of a 2TBN over time needs, Qt-free: whether a network is a 2TBN, the evidence of T slices from a
table and the findings of the two slices, the beliefs over time, and the beliefs of one slice by node name.

The app's Time panel and temporal plate (docs/temporal.md, "In the app") call these; so can a notebook. The
beliefs themselves are :func:`~bnstudio.temporal.forward_backward.filtering` or
:func:`~bnstudio.temporal.forward_backward.smoothing` (Murphy 2002, §3.3–3.4), and a belief's error band over
time is :func:`~bnstudio.temporal.errorbars.temporal_error_bars`'s; nothing here computes a probability.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from bnstudio.core.network import Network
from bnstudio.defaults import CREDIBLE_LEVEL
from bnstudio.errors import BNStudioError, EvidenceError, ValidationError
from bnstudio.jobs import Reporter
from bnstudio.temporal.errorbars import TemporalBars, temporal_error_bars
from bnstudio.temporal.evidence import evidence_codes
from bnstudio.temporal.forward_backward import TemporalBeliefs, filtering, smoothing
from bnstudio.temporal.model import FIRST, TRANSITION, TwoSliceNetwork, from_network, split_name
from bnstudio.temporal.unroll import check_slices

MODES = ("smoothing", "filtering")


def as_two_slice(net: Network) -> TwoSliceNetwork | None:
    """The 2TBN ``net`` describes in pyAgrum's naming convention (X0 / Xt), or None when it is not one.

    Cheap for an ordinary network: the names are looked at first (one string test each), and only a network
    whose every name ends in 0 or t is checked whole by :func:`~bnstudio.temporal.model.from_network`; its
    refusal (any :class:`~bnstudio.errors.BNStudioError`) means "not a 2TBN", never an exception.
    """
    names = net.variables
    if len(names) < 2 or any(split_name(v) is None for v in names):
        return None
    if not any(v.endswith(TRANSITION) for v in names):
        return None
    try:
        return from_network(net)
    except BNStudioError:
        return None


def timeline_codes(tbn: TwoSliceNetwork, slices: int, table: Any = None,
                   findings: Mapping[str, Any] | None = None, at: int = 1) -> np.ndarray:
    """A (slices, n) array of codes (columns in ``tbn.radicals`` order, -1 unobserved) for T = ``slices``.

    ``table`` is per-slice evidence (a table matched by column name, :mod:`bnstudio.temporal.evidence`, or
    codes already aligned); its row s is slice s; rows beyond T are not used, slices beyond its rows are
    unobserved. ``findings`` are node findings by node name (a state): ``X0``'s is put in slice 0, ``Xt``'s in
    slice ``at`` (1 ≤ at < T), each replacing the table's cell there. A likelihood finding is refused (the
    forward-backward takes one state per slice).
    """
    T = check_slices(slices)
    n = len(tbn.radicals)
    codes = np.full((T, n), -1, dtype=np.int64)
    if table is not None:
        given = table if isinstance(table, np.ndarray) and table.dtype.kind == "i" else evidence_codes(tbn, table)
        rows = min(T, len(given))
        codes[:rows] = given[:rows]
    for node, value in (findings or {}).items():
        split = split_name(node)
        if split is None or split[0] not in tbn.radicals:
            raise EvidenceError(f"finding on '{node}': not a variable of the 2TBN '{tbn.name}'")
        radical, part = split
        if not isinstance(value, str):
            raise EvidenceError(f"the likelihood finding on '{node}' cannot be used over time: set one state")
        states = tbn.states(radical)
        if value not in states:
            raise EvidenceError(f"finding {node}={value}: '{value}' is not a state of '{node}'")
        where = 0 if part == FIRST else int(at)
        if part != FIRST and not 1 <= where < T:
            raise ValidationError(f"the slice of the transition findings must be between 1 and {T - 1}, got {at}")
        codes[where, tbn.radicals.index(radical)] = states.index(value)
    return codes


def beliefs_over_time(tbn: TwoSliceNetwork, codes: np.ndarray, mode: str = "smoothing",
                      reporter: Reporter | None = None) -> TemporalBeliefs:
    """p(X_t | e_{0..T-1}) (``smoothing``) or p(X_t | e_{0..t}) (``filtering``) of every variable and slice for
    the code rows ``codes`` (from :func:`timeline_codes`): a job ``job(reporter)`` once its arguments are bound."""
    if mode not in MODES:
        raise ValidationError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    run = smoothing if mode == "smoothing" else filtering
    return run(tbn, np.asarray(codes, dtype=np.int64), reporter=reporter)


def slice_view(tbn: TwoSliceNetwork, result: TemporalBeliefs, codes: np.ndarray, k: int
               ) -> dict[str, tuple[np.ndarray, str | None]]:
    """What the two-slice drawing shows at slice ``k``, by node name: ``Xt`` has X's belief and finding in
    slice k, ``X0`` those of slice 0 (beliefs are rows of ``result``, findings states or None)."""
    out: dict[str, tuple[np.ndarray, str | None]] = {}
    for j, radical in enumerate(tbn.radicals):
        states = tbn.states(radical)
        for part, s in ((FIRST, 0), (TRANSITION, k)):
            code = int(codes[s, j])
            out[radical + part] = (result.beliefs[radical][s], states[code] if code >= 0 else None)
    return out


def has_counts(tbn: TwoSliceNetwork) -> bool:
    """Whether every table of the 2TBN carries Dirichlet counts (``mp`` learning), so its beliefs have error bars."""
    return all(tbn.network.alpha(v) is not None for v in tbn.network.variables)


def band_over_time(tbn: TwoSliceNetwork, codes: np.ndarray, mode: str, variable: str, state: str,
                   reporter: Reporter | None = None) -> TemporalBars:
    """The error bars of p(``variable``_t = ``state`` | e) at every slice, at the default credible level, for the
    same evidence rows and ``mode`` (``smoothing`` / ``filtering``) as :func:`beliefs_over_time`."""
    if mode not in MODES:
        raise ValidationError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    return temporal_error_bars(tbn, np.asarray(codes, dtype=np.int64), variable, state,
                               mode="smooth" if mode == "smoothing" else "filter", level=CREDIBLE_LEVEL,
                               reporter=reporter)


def beliefs_and_band(tbn: TwoSliceNetwork, codes: np.ndarray, mode: str, band_of: tuple[str, str] | None = None,
                     reporter: Reporter | None = None) -> tuple[TemporalBeliefs, TemporalBars | None]:
    """:func:`beliefs_over_time` and, when ``band_of`` names a (variable, state) and the 2TBN has Dirichlet
    counts, that belief's :func:`band_over_time` (one job for the Time panel)."""
    beliefs = beliefs_over_time(tbn, codes, mode, reporter)
    if band_of is None or not has_counts(tbn):
        return beliefs, None
    return beliefs, band_over_time(tbn, codes, mode, band_of[0], band_of[1], reporter)
