"""Arc geometry in bulk (bnstudio.display.routes) against scalar references, and the star layout: a naive Bayes
of hundreds of attributes drawn as a block whose routed arcs never pass through another node."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from bnstudio.display.layout import STAR_LEAVES, _segment_hits_rect, layered_layout, star_leaves
from bnstudio.display.routes import border_points, hub_routes, polyline_enters_boxes, segments_enter_boxes


def _sampled_entry(p0, p1, box, samples: int = 4001) -> bool:
    """Brute force: does any of many points along the segment lie strictly inside the box (shrunk by 1)?"""
    t = np.linspace(0.0, 1.0, samples)[:, None]
    pts = p0 + t * (p1 - p0)
    left, top, right, bottom = box
    return bool(np.any((pts[:, 0] > left + 1) & (pts[:, 0] < right - 1) & (pts[:, 1] > top + 1)
                       & (pts[:, 1] < bottom - 1)))


def test_segments_entering_boxes_agree_with_scalar_clipping_and_sampling():
    rng = np.random.default_rng(3)
    boxes = np.hstack([rng.uniform(0, 900, (60, 2)), np.zeros((60, 2))])
    boxes[:, 2:] = boxes[:, :2] + rng.uniform(20, 120, (60, 2))
    p0, p1 = rng.uniform(-50, 1000, (300, 2)), rng.uniform(-50, 1000, (300, 2))
    p1[:40, 0] = p0[:40, 0]                      # vertical segments
    p1[40:80, 1] = p0[40:80, 1]                  # horizontal ones
    skip = np.full((300, 1), -1)
    skip[::7, 0] = rng.integers(0, 60, len(skip[::7]))
    got = segments_enter_boxes(p0, p1, boxes, skip)
    for i in range(300):
        others = [b for k, b in enumerate(boxes) if k != skip[i, 0]]
        scalar = any(_segment_hits_rect(*p0[i], *p1[i], *(b + [0.5, 0.5, -0.5, -0.5])) for b in others)
        sampled = any(_sampled_entry(p0[i], p1[i], b) for b in others)
        assert got[i] == scalar, i
        if sampled:                               # sampling can miss a corner, never invent an entry
            assert got[i], i


def test_border_points_leave_each_box_towards_the_target():
    rng = np.random.default_rng(4)
    centres, halves = rng.uniform(-100, 100, (200, 2)), rng.uniform(5, 60, (200, 2))
    towards = centres + rng.uniform(-300, 300, (200, 2))
    towards[:5] = centres[:5] + rng.uniform(-2, 2, (5, 2))     # targets inside the box: the target itself
    points = border_points(centres, halves, towards)
    d, e = towards - centres, points - centres
    assert np.allclose(d[:, 0] * e[:, 1], d[:, 1] * e[:, 0])    # on the segment's line ...
    assert np.all(np.sum(d * e, axis=1) >= 0)                   # ... on the target's side
    on_border = np.isclose(np.abs(e / halves).max(axis=1), 1.0)
    inside_target = np.all(np.abs(d) <= halves, axis=1)
    assert np.all(on_border | inside_target)
    assert np.allclose(points[inside_target], towards[inside_target])


def _naive_bayes(n: int) -> tuple[list[str], list[tuple[str, str]], dict[str, tuple[float, float]]]:
    names = ["C", *[f"X{k}" for k in range(n)]]
    sizes = {v: (200.0, 59.0) for v in names}
    return names, [("C", v) for v in names[1:]], sizes


@pytest.mark.parametrize("n", [30, 300, 1000])
def test_a_naive_bayes_is_a_block_whose_arcs_never_pass_through_a_node(n):
    names, arcs, sizes = _naive_bayes(n)
    pos = layered_layout(names, arcs, sizes)
    centres = np.array([pos[v] for v in names])
    size = np.array([sizes[v] for v in names])
    boxes = np.hstack([centres - size / 2, centres + size / 2])
    for a, b in itertools.combinations(range(len(names)), 2):   # no two nodes overlap
        assert (boxes[a, 2] <= boxes[b, 0] or boxes[b, 2] <= boxes[a, 0] or boxes[a, 3] <= boxes[b, 1]
                or boxes[b, 3] <= boxes[a, 1]), (names[a], names[b])
    width, height = np.ptp(boxes[:, [0, 2]]), np.ptp(boxes[:, [1, 3]])
    assert 0.8 < width / height < 3.5 or n < STAR_LEAVES * 2    # a screen-like block, not one long row
    assert all(pos["C"][1] < pos[v][1] for v in names[1:])      # the class above its attributes
    routes = hub_routes(names, centres, size, arcs)
    index = {v: k for k, v in enumerate(names)}
    for parent, child in arcs:
        p, c = index[parent], index[child]
        bends = routes.get((parent, child), [])
        first, last = (bends[0] if bends else centres[c]), (bends[-1] if bends else centres[p])
        start = border_points(centres[[p]], size[[p]] / 2, np.array([first]))[0]
        end = border_points(centres[[c]], size[[c]] / 2, np.array([last]))[0]
        polyline = [tuple(start), *bends, tuple(end)]
        assert not polyline_enters_boxes(polyline, boxes, (p, c)), (parent, child)
        for a, b in zip(polyline, polyline[1:]) if n <= 300 else ():   # the same by the scalar clipping
            for k in range(len(names)):
                if k not in (p, c):
                    assert not _segment_hits_rect(*a, *b, *(boxes[k] + [0.5, 0.5, -0.5, -0.5])), (parent, child, k)
    if n >= 300:
        assert len(routes) > n / 2      # most arcs needed a route: straight ones would cross the rows


def test_only_hubs_with_many_leaves_become_stars():
    import networkx as nx

    g = nx.DiGraph([("H", f"L{k}") for k in range(STAR_LEAVES)] + [("A", "B"), ("H", "B")])
    assert star_leaves(g, list(g)) == {"H": [f"L{k}" for k in range(STAR_LEAVES)]}
    g.remove_node("L0")
    assert star_leaves(g, list(g)) == {}
