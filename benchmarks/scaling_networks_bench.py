"""Exact inference as networks grow: bnstudio vs pyAgrum (LazyPropagation, one thread) and pgmpy
(VariableElimination), side by side in one run, printing medians and ratios (ours ÷ peer; below 1 is faster).

    .venv/bin/python benchmarks/scaling_networks_bench.py [--networks alarm munin ...] [--queries 30]

For each network (bnlearn BIF files shipped with pgmpy):

* compile: elimination order + junction tree (ours: ``CompiledStructure.compile(net).full``; pyAgrum:
  ``JunctionTreeGenerator().junctionTree(bn)``), median of ``--repeats``;
* first query: a fresh engine answering one posterior with 5 findings (pyAgrum: a fresh LazyPropagation told
  the target; pgmpy: a fresh VariableElimination), median over ``--repeats`` different queries;
* warm posterior: one target, 5 findings, the engine kept (pyAgrum told the target each time), median over
  ``--queries``; the target row is ≤ 1.5x the faster peer;
* all marginals with 5 findings (what the canvas shows after an evidence click; pyAgrum LazyPropagation with
  every variable a target), the engine kept, median over 3 queries (1 on networks over 500 nodes);
* agreement: the largest difference to pyAgrum over the warm queries.

Queries are seeded: a random target and 5 findings taken from one forward sample (so p(e) > 0).
"""
from __future__ import annotations

import argparse
import gzip
import logging
import os
import platform
import statistics
from functools import partial
from pathlib import Path

import numpy as np
from inference_bench import (
    lazy_propagation,
    load_pyagrum,
    make_queries,
    model_path,
    pyagrum_posterior,
    timed,
    warm_times,
)

from bnstudio.inference import DEFAULT_MEMORY_BUDGET, InferenceEngine
from bnstudio.inference.compiled import CompiledStructure
from bnstudio.inference.trees import BYTES_PER_ENTRY
from bnstudio.io import read_network

NETWORKS = ["asia", "alarm", "hailfinder", "win95pts", "andes", "pathfinder", "munin", "pigs", "link", "diabetes"]


def median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1e3


def load_pgmpy(path: Path):
    from pgmpy.readwrite import BIFReader
    logging.disable(logging.WARNING)
    return BIFReader(string=gzip.decompress(path.read_bytes()).decode()).get_model()


def measure(name: str, n_queries: int, repeats: int) -> dict:
    import pyagrum as gum
    from pgmpy.inference import VariableElimination
    path = model_path(name)
    net = read_network(path)
    bn, model = load_pyagrum(path), load_pgmpy(path)
    queries = make_queries(net, max(n_queries, repeats), seed=1, findings=5)
    row: dict = {"network": name, "nodes": len(net)}

    row["compile"] = (
        median_ms([timed(lambda: CompiledStructure.compile(net, DEFAULT_MEMORY_BUDGET / BYTES_PER_ENTRY).full)
                   for _ in range(repeats)]),
        median_ms([timed(lambda: gum.JunctionTreeGenerator().junctionTree(bn)) for _ in range(repeats)]))

    firsts = {"ours": [], "pyAgrum": [], "pgmpy": []}
    for target, evidence in queries[:repeats]:
        firsts["ours"].append(timed(lambda target=target, evidence=evidence:
                                    InferenceEngine(net).posterior(target, evidence)))
        firsts["pyAgrum"].append(timed(lambda target=target, evidence=evidence:
                                       pyagrum_posterior(lazy_propagation(bn), target, evidence)))
        firsts["pgmpy"].append(timed(lambda target=target, evidence=evidence: VariableElimination(model).query(
            [target], evidence=evidence, show_progress=False)))
    row["first"] = tuple(median_ms(firsts[k]) for k in ("ours", "pyAgrum", "pgmpy"))

    engine = InferenceEngine(net)
    warm, row["error"] = warm_times(net, bn, engine, queries[:n_queries], VariableElimination(model))
    row["warm"] = tuple(median_ms(warm[k]) for k in ("ours", "pyAgrum", "pgmpy"))

    names = net.variables
    n_all = 1 if len(net) > 500 else 3
    engine.posterior(names, queries[0][1])  # the whole tree made and its evidence-free messages cached
    everyone = lazy_propagation(bn)
    ours_all, theirs_all = [], []
    for _, evidence in queries[1:1 + n_all]:
        ours_all.append(timed(partial(engine.posterior, names, evidence)))

        def pyagrum_all(evidence=evidence):
            everyone.eraseAllEvidence()
            everyone.setEvidence(evidence)
            everyone.makeInference()
            for v in names:
                everyone.posterior(v)
        theirs_all.append(timed(pyagrum_all))
    row["all"] = (median_ms(ours_all), median_ms(theirs_all))
    return row


def report(row: dict) -> str:
    c_ours, c_gum = row["compile"]
    f_ours, f_gum, f_pg = row["first"]
    w_ours, w_gum, w_pg = row["warm"]
    a_ours, a_gum = row["all"]
    faster = min(w_gum, w_pg)
    return (f"{row['network']:<10} {row['nodes']:>5} | compile {c_ours:8.2f} ms vs pyAgrum {c_gum:7.2f} "
            f"(x{c_ours / c_gum:4.1f}) | first {f_ours:7.2f} vs pyAgrum {f_gum:7.2f} (x{f_ours / f_gum:4.1f}), "
            f"pgmpy {f_pg:7.2f} | warm {w_ours:6.2f} vs pyAgrum {w_gum:6.2f}, pgmpy {w_pg:6.2f} "
            f"(x{w_ours / faster:4.2f} the faster) | all marginals {a_ours:9.1f} vs pyAgrum {a_gum:9.1f} "
            f"(x{a_ours / a_gum:5.2f}) | max |ours - pyAgrum| {row['error']:.1e}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="*", default=NETWORKS)
    parser.add_argument("--queries", type=int, default=30, help="warm queries per network")
    parser.add_argument("--repeats", type=int, default=5, help="compile repeats and first queries")
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, numpy {np.__version__}")
    for name in args.networks:
        print(report(measure(name, args.queries, args.repeats)), flush=True)


if __name__ == "__main__":
    main()
