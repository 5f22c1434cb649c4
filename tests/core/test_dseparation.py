"""d-separation, requisite findings and the Markov blanket against networkx, pgmpy and numeric independence."""
from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bnstudio.core import Network, network_from_dsl
from bnstudio.core.dseparation import d_separated, markov_blanket, reachable, relevance
from bnstudio.errors import EvidenceError, UnknownVariableError
from bnstudio.io import read_network
from tests.brute import joint_table

NETWORKS = __import__("pathlib").Path(__file__).resolve().parents[2] / "resources" / "networks"


@st.composite
def random_dags(draw, low: int = 2, high: int = 9) -> Network:
    """A random DAG (arcs from earlier to later variables), binary, with random dense CPTs."""
    n = draw(st.integers(low, high))
    names = [f"V{i}" for i in range(n)]
    arcs = [f"{names[i]}->{names[j]}" for j in range(n) for i in range(j) if draw(st.floats(0, 1)) < 0.4]
    return network_from_dsl("; ".join(arcs + names), seed=draw(st.integers(0, 2**31 - 1)))


def _split(draw, net: Network) -> tuple[list[str], list[str], list[str]]:
    """Disjoint non-empty X, Y and a (possibly empty) Z drawn from the variables."""
    names = net.variables
    roles = draw(st.lists(st.sampled_from("xyz-"), min_size=len(names), max_size=len(names)))
    roles[0], roles[-1] = "x", "y"
    pick = [[v for v, r in zip(names, roles, strict=True) if r == role] for role in "xyz"]
    return pick[0], pick[1], pick[2]


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_d_separation_matches_networkx(data):
    net = data.draw(random_dags(2, 12))
    xs, ys, zs = _split(data.draw, net)
    assert d_separated(net, xs, ys, zs) == nx.is_d_separator(net.graph(), set(xs), set(ys), set(zs))


def _conditional_independent(table: np.ndarray, x: int, y: int, zs: list[int]) -> bool:
    """Whether p(x, y | z) = p(x | z) p(y | z) for every z of positive probability (to 1e-12)."""
    keep = [x, y, *zs]
    p = table.sum(axis=tuple(k for k in range(table.ndim) if k not in keep))
    p = np.moveaxis(p, [sorted(keep).index(k) for k in keep], range(len(keep)))   # (x, y, *z)
    pz = p.sum(axis=(0, 1), keepdims=True)
    px, py = p.sum(axis=1, keepdims=True), p.sum(axis=0, keepdims=True)
    return bool(np.allclose(p * pz, px * py, atol=1e-12))


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_d_separation_is_exact_independence_of_a_random_joint(data):
    """Separated pairs are independent in the joint; connected ones are dependent (random dense CPTs make
    an accidental independence a measure-zero event)."""
    net = data.draw(random_dags(2, 7))
    names = net.variables
    table = joint_table(net)
    x, y = data.draw(st.sampled_from(list(itertools.combinations(range(len(names)), 2))))
    zs = [k for k in range(len(names)) if k not in (x, y) and data.draw(st.booleans())]
    separated = d_separated(net, [names[x]], [names[y]], [names[k] for k in zs])
    assert separated == _conditional_independent(table, x, y, zs)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_requisite_findings_are_those_d_connected_given_the_other_findings(data):
    net = data.draw(random_dags(2, 10))
    names = net.variables
    target = data.draw(st.sampled_from(names))
    observed = [v for v in names if v != target and data.draw(st.booleans())]
    soft = [v for v in names if v != target and v not in observed and data.draw(st.booleans())]
    found = relevance(net, target, observed, soft)
    graph = net.graph()
    for e in observed:
        others = set(observed) - {e}
        expected = not nx.is_d_separator(graph, {target}, {e}, others | _virtual(graph, soft))
        assert (e in found.requisite) == expected, e
    for v in soft:                     # a soft finding: its virtual child, d-connected given the rest
        virtual = _virtual(graph, soft)
        expected = not nx.is_d_separator(graph, {target}, {f"λ{v}"}, set(observed) | (virtual - {f"λ{v}"}))
        assert (v in found.requisite) == expected, v
    for v in found.connected + found.separated:
        expected = not nx.is_d_separator(graph, {target}, {v}, set(observed) | _virtual(graph, soft))
        assert (v in found.connected) == expected, v
    assert sorted(found.connected + found.separated + found.requisite + found.irrelevant + [target]) == sorted(names)


def _virtual(graph: nx.DiGraph, soft: list[str]) -> set[str]:
    """Add an observed virtual child λV under each soft-evidence variable V; return their names."""
    graph.add_edges_from((v, f"λ{v}") for v in soft)
    return {f"λ{v}" for v in soft}


@settings(max_examples=60, deadline=None)
@given(net=random_dags(2, 7))
def test_markov_blanket_makes_a_variable_independent_of_the_rest(net):
    names = net.variables
    table = joint_table(net)
    for var in names:
        blanket = markov_blanket(net, var).members
        assert var not in blanket and len(set(blanket)) == len(blanket)
        zs = [names.index(v) for v in blanket]
        for other in names:
            if other != var and other not in blanket:
                assert _conditional_independent(table, names.index(var), names.index(other), zs)


def test_markov_blanket_and_d_separation_agree_with_pgmpy_on_alarm():
    pgmpy_models = pytest.importorskip("pgmpy.base")
    net = read_network(NETWORKS / "alarm.bif")
    dag = pgmpy_models.DAG(net.arcs())
    for var in net.variables:
        assert sorted(markov_blanket(net, var).members) == sorted(dag.get_markov_blanket(var))
    rng = np.random.default_rng(5)
    names = net.variables
    for _ in range(200):
        a, b, *zs = rng.choice(names, size=2 + int(rng.integers(0, 6)), replace=False).tolist()
        assert d_separated(net, [a], [b], zs) == (not dag.is_dconnected(a, b, observed=zs))


def test_asia_examples_and_the_search_is_linear():
    net = read_network(NETWORKS / "asia.bif")
    assert d_separated(net, ["asia"], ["smoke"])                      # two roots
    assert not d_separated(net, ["asia"], ["smoke"], ["dysp"])        # a collider's descendant observed
    assert d_separated(net, ["xray"], ["dysp"], ["either"])           # a common cause observed
    assert markov_blanket(net, "lung").members == ["smoke", "either", "tub"]
    big = network_from_dsl("; ".join(f"X{i}->X{i + 1}" for i in range(1999)))
    found, _ = reachable(big, ["X0"])
    assert len(found) == 2000 and d_separated(big, ["X0"], ["X1999"], ["X1000"])


def test_bad_queries_are_one_line_errors():
    net = read_network(NETWORKS / "asia.bif")
    with pytest.raises(UnknownVariableError, match="unknown variable 'nope'"):
        d_separated(net, ["nope"], ["asia"])
    with pytest.raises(EvidenceError, match="disjoint"):
        d_separated(net, ["asia"], ["smoke"], ["asia"])
    with pytest.raises(EvidenceError, match="also observed"):
        relevance(net, "lung", ["lung"])
    with pytest.raises(UnknownVariableError):
        markov_blanket(net, "nope")
