"""A CPT as a coloured HTML table for notebooks (pyAgrum's ``showPotential``): a row per parent configuration,
a column per state, each cell shaded by its probability; with Dirichlet counts, the row's total count (the
weight behind its error bars, docs/uncertainty.md) in a last column. Rows past ``max_rows`` are summarised.

>>> from bnstudio.core import network_from_dsl
>>> html = cpt_html(network_from_dsl("A->B", seed=0), "B")
>>> html.count("<tr>") == 1 + 2 and "p(B | A)" in html
True
"""
from __future__ import annotations

import itertools
from html import escape

import numpy as np

from bnstudio.core.network import Network
from bnstudio.display import look

CELL = "style='padding:1px 8px;border:1px solid #D5DCE6;{}'"
HEAD = f"style='padding:2px 8px;border:1px solid #D5DCE6;background:{look.HEADER_FILL};text-align:center'"
#: the shade of probability 1 (the bar colour, 3F7CC8); a cell at p is white mixed with 0.75 p of it (a solid
#: colour, so that Qt's rich text, which prints the table, draws it as a browser does)
SHADE = (63, 124, 200)


def _cell(p: float) -> str:
    text = "#FFFFFF" if p > 0.6 else look.TEXT
    mix = 0.75 * min(max(p, 0.0), 1.0)
    colour = "#" + "".join(f"{round(255 + (c - 255) * mix):02X}" for c in SHADE)
    shade = f"background-color:{colour};color:{text};text-align:right;font-variant-numeric:tabular-nums"
    return f"<td {CELL.format(shade)}>{p:.4f}</td>"


def cpt_html(net: Network, var: str, max_rows: int = 64) -> str:
    """The table of p(``var`` | parents), at most ``max_rows`` parent configurations."""
    parents = net.parents(var)
    cpt = net.cpt(var).reshape(-1, net.cardinality(var))
    alpha = net.alpha(var)
    counts = None if alpha is None else np.asarray(alpha).reshape(-1, net.cardinality(var)).sum(axis=1)
    title = f"p({var} | {', '.join(parents)})" if parents else f"p({var})"
    head = "".join(f"<th {HEAD}>{escape(p)}</th>" for p in parents)
    head += "".join(f"<th {HEAD}>{escape(s)}</th>" for s in net.states(var))
    head += f"<th {HEAD}>counts</th>" if counts is not None else ""
    rows = [f"<tr>{head}</tr>"]
    configurations = itertools.product(*(net.states(p) for p in parents))
    for r, config in enumerate(itertools.islice(configurations, max_rows)):
        cells = "".join(f"<td {CELL.format('')}>{escape(s)}</td>" for s in config)
        cells += "".join(_cell(float(p)) for p in cpt[r])
        cells += f"<td {CELL.format('text-align:right')}>{counts[r]:.4g}</td>" if counts is not None else ""
        rows.append(f"<tr>{cells}</tr>")
    more = (f"<div style='color:{look.MUTED_TEXT}'>… and {len(cpt) - max_rows:,} more parent configurations "
            f"(show(net, cpt=..., max_rows=N))</div>" if len(cpt) > max_rows else "")
    return (f"<div style='font-family:DejaVu Sans,Verdana,sans-serif;font-size:12px;color:{look.TEXT}'>"
            f"<b>{escape(title)}</b><table style='border-collapse:collapse;margin-top:4px'>{''.join(rows)}</table>"
            f"{more}</div>")
