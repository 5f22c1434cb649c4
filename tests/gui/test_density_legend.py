"""The density plot's legend never hides the densities (seen in the analyst's first-hour screenshot at 1366x768:
p(lung=yes | xray, smoke) has its mass on the right, and the top-right legend covered the peak): it sits in
the top corner away from the mass, and no drawn point of a curve falls inside it."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication

from tests.gui.conftest import ASIA


def points_under_legend(density) -> list[tuple[str, float, float]]:
    """The (curve, x, y) points of the drawn densities that lie inside the legend's box."""
    view = density.plot.getPlotItem().vb
    box = density.legend.sceneBoundingRect()
    under = []
    for key in ("normal", "beta", "mc"):
        curve = density.curves[key]
        if curve.yData is None:
            continue
        for x, y in zip(curve.xData[:len(curve.yData)], curve.yData, strict=True):
            if box.contains(view.mapViewToScene(QPointF(float(x), float(y)))):
                under.append((key, float(x), float(y)))
    return under


@pytest.mark.parametrize("target, evidence", [
    ({"lung": "yes"}, {"xray": "yes", "smoke": "yes"}),      # mass on the right of the range
    ({"lung": "no"}, {"xray": "yes", "smoke": "yes"}),       # its mirror: mass on the left
])
def test_the_legend_sits_away_from_the_densities(qtbot, window, target, evidence):
    window.resize(1366, 768)
    assert window.open_path(ASIA)
    query = window.query_panel
    window.show_dock("query")
    query.set_target(target)
    for name, state in evidence.items():
        window.document.set_evidence(name, state)
    query.set_ess(50.0)
    qtbot.waitUntil(lambda: query.density.bars is not None, timeout=10000)
    with qtbot.waitSignal(query.monte_carlo_done, timeout=60000):
        query.run_monte_carlo(draws=1000, seed=1)
    for _ in range(3):
        QApplication.processEvents()
    density = query.density
    mean_right = density.bars.mean > sum(density.plot.getPlotItem().vb.viewRange()[0]) / 2
    view_box = density.plot.getPlotItem().vb.sceneBoundingRect()
    legend = density.legend.sceneBoundingRect()
    assert points_under_legend(density) == []
    assert (legend.center().x() < view_box.center().x()) == mean_right
