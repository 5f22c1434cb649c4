"""Notebook display (issue 28): the app's layout and node look as SVG, beliefs from our engine, evidence
highlighted; results as compact HTML; no Qt, matplotlib or graphviz loaded."""
from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import bnstudio
from bnstudio.core import network_from_dsl
from bnstudio.display import look
from bnstudio.display.layout import layered_layout
from bnstudio.display.svg import network_svg
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network

NETWORKS = Path(__file__).resolve().parents[2] / "resources" / "networks"
SVG = "{http://www.w3.org/2000/svg}"


def _nodes(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.find(f"{SVG}title").text: g for g in root.iter(f"{SVG}g")}


def test_alarm_is_drawn_with_every_node_and_arc_and_our_beliefs():
    net = read_network(NETWORKS / "alarm.bif")
    evidence = {"HYPOVOLEMIA": "TRUE", "HRBP": "HIGH"}
    svg = network_svg(net, evidence)
    nodes = _nodes(svg)
    assert set(nodes) == set(net.variables)
    assert svg.count("<line ") == len(net.arcs())
    assert {n for n, g in nodes.items() if "evidence" in g.get("class")} == set(evidence)
    post = InferenceEngine(net).posterior(["CO"], evidence)["CO"]
    texts = [t.text for t in nodes["CO"].iter(f"{SVG}text")]
    assert texts[0] == "CO" and [look.format_probability(p) for p in post] == texts[2::2]
    observed = [r for r in nodes["HYPOVOLEMIA"].iter(f"{SVG}rect") if r.get("fill") == look.EVIDENCE_BAR]
    assert len(observed) == 1  # the observed state's bar is orange


def test_without_positions_the_drawing_uses_the_apps_layered_layout():
    net = read_network(NETWORKS / "insurance.bif")
    net.positions.clear()
    sizes = {v: look.bar_node_size(net.cardinality(v)) for v in net.variables}
    expected = layered_layout(net.variables, net.arcs(), sizes)
    nodes = _nodes(network_svg(net, beliefs=False))
    for v, g in nodes.items():
        x, y = (float(g.find(f"{SVG}rect").get(k)) for k in ("x", "y"))
        assert (x + sizes[v][0] / 2, y + sizes[v][1] / 2) == pytest.approx(expected[v], abs=0.06)
    assert all(expected[p][1] < expected[c][1] for p, c in net.arcs())


def test_the_app_sizes_its_bar_nodes_as_the_notebook_does():
    pytest.importorskip("PySide6")
    from bnstudio.gui.canvas import style
    for n in (1, 2, 5):
        assert style.node_size("X", n, style.BARS) == look.bar_node_size(n)


def test_long_names_are_elided_and_markup_is_escaped():
    net = network_from_dsl("A->B", seed=0, states={"A": ["<tiny & small>", "a state name far too long to fit"]})
    net.rename_variable("B", "B<script>" + "x" * 60)
    svg = network_svg(net)
    ET.fromstring(svg)  # well-formed despite the markup in the names
    assert "<script>" not in svg and "…" in svg


def test_network_displays_itself_in_a_notebook_and_show_takes_options():
    net = network_from_dsl("A->B; A->C", seed=1)
    bundle = net._repr_mimebundle_()
    assert "overflow:auto" in bundle["text/html"] and bundle["image/svg+xml"].startswith("<svg")
    assert net._repr_svg_().startswith("<svg")
    shown = bnstudio.show(net, evidence={"A": "s0"}, size=400)
    assert re.search(r"width='400'", shown._repr_svg_())
    with pytest.raises(TypeError, match="cannot display"):
        bnstudio.show(42)


def test_results_display_as_compact_html():
    from bnstudio.learn.params import make_learner
    from bnstudio.sampling import forward_sample
    from bnstudio.uncertainty import error_bars
    net = read_network(NETWORKS / "asia.bif")
    fit = make_learner("em", max_iter=20).fit(net, forward_sample(net, 300, seed=0))
    html = fit._repr_html_()
    assert "polyline" in html and "nll" in html and fit.stop_reason in html
    bars = error_bars(net, {"lung": "yes"}, {"smoke": "yes"}, ess=50)
    html = bars._repr_html_()
    assert "sd" in html and "Beta" in html and "top variance sources" in html
    post = InferenceEngine(net).posterior(["lung", "smoke"], {"smoke": "yes"})
    html = bnstudio.show(post, evidence={"smoke": "yes"}, net=net)._repr_html_()
    assert look.EVIDENCE_BAR in html and look.format_probability(float(post["lung"][0])) in html
    both = bnstudio.side_by_side(fit, bars, net, captions=["fit", "error bars"])._repr_html_()
    assert both.count("display:flex") >= 2 and "error bars" in both


def test_the_notebook_display_loads_no_gui_or_plotting_library():
    code = ("import sys, bnstudio; from bnstudio.core import network_from_dsl\n"
            "network_from_dsl('A->B', seed=0)._repr_mimebundle_()\n"
            "print(sorted(m for m in ('PySide6', 'matplotlib', 'pyqtgraph', 'graphviz') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_layout_drawn_for_smaller_nodes_is_spread_as_the_app_does_and_the_network_is_kept():
    pytest.importorskip("PySide6")
    from bnstudio.gui.canvas.arrange import fill_missing_positions, spread_overlapping
    net = network_from_dsl("A->B; A->C; C->D", seed=0)
    net.positions.update({"A": (0.0, 0.0), "B": (-60.0, 50.0), "C": (60.0, 50.0)})  # D has none
    before = dict(net.positions)
    nodes = _nodes(network_svg(net, beliefs=False))
    assert net.positions == before
    app = net.copy()
    spread_overlapping(app)
    fill_missing_positions(app)
    for v, g in nodes.items():
        w, h = look.bar_node_size(net.cardinality(v))
        x, y = (float(g.find(f"{SVG}rect").get(k)) for k in ("x", "y"))
        assert (x + w / 2, y + h / 2) == pytest.approx(app.positions[v], abs=0.06)


def test_soft_evidence_is_drawn_with_its_own_header():
    net = network_from_dsl("A->B", seed=0)
    svg = network_svg(net, evidence={"B": [0.9, 0.3]})
    assert look.SOFT_EVIDENCE_HEADER in _nodes(svg)["B"].find(f"{SVG}path").get("fill")


def test_error_bars_without_a_beta_interval_are_shown():
    from bnstudio.uncertainty import error_bars
    net = read_network(NETWORKS / "asia.bif")
    bars = error_bars(net, {"smoke": "yes"}, {"smoke": "yes"}, ess=50)   # p = 1: zero variance, no Beta interval
    assert bars.intervals.beta is None
    html = bars._repr_html_()
    assert "zero_variance" in html and html.count("stroke-width='4'") == 1   # the normal interval alone


def _numbers(svg: str) -> dict[str, list[str]]:
    """Each node's probability texts (the right-hand column), by variable."""
    return {v: [t.text for t in g.iter(f"{SVG}text")][2::2] for v, g in _nodes(svg).items()}


def test_a_network_over_300_variables_is_drawn_with_its_beliefs():
    """Issue 35: above 300 variables every belief was drawn as "—" with no word; a cheap junction tree (a naive
    Bayes of 320 attributes: 640 entries) is now computed, whatever the number of variables."""
    net = network_from_dsl("C->" + ",".join(f"X{i}" for i in range(320)), seed=0)
    evidence = {"X0": "s1", "X7": "s0"}
    numbers = _numbers(bnstudio.show(net, evidence=evidence).svg)
    assert len(numbers) == 321 and not any("—" in texts for texts in numbers.values())
    post = InferenceEngine(net).posterior(["C", "X5", "X319"], evidence)
    for v in post:
        assert numbers[v] == [look.format_probability(p) for p in post[v]]


def test_beliefs_too_costly_to_compute_are_left_out_with_a_one_line_warning(monkeypatch):
    from bnstudio.display import svg as svg_module
    net = read_network(NETWORKS / "asia.bif")
    monkeypatch.setattr(svg_module, "BELIEFS_UP_TO_ENTRIES", 79)   # asia's merged junction tree: 80 entries
    with pytest.warns(svg_module.BeliefsNotShown) as caught:
        shown = bnstudio.show(net)
    message = str(caught[0].message)
    assert len(caught) == 1 and "\n" not in message
    assert "80 table entries, more than the 79" in message and "beliefs=True" in message
    assert all(set(texts) == {"—"} for texts in _numbers(shown.svg).values())
    forced = _numbers(bnstudio.show(net, beliefs=True).svg)           # asked: computed, whatever the cost
    lung = InferenceEngine(net).posterior(["lung"], {})["lung"]
    assert forced["lung"] == [look.format_probability(p) for p in lung]
    monkeypatch.setattr(svg_module, "BELIEFS_UP_TO_ENTRIES", 80)
    assert "—" not in str(_numbers(bnstudio.show(net).svg))          # at the limit: computed, no warning


def test_a_network_without_a_junction_tree_says_so_instead_of_drawing_dashes():
    import numpy as np

    from bnstudio.core.network import Network
    from bnstudio.display.svg import BeliefsNotShown
    rng = np.random.default_rng(0)
    net = Network("grid30")   # a 30 x 30 grid of binary variables: treewidth 30, no tree within 2 GiB
    for i in range(30):
        for j in range(30):
            parents = ([f"x{i - 1}_{j}"] if i else []) + ([f"x{i}_{j - 1}"] if j else [])
            net.add_variable(f"x{i}_{j}", ["a", "b"], parents=parents,
                             cpt=rng.dirichlet(np.ones(2), size=(2,) * len(parents)))
    with pytest.warns(BeliefsNotShown, match="'grid30' drawn without beliefs: no junction tree fits the memory"):
        bnstudio.show(net, size=400)
