"""What notebooks display: :func:`show` (a network with beliefs and evidence, a posterior, error bars, a fit),
:func:`side_by_side` (like pyAgrum's ``sideBySide``) and the ``_repr_html_`` of the results that have one: the
core's objects call :mod:`bnstudio.hooks`, which this module provides when it is imported.

>>> from bnstudio.core import network_from_dsl
>>> shown = show(network_from_dsl("A->B", seed=0), evidence={"B": "s0"}, size=300)
>>> "width='300'" in shown._repr_svg_() and "<svg" in side_by_side(shown, "text")._repr_html_()
True
"""
from __future__ import annotations

from html import escape
from typing import Any, Mapping, Sequence

from bnstudio import hooks
from bnstudio.core.network import Network
from bnstudio.display import results, tornado
from bnstudio.display.svg import network_svg

#: a notebook shows a large drawing at the app's 100 % in a box that scrolls, so its text stays readable
BOX_HEIGHT = 640
#: a drawing larger than this (characters of SVG) is sent once, in the HTML box, not also as image/svg+xml (a
#: 5,000-node network's 6.2 MB drawing went to the notebook twice; issue 42 item 15)
BUNDLE_SVG_UP_TO = 1_000_000


class Html:
    """HTML (and, for drawings, SVG) that a notebook displays."""

    def __init__(self, html: str, svg: str | None = None) -> None:
        self.html, self.svg = html, svg

    def _repr_html_(self) -> str:
        return self.html

    def _repr_svg_(self) -> str | None:
        return self.svg

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {len(self.html)} characters of HTML>"


def network_html(svg: str, height: int = BOX_HEIGHT) -> str:
    """The drawing in a box that scrolls when it is larger than ``height`` px or the page's width."""
    return f"<div style='max-height:{height}px;overflow:auto;max-width:100%'>{svg}</div>"


def show(obj: Any, evidence: Mapping[str, Any] | None = None, size: float | None = None,
         beliefs: bool | str | Mapping[str, Any] = "auto", **options: Any) -> Html:
    """Display ``obj`` in a notebook: a :class:`Network` as the app draws it (beliefs given ``evidence``, scaled
    to ``size`` px wide; default the app's 100 % in a scrolling box; ``beliefs`` as
    :func:`~bnstudio.display.svg.network_svg` takes them: "auto" computes them unless the junction tree is too
    large to do so in about a second, and then says why in a warning), ``ErrorBars`` and ``FitResult`` as compact
    tables with drawings (``options`` go to :func:`~bnstudio.display.results.fit_html` / ``error_bars_html``),
    a mapping variable -> marginal (``options['net']`` names the states) as bars.

    Also for a :class:`Network`: ``cpt="X"`` shows X's CPT as a coloured table (``max_rows=``), ``compare_to=ref``
    the structure against a reference network's (arcs added, missing, reversed; the structural Hamming distance)
    and ``junction_tree=True`` the junction tree the engine propagates on.

    A ``FitResult`` with ``data=``, ``net=`` (the network it was fitted on) and ``target=`` also draws its ROC
    and reliability diagrams on those rows (:func:`compare`; pass held-out rows — scored on its training rows a
    fit looks better calibrated than it is)."""
    if isinstance(obj, Network):
        return _network(obj, evidence, size, beliefs, **options)
    if hasattr(obj, "intervals") and hasattr(obj, "delta"):
        return Html(results.error_bars_html(obj, **options))
    if hasattr(obj, "bars") and hasattr(obj, "q0"):
        return Html(tornado.tornado_html(obj))
    if hasattr(obj, "history") and hasattr(obj, "stop_reason"):
        if "data" in options:
            if "net" not in options or "target" not in options:
                raise TypeError("show(fit, data=...) also needs net= (the network it was fitted on) and target=")
            return compare({obj.method: obj}, **options)
        return Html(results.fit_html(obj, **options))
    if isinstance(obj, Mapping) and "net" in options:
        net = options["net"]
        return Html(results.posterior_html({v: net.states(v) for v in obj}, obj, evidence))
    raise TypeError(f"show() cannot display a {type(obj).__name__}")


def compare(fits: Mapping[str, Any], data: Any, net: Network, target: str, state: str | None = None) -> Html:
    """Fits side by side on the same rows: each fit's scores (:func:`~bnstudio.display.results.fit_html`), and
    their ROC curves (of ``state``, default the target's first state) and reliability diagrams overlaid — what
    the training panel's "Compare runs" shows. ``fits`` maps a label to a ``FitResult``; ``net`` is the network
    they were fitted on; ``data`` a table matched to it by column name."""
    from bnstudio.display.validation import reliability_svg, roc_svg
    from bnstudio.evaluate.metrics import evaluate_scored

    rocs, bins, tables = [], [], []
    for label, fit in fits.items():
        metrics, scored = evaluate_scored(fit.network(net), data, target)
        shown = scored.validation()
        rocs.append(shown.roc_series(label, state))
        bins.append(shown.reliability_series(label))
        scores = {k: getattr(metrics, k) for k in ("cll", "error_rate", "brier", "auc", "ece")
                  if getattr(metrics, k) is not None}
        tables.append(results.fit_html(fit, scores))
    state = state or net.states(target)[0]
    pictures = [roc_svg(rocs, f"ROC of {target} = {state}"), reliability_svg(bins, f"Reliability of {target}")]
    return side_by_side(*(Html(t) for t in tables), *(Html(p, p) for p in pictures))


def _network(net: Network, evidence: Mapping[str, Any] | None, size: float | None,
             beliefs: bool | str | Mapping[str, Any], cpt: str | None = None, max_rows: int = 64,
             compare_to: Network | None = None, junction_tree: bool = False) -> Html:
    """:func:`show` of a network: the drawing, or one of its other views."""
    if cpt is not None:
        from bnstudio.display.cpt_table import cpt_html

        net.variable(cpt)
        return Html(cpt_html(net, cpt, max_rows))
    if compare_to is not None:
        from bnstudio.display.structure_diff import diff_svg

        svg = diff_svg(compare_to, net)
        return Html(network_html(svg), svg)
    if junction_tree:
        from bnstudio.display.junction_tree import junction_tree_svg

        svg = junction_tree_svg(net)
        return Html(network_html(svg), svg)
    svg = network_svg(net, evidence, beliefs=beliefs, width=size)
    return Html(network_html(svg) if size is None else svg, svg)


def _html_of(item: Any) -> str:
    for method in ("_repr_html_", "_repr_svg_"):
        if hasattr(item, method):
            out = getattr(item, method)()
            if out:
                return out
    return f"<pre>{escape(str(item))}</pre>"


def side_by_side(*items: Any, captions: Sequence[str] | None = None) -> Html:
    """``items`` (networks, results, anything with an HTML or SVG form, else its text) in one row, each with
    its caption below."""
    captions = list(captions or [])
    cells = []
    for i, item in enumerate(items):
        caption = (f"<div style='text-align:center;font-size:12px;color:#5F6B7A'>{escape(captions[i])}</div>"
                   if i < len(captions) else "")
        cells.append(f"<div style='flex:0 1 auto;min-width:0'>{_html_of(item)}{caption}</div>")
    return Html("<div style='display:flex;gap:18px;align-items:flex-start;flex-wrap:wrap'>"
                + "".join(cells) + "</div>")


def network_bundle(net: Network) -> dict[str, str]:
    """Jupyter's display of a network: the app's drawing with beliefs, as HTML (a scrolling box) and, when it
    is at most :data:`BUNDLE_SVG_UP_TO` characters, as SVG too (for front ends without HTML); a larger drawing is
    sent once."""
    shown = show(net)
    bundle = {"text/html": shown.html}
    if shown.svg is not None and len(shown.svg) <= BUNDLE_SVG_UP_TO:
        bundle["image/svg+xml"] = shown.svg
    return bundle


hooks.network_bundle.provide(network_bundle)
hooks.network_svg.provide(network_svg)
hooks.fit_html.provide(results.fit_html)
hooks.error_bars_html.provide(results.error_bars_html)
hooks.tornado_html.provide(tornado.tornado_html)
hooks.explanations_html.provide(results.explanations_html)
hooks.posterior_html.provide(results.labelled_posterior_html)
