"""Automatic layered layout of a DAG (Sugiyama, Tamassia & Toda 1981), Qt-free.

1. **Layers**: parents above children: the least total arc length (Gansner et al. 1993, solved as the dual
   min-cost flow with networkx's network simplex), or longest-path layers with median moves.
2. **Dummy nodes** split arcs spanning several layers, so long arcs get their own slots.
3. **Ordering**: barycentre sweeps down and up, with adjacent swaps ("transpose"), keeping the order with
   the fewest crossings.
4. **Wrapping**: a layer wider than the drawing's target width (:func:`row_width`: the width of a drawing
   with the nodes' total area and a 16:10 shape) is split, in its order, into rows under each other, so a
   network with hundreds of siblings (munin) stays a readable block instead of one line 50,000 px wide.
5. **Coordinates**: each row is placed at the (weighted) mean of its neighbours' x, subject to the order and
   minimum gaps, by isotonic regression (pool-adjacent-violators); dummy nodes weigh more so long arcs run
   straight, optionally aiming at the straight line between the arc's ends.
6. **Clearing**: where a straight arc (as the canvas draws it, centre to centre) still passes through a node
   other than its ends, the gaps between the rows of its ends grow, a step at a time, so it runs steeper and
   clear (:func:`clear_arcs`); a hub's arcs are left to their routes (:mod:`bnstudio.display.routes`).

On networks up to :data:`MAX_NODES_FOR_TRIES` nodes every combination of layering and straightening is drawn
and the one with the fewest crossings and arcs through nodes wins (ALARM and Insurance prefer different ones);
larger networks use least-arc-length layers directly.

Weakly connected components are laid out separately and placed side by side; positions are node centres.

**Stars.** A hub with many leaf children (at least :data:`STAR_LEAVES` children whose only neighbour it is: a
naive Bayes class and its attributes) gets its leaves as a grid block below the rest of its component, columns
:data:`~bnstudio.display.routes.CHANNEL` apart on either side (twice that between columns), so that each arc can
run along the gap beside its child's column (:func:`bnstudio.display.routes.hub_routes`) instead of through the
rows above: a thousand attributes make a block of screen shape, not one wrapped layer crossed by its arcs.

>>> pos = layered_layout(["A", "B", "C"], [("A", "B"), ("A", "C")], {v: (80, 30) for v in "ABC"})
>>> pos["A"][1] < pos["B"][1] == pos["C"][1]
True
"""
from __future__ import annotations

from typing import Iterable, Sequence

import networkx as nx
import numpy as np

from bnstudio.display.routes import CHANNEL, HUB_CHILDREN, segments_enter_boxes

Size = tuple[float, float]
DUMMY_WIDTH = 40.0
DUMMY_WEIGHT = 10.0
MAX_NODES_FOR_TRIES = 120
ASPECT = 1.6            # width / height aimed at when wide layers wrap
MIN_ROW_WIDTH = 1600.0  # layers narrower than this never wrap
STAR_LEAVES = 24        # a node with this many leaf children draws them as a grid block (see "Stars")
STAR_ROW_GAP = 16.0     # between the rows of a star's block


def layered_layout(nodes: Sequence[str], arcs: Iterable[tuple[str, str]], sizes: dict[str, Size],
                   h_gap: float = 30.0, v_gap: float = 46.0, sweeps: int = 12) -> dict[str, tuple[float, float]]:
    """Centre positions for ``nodes`` (each of ``sizes[v] = (width, height)``) with parents above children."""
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(arcs)
    order = {v: i for i, v in enumerate(nodes)}
    parts = sorted((sorted(c, key=order.__getitem__) for c in nx.weakly_connected_components(graph)),
                   key=lambda c: (len(c) == 1, order[c[0]]))
    singles = [c[0] for c in parts if len(c) == 1]
    positions: dict[str, tuple[float, float]] = {}
    left = 0.0
    for comp in (c for c in parts if len(c) > 1):
        placed = _layout_with_stars(graph, comp, sizes, h_gap, v_gap, sweeps)
        left = _place_block(positions, placed, sizes, left) + 2 * h_gap
    if singles:
        _place_grid(positions, singles, sizes, left, h_gap, v_gap)
    return positions


def _place_block(out: dict, placed: dict, sizes: dict[str, Size], left: float) -> float:
    """Shift ``placed`` so its left edge is at ``left``; return its right edge."""
    x0 = min(x - sizes[v][0] / 2 for v, (x, _) in placed.items())
    x1 = max(x + sizes[v][0] / 2 for v, (x, _) in placed.items())
    for v, (x, y) in placed.items():
        out[v] = (x - x0 + left, y)
    return left + x1 - x0


def _place_grid(out: dict, names: list[str], sizes: dict[str, Size], left: float, h_gap: float,
                v_gap: float) -> None:
    """Unconnected nodes in a near-square grid to the right of everything else."""
    cols = max(1, int(np.ceil(np.sqrt(len(names)))))
    width = max(sizes[v][0] for v in names) + h_gap
    height = max(sizes[v][1] for v in names) + v_gap
    for i, v in enumerate(names):
        out[v] = (left + width * (i % cols) + sizes[v][0] / 2, height * (i // cols) + sizes[v][1] / 2)


def star_leaves(graph: nx.DiGraph, nodes: list[str], least: int = STAR_LEAVES) -> dict[str, list[str]]:
    """{hub: its leaf children} for the hubs among ``nodes`` with at least ``least`` leaves (children with no
    other parent and no children), in ``nodes`` order."""
    leaves: dict[str, list[str]] = {}
    for v in nodes:
        if graph.in_degree(v) == 1 and graph.out_degree(v) == 0:
            leaves.setdefault(next(iter(graph.predecessors(v))), []).append(v)
    return {hub: kids for hub, kids in leaves.items() if len(kids) >= least}


def _layout_with_stars(graph: nx.DiGraph, nodes: list[str], sizes: dict[str, Size], h_gap: float, v_gap: float,
                       sweeps: int) -> dict[str, tuple[float, float]]:
    """The component without its stars' leaves (layered), then each hub's leaves as a grid block below it."""
    stars = star_leaves(graph, nodes)
    if not stars:
        return _layout_component(graph.subgraph(nodes), nodes, sizes, h_gap, v_gap, sweeps)
    gone = {v for kids in stars.values() for v in kids}
    rest = [v for v in nodes if v not in gone]
    placed = (_layout_component(graph.subgraph(rest), rest, sizes, h_gap, v_gap, sweeps) if len(rest) > 1
              else {rest[0]: (0.0, 0.0)})
    top = max(y + sizes[v][1] / 2 for v, (_, y) in placed.items()) + v_gap
    free_from = -np.inf
    for hub, kids in stars.items():
        block, width = grid_block(kids, sizes)
        left = max(placed[hub][0] - width / 2, free_from)
        placed.update({v: (left + x, top + y) for v, (x, y) in block.items()})
        free_from = left + width + 2 * CHANNEL
    return placed


def grid_block(names: list[str], sizes: dict[str, Size]) -> tuple[dict[str, tuple[float, float]], float]:
    """``names`` in a grid of about the ASPECT shape, cells of the largest node plus a gap of 2 CHANNEL across
    and STAR_ROW_GAP down; returns centres relative to the block's top-left corner and the block's width.

    >>> block, width = grid_block(list("abcd"), {v: (100.0, 40.0) for v in "abcd"})
    >>> block["a"], block["d"], width
    ((50.0, 20.0), (178.0, 76.0), 228.0)
    """
    cell_w = max(sizes[v][0] for v in names) + 2 * CHANNEL
    cell_h = max(sizes[v][1] for v in names) + STAR_ROW_GAP
    cols = max(1, min(len(names), round(float(np.sqrt(len(names) * ASPECT * cell_h / cell_w)))))
    block = {v: (cell_w * (k % cols) + (cell_w - 2 * CHANNEL) / 2, cell_h * (k // cols) + (cell_h - STAR_ROW_GAP) / 2)
             for k, v in enumerate(names)}
    return block, cols * cell_w - 2 * CHANNEL


def _layout_component(graph: nx.DiGraph, nodes: list[str], sizes: dict[str, Size], h_gap: float,
                      v_gap: float, sweeps: int) -> dict[str, tuple[float, float]]:
    """On small graphs, try both layerings, with and without straightened long arcs, and keep the drawing
    with the fewest crossings and arcs through nodes (these count double: a hidden arc misleads)."""
    if len(nodes) > MAX_NODES_FOR_TRIES:
        return _draw(graph, nodes, shortest_arc_layers(graph, nodes), sizes, h_gap, v_gap, sweeps, False)
    arcs = list(graph.edges())
    best, best_score = None, None
    for layering in (shortest_arc_layers, longest_path_layers):
        layer = layering(graph, nodes)
        for straight in (False, True):
            positions = _draw(graph, nodes, layer, sizes, h_gap, v_gap, sweeps, straight)
            score = segment_crossings(arcs, positions) + 2 * arcs_through_nodes(arcs, positions, sizes)
            if best_score is None or score < best_score:
                best, best_score = positions, score
    assert best is not None  # the first drawing tried is kept
    return best


def _draw(graph, nodes, layer, sizes, h_gap, v_gap, sweeps, straight: bool) -> dict[str, tuple[float, float]]:
    layers, up, down, width, weight, chains = _with_dummies(graph, nodes, layer, sizes)
    layers = order_layers(layers, up, down, sweeps)
    rows, gaps = wrap_layers(layers, width, row_width(nodes, sizes, h_gap, v_gap), h_gap, v_gap)
    heights = [max((sizes[v][1] for v in row if v in sizes), default=0.0) for row in rows]
    ys = row_centres(rows, heights, gaps)
    xs = assign_x(rows, up, down, width, weight, h_gap, chains if straight else None, ys)
    gaps = clear_arcs(graph, rows, heights, gaps, xs, sizes, v_gap / 4)
    ys = row_centres(rows, heights, gaps)
    return {v: (float(xs[v]), ys[v]) for v in nodes}


def _clears_when_steep(u: str, v: str, rows: list[list[str]], row_of: dict[str, int], xs: dict[str, float],
                       sizes: dict[str, Size]) -> bool:
    """Whether the arc u -> v would clear every node of the rows between its ends if the gaps grew without
    bound: there, it crosses row k (of the m rows from u's to v's) at x_u + (k / m) (x_v - x_u)."""
    a, b = row_of[u], row_of[v]
    for k in range(a + 1, b):
        x = xs[u] + (k - a) / (b - a) * (xs[v] - xs[u])
        if any(abs(xs[w] - x) < sizes[w][0] / 2 + 1.0 for w in rows[k] if w in sizes):
            return False
    return True


def row_centres(rows: list[list[str]], heights: Sequence[float], gaps: Sequence[float]) -> dict[str, float]:
    """The y of every node: the middle of its row; rows of ``heights`` stacked with ``gaps`` below each."""
    tops = np.concatenate([[0.0], np.cumsum(np.array(heights) + np.array(gaps))])
    return {v: float(tops[k] + heights[k] / 2) for k, row in enumerate(rows) for v in row}


#: at most this many steps of a quarter gap are added below a row to clear arcs through nodes
CLEAR_STEPS = 2


def clear_arcs(graph: nx.DiGraph, rows: list[list[str]], heights: Sequence[float], gaps: Sequence[float],
               xs: dict[str, float], sizes: dict[str, Size], step: float, steps: int = CLEAR_STEPS) -> list[float]:
    """The ``gaps`` below the rows, grown by ``step`` between the rows of every arc whose straight segment
    (centre to centre, as drawn) enters a node other than its ends, until none does or a gap has grown
    ``steps`` times. Growing the gaps between an arc's ends makes it steeper: where it crosses a row band
    between them it approaches the x it has at the band's middle (the slot a dummy node kept free), and next
    to its ends it leaves the row through the end node's own box, so a crossing of a neighbour's title (a
    shallow arc) goes. Arcs of hubs (:data:`~bnstudio.display.routes.HUB_CHILDREN` children) are routed by the
    canvas and left out; a crossing that stretching cannot clear stops growing at ``steps``."""
    gaps = [float(g) for g in gaps]
    names = [v for row in rows for v in row if v in sizes]
    index = {v: i for i, v in enumerate(names)}
    row_of = {v: k for k, row in enumerate(rows) for v in row}
    arcs = [(u, v) for u, v in graph.edges() if u in index and v in index and graph.out_degree(u) < HUB_CHILDREN
            and _clears_when_steep(u, v, rows, row_of, xs, sizes)]
    if not arcs:
        return gaps
    parent = np.array([index[u] for u, _ in arcs])
    child = np.array([index[v] for _, v in arcs])
    halves = np.array([sizes[v] for v in names], dtype=float) / 2
    grown = np.zeros(len(gaps), dtype=int)
    for _ in range(steps):
        ys = row_centres(rows, heights, gaps)
        centres = np.array([(xs[v], ys[v]) for v in names], dtype=float)
        boxes = np.hstack([centres - halves, centres + halves])
        hit = segments_enter_boxes(centres[parent], centres[child], boxes, np.stack([parent, child], axis=1))
        spans = {k for a in np.flatnonzero(hit) for k in range(row_of[arcs[a][0]], row_of[arcs[a][1]])}
        spans = {k for k in spans if grown[k] < steps}
        if not spans:
            break
        for k in spans:
            gaps[k] += step
            grown[k] += 1
    return gaps


def row_width(nodes: Sequence[str], sizes: dict[str, Size], h_gap: float, v_gap: float) -> float:
    """The widest a row may be: that of a drawing holding the nodes' total area (with gaps) at the ASPECT
    shape, and at least MIN_ROW_WIDTH."""
    area = sum((sizes[v][0] + h_gap) * (sizes[v][1] + v_gap) for v in nodes)
    return max(MIN_ROW_WIDTH, float(np.sqrt(ASPECT * area)))


def wrap_layers(layers: list[list[str]], width: dict[str, float], limit: float, h_gap: float,
                v_gap: float) -> tuple[list[list[str]], list[float]]:
    """Split every layer wider than ``limit`` into rows (in its order); returns the rows and the gap below
    each (a full gap after a layer, half a gap between the rows of one layer).

    >>> rows, gaps = wrap_layers([["a"], ["b", "c", "d"]], {"a": 10, "b": 10, "c": 10, "d": 10}, 25, 0, 8)
    >>> rows, gaps
    ([['a'], ['b', 'c'], ['d']], [8, 4.0, 8])
    """
    rows: list[list[str]] = []
    gaps: list[float] = []
    for layer in layers:
        row: list[str] = []
        used = 0.0
        for v in layer:
            if row and used + width[v] > limit:
                rows.append(row)
                gaps.append(v_gap / 2)
                row, used = [], 0.0
            row.append(v)
            used += width[v] + h_gap
        rows.append(row)
        gaps.append(v_gap)
    return rows, gaps


def longest_path_layers(graph: nx.DiGraph, nodes: list[str], passes: int = 8) -> dict[str, int]:
    """Longest-path layers, then single-node median moves that shorten arcs (parents stay above children)."""
    order = {v: i for i, v in enumerate(nodes)}
    topo = list(nx.lexicographical_topological_sort(graph, key=order.__getitem__))
    layer: dict[str, int] = {}
    for v in topo:
        layer[v] = 1 + max((layer[p] for p in graph.predecessors(v)), default=-1)
    for _ in range(passes):
        moved = False
        for v in reversed(topo):
            parents, children = list(graph.predecessors(v)), list(graph.successors(v))
            wants = [layer[p] + 1 for p in parents] + [layer[c] - 1 for c in children]
            if not wants:
                continue
            lo = max((layer[p] + 1 for p in parents), default=-10**6)
            hi = min((layer[c] - 1 for c in children), default=10**6)
            best = int(np.clip(np.floor(np.median(wants)), lo, hi))
            if sum(abs(best - w) for w in wants) < sum(abs(layer[v] - w) for w in wants):
                layer[v], moved = best, True
        if not moved:
            break
    low = min(layer.values())
    return {v: k - low for v, k in layer.items()}


def shortest_arc_layers(graph: nx.DiGraph, nodes: list[str]) -> dict[str, int]:
    """Layers with the least total arc length (Gansner et al. 1993): min sum_(u,v) (l_v - l_u) subject to
    l_v - l_u >= 1. Solved through its dual, a min-cost flow (cost -1 per unit on every arc, node demand
    indeg - outdeg; networkx's network simplex); the layers are minus the shortest-path potentials of the
    optimal residual network (complementary slackness)."""
    flow_graph = nx.DiGraph()
    for v in nodes:
        flow_graph.add_node(v, demand=graph.in_degree(v) - graph.out_degree(v))
    flow_graph.add_edges_from(graph.edges(), weight=-1)
    _, flow = nx.network_simplex(flow_graph)
    residual = nx.DiGraph()
    residual.add_nodes_from(nodes)
    for u, v in graph.edges():
        residual.add_edge(u, v, weight=-1)
        if flow[u][v] > 0:
            residual.add_edge(v, u, weight=1)
    source = object()
    residual.add_edges_from(((source, v) for v in nodes), weight=0)
    dist = nx.single_source_bellman_ford_path_length(residual, source)
    low = min(-dist[v] for v in nodes)
    return {v: int(-dist[v] - low) for v in nodes}


def assign_layers(graph: nx.DiGraph, nodes: list[str]) -> dict[str, int]:
    """Shortest-arc layers when they are valid (they always are), else longest-path layers."""
    layer = shortest_arc_layers(graph, nodes) if graph.number_of_edges() else longest_path_layers(graph, nodes)
    if any(layer[v] - layer[u] < 1 for u, v in graph.edges()):  # pragma: no cover - defensive
        return longest_path_layers(graph, nodes)
    return layer


def _with_dummies(graph, nodes, layer, sizes):
    n_layers = max(layer.values()) + 1
    layers: list[list[str]] = [[] for _ in range(n_layers)]
    for v in nodes:
        layers[layer[v]].append(v)
    up: dict[str, list[str]] = {v: [] for v in nodes}
    down: dict[str, list[str]] = {v: [] for v in nodes}
    width = {v: float(sizes[v][0]) for v in nodes}
    weight = {v: 1.0 for v in nodes}
    chains: dict[str, tuple[str, str]] = {}  # dummy -> the arc it lies on
    for u, v in graph.edges():
        chain = [u]
        for k in range(layer[u] + 1, layer[v]):
            d = f"\0{u}\0{v}\0{k}"  # a placeholder no variable name can equal
            layers[k].append(d)
            up[d], down[d], width[d], weight[d] = [], [], DUMMY_WIDTH, DUMMY_WEIGHT
            chains[d] = (u, v)
            chain.append(d)
        chain.append(v)
        for a, b in zip(chain, chain[1:], strict=False):
            down[a].append(b)
            up[b].append(a)
    return layers, up, down, width, weight, chains


def _crossings_between(upper: list[str], lower: list[str], down: dict[str, list[str]]) -> int:
    pos_u = {v: i for i, v in enumerate(upper)}
    pos_l = {v: i for i, v in enumerate(lower)}
    edges = np.array([(pos_u[a], pos_l[b]) for a in upper for b in down[a]], dtype=float)
    if len(edges) < 2:
        return 0
    du = np.sign(edges[:, None, 0] - edges[None, :, 0])
    dl = np.sign(edges[:, None, 1] - edges[None, :, 1])
    return int(np.count_nonzero(du * dl < 0) // 2)


def count_layer_crossings(layers: list[list[str]], down: dict[str, list[str]]) -> int:
    return sum(_crossings_between(a, b, down) for a, b in zip(layers, layers[1:], strict=False))


def _barycentre_pass(layers, neighbours, rng: range) -> None:
    for k in rng:
        ref = layers[k - 1] if rng.step > 0 else layers[k + 1]
        pos = {v: i for i, v in enumerate(ref)}
        keys = []
        for i, v in enumerate(layers[k]):
            ns = [pos[n] for n in neighbours[v] if n in pos]
            keys.append((sum(ns) / len(ns) if ns else float(i) * len(ref) / max(len(layers[k]), 1), i))
        layers[k] = [layers[k][i] for _, i in sorted(keys)]


def _transpose(layers, up, down, max_rounds: int = 4) -> None:
    """Swap neighbours in a layer while that lowers the crossings with both adjacent layers."""
    for _ in range(max_rounds):
        improved = False
        for k, row in enumerate(layers):
            ref = [({v: i for i, v in enumerate(layers[k - 1])} if k > 0 else {}, up),
                   ({v: i for i, v in enumerate(layers[k + 1])} if k + 1 < len(layers) else {}, down)]
            for i in range(len(row) - 1):
                a, b = row[i], row[i + 1]
                if _pair_cost(a, b, ref) > _pair_cost(b, a, ref):
                    row[i], row[i + 1] = b, a
                    improved = True
        if not improved:
            break


def _pair_cost(a: str, b: str, ref) -> int:
    """Crossings between a's and b's arcs when a is left of b."""
    total = 0
    for pos, neighbours in ref:
        na = [pos[n] for n in neighbours[a] if n in pos]
        nb = [pos[n] for n in neighbours[b] if n in pos]
        total += sum(1 for x in na for y in nb if x > y)
    return total


#: above this many nodes (dummies included), ordering sweeps only by barycentres: transposition's pairwise costs
#: grow with the layers' widths and bring little on networks too large to read arc by arc
TRANSPOSE_UP_TO = 600


#: above this much work per crossing count (Σ over adjacent layers of the squared number of arcs between them,
#: dummies included: a dense DAG of 250 nodes and 3,000 arcs has 3.7e7), one barycentre sweep down and up and no
#: counting: each count would take seconds and the drawing is too dense to read arc by arc (issue 42 item 15)
ORDER_WORK_UP_TO = 5_000_000
#: above this many nodes (dummies included), :func:`assign_x` makes 1 round instead of 6
FEW_ROUNDS_FROM = 20_000


def order_layers(layers: list[list[str]], up, down, sweeps: int = 12) -> list[list[str]]:
    """Barycentre ordering with transposition; returns the order with the fewest crossings seen (on a layered
    graph past :data:`ORDER_WORK_UP_TO`, one barycentre sweep down and up)."""
    layers = [list(row) for row in layers]
    if sum(sum(len(down[v]) for v in row) ** 2 for row in layers) > ORDER_WORK_UP_TO:
        _barycentre_pass(layers, up, range(1, len(layers)))
        _barycentre_pass(layers, down, range(len(layers) - 2, -1, -1))
        return layers
    transpose = sum(map(len, layers)) <= TRANSPOSE_UP_TO
    best, best_cost = [list(r) for r in layers], count_layer_crossings(layers, down)
    stale = 0
    for _ in range(sweeps):
        _barycentre_pass(layers, up, range(1, len(layers)))
        _barycentre_pass(layers, down, range(len(layers) - 2, -1, -1))
        if transpose:
            _transpose(layers, up, down)
        cost = count_layer_crossings(layers, down)
        if cost < best_cost:
            best, best_cost, stale = [list(r) for r in layers], cost, 0
        else:
            stale += 1
        if best_cost == 0 or stale >= 4:
            break
    return best


def isotonic_place(targets: np.ndarray, weights: np.ndarray, gaps: np.ndarray) -> np.ndarray:
    """Minimise sum w_i (x_i - t_i)^2 subject to x_{i+1} - x_i >= gaps_i (pool adjacent violators)."""
    offsets = np.concatenate([[0.0], np.cumsum(gaps)])
    t = targets - offsets
    blocks: list[list[float]] = []  # [weighted mean, total weight, count]
    for ti, wi in zip(t, weights, strict=True):
        blocks.append([ti, wi, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            m2, w2, c2 = blocks.pop()
            m1, w1, c1 = blocks.pop()
            blocks.append([(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, c1 + c2])
    y = np.concatenate([np.full(c, m) for m, _, c in blocks])
    return y + offsets


def assign_x(layers, up, down, width, weight, h_gap: float, chains=None, ys=None,
             rounds: int = 6) -> dict[str, float]:
    """x of every node: sweeps towards the mean x of the neighbours, order and gaps kept (isotonic). With
    ``chains`` (dummy -> arc) and ``ys``, a dummy aims at where the straight arc crosses its layer, so the
    drawn arc runs through the slot reserved for it."""
    xs: dict[str, float] = {}
    if sum(map(len, layers)) > FEW_ROUNDS_FROM:
        rounds = 1
    for row in layers:
        left = 0.0
        for v in row:
            xs[v] = left + width[v] / 2
            left += width[v] + h_gap
    order = [(range(1, len(layers)), (up,)), (range(len(layers) - 2, -1, -1), (down,))]
    for r in range(rounds):
        for rng, sources in order + ([(range(len(layers)), (up, down))] if r == rounds - 1 else []):
            for k in rng:
                _place_layer(layers[k], sources, xs, width, weight, h_gap, chains or {}, ys)
    shift = min(xs[v] - width[v] / 2 for v in xs)
    return {v: x - shift for v, x in xs.items()}


def _place_layer(row, sources, xs, width, weight, h_gap, chains, ys) -> None:
    if not row:
        return
    targets, weights = [], []
    for v in row:
        if v in chains:
            a, b = chains[v]
            t = (ys[v] - ys[a]) / (ys[b] - ys[a])
            targets.append(xs[a] + t * (xs[b] - xs[a]))
            weights.append(weight[v])
            continue
        ns = [xs[n] for src in sources for n in src[v]]
        targets.append(sum(ns) / len(ns) if ns else xs[v])
        weights.append(weight[v] if ns else 0.05)
    gaps = np.array([(width[a] + width[b]) / 2 + h_gap for a, b in zip(row, row[1:], strict=False)])
    placed = isotonic_place(np.array(targets), np.array(weights), gaps)
    for v, x in zip(row, placed, strict=True):
        xs[v] = float(x)


def segment_crossings(arcs: Sequence[tuple[str, str]], positions: dict[str, tuple[float, float]]) -> int:
    """How many pairs of straight arcs (centre to centre) cross, arcs sharing an end excluded (for tests)."""
    def ccw(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    count = 0
    for i, (a, b) in enumerate(arcs):
        for c, d in arcs[i + 1:]:
            if {a, b} & {c, d}:
                continue
            p, q, r, s = positions[a], positions[b], positions[c], positions[d]
            if ccw(p, q, r) * ccw(p, q, s) < 0 and ccw(r, s, p) * ccw(r, s, q) < 0:
                count += 1
    return count


def arcs_through_nodes(arcs: Sequence[tuple[str, str]], positions: dict[str, tuple[float, float]],
                       sizes: dict[str, Size]) -> int:
    """How many (arc, node) pairs have the straight arc pass through a node other than its ends."""
    count = 0
    for a, b in arcs:
        (x0, y0), (x1, y1) = positions[a], positions[b]
        for v, (cx, cy) in positions.items():
            if v in (a, b):
                continue
            w, h = sizes[v]
            if _segment_hits_rect(x0, y0, x1, y1, cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2):
                count += 1
    return count


def _segment_hits_rect(x0, y0, x1, y1, left, top, right, bottom) -> bool:
    """Liang-Barsky clipping: does the segment enter the rectangle?"""
    t0, t1 = 0.0, 1.0
    dx, dy = x1 - x0, y1 - y0
    for p, q in ((-dx, x0 - left), (dx, right - x0), (-dy, y0 - top), (dy, bottom - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True
