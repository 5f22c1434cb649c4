"""Structure learning, side by side in one run: bnstudio vs pgmpy vs pyAgrum.

    .venv/bin/python benchmarks/structure_bench.py [--rows 10000] [--seed 7]

1. ALARM, ``--rows`` forward samples: greedy hill climbing with BIC — bnstudio (default start = Chow-Liu tree;
   then with a tabu list of 20, then from the empty network), pgmpy
   ``causal_discovery.HillClimbSearch(scoring_method="bic-d")`` (its default tabu list of 100) and
   pyAgrum ``BNLearner.useGreedyHillClimbing() + useScoreBIC()`` (one thread, ``learnDAG``).
   Printed: seconds, BIC of the learned DAG (natural log, scored by bnstudio for all three) relative to the
   true DAG's, structural Hamming distance to the true DAG and between CPDAGs.
2. TAN on the same data with class BP: bnstudio vs pgmpy ``TreeSearch(estimator_type="tan")``.
3. BNC (BNC-2P and BNC-MDL) on 30 binary attributes x ``--rows`` rows from a seeded random network, with
   naive Bayes and TAN for reference (hold-out error and conditional log-likelihood per case).
"""
from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
import warnings
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
from inference_bench import timed_result

from bnstudio.core import network_from_dsl
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from bnstudio.learn.structure import ScoreCache, learn_structure, shd
from bnstudio.sampling import forward_sample, write_samples_csv

ALARM = Path(__file__).resolve().parents[1] / "resources" / "networks" / "alarm.bif"



def frame_of(net, codes) -> pd.DataFrame:
    return pd.DataFrame({v: pd.Categorical.from_codes(codes[:, k], categories=list(net.states(v)))
                         for k, v in enumerate(net.variables)})


def bic_of(arcs, codes, names, cards) -> float:
    index = {v: i for i, v in enumerate(names)}
    return ScoreCache(codes, cards, "bic").total([{index[p] for p, c in arcs if c == v} for v in names])


def pgmpy_hill_climb(frame):
    from pgmpy.causal_discovery import HillClimbSearch
    search = HillClimbSearch(scoring_method="bic-d", return_type="dag", show_progress=False).fit(frame)
    return [(str(a), str(b)) for a, b in search.causal_graph_.edges()]


def pyagrum_greedy(net, codes):
    import pyagrum as gum
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "alarm.csv"
        write_samples_csv(net, codes, path)
        start = time.perf_counter()
        learner = gum.BNLearner(str(path))
        learner.setNumberOfThreads(1)
        learner.useGreedyHillClimbing()
        learner.useScoreBIC()
        dag = learner.learnDAG()  # structure only: learnBN's ML parameters refuse unseen parent configurations
        seconds = time.perf_counter() - start
        arcs = [(learner.nameFromId(a), learner.nameFromId(b)) for a, b in dag.arcs()]
    return arcs, seconds


def hill_climb_section(net, codes) -> None:
    names, cards = net.variables, [net.cardinality(v) for v in net.variables]
    states = [net.states(v) for v in names]
    truth = net.arcs()
    true_bic = bic_of(truth, codes, names, cards)
    print(f"\n== ALARM, {len(codes)} rows: hill climbing with BIC (true DAG BIC {true_bic:.1f}, {len(truth)} arcs)")
    print(f"{'learner':34s} {'seconds':>8s} {'BIC vs true':>12s} {'arcs':>5s} {'SHD':>4s} {'SHD cpdag':>9s}")
    rows = []
    t, ours = timed_result(lambda: learn_structure("hill-climb", codes, names, states))
    rows.append(("bnstudio hill-climb", ours.arcs, t))
    t, tabu = timed_result(lambda: learn_structure("hill-climb", codes, names, states, tabu=20))
    rows.append(("bnstudio hill-climb tabu=20", tabu.arcs, t))
    t, empty = timed_result(lambda: learn_structure("hill-climb", codes, names, states, start="empty"))
    rows.append(("bnstudio hill-climb start=empty", empty.arcs, t))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = frame_of(net, codes)
        t, theirs = timed_result(lambda: pgmpy_hill_climb(frame))
    rows.append(("pgmpy HillClimbSearch (tabu 100)", theirs, t))
    try:
        agrum, t = pyagrum_greedy(net, codes)
        rows.append(("pyAgrum greedy hill climbing", agrum, t))
    except ImportError:
        print("pyAgrum not installed")
    for label, arcs, seconds in rows:
        rel = 100 * (bic_of(arcs, codes, names, cards) - true_bic) / abs(true_bic)
        print(f"{label:34s} {seconds:8.2f} {rel:+11.2f}% {len(arcs):5d} {shd(arcs, truth):4d} "
              f"{shd(arcs, truth, cpdag=True):9d}")
    print("(pgmpy walks Python sets of names: its DAG changes with PYTHONHASHSEED; on seed 7 its SHD ranged "
          "23-42 over hash seeds 0-11)")
    print(f"ratio pgmpy / bnstudio time: {rows[3][2] / rows[0][2]:.0f}x"
          + (f", pyAgrum / bnstudio: {rows[4][2] / rows[0][2]:.2f}x" if len(rows) > 4 else ""))


def tan_section(net, codes) -> None:
    names = net.variables
    states = [net.states(v) for v in names]
    t_ours, ours = timed_result(lambda: learn_structure("tan", codes, names, states, target="BP"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgmpy.estimators import TreeSearch
        frame = frame_of(net, codes)
        t_theirs, dag = timed_result(lambda: TreeSearch(frame, root_node=ours.network.variables[0], n_jobs=1)
                              .estimate(estimator_type="tan", class_node="BP", show_progress=False))
    skeleton = lambda arcs: {frozenset(a) for a in arcs}  # noqa: E731
    theirs = [(str(a), str(b)) for a, b in dag.edges()]
    same = skeleton(ours.arcs) == skeleton(theirs)
    print(f"\n== TAN on ALARM {len(codes)} rows, class BP")
    print(f"bnstudio tan {t_ours:6.2f} s   pgmpy TreeSearch(tan) {t_theirs:6.2f} s   "
          f"ratio {t_theirs / t_ours:.0f}x   same skeleton: {same} ({len(ours.arcs)} vs {len(theirs)} arcs)")


def bnc_section(rows: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    attrs = [f"X{i}" for i in range(30)]
    clauses = ["C->" + ",".join(a for a in attrs if rng.random() < 0.5)]
    clauses += [f"{attrs[i - 1 - int(rng.integers(0, min(i, 3)))]}->{attrs[i]}" for i in range(1, 30)]
    net = network_from_dsl("; ".join(clauses), seed=seed)
    names, states = net.variables, [net.states(v) for v in net.variables]
    train, test = forward_sample(net, rows, seed=seed + 1), forward_sample(net, 5000, seed=seed + 2)
    target = names.index("C")
    hidden = test.copy()
    hidden[:, target] = -1
    print(f"\n== BNC on 30 binary attributes x {rows} rows (held-out 5000 rows)")
    print(f"{'learner':24s} {'seconds':>8s} {'moves':>6s} {'arcs':>5s} {'test error':>10s} {'test CLL/case':>13s}")
    for label, alg, kw in [("naive Bayes", "nb", {}), ("TAN", "tan", {}), ("BNC-2P", "bnc", {"score": "cll"}),
                           ("BNC-MDL", "bnc", {"score": "cll-mdl"}), ("BNC-2P from nb", "bnc", {"start": "nb"})]:
        t, res = timed_result(partial(learn_structure, alg, train, names, states, target="C", prior="laplace", **kw))
        post = InferenceEngine(res.network).posterior_batch("C", hidden, columns=names)["C"]
        err = float((post.argmax(axis=1) != test[:, target]).mean())
        cll = float(np.log(post[np.arange(len(test)), test[:, target]]).mean())
        print(f"{label:24s} {t:8.2f} {len(res.history):6d} {len(res.arcs):5d} {err:10.4f} {cll:13.4f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    print(f"python {sys.version.split()[0]} on {platform.machine()}, numpy {np.__version__}")
    net = read_network(ALARM)
    codes = forward_sample(net, args.rows, seed=args.seed)
    hill_climb_section(net, codes)
    tan_section(net, codes)
    bnc_section(args.rows, args.seed)


if __name__ == "__main__":
    main()
