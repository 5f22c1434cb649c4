"""The notebook's ROC and reliability SVG (bnstudio/display/validation.py): one line per run, a point per filled
bin, labels escaped, and the numbers placed where the series says."""
from __future__ import annotations

import re

import numpy as np

from bnstudio.display.validation import LEFT, SIZE, TOP, reliability_svg, roc_svg
from bnstudio.evaluate.curves import validation


def series():
    rng = np.random.default_rng(0)
    post = rng.dirichlet(np.ones(3), size=200)
    y = rng.integers(0, 3, 200)
    return validation(post, y, ["a", "b", "c"])


def test_one_polyline_per_run_and_labels_escaped():
    shown = series()
    svg = roc_svg([shown.roc_series("<script>x</script>", "b"), shown.roc_series("two", "c")], "ROC & more")
    assert svg.count("<polyline") == 2 and "<script>" not in svg and "&lt;script&gt;" in svg
    assert "ROC &amp; more" in svg


def test_a_point_per_filled_bin_at_its_confidence_and_accuracy():
    item = series().reliability_series("run")
    svg = reliability_svg([item], "Reliability")
    circles = re.findall(r"<circle cx='([\d.]+)' cy='([\d.]+)'", svg)
    filled = [(c, a) for c, a in zip(item["confidence"], item["accuracy"], strict=True) if c is not None]
    assert len(circles) == len(filled) == int(np.count_nonzero(np.asarray(item["weight"]) > 0))
    for (cx, cy), (c, a) in zip(circles, filled, strict=True):
        assert float(cx) == round(LEFT + c * SIZE, 1) and float(cy) == round(TOP + (1 - a) * SIZE, 1)
