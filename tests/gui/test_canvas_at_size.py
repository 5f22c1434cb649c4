"""The app at size (issues 26 and 29): a 1,000-attribute naive Bayes and munin open fitted, with no scroll bar
while the network fits; a hub's arcs as drawn never pass through another node; the arcs placed in one pass
equal the ones each arc computes alone; a view zoomed in scrolls again."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication

from bnstudio.core.network import Network
from bnstudio.display.layout import _segment_hits_rect
from bnstudio.gui.canvas.arc_geometry import place_arcs
from bnstudio.gui.canvas.node_item import NodeItem


def naive_bayes(n: int) -> Network:
    rng = np.random.default_rng(0)
    net = Network(f"nb{n}")
    net.add_variable("C", ["c0", "c1"], cpt=[0.5, 0.5])
    for k in range(n):
        p = rng.uniform(0.2, 0.8, (2, 1))
        net.add_variable(f"X{k}", ["0", "1"], ["C"], np.hstack([p, 1 - p]))
    return net


def _drawn_polyline(arc) -> list[tuple[float, float]]:
    """The arc's points as drawn: its chord's start, its bends, its tip (scene coordinates)."""
    return [(arc.line.p1().x(), arc.line.p1().y()), *[(b.x(), b.y()) for b in arc.bends],
            (arc.line.p2().x(), arc.line.p2().y())]


def _shown(view):
    return view.mapToScene(view.viewport().rect()).boundingRect()


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_a_wide_naive_bayes_opens_fitted_without_scroll_bars_and_arcs_clear_of_nodes(window, size):
    window.resize(*size)
    window.document.replace_network(naive_bayes(400))
    window.view.fit_to_view()        # (opening shows its top at a readable zoom: tests/gui/test_first_sight.py)
    QApplication.processEvents()
    view, scene = window.view, window.scene
    assert not view.horizontalScrollBar().isVisible() and not view.verticalScrollBar().isVisible()
    shown = _shown(view)
    for name, item in scene.nodes.items():                       # every node within the fitted view
        assert shown.contains(item.sceneBoundingRect()), name
    boxes = {name: item.sceneBoundingRect().adjusted(2.5, 2.5, -2.5, -2.5) for name, item in scene.nodes.items()}
    routed = 0
    for (parent, child), arc in scene.arcs.items():
        points = _drawn_polyline(arc)
        routed += bool(arc.bends)
        for a, b in zip(points, points[1:], strict=False):
            for name, r in boxes.items():
                if name not in (parent, child):
                    assert not _segment_hits_rect(*a, *b, r.left(), r.top(), r.right(), r.bottom()), \
                        (parent, child, name)
    assert routed > 200
    view.set_zoom(1.0)                                            # zoomed in: the view scrolls again
    QApplication.processEvents()
    assert view.horizontalScrollBar().isVisible() and view.verticalScrollBar().isVisible()
    view.fit_to_view()
    QApplication.processEvents()
    assert not view.horizontalScrollBar().isVisible() and not view.verticalScrollBar().isVisible()


def test_arcs_placed_in_one_pass_equal_each_arc_placed_alone(alarm_window):
    """Straight arcs placed together equal each placed alone; the arcs bent around a node (ALARM has no hub)
    are exactly those whose straight line would enter a node other than their ends."""
    scene = alarm_window.scene
    place_arcs(scene.nodes, scene.arcs)
    together = {key: (arc.line, list(arc.bends)) for key, arc in scene.arcs.items()}
    boxes = {name: item.sceneBoundingRect().adjusted(2.5, 2.5, -2.5, -2.5) for name, item in scene.nodes.items()}
    bent = 0
    for key, arc in scene.arcs.items():
        arc.adjust()
        line = arc.line                                           # straight, border to border
        through = any(_segment_hits_rect(line.p1().x(), line.p1().y(), line.p2().x(), line.p2().y(), r.left(),
                                         r.top(), r.right(), r.bottom()) for name, r in boxes.items()
                      if name not in key)
        if together[key][1]:
            bent += 1
            assert through, key
            continue
        line = together[key][0]
        assert abs(line.p1().x() - arc.line.p1().x()) < 1e-6 and abs(line.p1().y() - arc.line.p1().y()) < 1e-6
        assert abs(line.p2().x() - arc.line.p2().x()) < 1e-6 and abs(line.p2().y() - arc.line.p2().y()) < 1e-6
    assert 0 < bent <= 4


def test_a_dragged_attribute_takes_a_straight_arc_then_its_route_again(window):
    window.resize(1366, 768)
    window.document.replace_network(naive_bayes(100))
    scene = window.scene
    far = max(scene.arcs, key=lambda key: scene.nodes[key[1]].y())
    assert scene.arcs[far].bends
    item: NodeItem = scene.nodes[far[1]]
    start = item.pos()
    item.setPos(start + QPointF(3, 0))                            # a drag: the arc follows, straight
    assert not scene.arcs[far].bends and scene.arcs[far].line.p2().x() > start.x() - 200
    item.setPos(start)
    scene.commit_moves()                                          # released where it was: nothing to commit
    scene._on_positions_changed([far[1]])                         # what a committed move triggers
    assert scene.arcs[far].bends
