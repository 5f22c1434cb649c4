"""Where nodes go when a file says too little: the nodes a file gives no position (all of them: the layered
layout; some: a row below the others) and a file's layout drawn for smaller nodes, stretched until no two of
ours overlap. Qt-free: the app (:mod:`bnstudio.gui.canvas.arrange`, with its node sizes per view style) and the
notebook drawings (:mod:`bnstudio.display.svg`, bar-chart sizes) place nodes the same way."""
from __future__ import annotations

import numpy as np

from bnstudio.core.network import Network
from bnstudio.display.layout import layered_layout

Size = tuple[float, float]
GRID_GAP = 40.0


def place_missing(net: Network, sizes: dict[str, Size], positions: dict | None = None) -> list[str]:
    """Give positions to the variables that have none in ``positions`` (default ``net.positions``, updated in
    place): all of them, a full layout; some, a row below the others. Positions a file carries are kept.
    Returns the names placed."""
    positions = net.positions if positions is None else positions
    missing = [v for v in net.variables if v not in positions]
    if not missing:
        return []
    if len(missing) == len(net):
        positions.update(layered_layout(net.variables, net.arcs(), sizes))
        return missing
    bottom = max(y + sizes[v][1] / 2 for v, (x, y) in positions.items() if v in sizes)
    left = min(x - sizes[v][0] / 2 for v, (x, y) in positions.items() if v in sizes)
    for v in missing:
        w, h = sizes[v]
        positions[v] = (left + w / 2, bottom + GRID_GAP + h / 2)
        left += w + GRID_GAP
    return missing


SPREAD_GAP = 16.0   # pixels kept between nodes a file placed too close for our node sizes
MAX_SPREAD = 6.0    # never stretch a file's layout more than this (nodes on top of each other stay so)
SPREAD_BLOCK = 512  # nodes compared at once: memory stays O(block x n)


def spread_factors(centres: np.ndarray, sizes: np.ndarray, gap: float = SPREAD_GAP) -> tuple[float, float]:
    """Factors (s_x, s_y) >= 1, each at most :data:`MAX_SPREAD`, such that scaling the ``centres`` (n, 2) by them
    leaves no two boxes of ``sizes`` (n, 2) overlapping (with ``gap``), with the least area s_x * s_y.

    Two boxes part as soon as they are apart along one axis: a pair overlapping now needs s_x >= f_x =
    need_x / |dx| or s_y >= f_y = need_y / |dy|. Over the candidates s_x in {1} and the pairs' f_x, s_y is the
    largest f_y of the pairs that s_x leaves overlapping; the pair of least area wins. Stretching each axis on
    its own keeps rows and columns aligned and the drawing no larger than needed (another tool's nodes are
    narrower than ours, so files mostly need width). A stretch beyond the cap on either axis is never chosen while
    one within it parts every pair. Pairs at the same point cannot be parted and are left out."""
    fx_parts, fy_parts = [], []
    for start in range(0, len(centres), SPREAD_BLOCK):
        block = slice(start, start + SPREAD_BLOCK)
        d = np.abs(centres[block, None, :] - centres[None, :, :])
        need = (sizes[block, None, :] + sizes[None, :, :]) / 2 + gap
        overlap = np.all(d < need, axis=2) & np.any(d > 0, axis=2)
        overlap &= np.arange(start, start + d.shape[0])[:, None] < np.arange(len(centres))[None, :]  # i < j
        with np.errstate(divide="ignore"):
            factors = np.where(d > 0, need / np.where(d > 0, d, 1.0), np.inf)[overlap]
        fx_parts.append(factors[:, 0])
        fy_parts.append(factors[:, 1])
    fx, fy = np.concatenate(fx_parts), np.concatenate(fy_parts)
    if not fx.size:
        return 1.0, 1.0
    order = np.argsort(-fx)                       # candidate s_x = fx[order[k]] leaves pairs order[:k] to s_y
    fx, fy = fx[order], fy[order]
    left_to_y = np.concatenate([[1.0], np.maximum.accumulate(fy)])   # s_y when the first k pairs are left to it
    candidates_x = np.concatenate([fx, [1.0]])
    fits = (candidates_x <= MAX_SPREAD) & (left_to_y <= MAX_SPREAD)   # within the cap: every pair parted
    if fits.any():
        area = np.where(fits, candidates_x * left_to_y, np.inf)
    else:   # no stretch within the cap parts every pair: the capped one of least area
        area = np.minimum(candidates_x, MAX_SPREAD) * np.minimum(left_to_y, MAX_SPREAD)
    best = int(np.argmin(area))
    return (float(min(max(candidates_x[best], 1.0), MAX_SPREAD)),
            float(min(max(left_to_y[best], 1.0), MAX_SPREAD)))


def spread(centres: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """``centres`` stretched by :func:`spread_factors` about their top-left corner."""
    origin = centres.min(axis=0)
    return origin + (centres - origin) * np.array(spread_factors(centres, sizes))


def spread_positions(net: Network, sizes: dict[str, Size], positions: dict | None = None) -> bool:
    """Stretch the ``positions`` a file carries (default ``net.positions``, updated in place; drawn by another
    tool, with smaller nodes) until no two nodes of ``sizes`` overlap, keeping the author's arrangement
    (:func:`spread`). Returns whether anything moved."""
    positions = net.positions if positions is None else positions
    names = [v for v in net.variables if v in positions]
    if len(names) < 2:
        return False
    centres = np.array([positions[v] for v in names], dtype=float)
    moved = spread(centres, np.array([sizes[v] for v in names], dtype=float))
    if np.array_equal(moved, centres):
        return False
    for v, (x, y) in zip(names, moved, strict=True):
        positions[v] = (float(x), float(y))
    return True
