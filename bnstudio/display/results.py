"""Compact HTML (with hand-written SVG) for results in notebooks: posterior marginals, error bars of p(q | e)
and parameter-learning runs (convergence curve and scores). No plotting library.

>>> html = curve_svg([3.0, 2.0, 1.5, 1.4])
>>> html.startswith("<svg") and "polyline" in html
True
"""
from __future__ import annotations

import math
from html import escape
from typing import Any, Mapping, Sequence

import numpy as np

from bnstudio.display import look

TABLE = ("style='border-collapse:collapse;font-family:DejaVu Sans,Verdana,sans-serif;font-size:12px;"
         f"color:{look.TEXT}'")
CELL = "style='padding:1px 8px;text-align:left'"
NUMBER = "style='padding:1px 8px;text-align:right;font-variant-numeric:tabular-nums'"


def bar_svg(p: float, colour: str = look.BAR, width: float = 120.0, height: float = 9.0) -> str:
    """A probability bar over its track (as in the app's nodes)."""
    filled = max(1.0, width * min(max(p, 0.0), 1.0)) if p > 0 else 0.0
    return (f"<svg width='{width:.0f}' height='{height:.0f}' style='vertical-align:middle'>"
            f"<rect width='{width:.0f}' height='{height:.0f}' fill='{look.BAR_TRACK}'/>"
            f"<rect width='{filled:.1f}' height='{height:.0f}' fill='{colour}'/></svg>")


def posterior_html(states: Mapping[str, Sequence[str]], posteriors: Mapping[str, np.ndarray],
                   evidence: Mapping[str, Any] | None = None) -> str:
    """One block per variable: each state with its bar and probability; observed states in orange."""
    evidence = dict(evidence or {})
    rows = []
    for var, p in posteriors.items():
        rows.append(f"<tr><th colspan='3' style='text-align:left;padding:6px 8px 1px;background:"
                    f"{look.EVIDENCE_HEADER if var in evidence else look.HEADER_FILL}'>{escape(var)}</th></tr>")
        for state, value in zip(states[var], np.asarray(p, dtype=float), strict=True):
            colour = look.EVIDENCE_BAR if evidence.get(var) == state else look.BAR
            rows.append(f"<tr><td {CELL}>{escape(str(state))}</td><td>{bar_svg(value, colour)}</td>"
                        f"<td {NUMBER}>{escape(look.format_probability(value))}</td></tr>")
    return f"<table {TABLE}>{''.join(rows)}</table>"


def labelled_posterior_html(answer) -> str:
    """A :class:`~bnstudio.inference.answers.Posterior`: its variable's block of :func:`posterior_html`, the
    evidence written under it."""
    given = ", ".join(f"{k} = {v}" for k, v in answer.evidence.items() if isinstance(v, (str, int)))
    note = f"<div style='color:{look.MUTED_TEXT};font-size:11px'>given {escape(given)}</div>" if given else ""
    return posterior_html({answer.variable: answer.states}, {answer.variable: answer.values},
                          answer.evidence) + note


def _fmt(x: float | None, digits: int = 4) -> str:
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}g}"


def interval_svg(mean: float, normal: tuple[float, float], beta: tuple[float, float] | None,
                 width: float = 260.0) -> str:
    """The mean on a 0..1 axis with the normal interval (blue) and the Beta interval (orange) under it."""
    def x(v: float) -> float:
        return 10 + (width - 20) * min(max(v, 0.0), 1.0)
    parts = [f"<svg width='{width:.0f}' height='46' style='font-size:9px;font-family:DejaVu Sans,sans-serif'>",
             f"<line x1='10' y1='34' x2='{width - 10:.0f}' y2='34' stroke='{look.NODE_BORDER}'/>"]
    parts += [f"<text x='{x(t):.1f}' y='44' text-anchor='middle' fill='{look.MUTED_TEXT}'>{t:g}</text>"
              for t in (0, 0.5, 1)]
    for y, interval, colour in ((10, normal, look.BAR), (20, beta, look.EVIDENCE_BAR)):
        if interval is None:  # no Beta interval: zero or degenerate variance
            continue
        lo, hi = interval
        parts.append(f"<line x1='{x(lo):.1f}' y1='{y}' x2='{x(hi):.1f}' y2='{y}' stroke='{colour}' "
                     f"stroke-width='4'/>")
    parts += [f"<text x='{width - 10:.0f}' y='{y + 3}' text-anchor='end' fill='{colour}'>{name}</text>"
              for y, name, colour in ((10, "normal", look.BAR), (20, "Beta", look.EVIDENCE_BAR))]
    parts.append(f"<line x1='{x(mean):.1f}' y1='4' x2='{x(mean):.1f}' y2='34' stroke='{look.TEXT}' "
                 f"stroke-width='1.5'/></svg>")
    return "".join(parts)


def error_bars_html(result, top: int = 5) -> str:
    """p(q | e), its sd, the normal and Beta intervals (drawn and in numbers), flags and the CPT rows that add
    most variance (Singh Theorem 2)."""
    iv = result.intervals
    query = ", ".join(f"{k} = {v}" for k, v in result.query.items())
    given = ", ".join(f"{k} = {v}" for k, v in result.evidence.items())
    title = f"p({escape(query)}{' | ' + escape(given) if given else ''})"
    beta = iv.beta or (None, None)
    rows = [f"<tr><td {CELL}>mean</td><td {NUMBER}>{_fmt(result.mean)}</td></tr>",
            f"<tr><td {CELL}>sd</td><td {NUMBER}>{_fmt(result.sd)}</td></tr>",
            f"<tr><td {CELL}>normal {iv.level:.0%}</td><td {NUMBER}>[{_fmt(iv.normal_clipped[0])}, "
            f"{_fmt(iv.normal_clipped[1])}]</td></tr>",
            f"<tr><td {CELL}>Beta {iv.level:.0%}</td><td {NUMBER}>[{_fmt(beta[0])}, {_fmt(beta[1])}]</td></tr>"]
    sources = "".join(
        f"<tr><td {CELL}>{escape(c.variable)}"
        f"{' | ' + escape(', '.join(f'{k}={v}' for k, v in c.parents.items())) if c.parents else ''}</td>"
        f"<td {NUMBER}>{_fmt(c.variance, 3)}</td><td {NUMBER}>{_fmt(c.ess, 3)}</td></tr>"
        for c in result.delta.top_contributions(top))
    flags = "".join(f"<div style='color:{look.EVIDENCE_BORDER}'>{escape(f)}</div>" for f in iv.flags)
    return (f"<div style='font-family:DejaVu Sans,Verdana,sans-serif;font-size:12px;color:{look.TEXT}'>"
            f"<b>{title}</b><div style='display:flex;gap:16px;align-items:center'>"
            f"<table {TABLE}>{''.join(rows)}</table>{interval_svg(result.mean, iv.normal_clipped, iv.beta)}</div>"
            f"{flags}<div style='margin-top:4px'>top variance sources</div><table {TABLE}>"
            f"<tr><th {CELL}>CPT row</th><th {NUMBER}>variance</th><th {NUMBER}>ess</th></tr>{sources}</table></div>")


def explanations_html(explanations) -> str:
    """The k most probable explanations (or one MAP answer): a column per explanation with p(x | e) and its bar,
    a row per variable; an approximate MAP answer says so, with its bounds."""
    found = list(explanations) if isinstance(explanations, tuple) else [explanations]
    names = list(found[0].assignment) if found else []
    head = "".join(f"<th {NUMBER}>#{k}</th>" for k in range(1, len(found) + 1))
    probs = "".join(f"<td {NUMBER}>{_fmt(e.probability)} {bar_svg(e.probability, width=60)}</td>" for e in found)
    rows = [f"<tr><th {CELL}>variable</th>{head}</tr>", f"<tr><td {CELL}>p(x | e)</td>{probs}</tr>"]
    rows += [f"<tr><td {CELL}>{escape(n)}</td>" + "".join(f"<td {NUMBER}>{escape(e.assignment[n])}</td>"
                                                          for e in found) + "</tr>" for n in names]
    note = ""
    if found and getattr(found[0], "exact", True) is False:
        note = (f"<div style='color:{look.EVIDENCE_BORDER}'>approximate ({escape(found[0].method)}): the MAP "
                f"probability lies in [{_fmt(found[0].lower)}, {_fmt(found[0].upper)}]</div>")
    return f"<div><table {TABLE}>{''.join(rows)}</table>{note}</div>"


def curve_svg(values: Sequence[float], width: float = 220.0, height: float = 60.0, label: str = "") -> str:
    """A convergence curve: ``values`` per iteration, min and max written at the left."""
    v = np.asarray([float(x) for x in values], dtype=float)
    v = v[np.isfinite(v)]
    if len(v) == 0:
        return ""
    lo, hi = float(v.min()), float(v.max())
    span = hi - lo or 1.0
    digits = 4 if f"{hi:.4g}" != f"{lo:.4g}" else 7   # enough digits to tell the two ends apart
    left = 40 if digits == 4 else 62   # room for the labels
    xs = left + (width - left - 4) * (np.arange(len(v)) / max(len(v) - 1, 1))
    ys = 4 + (height - 16) * (1 - (v - lo) / span)
    points = " ".join(f"{a:.1f},{b:.1f}" for a, b in zip(xs, ys, strict=True))
    return (f"<svg width='{width:.0f}' height='{height:.0f}' style='font-size:9px;font-family:DejaVu Sans,"
            f"sans-serif'><rect x='{left}' y='2' width='{width - left - 2:.0f}' height='{height - 12:.0f}' "
            f"fill='{look.NODE_FILL}' stroke='{look.BAR_TRACK}'/>"
            f"<polyline points='{points}' fill='none' stroke='{look.BAR}' stroke-width='1.6'/>"
            f"<text x='{left - 2}' y='10' text-anchor='end' fill='{look.MUTED_TEXT}'>{hi:.{digits}g}</text>"
            f"<text x='{left - 2}' y='{height - 10:.0f}' text-anchor='end' fill='{look.MUTED_TEXT}'>"
            f"{lo:.{digits}g}</text>"
            f"<text x='{(width + left) / 2:.0f}' y='{height - 1:.0f}' text-anchor='middle' fill='{look.MUTED_TEXT}'>"
            f"{escape(label)} over {len(v)} iteration(s)</text></svg>")


def fit_html(result, scores: Mapping[str, float] | None = None) -> str:
    """A learning run: method, stop reason, iterations, time, the last value of each tracked loss with its
    convergence curve, and ``scores`` (e.g. ``asdict(evaluate(...))`` numbers) when given."""
    keys = [k for k in (result.history[-1] if result.history else {}) if k not in ("iteration", "seconds")]
    head = (f"<b>{escape(result.method)}</b>: {escape(result.stop_reason)} after {result.n_iterations} "
            f"iteration(s), {result.seconds:.3g} s")
    curves = "".join(f"<div>{curve_svg([h[k] for h in result.history if k in h], label=k)}</div>"
                     for k in keys if len(result.history) > 1)
    last = "".join(f"<tr><td {CELL}>{escape(k)}</td><td {NUMBER}>{_fmt(float(result.history[-1][k]))}</td></tr>"
                   for k in keys)
    score_rows = "".join(f"<tr><td {CELL}>{escape(k)}</td><td {NUMBER}>{_fmt(float(v))}</td></tr>"
                         for k, v in (scores or {}).items() if isinstance(v, (int, float)))
    return (f"<div style='font-family:DejaVu Sans,Verdana,sans-serif;font-size:12px;color:{look.TEXT}'>{head}"
            f"<table {TABLE}>{last}{score_rows}</table>{curves}</div>")
