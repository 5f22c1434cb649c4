"""Six everyday tasks in Python, side by side in one run: bnstudio vs pgmpy vs pyAgrum (issue 39's comparison).

    .venv/bin/python benchmarks/python_tasks.py [--rows 5000] [--seed 3]

ALARM, ``--rows`` forward samples written as CSV (the last 200 rows held out). Each library does, in its own
idiom, the same six tasks; the code of each is below, run as written, timed, and its lines counted:

1. read the network (resources/networks/alarm.bif);
2. p(HYPOVOLEMIA | BP = LOW, HRBP = HIGH);
3. fit the parameters on the known structure with one pseudo-count per cell (Laplace / K2), and ask task 2's
   query of the fitted network;
4. hill climbing with BIC from the data (its BIC, scored by bnstudio for every library, against the true DAG's);
5. p(BP | the other columns) for the 200 held-out rows under the fitted network;
6. show the network in a notebook (what it needs).

Printed: lines and seconds per task per library — the first run in a fresh namespace (imports included: what a
notebook user waits for) and a second run of the same code (warm) — and how far each answer is from bnstudio's.
"""
from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

ALARM = Path(__file__).resolve().parents[1] / "resources" / "networks" / "alarm.bif"
QUERY = ("HYPOVOLEMIA", {"BP": "LOW", "HRBP": "HIGH"})

BNSTUDIO = {
    "read": '''
import bnstudio
net = bnstudio.read_network(path)
''',
    "query": '''
post = bnstudio.InferenceEngine(net).query("HYPOVOLEMIA", {"BP": "LOW", "HRBP": "HIGH"}).values
''',
    "fit": '''
from bnstudio.learn.params import make_learner
fitted = make_learner("mp").fit(net, train).network(net)
fitted_post = bnstudio.InferenceEngine(fitted).query("HYPOVOLEMIA", {"BP": "LOW", "HRBP": "HIGH"}).values
''',
    "structure": '''
from bnstudio.learn.structure.learners import make_structure_learner
arcs = make_structure_learner("hill-climb").fit(train).arcs
''',
    "classify": '''
from bnstudio.sklearn import BNClassifier
proba = BNClassifier.from_network(fitted, "BP").predict_proba(test.drop(columns="BP"))
''',
    "show": '''
shown = bnstudio.show(net)
''',
}

PGMPY = {
    "read": '''
from pgmpy.readwrite import BIFReader
model = BIFReader(path).get_model()
''',
    "query": '''
from pgmpy.inference import VariableElimination
post = VariableElimination(model).query(["HYPOVOLEMIA"], evidence={"BP": "LOW", "HRBP": "HIGH"}).values
''',
    "fit": '''
from pgmpy.estimators import BayesianEstimator
from pgmpy.models import DiscreteBayesianNetwork
fitted = DiscreteBayesianNetwork(model.edges())
fitted.add_cpds(*BayesianEstimator(fitted, train, state_names=model.states).get_parameters(prior_type="K2"))
fitted_post = VariableElimination(fitted).query(["HYPOVOLEMIA"], evidence={"BP": "LOW", "HRBP": "HIGH"}).values
''',
    "structure": '''
from pgmpy.causal_discovery import HillClimbSearch
search = HillClimbSearch(scoring_method="bic-d", return_type="dag", show_progress=False).fit(train)
arcs = list(search.causal_graph_.edges())
''',
    "classify": '''
proba = fitted.predict_probability(test.drop(columns="BP"))[[f"BP_{s}" for s in model.states["BP"]]].to_numpy()
''',
    "show": '''
shown = model.to_graphviz()
''',
}

PYAGRUM = {
    "read": '''
import pyagrum as gum
bn = gum.loadBN(str(path))
''',
    "query": '''
ie = gum.LazyPropagation(bn)
ie.setEvidence({"BP": "LOW", "HRBP": "HIGH"})
post = ie.posterior("HYPOVOLEMIA").toarray()
''',
    "fit": '''
learner = gum.BNLearner(str(csv), bn)
learner.useSmoothingPrior(1)
fitted = learner.learnParameters(bn.dag())
ie = gum.LazyPropagation(fitted)
ie.setEvidence({"BP": "LOW", "HRBP": "HIGH"})
fitted_post = ie.posterior("HYPOVOLEMIA").toarray()
''',
    "structure": '''
learner = gum.BNLearner(str(csv))
learner.useGreedyHillClimbing()
learner.useScoreBIC()
dag = learner.learnDAG()
arcs = [(learner.nameFromId(a), learner.nameFromId(b)) for a, b in dag.arcs()]
''',
    "classify": '''
ie = gum.LazyPropagation(fitted)
proba = []
for _, row in test.drop(columns="BP").iterrows():
    ie.setEvidence(dict(row))
    proba.append(ie.posterior("BP").toarray())
''',
    "show": '''
import pyagrum.lib.notebook as gnb
shown = gnb.getBN(bn)
''',
}


def lines(code: str) -> int:
    return sum(1 for line in code.splitlines() if line.strip() and not line.strip().startswith("#"))


def run(snippets: dict[str, str], scope: dict) -> dict[str, tuple[float | None, str]]:
    """Each task in order in one namespace: its seconds, or None and the one-line reason it failed."""
    out: dict[str, tuple[float | None, str]] = {}
    for task, code in snippets.items():
        start = time.perf_counter()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(compile(code, task, "exec"), scope)
            out[task] = (time.perf_counter() - start, "")
        except Exception as exc:  # a peer that cannot do a task is reported, not fatal
            out[task] = (None, f"{type(exc).__name__}: {str(exc).splitlines()[0][:70] if str(exc) else ''}")
    return out


def bic_of(arcs, truth, train) -> float:
    from bnstudio.learn.params.suffstats import check_codes
    from bnstudio.learn.structure import ScoreCache
    from bnstudio.learn.structure.scores import DataColumns

    names = list(truth.variables)
    codes, _ = check_codes(truth, train)
    cache = ScoreCache(DataColumns(codes, [truth.cardinality(v) for v in names]), [truth.cardinality(v) for v in names],
                       "bic")
    parents = [frozenset(names.index(p) for p, c in arcs if c == v) for v in names]
    return cache.total(parents)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    from bnstudio.io import read_network
    from bnstudio.sampling import forward_sample

    truth = read_network(ALARM)
    with tempfile.TemporaryDirectory() as folder:
        frame = forward_sample(truth, args.rows + 200, seed=args.seed, as_frame=True).astype(str)
        train, test = frame.iloc[:args.rows].reset_index(drop=True), frame.iloc[args.rows:].reset_index(drop=True)
        csv = Path(folder) / "alarm.csv"
        train.to_csv(csv, index=False)
        results, warm, scopes = {}, {}, {}
        for name, snippets in (("bnstudio", BNSTUDIO), ("pgmpy", PGMPY), ("pyAgrum", PYAGRUM)):
            scopes[name] = {"path": ALARM, "train": train, "test": test, "csv": csv}
            results[name] = run(snippets, scopes[name])
            warm[name] = run(snippets, scopes[name])
    print(f"ALARM, {args.rows} training rows, 200 held out, seed {args.seed}\n")
    print("seconds: first run (imports included) / second run")
    print(f"{'task':10s}" + "".join(f"{n:>30s}" for n in results))
    for task in BNSTUDIO:
        cells = []
        for name, snippets in (("bnstudio", BNSTUDIO), ("pgmpy", PGMPY), ("pyAgrum", PYAGRUM)):
            (cold, _), (hot, _) = results[name][task], warm[name][task]
            cells.append(f"{lines(snippets[task])} lines, " + (f"{cold:7.3f} / {hot:7.3f} s" if cold is not None
                                                               and hot is not None else "fails"))
        print(f"{task:10s}" + "".join(f"{c:>30s}" for c in cells))
    print(f"{'total':10s}" + "".join(f"{sum(map(lines, s.values())):>24d} lines" for s in (BNSTUDIO, PGMPY, PYAGRUM)))
    ours = scopes["bnstudio"]
    truth_bic = bic_of(truth.arcs(), truth, train)
    print("\nanswers against bnstudio's:")
    for name in ("pgmpy", "pyAgrum"):
        scope = scopes[name]
        diffs = []
        for key in ("post", "fitted_post", "proba"):
            if key in scope:
                diffs.append(f"{key} {float(np.max(np.abs(np.asarray(scope[key]) - np.asarray(ours[key])))):.1e}")
        print(f"  {name:8s} max |difference|: " + ", ".join(diffs))
    for name, scope in scopes.items():
        if "arcs" in scope:
            print(f"  {name:8s} hill climbing: {len(scope['arcs'])} arcs, BIC - true BIC = "
                  f"{bic_of(scope['arcs'], truth, train) - truth_bic:+.1f}")
    for name in results:
        why = [f"{t}: {w}" for t, (s, w) in results[name].items() if s is None]
        if why:
            print(f"  {name} could not: " + "; ".join(why))
    ours_s = warm["bnstudio"]["structure"][0]
    for name in ("pgmpy", "pyAgrum"):
        theirs = warm[name]["structure"][0]
        if ours_s and theirs:
            print(f"hill climbing time (second run), {name} / bnstudio: {theirs / ours_s:.2f}x")


if __name__ == "__main__":
    main()
