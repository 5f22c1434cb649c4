"""BNC (Grossman & Domingos 2004): CLL objective checked against the parameter package, local optimality,
the corral problem, and speed on 30 attributes x 10,000 rows."""
from __future__ import annotations

import itertools
import math
import time

import networkx as nx
import numpy as np
import pytest

from bnstudio.core import network_from_dsl
from bnstudio.core.network import build_network
from bnstudio.errors import ValidationError
from bnstudio.inference import InferenceEngine
from bnstudio.learn.params import make_learner
from bnstudio.learn.params.base import DataScorer
from bnstudio.learn.structure import learn_structure
from bnstudio.sampling import forward_sample

from .conftest import CORRAL_NAMES, corral, sample

BINARY = [("0", "1")] * 7


def cll_of(arcs, codes, names, states, target) -> float:
    """Σ_n log p(c_n | x_n) under ML parameters, computed by bnstudio.learn.params (independent code)."""
    net = build_network([(v, s, [p for p, c in arcs if c == v], None) for v, s in zip(names, states, strict=True)])
    fitted = make_learner("ml").fit(net, codes).network(net)
    return -DataScorer(fitted, codes, None, target).scores()["cnll"] * len(codes)


def test_bnc_score_is_the_conditional_log_likelihood_of_the_ml_network():
    codes, names, states, _ = sample("E->C; C->A,B; A->B; B->D", 700, seed=21, states={"C": ["x", "y", "z"]})
    for score in ("cll", "cll-mdl"):
        res = learn_structure("bnc", codes, names, states, target="C", score=score)
        cll = cll_of(res.arcs, codes, names, states, "C")
        penalty = 0.5 * math.log(len(codes)) * res.network.n_parameters() if score == "cll-mdl" else 0.0
        assert res.score == pytest.approx(cll - penalty, rel=1e-9)


def test_bnc_result_is_a_local_maximum_of_the_conditional_likelihood():
    codes, names, states, _ = sample("C->A,B; A->B; B->D", 400, seed=22)
    res = learn_structure("bnc", codes, names, states, target="C", score="cll", max_parents=2)
    found = set(res.arcs)
    for a, b in itertools.permutations(names, 2):
        if (a, b) in found:
            others = [found - {(a, b)}, (found - {(a, b)}) | {(b, a)}]
        elif (b, a) not in found:
            others = [found | {(a, b)}]
        else:
            others = []
        for other in others:
            graph = nx.DiGraph(list(other))
            if nx.is_directed_acyclic_graph(graph) and max(dict(graph.in_degree()).values(), default=0) <= 2:
                assert cll_of(other, codes, names, states, "C") <= res.score + 1e-6


def test_bnc_defaults_to_two_parents_and_uses_complete_rows_only():
    codes, names, states, _ = sample("C->A,B,D; A->B; B->D", 500, seed=23)
    holed = codes.copy()
    holed[::5, 1] = -1
    res = learn_structure("bnc", holed, names, states, target="C")
    assert all(len(res.network.parents(v)) <= 2 for v in names)
    keep = (holed >= 0).all(axis=1)
    assert res.score == pytest.approx(cll_of(res.arcs, holed[keep], names, states, "C"), rel=1e-9)
    no_complete_row = np.full((4, 4), -1)
    np.fill_diagonal(no_complete_row, 0)                 # one observed cell per row
    with pytest.raises(ValidationError, match="complete rows"):
        learn_structure("bnc", no_complete_row, names, states, target="C")
    with pytest.raises(ValidationError, match="every cell of the data is missing"):
        learn_structure("bnc", np.full((4, 4), -1), names, states, target="C")
    with pytest.raises(ValidationError, match="cll"):
        learn_structure("bnc", codes, names, states, target="C", score="bic")


def error_rate(net, test: np.ndarray) -> float:
    cases = test.copy()
    cases[:, -1] = -1
    post = InferenceEngine(net).posterior_batch("Class", cases, columns=CORRAL_NAMES)["Class"]
    return float((post.argmax(axis=1) != test[:, -1]).mean())


@pytest.mark.parametrize("score", ["cll", "cll-mdl"])
def test_corral_bnc_connects_the_relevant_attributes_and_beats_naive_bayes(score):
    train, test = corral(1000, seed=0), corral(2000, seed=1)
    nb = learn_structure("nb", train, CORRAL_NAMES, BINARY, target="Class")
    bnc = learn_structure("bnc", train, CORRAL_NAMES, BINARY, target="Class", score=score)
    graph = bnc.network.graph()
    blanket = set(graph.predecessors("Class")) | set(graph.successors("Class"))
    blanket |= {p for c in graph.successors("Class") for p in graph.predecessors(c)} - {"Class"}
    assert {"A0", "A1", "B0", "B1"} <= blanket
    assert "Irrelevant" not in blanket or score == "cll"
    nb_error, bnc_error = error_rate(nb.network, test), error_rate(bnc.network, test)
    assert nb_error > 0.05 and bnc_error < nb_error / 2


@pytest.mark.slow
def test_bnc_on_30_attributes_and_10000_rows_runs_in_under_a_minute():
    clauses = ["C->" + ",".join(f"X{i}" for i in range(0, 30, 2))] + [f"X{i - 1}->X{i}" for i in range(1, 30)]
    net = network_from_dsl("; ".join(clauses), seed=3)
    codes = forward_sample(net, 10_000, seed=1)
    start = time.perf_counter()
    res = learn_structure("bnc", codes, net.variables, [net.states(v) for v in net.variables], target="C")
    assert time.perf_counter() - start < 60
    assert len(res.history) > 10 and res.score > -0.35 * len(codes)


def test_bnc_parent_limit_grows_to_fit_required_arcs():
    codes, names, states, _ = sample("C->A,B,D; A->B; B->D", 300, seed=24)
    res = learn_structure("bnc", codes, names, states, target="C", required=["A->D", "B->D", "C->D"])
    assert {("A", "D"), ("B", "D"), ("C", "D")} <= set(res.arcs)
    assert all(len(res.network.parents(v)) <= 3 for v in names)
