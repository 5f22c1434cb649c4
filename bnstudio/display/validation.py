"""ROC curves and reliability diagrams as hand-written SVG for notebooks (no plotting library; the report's
files are drawn by bnstudio/figures/validation.py, the app's by pyqtgraph). Series are the plain dicts of
:meth:`~bnstudio.evaluate.curves.Validation.roc_series` and ``reliability_series``.

>>> svg = roc_svg([{"label": "mp", "fpr": [0, 0.5, 1], "tpr": [0, 0.9, 1], "auc": 0.7}], "ROC")
>>> svg.startswith("<svg") and "mp (AUC 0.700)" in svg
True
"""
from __future__ import annotations

import math
from html import escape
from typing import Sequence

from bnstudio.display import look

#: line colours of the runs, in order (a colour-blind-safe qualitative set)
COLOURS = ("#3F7CC8", "#E07020", "#2E9D5B", "#B8488C", "#7A5CC4", "#8C6D3F")
SIZE, LEFT, TOP = 240.0, 38.0, 22.0     # the square plot's side, and the room for the axis labels and the title
FONT = "font-family:DejaVu Sans,Verdana,sans-serif;font-size:10px"


def _frame(title: str, height: float, x_label: str, y_label: str) -> list[str]:
    """The title, the plot's square with grid lines at 0, 0.2, ..., 1 and their labels, the axis names."""
    parts = [f"<text x='{LEFT + SIZE / 2:.0f}' y='14' text-anchor='middle' fill='{look.TEXT}' "
             f"style='font-size:11px'>{escape(title)}</text>",
             f"<rect x='{LEFT}' y='{TOP}' width='{SIZE}' height='{height}' fill='{look.NODE_FILL}' "
             f"stroke='{look.NODE_BORDER}'/>"]
    for k in range(6):
        v = k / 5
        x, y = LEFT + v * SIZE, TOP + (1 - v) * height
        parts += [f"<line x1='{x:.1f}' y1='{TOP}' x2='{x:.1f}' y2='{TOP + height}' stroke='{look.BAR_TRACK}'/>",
                  f"<line x1='{LEFT}' y1='{y:.1f}' x2='{LEFT + SIZE}' y2='{y:.1f}' stroke='{look.BAR_TRACK}'/>",
                  f"<text x='{LEFT - 3}' y='{y + 3:.1f}' text-anchor='end' fill='{look.MUTED_TEXT}'>{v:.1f}</text>",
                  f"<text x='{x:.1f}' y='{TOP + height + 11:.0f}' text-anchor='middle' "
                  f"fill='{look.MUTED_TEXT}'>{v:.1f}</text>"]
    parts += [f"<text x='{LEFT + SIZE / 2:.0f}' y='{TOP + height + 24:.0f}' text-anchor='middle' "
              f"fill='{look.MUTED_TEXT}'>{escape(x_label)}</text>",
              f"<text x='10' y='{TOP + height / 2:.0f}' text-anchor='middle' fill='{look.MUTED_TEXT}' "
              f"transform='rotate(-90 10 {TOP + height / 2:.0f})'>{escape(y_label)}</text>",
              f"<line x1='{LEFT}' y1='{TOP + height}' x2='{LEFT + SIZE}' y2='{TOP}' stroke='{look.MUTED_TEXT}' "
              f"stroke-dasharray='4 3'/>"]
    return parts


def _legend(labels: Sequence[str], top: float) -> list[str]:
    """One line per series below the plot, in its colour."""
    return [f"<line x1='{LEFT}' y1='{top + 14 * k - 3}' x2='{LEFT + 16}' y2='{top + 14 * k - 3}' "
            f"stroke='{COLOURS[k % len(COLOURS)]}' stroke-width='2'/><text x='{LEFT + 22}' y='{top + 14 * k}' "
            f"fill='{look.TEXT}'>{escape(label)}</text>" for k, label in enumerate(labels)]


def _svg(parts: list[str], height: float) -> str:
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{LEFT + SIZE + 12:.0f}' height='{height:.0f}' "
            f"style='{FONT}'>{''.join(parts)}</svg>")


def _polyline(xs: Sequence[float], ys: Sequence[float], height: float, colour: str) -> str:
    points = " ".join(f"{LEFT + x * SIZE:.1f},{TOP + (1 - y) * height:.1f}" for x, y in zip(xs, ys, strict=True))
    return f"<polyline points='{points}' fill='none' stroke='{colour}' stroke-width='1.6'/>"


def roc_svg(series: Sequence[dict], title: str) -> str:
    """True against false positive rate, a line per series, its AUC in the legend."""
    parts = _frame(title, SIZE, "false positive rate", "true positive rate")
    for k, item in enumerate(series):
        parts.append(_polyline(item["fpr"], item["tpr"], SIZE, COLOURS[k % len(COLOURS)]))
    legend_top = TOP + SIZE + 42
    parts += _legend([f"{item['label']} (AUC {item['auc']:.3f})" for item in series], legend_top)
    return _svg(parts, legend_top + 14 * len(series))


def reliability_svg(series: Sequence[dict], title: str) -> str:
    """Fraction predicted right against mean confidence per bin (the diagonal is perfect calibration), and
    below it the cases per bin on a logarithmic scale."""
    parts = _frame(title, SIZE, "predicted state's probability", "fraction predicted right")
    strip_top, strip = TOP + SIZE + 32, 40.0
    most = max((w for item in series for w in item["weight"]), default=1.0)
    parts.append(f"<rect x='{LEFT}' y='{strip_top}' width='{SIZE}' height='{strip}' fill='{look.NODE_FILL}' "
                 f"stroke='{look.NODE_BORDER}'/><text x='{LEFT - 3}' y='{strip_top + 8}' text-anchor='end' "
                 f"fill='{look.MUTED_TEXT}'>{most:g}</text><text x='{LEFT - 3}' y='{strip_top + strip}' "
                 f"text-anchor='end' fill='{look.MUTED_TEXT}'>cases</text>")
    for k, item in enumerate(series):
        colour = COLOURS[k % len(COLOURS)]
        filled = [(c, a) for c, a in zip(item["confidence"], item["accuracy"], strict=True)
                  if c is not None and a is not None]
        parts.append(_polyline([c for c, _ in filled], [a for _, a in filled], SIZE, colour))
        parts += [f"<circle cx='{LEFT + c * SIZE:.1f}' cy='{TOP + (1 - a) * SIZE:.1f}' r='2.5' fill='{colour}'/>"
                  for c, a in filled]
        edges, weight = item["edges"], item["weight"]
        for b, w in enumerate(weight):   # log scale: one case is a sliver, the largest bin the strip's height
            if w > 0:
                h = strip * math.log1p(w) / math.log1p(most)
                x0, x1 = LEFT + edges[b] * SIZE, LEFT + edges[b + 1] * SIZE
                parts.append(f"<line x1='{x0:.1f}' y1='{strip_top + strip - h:.1f}' x2='{x1:.1f}' "
                             f"y2='{strip_top + strip - h:.1f}' stroke='{colour}' stroke-width='1.6'/>")
    legend_top = strip_top + strip + 16
    parts += _legend([f"{item['label']} (ECE {item['ece']:.3f})" for item in series], legend_top)
    return _svg(parts, legend_top + 14 * len(series))
