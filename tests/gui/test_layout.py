"""The layered layout: parents above children, no overlapping nodes, few crossings, positions kept."""
from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest

from bnstudio.display.layout import (
    arcs_through_nodes,
    isotonic_place,
    layered_layout,
    longest_path_layers,
    segment_crossings,
    shortest_arc_layers,
)
from bnstudio.gui.canvas.arrange import fill_missing_positions, sizes_for
from bnstudio.io import read_network
from tests.gui.conftest import NETWORKS, sprinkler

# generous bounds well above what the layout achieves (ALARM 10 / 9, Insurance 27 / 12) to catch regressions
BOUNDS = {"alarm": (16, 14), "insurance": (35, 18), "child": (5, 8), "asia": (1, 1), "sachs": (5, 8)}


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_bundled_networks_are_laid_out_cleanly(name):
    net = read_network(NETWORKS / f"{name}.bif")
    sizes = sizes_for(net)
    pos = layered_layout(net.variables, net.arcs(), sizes)
    assert set(pos) == set(net.variables)
    assert all(pos[p][1] < pos[c][1] for p, c in net.arcs())  # parents above children
    for a, b in itertools.combinations(net.variables, 2):  # no two nodes overlap
        (xa, ya), (xb, yb) = pos[a], pos[b]
        assert abs(xa - xb) >= (sizes[a][0] + sizes[b][0]) / 2 - 1e-6 or \
            abs(ya - yb) >= (sizes[a][1] + sizes[b][1]) / 2 - 1e-6, (a, b)
    crossings, through = BOUNDS[name]
    assert segment_crossings(net.arcs(), pos) <= crossings
    assert arcs_through_nodes(net.arcs(), pos, sizes) <= through


def test_layerings_respect_arcs_and_shortest_arcs_is_optimal():
    g = nx.DiGraph([("A", "B"), ("B", "C"), ("C", "D"), ("E", "D")])  # E is best placed just above D
    nodes = list("ABCDE")
    short, longest = shortest_arc_layers(g, nodes), longest_path_layers(g, nodes)
    for layer in (short, longest):
        assert all(layer[v] - layer[u] >= 1 for u, v in g.edges())
    assert short["E"] == short["D"] - 1
    assert sum(short[v] - short[u] for u, v in g.edges()) == 4


def test_isotonic_placement_keeps_order_and_gaps():
    x = isotonic_place(np.array([5.0, 0.0, 10.0]), np.ones(3), np.array([4.0, 4.0]))
    assert np.all(np.diff(x) >= 4.0 - 1e-9)
    # the pooled first two sit around their mean, the third keeps its target
    assert x[2] == pytest.approx(10.0) and (x[0] + x[1]) / 2 == pytest.approx(2.5)


def test_components_and_isolated_nodes_do_not_overlap():
    sizes = {v: (100.0, 40.0) for v in "ABCDEFG"}
    pos = layered_layout(list("ABCDEFG"), [("A", "B"), ("C", "D")], sizes)
    for a, b in itertools.combinations(pos, 2):
        assert abs(pos[a][0] - pos[b][0]) >= 100 - 1e-6 or abs(pos[a][1] - pos[b][1]) >= 40 - 1e-6


def test_positions_from_files_are_kept_and_only_missing_ones_placed():
    net = sprinkler()
    kept = dict(net.positions)
    assert fill_missing_positions(net) == []
    assert net.positions == kept
    net.add_variable("Late", ["a", "b"])
    assert fill_missing_positions(net) == ["Late"]
    assert {k: net.positions[k] for k in kept} == kept and net.positions["Late"][1] > 240


def test_a_layer_of_hundreds_wraps_into_a_readable_block():
    """Seen: munin's layers hundreds of nodes wide drew as one line 50,000 px long with the top layer overlapping;
    a wide layer now wraps into rows, the drawing keeps a screen-like shape, and no two nodes overlap."""
    children = [f"C{k}" for k in range(300)]
    nodes = ["root", *children, "leaf"]
    arcs = [("root", c) for c in children] + [(children[0], "leaf")]
    sizes = {v: (90.0, 30.0) for v in nodes}
    pos = layered_layout(nodes, arcs, sizes)
    xs, ys = np.array([p[0] for p in pos.values()]), np.array([p[1] for p in pos.values()])
    width, height = np.ptp(xs) + 90, np.ptp(ys) + 30
    assert width / height < 4                                   # one row would be 300 x 120 px = 36,000 px wide
    assert all(pos["root"][1] < pos[c][1] for c in children)    # parents still above children
    assert pos["leaf"][1] > pos[children[0]][1]
    boxes = sorted((x - 45, y - 15, x + 45, y + 15) for x, y in pos.values())
    for (a0, b0, a1, b1), (c0, d0, c1, d1) in itertools.combinations(boxes, 2):
        assert a1 <= c0 or c1 <= a0 or b1 <= d0 or d1 <= b0      # no two nodes overlap
