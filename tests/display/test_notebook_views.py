"""The notebook's other views of a network (issue 39): a CPT as a coloured table, the structure against a
reference (checked against a structural Hamming distance computed from adjacency matrices), and the junction
tree (every clique and separator of the engine's tree)."""
from __future__ import annotations

import re

import numpy as np
import pytest

from bnstudio import show
from bnstudio.core import network_from_dsl
from bnstudio.display.structure_diff import arc_diff
from bnstudio.errors import UnknownVariableError
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from bnstudio.resources import bundled_example


def random_dag(names, rng, p=0.4):
    order = list(rng.permutation(names))
    arcs = [f"{a}->{b}" for i, a in enumerate(order) for b in order[i + 1:] if rng.uniform() < p]
    return network_from_dsl("; ".join(arcs + list(names)), seed=0)


def shd_from_matrices(a, b, names):
    """Pairs whose adjacency differs, a reversal once: sum over unordered pairs of [(A[i,j], A[j,i]) differs]."""
    def matrix(net):
        m = np.zeros((len(names), len(names)), dtype=int)
        for x, y in net.arcs():
            m[names.index(x), names.index(y)] = 1
        return m
    ma, mb = matrix(a), matrix(b)
    return sum((ma[i, j], ma[j, i]) != (mb[i, j], mb[j, i]) for i in range(len(names)) for j in range(i + 1, len(names)))


@pytest.mark.parametrize("seed", range(6))
def test_arc_diff_partitions_both_arc_sets_and_its_shd_matches_the_matrices(seed):
    rng = np.random.default_rng(seed)
    names = list("ABCDEF")
    ref, other = random_dag(names, rng), random_dag(names, rng)
    d = arc_diff(ref, other)
    assert sorted(d.kept + d.added + d.reversed) == sorted(other.arcs())
    assert sorted(d.kept + d.missing + [(b, a) for a, b in d.reversed]) == sorted(ref.arcs())
    assert d.shd == shd_from_matrices(ref, other, names)
    shown = show(other, compare_to=ref)
    assert f"structural Hamming distance {d.shd}" in shown.svg
    assert shown.svg.count("stroke-dasharray='5 3'") == len(d.missing) + 1   # the legend's dashed sample


def test_variables_of_one_network_only_are_named():
    d = arc_diff(network_from_dsl("A->B; C", seed=0), network_from_dsl("A->B; D->B", seed=0))
    assert d.only_reference == ["C"] and d.only_other == ["D"] and d.added == [("D", "B")]


def test_cpt_table_shows_every_row_and_summarises_past_max_rows():
    net = read_network(bundled_example("asia.bif"))
    html = show(net, cpt="either").html
    cells = [float(x) for x in re.findall(r">(\d\.\d{4})</td>", html)]
    assert np.allclose(cells, net.cpt("either").reshape(-1), atol=5e-5)
    assert html.count("<tr>") == 1 + 4 and f"p(either | {', '.join(net.parents('either'))})" in html
    assert "more parent configurations" in show(net, cpt="either", max_rows=3).html
    with pytest.raises(UnknownVariableError, match="nope"):
        show(net, cpt="nope")


def test_cpt_table_escapes_names_and_shows_counts():
    net = network_from_dsl("A->B", seed=0, states={"A": ["<b>x</b>", "y"]})
    net.set_alpha("B", np.full((2, 2), 3.0))
    html = show(net, cpt="B").html
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html and ">counts</th>" in html and ">6</td>" in html


def test_junction_tree_shows_every_clique_and_separator_of_the_engine():
    net = read_network(bundled_example("child.bif"))
    jt = InferenceEngine(net).compiled.jt
    svg = show(net, junction_tree=True).svg
    for c, clique in enumerate(jt.cliques):
        label = "{" + ", ".join(net.variables[v] for v in clique) + "}" + f" · {jt.sizes[c]:,}"
        assert f">{label}</text>" in svg
    separators = re.findall(r"font-size='10' fill='[^']*'>([^<]*)</text>", svg)
    expected = [", ".join(net.variables[v] for v in sorted(set(jt.cliques[c]) & set(jt.cliques[p])))
                for c, p in enumerate(jt.parent) if p >= 0]
    assert sorted(separators) == sorted(expected)
