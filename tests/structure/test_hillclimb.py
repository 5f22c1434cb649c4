"""Hill climbing: local optimality against brute force, ALARM against the truth and pgmpy, determinism,
progress and cancellation, starts."""
from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest

from bnstudio.errors import Cancelled, CycleError, ValidationError
from bnstudio.jobs import RecordingReporter
from bnstudio.learn.structure import ScoreCache, learn_structure, shd

from .conftest import sample

DSL = "A->B; A->C; B,C->D; D->E; F"


def total(codes, states, arcs, names, score="bic", ess=1.0):
    cache = ScoreCache(codes, [len(s) for s in states], score, ess)
    index = {v: i for i, v in enumerate(names)}
    return cache.total([{index[p] for p, c in arcs if c == v} for v in names])


def neighbours(arcs: set, names: list[str], max_parents=None):
    """Every DAG one add / delete / reverse away (brute force, no delta table)."""
    for a, b in itertools.permutations(names, 2):
        if (a, b) in arcs:
            yield arcs - {(a, b)}
            yield (arcs - {(a, b)}) | {(b, a)}
        elif (b, a) not in arcs:
            yield arcs | {(a, b)}


@pytest.mark.parametrize("score", ["bic", "bdeu", "k2"])
def test_result_is_a_local_maximum_checked_by_brute_force(score):
    codes, names, states, _ = sample(DSL, 600, seed=11, states={"D": ["x", "y", "z"]})
    res = learn_structure("hill-climb", codes, names, states, score=score, ess=2.0)
    found = set(res.arcs)
    assert res.score == pytest.approx(total(codes, states, found, names, score, 2.0), rel=1e-12)
    for other in neighbours(found, names):
        if nx.is_directed_acyclic_graph(nx.DiGraph(list(other))):
            assert total(codes, states, other, names, score, 2.0) <= res.score + 1e-6


def test_history_reports_every_move_and_increasing_scores():
    codes, names, states, _ = sample(DSL, 600, seed=12)
    rec = RecordingReporter()
    res = learn_structure("hill-climb", codes, names, states, reporter=rec)
    assert len(rec.infos) == len(res.history) > 0 and rec.ended
    assert rec.infos[0].message.startswith("add ")
    scores = [h["score"] for h in res.history]
    assert scores == sorted(scores) and scores[-1] == pytest.approx(res.score)


def test_cancellation_raises_cancelled():
    codes, names, states, _ = sample(DSL, 300, seed=13)
    with pytest.raises(Cancelled):
        learn_structure("hill-climb", codes, names, states, start="empty", reporter=RecordingReporter(stop_after=2))


def test_tabu_and_restarts_are_deterministic_given_the_seed_and_never_worse():
    codes, names, states, _ = sample("A->B; A->C; B,C->D; D->E; E->F; C->F; A->G", 400, seed=14)
    plain = learn_structure("hill-climb", codes, names, states)
    runs = [learn_structure("hill-climb", codes, names, states, tabu=5, restarts=3, seed=3) for _ in range(2)]
    assert runs[0].arcs == runs[1].arcs and runs[0].history == runs[1].history
    assert runs[0].score >= plain.score - 1e-9
    assert runs[0].score == pytest.approx(total(codes, states, set(runs[0].arcs), names), rel=1e-12)
    assert any(h["phase"] == "perturb" for h in runs[0].history)


def test_starts_from_arcs_a_network_or_a_tree():
    codes, names, states, net = sample(DSL, 800, seed=15)
    for start in (net, net.arcs(), "tree", "empty"):
        res = learn_structure("hill-climb", codes, names, states, start=start)
        assert res.score >= total(codes, states, set(), names)
    truth = learn_structure("hill-climb", codes, names, states, start=net, max_iter=0)
    assert set(truth.arcs) == set(net.arcs()) and truth.history == []


def test_ll_needs_a_parent_limit_and_then_respects_it():
    codes, names, states, _ = sample(DSL, 300, seed=16)
    with pytest.raises(ValidationError, match="max_parents"):
        learn_structure("hill-climb", codes, names, states, score="ll")
    res = learn_structure("hill-climb", codes, names, states, score="ll", max_parents=1)
    assert all(len(res.network.parents(v)) <= 1 for v in names)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(required=["A->B", "B->C", "C->A"]), CycleError, "cycle A -> B -> C -> A"),
    (dict(required=["A->B"], forbidden=["A->B"]), ValidationError, "both required and forbidden: A->B"),
    (dict(required=["B->A"], tiers=[["A"], ["B"]]), ValidationError, r"earlier tier: B->A \(tier 2 to tier 1\)"),
    (dict(required=["A->D", "B->D"], max_parents=1), ValidationError, "'D' has 2 required parents"),
    (dict(required=["A->Z"]), ValidationError, "unknown variable 'Z'"),
    (dict(tiers=[["A"], ["A", "B"]]), ValidationError, "'A' is in tier 1 and tier 2"),
    (dict(forbidden=["A->A"]), ValidationError, "self-loop"),
    (dict(start=[("A", "B")], forbidden=["A->B"]), ValidationError, "start network has forbidden"),
    (dict(start=[("B", "A")], required=["A->B"]), CycleError, "cycle"),
])
def test_impossible_constraints_are_refused_by_name(kwargs, error, match):
    codes, names, states, _ = sample(DSL, 100, seed=17)
    with pytest.raises(error, match=match):
        learn_structure("hill-climb", codes, names, states, **kwargs)


def test_learned_network_is_ready_to_query_with_ml_or_mean_posterior_parameters():
    codes, names, states, _ = sample(DSL, 500, seed=18)
    res = learn_structure("hill-climb", codes, names, states)
    res.network.validate()
    child, = [c for p, c in res.arcs[:1]]
    n_pa = codes[:, [names.index(p) for p in res.network.parents(child)]]
    mask = (n_pa == 0).all(axis=1)
    expected = np.bincount(codes[mask, names.index(child)], minlength=2) / mask.sum()
    assert res.network.cpt(child)[(0,) * n_pa.shape[1]] == pytest.approx(expected)
    mp = learn_structure("hill-climb", codes, names, states, prior="laplace")
    assert mp.network.alpha(child) is not None and mp.arcs == res.arcs


PGMPY_SCRIPT = """
import json, sys, warnings
import numpy as np, pandas as pd
warnings.simplefilter("ignore")
from pgmpy.causal_discovery import HillClimbSearch
codes = np.load(sys.argv[1])
spec = json.load(open(sys.argv[2]))
frame = pd.DataFrame({v: pd.Categorical.from_codes(codes[:, k], categories=s)
                      for k, (v, s) in enumerate(zip(spec["names"], spec["states"]))})
search = HillClimbSearch(scoring_method="bic-d", return_type="dag", show_progress=False).fit(frame)
print(json.dumps([[str(a), str(b)] for a, b in search.causal_graph_.edges()]))
"""


def pgmpy_hill_climb(codes, names, states, tmp_path) -> list[tuple[str, str]]:
    """pgmpy's HillClimbSearch (BIC, its default tabu list of 100) in a subprocess with PYTHONHASHSEED=0.

    pgmpy walks Python sets of node names, so its result depends on string hashing: on this sample it reached
    a DAG SHD between 24 and 42 over hash seeds 0-11 (37 with 0). A fixed hash seed makes the test repeatable.
    """
    np.save(tmp_path / "codes.npy", codes)
    (tmp_path / "spec.json").write_text(json.dumps({"names": names, "states": [list(s) for s in states]}))
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    out = subprocess.run([sys.executable, "-c", PGMPY_SCRIPT, str(tmp_path / "codes.npy"),
                          str(tmp_path / "spec.json")], capture_output=True, text=True, env=env, check=True)
    return [tuple(a) for a in json.loads(out.stdout)]


@pytest.mark.slow
def test_alarm_10k_close_to_the_true_bic_and_no_worse_than_pgmpy(alarm_10k, tmp_path):
    net, codes = alarm_10k
    names = net.variables
    states = [net.states(v) for v in names]
    true_bic = total(codes, states, set(net.arcs()), names)
    plain = learn_structure("hill-climb", codes, names, states, score="bic")
    assert plain.seconds < 5.0 and plain.score >= true_bic - 0.005 * abs(true_bic)
    res = learn_structure("hill-climb", codes, names, states, score="bic", tabu=20)
    assert res.score >= plain.score and res.score >= true_bic - 0.005 * abs(true_bic)
    theirs = pgmpy_hill_climb(codes, names, states, tmp_path)
    assert res.score >= total(codes, states, set(theirs), names)
    assert shd(res.arcs, net.arcs()) <= shd(theirs, net.arcs())
    assert shd(res.arcs, net.arcs(), cpdag=True) <= shd(theirs, net.arcs(), cpdag=True)
