"""Small labelled graphs as hand-written SVG for notebooks: boxes with a name, laid out by the app's layered
layout (:mod:`bnstudio.display.layout`), joined by lines that may carry an arrow, a colour, a dash and a label.
What :mod:`bnstudio.display.structure_diff` and :mod:`bnstudio.display.junction_tree` draw.

>>> svg = box_graph_svg({"a": "A", "b": "B"}, [Edge("a", "b", arrow=True, label="x")])
>>> svg.startswith("<svg") and svg.count("<rect") == 3 and ">x</text>" in svg
True
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Mapping, Sequence

import numpy as np

from bnstudio.display import look
from bnstudio.display.layout import layered_layout
from bnstudio.display.routes import border_points

CHAR, PAD, HEIGHT, MARGIN = 7.0, 10.0, 24.0, 14.0   # text advance (px) at 12 px, box padding and height
FONT = "font-family='DejaVu Sans, Verdana, sans-serif' font-size='12'"


@dataclass(frozen=True)
class Edge:
    """A line from ``a`` to ``b`` (an arrow at ``b`` when ``arrow``), in ``colour``, dashed when ``dash``."""

    a: str
    b: str
    arrow: bool = False
    colour: str = look.ARC
    dash: bool = False
    label: str = ""
    width: float = 1.3


def box_size(text: str) -> tuple[float, float]:
    return len(text) * CHAR + 2 * PAD, HEIGHT


def box_graph_svg(labels: Mapping[str, str], edges: Sequence[Edge], fills: Mapping[str, str] | None = None,
                  legend: Sequence[tuple[str, str, bool]] = (),
                  layout_arcs: Sequence[tuple[str, str]] | None = None) -> str:
    """The graph with a box per ``labels`` key (its text the value, its fill from ``fills``), the edges, and a
    ``legend`` of (colour, text, dashed) lines below; placed by the layered layout of ``layout_arcs`` (an acyclic
    set; default the edges)."""
    fills = dict(fills or {})
    sizes = {n: box_size(t) for n, t in labels.items()}
    arcs = [(e.a, e.b) for e in edges] if layout_arcs is None else list(layout_arcs)
    pos = layered_layout(list(labels), arcs, sizes, h_gap=24.0, v_gap=40.0)
    left = min((pos[n][0] - sizes[n][0] / 2 for n in labels), default=0.0) - MARGIN
    top = min((pos[n][1] - sizes[n][1] / 2 for n in labels), default=0.0) - MARGIN
    right = max((pos[n][0] + sizes[n][0] / 2 for n in labels), default=0.0) + MARGIN
    bottom = max((pos[n][1] + sizes[n][1] / 2 for n in labels), default=0.0) + MARGIN
    right = max(right, left + 260.0)
    height = bottom - top + 16 * len(legend)
    colours = sorted({e.colour for e in edges if e.arrow})
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{right - left:.0f}' height='{height:.0f}' "
             f"viewBox='{left:.1f} {top:.1f} {right - left:.1f} {height:.1f}' {FONT}><defs>"]
    parts += [f"<marker id='head{k}' viewBox='0 0 10 10' refX='10' refY='5' markerWidth='8' markerHeight='8' "
              f"markerUnits='userSpaceOnUse' orient='auto'><path d='M0,1 L10,5 L0,9 z' fill='{c}'/></marker>"
              for k, c in enumerate(colours)]
    parts.append(f"</defs><rect x='{left:.1f}' y='{top:.1f}' width='{right - left:.1f}' height='{height:.1f}' "
                 f"fill='#FFFFFF'/>")
    a_centres, b_centres = (np.array([pos[n] for n in ends], dtype=float).reshape(-1, 2)
                            for ends in ([e.a for e in edges], [e.b for e in edges]))
    a_halves, b_halves = (np.array([sizes[n] for n in ends], dtype=float).reshape(-1, 2) / 2
                          for ends in ([e.a for e in edges], [e.b for e in edges]))
    starts = border_points(a_centres, a_halves, b_centres)   # where each line leaves its boxes
    stops = border_points(b_centres, b_halves, a_centres)
    for e, (x0, y0), (x1, y1) in zip(edges, starts, stops, strict=True):
        head = f" marker-end='url(#head{colours.index(e.colour)})'" if e.arrow else ""
        dash = " stroke-dasharray='5 3'" if e.dash else ""
        parts.append(f"<line x1='{x0:.1f}' y1='{y0:.1f}' x2='{x1:.1f}' y2='{y1:.1f}' stroke='{e.colour}' "
                     f"stroke-width='{e.width}'{dash}{head}/>")
        if e.label:
            parts.append(f"<text x='{(x0 + x1) / 2 + 4:.1f}' y='{(y0 + y1) / 2 + 4:.1f}' font-size='10' "
                         f"fill='{look.MUTED_TEXT}'>{escape(e.label)}</text>")
    for n, text in labels.items():
        (x, y), (w, h) = pos[n], sizes[n]
        parts.append(f"<g><title>{escape(text)}</title><rect x='{x - w / 2:.1f}' y='{y - h / 2:.1f}' "
                     f"width='{w:.1f}' height='{h:.1f}' rx='5' fill='{fills.get(n, look.HEADER_FILL)}' "
                     f"stroke='{look.NODE_BORDER}'/><text x='{x:.1f}' y='{y + 4:.1f}' text-anchor='middle' "
                     f"fill='{look.TEXT}'>{escape(text)}</text></g>")
    for k, (colour, text, dashed) in enumerate(legend):
        y = bottom + 8 + 16 * k
        dash = " stroke-dasharray='5 3'" if dashed else ""
        parts.append(f"<line x1='{left + MARGIN:.1f}' y1='{y:.1f}' x2='{left + MARGIN + 22:.1f}' y2='{y:.1f}' "
                     f"stroke='{colour}' stroke-width='2'{dash}/><text x='{left + MARGIN + 28:.1f}' "
                     f"y='{y + 4:.1f}' font-size='11' fill='{look.TEXT}'>{escape(text)}</text>")
    parts.append("</svg>")
    return "".join(parts)
