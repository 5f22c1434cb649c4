"""The learning-curve view's colours (bnstudio/gui/training_panel/learning_view.py, docs/gui.md "Seeing the
difference"): the panel colours runs, not methods, so each curve label has a stable colour of its own: a method's
name its registry place's, in every computation and every view; another label (a method with options) a colour no
label has, kept. Two labels never share one."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from bnstudio.evaluate.learning_curve import LearningCurves, MethodCurve
from bnstudio.gui.training_panel.learning_view import LabelColours, LearningCurveView
from bnstudio.gui.training_panel.plotkit import PALETTE
from bnstudio.learn.registry import METHODS


def _curves(*labels: str) -> LearningCurves:
    """Made-up curves over three sizes, one per label (its method the label's first word)."""
    scores = {"error_rate": np.full((2, 3), 0.2), "cll": np.full((2, 3), -0.5)}
    return LearningCurves("either", [10, 50, 200], 2, 200, 100, 0,
                          [MethodCurve(label, label.split()[0], {}, scores) for label in labels])


def _view(qtbot) -> LearningCurveView:
    view = LearningCurveView(lambda: "no data")
    qtbot.addWidget(view)
    return view


def _drawn(view: LearningCurveView) -> dict[str, str]:
    """label -> the colour of its drawn error line, checked against the legend's."""
    error = view.plots["error_rate"]
    lines = [item for plot, item in view.items if plot is error and isinstance(item, pg.PlotDataItem)]
    drawn = {curve.label: pg.mkColor(line.opts["pen"].color()).name() for curve, line in
             zip(view.result.curves, lines, strict=True)}
    assert drawn == {label: pg.mkColor(c).name() for label, c in view.legend.entries.values()}
    return drawn


def test_a_method_has_its_registry_colour_in_every_computation_and_view(qtbot):
    mp, clgd, ml = (PALETTE[METHODS.index(m)] for m in ("mp", "clgd", "ml"))
    view = _view(qtbot)
    view.show_result(_curves("mp", "clgd"))
    assert _drawn(view) == {"mp": mp, "clgd": clgd}
    view.show_result(_curves("clgd", "ml", "mp"))                 # another list, another order
    assert _drawn(view) == {"clgd": clgd, "ml": ml, "mp": mp}
    other = _view(qtbot)                                          # another view (another session)
    other.show_result(_curves("clgd"))
    assert _drawn(other) == {"clgd": clgd}


def test_a_label_with_options_gets_a_colour_no_label_has_and_keeps_it(qtbot):
    view = _view(qtbot)
    view.show_result(_curves("clgd", "clgd (l2=0.1)", "clgd (l2=1.0)"))
    first = _drawn(view)
    assert len(set(first.values())) == 3                           # one method, three labels, three colours
    assert not {first["clgd (l2=0.1)"], first["clgd (l2=1.0)"]} & {PALETTE[k] for k in range(len(METHODS))}
    view.clear()
    view.show_result(_curves("clgd (l2=1.0)", "mp"))
    assert _drawn(view)["clgd (l2=1.0)"] == first["clgd (l2=1.0)"]


def test_the_palette_is_reused_in_order_only_once_every_colour_is_given():
    colours = LabelColours()
    spare = len(PALETTE) - len(METHODS)
    given = [colours.colour(f"x{k}") for k in range(spare + 2)]
    assert given[:spare] == list(PALETTE[len(METHODS):])
    assert given[spare:] == list(PALETTE[:2])
    assert colours.colour("x1") == given[1] and colours.colour(METHODS[3]) == PALETTE[3]
