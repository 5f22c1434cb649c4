"""The tornado chart as SVG (notebooks; ``Tornado._repr_html_``): one horizontal bar per parameter, from q at
the low end of its range to q at the high end, around the query's value q0 (a vertical line); the low end's half
in blue, the high end's in orange, the largest swing on top. No plotting library.

>>> from bnstudio.uncertainty.tornado import Tornado, TornadoBar
>>> t = Tornado({"A": "y"}, {}, 0.4, "±10%", [TornadoBar("A", {}, "y", 0.4, 0.36, 0.44, 0.36, 0.44, 1.0)])
>>> svg = tornado_svg(t)
>>> svg.startswith("<svg") and svg.count("<rect") == 2
True
"""
from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from bnstudio.display import look

if TYPE_CHECKING:
    from bnstudio.uncertainty.tornado import Tornado

LABEL_WIDTH = 230.0
PLOT_WIDTH = 300.0
ROW = 18.0


def bar_label(variable: str, state: str, parents: dict[str, str]) -> str:
    """``θ(B=y | A=n)``: the parameter a bar varies."""
    given = ", ".join(f"{p}={s}" for p, s in parents.items())
    return f"θ({variable}={state}{' | ' + given if given else ''})"


def tornado_svg(result: Tornado) -> str:
    """The chart (module docstring); the axis spans every bar's ends and q0, padded by 5 %."""
    values = [result.q0] + [q for b in result.bars for q in (b.q_low, b.q_high)]
    lo, hi = min(values), max(values)
    pad = max(hi - lo, 1e-9) * 0.05
    lo, hi = lo - pad, hi + pad
    height = ROW * len(result.bars) + 34

    def x(v: float) -> float:
        return LABEL_WIDTH + PLOT_WIDTH * (v - lo) / (hi - lo)

    parts = [f"<svg width='{LABEL_WIDTH + PLOT_WIDTH + 10:.0f}' height='{height:.0f}' "
             f"style='font-size:11px;font-family:DejaVu Sans,Verdana,sans-serif'>"]
    for k, b in enumerate(result.bars):
        y = 6 + ROW * k
        parts.append(f"<text x='{LABEL_WIDTH - 6:.0f}' y='{y + 11:.1f}' text-anchor='end' fill='{look.TEXT}'>"
                     f"{escape(bar_label(b.variable, b.state, b.parents))}</text>")
        for q, colour in ((b.q_low, look.BAR), (b.q_high, look.EVIDENCE_BAR)):
            left, right = sorted((x(result.q0), x(q)))
            parts.append(f"<rect x='{left:.1f}' y='{y + 2:.1f}' width='{max(right - left, 0.5):.1f}' "
                         f"height='{ROW - 5:.0f}' fill='{colour}'/>")
    axis = 8 + ROW * len(result.bars)
    parts.append(f"<line x1='{x(result.q0):.1f}' y1='2' x2='{x(result.q0):.1f}' y2='{axis:.0f}' "
                 f"stroke='{look.TEXT}' stroke-width='1.2'/>")
    parts.append(f"<line x1='{LABEL_WIDTH:.0f}' y1='{axis:.0f}' x2='{LABEL_WIDTH + PLOT_WIDTH:.0f}' y2='{axis:.0f}' "
                 f"stroke='{look.NODE_BORDER}'/>")
    for v in (lo + pad, result.q0, hi - pad):
        parts.append(f"<text x='{x(v):.1f}' y='{axis + 13:.0f}' text-anchor='middle' fill='{look.MUTED_TEXT}'>"
                     f"{v:.4g}</text>")
    parts.append(f"<text x='{LABEL_WIDTH - 6:.0f}' y='{axis + 13:.0f}' text-anchor='end' fill='{look.MUTED_TEXT}'>"
                 f"low end / high end of θ ({escape(result.range)})</text>")
    parts.append("</svg>")
    return "".join(parts)


def tornado_html(result: Tornado) -> str:
    """The chart under its title p(q | e) = q0."""
    query = ", ".join(f"{k} = {v}" for k, v in result.query.items())
    given = ", ".join(f"{k} = {v}" for k, v in result.evidence.items())
    title = f"p({escape(query)}{' | ' + escape(given) if given else ''}) = {result.q0:.4g}"
    return (f"<div style='font-family:DejaVu Sans,Verdana,sans-serif;font-size:12px;color:{look.TEXT}'>"
            f"<b>{title}</b>: what moves it most<br>{tornado_svg(result)}</div>")
