"""The Beta density near 0 and 1: a finite density is shown whole, its peak included (seen on child with ESS 10:
Beta(1, 9), whose peak 9 at 0 was cut at 7.7), and the end of the curve is what the last pixel holds (seen on
munin, p = 0.895: a Beta with b just above 1 hooked straight down at 1)."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.io import read_network

from .conftest import NETWORKS


@pytest.fixture
def child_panel(make_panel):
    panel = make_panel(read_network(NETWORKS / "child.bif"))
    panel.show()
    return panel


def y_top(panel) -> float:
    return panel.density.plot.getPlotItem().getViewBox().viewRange()[1][1]


def test_a_finite_beta_peak_at_an_end_is_not_cut(child_panel):
    panel = child_panel
    panel.set_target({"BirthAsphyxia": "yes"})
    panel.set_ess(10.0)           # a root: Beta(ESS·0.1, ESS·0.9) = Beta(1, 9), density 9 at 0
    a, b = panel.answer.bars.intervals.beta_params
    assert (a, b) == pytest.approx((1.0, 9.0))
    assert y_top(panel) >= 0.99 * 9.0


def test_a_beta_with_b_just_above_one_ends_without_a_hook(child_panel):
    panel = child_panel
    panel.set_target({"BirthAsphyxia": "no"})
    panel.set_ess(10.5)           # Beta(9.45, 1.05): (1 − x)^0.05 falls to 0 only at 1 itself
    curve = panel.density.curves["beta"]
    x, y = np.asarray(curve.xData), np.asarray(curve.yData)
    assert y[-1] > 0.8 * y[-2]               # the last segment follows the density, no drop to a fraction
    assert 1 - x[-1] < 1e-3 and x[-1] < 1    # close to 1, within the plot's last pixel


def test_a_beta_pole_is_still_cut_so_the_rest_stays_readable(child_panel):
    panel = child_panel
    panel.set_target({"BirthAsphyxia": "no"})
    panel.set_ess(5.0)            # Beta(4.5, 0.5): infinite at 1
    assert y_top(panel) < 10
