"""A network drawn as the app draws it, in hand-written SVG (no graphviz, no Qt, no matplotlib): the layered
layout (:mod:`bnstudio.display.layout`), bar-chart nodes with each state's posterior marginal from our engine,
evidence highlighted (orange header, border and bar; a soft finding in a lilac header).

Text is measured with a fixed width per character (DejaVu Sans at the app's sizes) to elide long names; the
full name is in each node's tooltip (``<title>``).

>>> from bnstudio.core import network_from_dsl
>>> svg = network_svg(network_from_dsl("A->B", seed=0), evidence={"A": "s1"})
>>> svg.startswith("<svg") and svg.count("<g class='node") == 2 and "100%" in svg
True
"""
from __future__ import annotations

import warnings
from html import escape
from typing import Any, Mapping

import numpy as np

from bnstudio.core.network import Network
from bnstudio.display import look
from bnstudio.display.placement import place_missing, spread_positions

TITLE_CHAR, STATE_CHAR = 7.6, 6.1   # average advance (px) of DejaVu Sans bold 12 px and regular 10 px
ARROW = 9.0
MARGIN = 12.0
#: ``beliefs="auto"`` computes them when the whole network's junction tree holds at most this many table entries
#: (munin's 16.5 million: all 1,041 marginals in about 0.7 s, docs/gui.md), else says why in a warning
BELIEFS_UP_TO_ENTRIES = 20_000_000
FONT = "font-family='DejaVu Sans, Verdana, sans-serif'"


def elide(text: str, width: float, char: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` px at ``char`` px per character."""
    room = int(width // char)
    return text if len(text) <= room else text[:max(room - 1, 1)] + "…"


def positions_for(net: Network) -> dict[str, tuple[float, float]]:
    """Node centres placed as the app places them on opening (``net`` is not changed): a file's positions
    stretched until no two bar-chart nodes overlap, the layered layout where there are none, and a row below
    for variables without one."""
    sizes = {v: look.bar_node_size(net.cardinality(v)) for v in net.variables}
    positions = {v: (float(net.positions[v][0]), float(net.positions[v][1])) for v in net.variables
                 if v in net.positions}
    spread_positions(net, sizes, positions)
    place_missing(net, sizes, positions)
    return positions


class BeliefsNotShown(UserWarning):
    """A network drawn without its beliefs because computing them would take long; the message says why."""


def beliefs_for(net: Network, evidence: Mapping[str, Any] | None,
                up_to: float | None = None) -> dict[str, np.ndarray]:
    """Posterior marginals of every variable given ``evidence`` (one calibration of our engine's junction tree).

    With ``up_to``, a network whose junction tree holds more than ``up_to`` table entries, or that has none
    within the engine's memory budget, gets no beliefs ({}) and a one-line :class:`BeliefsNotShown` warning."""
    from bnstudio.inference import InferenceEngine
    if not net.variables:
        return {}
    engine = InferenceEngine(net)
    if up_to is not None:
        why = _too_costly(engine, up_to)
        if why:
            warnings.warn(f"network {net.name!r} drawn without beliefs: {why}; show(net, beliefs=True) computes "
                          f"them anyway", BeliefsNotShown, stacklevel=3)
            return {}
    return engine.posterior(net.variables, dict(evidence or {}))


def _too_costly(engine: Any, up_to: float) -> str:
    """Why computing every marginal with ``engine`` would take long ("" if it would not)."""
    jt = engine.compiled.jt
    if jt is None:
        return f"no junction tree fits the memory budget ({engine.compiled.too_large})"
    if jt.total_size > up_to:
        return (f"its junction tree holds {jt.total_size:,} table entries, more than the {up_to:,.0f} (about a "
                f"second) computed by default")
    return ""


def network_svg(net: Network, evidence: Mapping[str, Any] | None = None,
                beliefs: Mapping[str, np.ndarray] | None | bool | str = "auto", width: float | None = None) -> str:
    """The SVG of ``net``: bar-chart nodes with ``beliefs`` and ``evidence`` highlighted; ``width`` scales the
    drawing to that many pixels (default: the app's 100 %).

    ``beliefs``: "auto" computes them from ``evidence`` unless the junction tree holds more than
    :data:`BELIEFS_UP_TO_ENTRIES` entries (then a :class:`BeliefsNotShown` warning says why); True computes
    them whatever the cost; False or None draws none; a mapping variable -> marginal draws those."""
    evidence = dict(evidence or {})
    if isinstance(beliefs, str):
        if beliefs != "auto":
            raise ValueError(f"beliefs must be 'auto', True, False or a mapping variable -> marginal, not {beliefs!r}")
        beliefs = beliefs_for(net, evidence, up_to=BELIEFS_UP_TO_ENTRIES)
    elif beliefs is True:
        beliefs = beliefs_for(net, evidence)
    beliefs = dict(beliefs or {})
    pos = positions_for(net)
    sizes = {v: look.bar_node_size(net.cardinality(v)) for v in net.variables}
    if pos:
        left = min(pos[v][0] - sizes[v][0] / 2 for v in pos) - MARGIN
        top = min(pos[v][1] - sizes[v][1] / 2 for v in pos) - MARGIN
        right = max(pos[v][0] + sizes[v][0] / 2 for v in pos) + MARGIN
        bottom = max(pos[v][1] + sizes[v][1] / 2 for v in pos) + MARGIN
    else:
        left, top, right, bottom = 0.0, 0.0, 2 * MARGIN, 2 * MARGIN
    w, h = right - left, bottom - top
    scale = 1.0 if width is None else float(width) / w
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{w * scale:.0f}' height='{h * scale:.0f}' "
             f"viewBox='{left:.1f} {top:.1f} {w:.1f} {h:.1f}' {FONT}>",
             f"<defs><marker id='arrow' viewBox='0 0 10 10' refX='10' refY='5' markerWidth='{ARROW}' "
             f"markerHeight='{ARROW}' markerUnits='userSpaceOnUse' orient='auto'>"
             f"<path d='M0,1 L10,5 L0,9 z' fill='{look.ARC}'/></marker></defs>",
             f"<rect x='{left:.1f}' y='{top:.1f}' width='{w:.1f}' height='{h:.1f}' fill='#FFFFFF'/>"]
    parts += [_arc(pos[p], sizes[p], pos[c], sizes[c]) for p, c in net.arcs()]
    parts += [_node(net, v, pos[v], sizes[v], beliefs.get(v), evidence.get(v)) for v in net.variables]
    parts.append("</svg>")
    return "\n".join(parts)


def _border_point(centre, size, towards) -> tuple[float, float]:
    """Where the segment from the box's ``centre`` to ``towards`` leaves it (as the app's arcs do)."""
    dx, dy = towards[0] - centre[0], towards[1] - centre[1]
    if dx == 0 and dy == 0:
        return centre
    sx = size[0] / 2 / abs(dx) if dx else np.inf
    sy = size[1] / 2 / abs(dy) if dy else np.inf
    s = min(sx, sy, 1.0)
    return centre[0] + dx * s, centre[1] + dy * s


def _arc(a, size_a, b, size_b) -> str:
    x0, y0 = _border_point(a, size_a, b)
    x1, y1 = _border_point(b, size_b, a)
    return (f"<line x1='{x0:.1f}' y1='{y0:.1f}' x2='{x1:.1f}' y2='{y1:.1f}' stroke='{look.ARC}' "
            f"stroke-width='1.3' marker-end='url(#arrow)'/>")


def _node(net: Network, var: str, centre, size, belief, finding) -> str:
    x, y = centre[0] - size[0] / 2, centre[1] - size[1] / 2
    w, h = size
    hard = isinstance(finding, str)
    header = (look.EVIDENCE_HEADER if hard else look.SOFT_EVIDENCE_HEADER if finding is not None
              else look.HEADER_FILL)
    border, stroke = (look.EVIDENCE_BORDER, 2.4) if finding is not None else (look.NODE_BORDER, 1.1)
    c, hh = look.CORNER, look.HEADER_HEIGHT
    out = [f"<g class='node{' evidence' if finding is not None else ''}'><title>{escape(var)}</title>",
           f"<rect x='{x:.1f}' y='{y:.1f}' width='{w:.1f}' height='{h:.1f}' rx='{c}' fill='{look.NODE_FILL}'/>",
           f"<path d='M{x:.1f},{y + hh:.1f} V{y + c:.1f} Q{x:.1f},{y:.1f} {x + c:.1f},{y:.1f} H{x + w - c:.1f} "
           f"Q{x + w:.1f},{y:.1f} {x + w:.1f},{y + c:.1f} V{y + hh:.1f} Z' fill='{header}'/>",
           f"<text x='{x + look.PADDING:.1f}' y='{y + hh / 2 + 4.3:.1f}' font-size='12' font-weight='bold' "
           f"fill='{look.TEXT}'>{escape(elide(var, w - 2 * look.PADDING, TITLE_CHAR))}</text>"]
    out += _rows(net.states(var), x, y, w, belief, finding if hard else None)
    out.append(f"<rect x='{x:.1f}' y='{y:.1f}' width='{w:.1f}' height='{h:.1f}' rx='{c}' fill='none' "
               f"stroke='{border}' stroke-width='{stroke}'/></g>")
    return "".join(out)


def _rows(states, x, y, w, belief, observed) -> list[str]:
    left, right = x + look.PADDING, x + w - look.PADDING
    bar_left, bar_right = left + look.NAME_COLUMN + 4, right - look.NUMBER_COLUMN - 4
    out = []
    for i, state in enumerate(states):
        top = y + look.HEADER_HEIGHT + i * look.ROW_HEIGHT + 2
        base = top + look.ROW_HEIGHT / 2 + 3.5
        p = None if belief is None else float(belief[i])
        out.append(f"<text x='{left:.1f}' y='{base:.1f}' font-size='10' fill='{look.TEXT}'>"
                   f"{escape(elide(state, look.NAME_COLUMN, STATE_CHAR))}</text>"
                   f"<rect x='{bar_left:.1f}' y='{top + 3:.1f}' width='{bar_right - bar_left:.1f}' "
                   f"height='{look.ROW_HEIGHT - 6:.1f}' fill='{look.BAR_TRACK}'/>")
        if p is not None and p > 0:
            colour = look.EVIDENCE_BAR if state == observed else look.BAR
            out.append(f"<rect x='{bar_left:.1f}' y='{top + 3:.1f}' "
                       f"width='{max(1.0, (bar_right - bar_left) * min(p, 1.0)):.1f}' "
                       f"height='{look.ROW_HEIGHT - 6:.1f}' fill='{colour}'/>")
        number = "—" if p is None else look.format_probability(p)
        out.append(f"<text x='{right:.1f}' y='{base:.1f}' font-size='10' text-anchor='end' "
                   f"fill='{look.TEXT if p is not None else look.MUTED_TEXT}'>{escape(number)}</text>")
    return out
