"""Unrolling a 2TBN into an ordinary Bayesian network over T slices (Murphy 2002, §2.2), and exact inference on it.

X in slice s is named ``f"{X}{s}"`` as pyAgrum's ``unroll2TBN`` names it (X0, X1, ..., X{T-1}); slice 0 takes
B_0's families, every later slice the transition families with (Y, lag 1) read as Y{s-1} and (Y, lag 0) as Y{s}.
The unrolled network grows with T: it is for queries over any set of slices (``bnstudio query --slices T``);
filtering and smoothing over long sequences go through :mod:`bnstudio.temporal.forward_backward`, whose memory
does not grow with T.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from bnstudio.core.network import Network, build_network
from bnstudio.errors import ValidationError
from bnstudio.temporal.model import TwoSliceNetwork

#: horizontal distance between slices of the unrolled drawing, beyond the width of one slice
SLICE_GAP = 120.0
#: the most variables an unrolled network may have (checked before building it); longer sequences are filtered
#: and smoothed without unrolling (bnstudio.temporal.forward_backward)
MAX_UNROLLED = 200_000


def check_slices(slices: object) -> int:
    """The number of slices T, an integer ≥ 1 (one-line error otherwise)."""
    if isinstance(slices, bool) or not isinstance(slices, (int, np.integer)) or slices < 1:
        raise ValidationError(f"the number of slices must be an integer of at least 1, got {slices!r}")
    return int(slices)


def slice_name(radical: str, s: int) -> str:
    """The name of ``radical`` in slice ``s`` of the unrolled network."""
    return f"{radical}{s}"


def unroll(tbn: TwoSliceNetwork, slices: int) -> Network:
    """The Bayesian network of ``slices`` slices of ``tbn`` (module docstring).

    Names that would clash (radicals X and X1 give X1 twice: X in slice 1 and X1 in slice 0... and X10 for
    T > 10) are refused with the clash named. Dirichlet counts are not carried: tied rows are shared by every
    slice, so they are not independent rows of the unrolled network.
    """
    slices = check_slices(slices)
    if slices * len(tbn.radicals) > MAX_UNROLLED:
        raise ValidationError(f"{slices} slices of '{tbn.name}' would unroll into {slices * len(tbn.radicals):,} "
                              f"variables (at most {MAX_UNROLLED:,}): filter or smooth the sequence instead, "
                              f"without unrolling")
    families = [(slice_name(r, 0), tbn.states(r), [slice_name(p, 0) for p in tbn.initial_parents(r)],
                 tbn.initial_cpt(r)) for r in tbn.radicals]
    for s in range(1, slices):
        families += [(slice_name(r, s), tbn.states(r), [slice_name(p, s - lag) for p, lag in tbn.transition_parents(r)],
                      tbn.transition_cpt(r)) for r in tbn.radicals]
    owners: dict[str, tuple[str, int]] = {}
    for k, (name, *_) in enumerate(families):
        owner = (tbn.radicals[k % len(tbn.radicals)], k // len(tbn.radicals))
        if name in owners:
            (r1, s1), (r2, s2) = owners[name], owner
            raise ValidationError(f"unrolled name '{name}' is both '{r1}' in slice {s1} and '{r2}' in slice {s2}: "
                                  f"rename one of them")
        owners[name] = owner
    net = build_network(families, f"{tbn.name} ({slices} slices)")
    net.positions.update(_positions(tbn, slices))
    return net


def _positions(tbn: TwoSliceNetwork, slices: int) -> dict[str, tuple[float, float]]:
    """Slice s drawn at the slice-0 positions shifted right by s slice widths (none if slice 0 has none)."""
    first = {r: tbn.network.positions.get(slice_name(r, 0)) for r in tbn.radicals}
    if any(p is None for p in first.values()):
        return {}
    xs = [p[0] for p in first.values() if p is not None]
    width = max(xs) - min(xs) + SLICE_GAP
    return {slice_name(r, s): (p[0] + s * width, p[1]) for s in range(slices) for r, p in first.items()
            if p is not None}


def unrolled_posterior(tbn: TwoSliceNetwork, slices: int, targets: str | Sequence[str],
                       evidence: Mapping[str, str | int] | None = None) -> dict[str, np.ndarray]:
    """p(target | e) for targets and evidence named in the unrolled network (``X5``, ``B0``), by the project's
    exact engine on :func:`unroll` ``(tbn, slices)``."""
    from bnstudio.inference import InferenceEngine

    return InferenceEngine(unroll(tbn, slices)).posterior(targets, evidence)
