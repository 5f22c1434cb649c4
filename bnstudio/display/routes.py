"""Arc geometry in bulk, Qt-free: where straight arcs leave their nodes' boxes, which segments enter other
nodes, and routes around nodes for the arcs of a *hub* (a node with many children, like a naive Bayes class).

All functions are vectorised over arcs and boxes with numpy (chunked to :data:`PAIRS_PER_CHUNK` segment-box
pairs), so the canvas computes a thousand arcs in one call instead of one Python callback per arc.

A hub's children are drawn as a grid below it (:func:`bnstudio.display.layout.layered_layout`); a straight arc
to a child beyond the first row would cross the rows above, so it runs instead along the gap beside the
child's column, like a bus: down from the hub to just under it, across to the gap, down the gap, and into the
child's side (:func:`hub_routes`). A route is used only when none of its three segments enters another node;
otherwise the arc stays straight.

Any other arc whose straight line enters a node that is not one of its ends bends once, around the first such
node (:func:`detour_routes`), so no arc runs under another node's title.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

Point = tuple[float, float]
#: a node with at least this many children is a hub: its arcs through other nodes are routed along the gaps
HUB_CHILDREN = 12
#: how far beside a child its arc runs down (scene units; the hub layout leaves twice this between columns)
CHANNEL = 14.0
#: how far below the hub the arcs turn towards their channels
LEAD = 18.0
PAIRS_PER_CHUNK = 2_000_000


def border_points(centres: np.ndarray, halves: np.ndarray, towards: np.ndarray) -> np.ndarray:
    """Where the segments from the box centres ``centres`` (m, 2) towards ``towards`` (m, 2) leave the boxes of
    half-sizes ``halves`` (m, 2): c + d * min(1, hw / |dx|, hh / |dy|) with d = towards - c (the centre when
    d = 0)."""
    d = towards - centres
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(np.abs(d) > 0, halves / np.abs(d), np.inf).min(axis=1)
    return centres + d * np.minimum(scale, 1.0)[:, None]


def segments_enter_boxes(p0: np.ndarray, p1: np.ndarray, boxes: np.ndarray, skip: np.ndarray) -> np.ndarray:
    """For each segment p0[i] -> p1[i] (m, 2), whether it enters the interior of a box (left, top, right,
    bottom; (n, 4)) other than those whose indices ``skip[i]`` (m, k) lists (-1: none); see
    :func:`first_boxes_entered`."""
    return first_boxes_entered(p0, p1, boxes, skip) >= 0


def first_boxes_entered(p0: np.ndarray, p1: np.ndarray, boxes: np.ndarray, skip: np.ndarray) -> np.ndarray:
    """For each segment p0[i] -> p1[i] (m, 2), the index of the first box (left, top, right, bottom; (n, 4))
    whose interior it enters going from p0, -1 for none, leaving out the boxes whose indices ``skip[i]``
    (m, k) lists (-1: none). The pairs whose bounding boxes overlap are clipped (Liang-Barsky): the segment
    p0 + t (p1 - p0), t in [0, 1], meets the box where the largest entering t is below the smallest leaving
    t; touching an edge does not count (a small inward margin)."""
    m, n = len(p0), len(boxes)
    first = np.full(m, -1)
    if not m or not n:
        return first
    best = np.full(m, np.inf)
    inner = boxes + np.array([0.5, 0.5, -0.5, -0.5])
    low, high = np.minimum(p0, p1), np.maximum(p0, p1)
    step = max(1, PAIRS_PER_CHUNK // n)
    for start in range(0, m, step):
        part = slice(start, start + step)
        near = ((low[part, None, 0] < inner[None, :, 2]) & (high[part, None, 0] > inner[None, :, 0])
                & (low[part, None, 1] < inner[None, :, 3]) & (high[part, None, 1] > inner[None, :, 1]))
        for column in skip[part].T:
            rows = np.flatnonzero(column >= 0)
            near[rows, column[rows]] = False
        seg, box = np.nonzero(near)
        seg += start
        if not seg.size:
            continue
        a, d = p0[seg], p1[seg] - p0[seg]
        lo, hi = inner[box, :2] - a, inner[box, 2:] - a
        with np.errstate(divide="ignore", invalid="ignore"):
            t_lo, t_hi = lo / d, hi / d
        t_enter = np.where(d > 0, t_lo, np.where(d < 0, t_hi, -np.inf)).max(axis=1)
        t_leave = np.where(d > 0, t_hi, np.where(d < 0, t_lo, np.inf)).min(axis=1)
        outside = ((d == 0) & ((lo > 0) | (hi < 0))).any(axis=1)   # parallel to an axis, outside the slab
        t_in = np.maximum(t_enter, 0.0)
        meets = (t_in < np.minimum(t_leave, 1.0)) & ~outside
        seg, box, t_in = seg[meets], box[meets], t_in[meets]
        order = np.argsort(-t_in, kind="stable")     # the smallest t written last wins
        seg, box, t_in = seg[order], box[order], t_in[order]
        closer = t_in < best[seg]
        first[seg[closer]], best[seg[closer]] = box[closer], t_in[closer]
    return first


def _arc_arrays(index: dict[str, int], centres: np.ndarray, sizes: np.ndarray, arcs: Sequence[tuple[str, str]]
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The boxes' half sizes (n, 2) and (left, top, right, bottom) (n, 4), and the arcs' parent and child
    indices (m,)."""
    halves = sizes / 2.0
    return (halves, np.hstack([centres - halves, centres + halves]), np.array([index[p] for p, _ in arcs]),
            np.array([index[c] for _, c in arcs]))


def hub_routes(names: Sequence[str], centres: np.ndarray, sizes: np.ndarray,
               arcs: Sequence[tuple[str, str]], hub_children: int = HUB_CHILDREN) -> dict[tuple[str, str], list[Point]]:
    """The bends of the hub arcs that need a route (see the module docstring): {(parent, child): [turn, foot]}
    where ``turn`` is at the channel's x, LEAD below the hub, and ``foot`` at the channel's x level with the
    child's centre. ``centres`` and ``sizes`` (n, 2) are the nodes' centres and (width, height) in ``names``
    order."""
    index = {v: i for i, v in enumerate(names)}
    arcs = [(p, c) for p, c in arcs if p in index and c in index]
    children = np.bincount([index[p] for p, _ in arcs], minlength=len(names)) if arcs else np.zeros(0, int)
    hub_arcs = [(p, c) for p, c in arcs if children[index[p]] >= hub_children]
    if not hub_arcs:
        return {}
    halves, boxes, parent, child = _arc_arrays(index, centres, sizes, hub_arcs)
    pc, cc = centres[parent], centres[child]
    blocked = segments_enter_boxes(pc, cc, boxes, np.stack([parent, child], axis=1))
    below = boxes[child, 1] > boxes[parent, 3] + LEAD + 1.0       # the child's top under the turn
    todo = np.flatnonzero(blocked & below)
    routes: dict[tuple[str, str], list[Point]] = {}
    for side in (-1.0, 1.0):                                     # the gap left of the child, else right of it
        if not todo.size:
            break
        p, c = parent[todo], child[todo]
        x = np.where(side < 0, boxes[c, 0] - CHANNEL, boxes[c, 2] + CHANNEL)
        turn = np.stack([x, boxes[p, 3] + LEAD], axis=1)
        foot = np.stack([x, centres[c, 1]], axis=1)
        start = border_points(centres[p], halves[p], turn)
        end = border_points(centres[c], halves[c], foot)
        none = np.full(len(todo), -1)
        clear = ~(segments_enter_boxes(start, turn, boxes, np.stack([p, none], axis=1))
                  | segments_enter_boxes(turn, foot, boxes, none[:, None])
                  | segments_enter_boxes(foot, end, boxes, np.stack([c, none], axis=1)))
        for k in np.flatnonzero(clear):
            routes[hub_arcs[todo[k]]] = [(float(turn[k, 0]), float(turn[k, 1])), (float(foot[k, 0]), float(foot[k, 1]))]
        todo = todo[~clear]
    return routes


#: at most this many bends on an arc led around nodes (:func:`detour_routes`)
MAX_BENDS = 3


def detour_routes(names: Sequence[str], centres: np.ndarray, sizes: np.ndarray, arcs: Sequence[tuple[str, str]],
                  max_bends: int = MAX_BENDS) -> dict[tuple[str, str], list[Point]]:
    """Bends for the straight arcs that enter a node other than their ends, {(parent, child): [bend, ...]}:
    walking from the parent, the arc's last leg (from its last bend, or the parent, to the child) bends beside
    the first node it enters, a :data:`CHANNEL` off one of that node's corners or the middle of one of its
    sides (six candidates): the shortest candidate whose two legs enter no node, else the shortest whose
    first leg enters none (the next round leads the second around), at most ``max_bends`` times. An arc
    still blocked then stays straight. ``centres`` and ``sizes`` (n, 2) are in ``names`` order."""
    index = {v: i for i, v in enumerate(names)}
    arcs = [(p, c) for p, c in arcs if p in index and c in index]
    if not arcs:
        return {}
    halves, boxes, parent, child = _arc_arrays(index, centres, sizes, arcs)
    tail = centres[parent].copy()           # where each arc's last leg starts: the parent's centre or a bend
    own = parent.copy()                     # the box the last leg may leave (its parent), -1 after a bend
    bends: list[list[Point]] = [[] for _ in arcs]
    todo = np.arange(len(arcs))
    for _ in range(max_bends):
        blocker = first_boxes_entered(tail[todo], centres[child[todo]], boxes, np.stack([own[todo], child[todo]], 1))
        todo, blocker = todo[blocker >= 0], blocker[blocker >= 0]
        if not todo.size:
            break
        bend, ends_clear = _best_bend(tail[todo], own[todo], child[todo], boxes[blocker], centres, halves, boxes)
        found = np.isfinite(bend[:, 0])
        for k, b in zip(todo[found], bend[found], strict=True):
            bends[k].append((float(b[0]), float(b[1])))
        tail[todo[found]], own[todo[found]] = bend[found], -1
        todo = todo[found & ~ends_clear]
    bent = [k for k in range(len(arcs)) if bends[k]]
    if not bent:
        return {}
    starts, stops, skips, owner = [], [], [], []        # every leg of every bent arc, checked in one call
    for k in bent:
        points = [tuple(centres[parent[k]]), *bends[k], tuple(centres[child[k]])]
        for leg, (a, b) in enumerate(zip(points, points[1:], strict=False)):
            starts.append(a)
            stops.append(b)
            skips.append((parent[k] if leg == 0 else -1, child[k] if leg == len(points) - 2 else -1))
            owner.append(k)
    hit = segments_enter_boxes(np.array(starts), np.array(stops), boxes, np.array(skips))
    blocked = set(np.array(owner)[hit].tolist())
    return {arcs[k]: bends[k] for k in bent if k not in blocked}


def _best_bend(tail: np.ndarray, own: np.ndarray, child: np.ndarray, blocker: np.ndarray, centres: np.ndarray,
               halves: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For legs from ``tail`` (m, 2; leaving box ``own``, -1 none) to the ``child`` boxes, blocked by the boxes
    ``blocker`` (m, 4): the shortest bend of the six beside the blocker that clears both legs, else the
    shortest that clears the first (NaN: none), and whether the second leg is clear too."""
    m = len(tail)
    none = np.full(m, -1)
    best = [np.full(m, np.inf), np.full(m, np.inf)]      # lengths: both legs clear, the first leg clear
    bends = [np.full((m, 2), np.nan), np.full((m, 2), np.nan)]
    middle = (blocker[:, 1] + blocker[:, 3]) / 2
    for x in (blocker[:, 0] - CHANNEL, blocker[:, 2] + CHANNEL):
        for y in (blocker[:, 1] - CHANNEL, middle, blocker[:, 3] + CHANNEL):
            bend = np.stack([x, y], axis=1)
            start = np.where((own >= 0)[:, None], border_points(centres[np.maximum(own, 0)],
                                                                halves[np.maximum(own, 0)], bend), tail)
            end = border_points(centres[child], halves[child], bend)
            first = ~segments_enter_boxes(start, bend, boxes, np.stack([own, none], axis=1))
            second = ~segments_enter_boxes(bend, end, boxes, np.stack([child, none], axis=1))
            length = np.hypot(*(bend - tail).T) + np.hypot(*(centres[child] - bend).T)
            for k, ok in enumerate((first & second, first)):
                better = ok & (length < best[k])
                best[k][better], bends[k][better] = length[better], bend[better]
    both = np.isfinite(best[0])
    return np.where(both[:, None], bends[0], bends[1]), both


def polyline_enters_boxes(points: Sequence[Point], boxes: np.ndarray, ends: tuple[int, int]) -> bool:
    """Whether the polyline ``points`` (an arc from node ``ends[0]`` to node ``ends[1]``) enters any other box;
    its first segment may leave the first end's box and its last enter the second's (for tests)."""
    pts = np.asarray(points, dtype=float)
    k = len(pts) - 1
    skip = np.full((k, 2), -1)
    skip[0, 0], skip[-1, 1] = ends
    return bool(segments_enter_boxes(pts[:-1], pts[1:], boxes, skip).any())
