"""Exact inference, side by side: bnstudio vs pgmpy (VariableElimination) vs pyAgrum (LazyPropagation and
VariableElimination, one thread), in one run, printing per-query medians and ratios.

    .venv/bin/python benchmarks/inference_bench.py [--networks alarm andes ...] [--queries 200]

Networks come from pgmpy's package data (bnlearn repository BIF files). Queries are seeded: a random target and
0-4 findings taken from a forward sample (so p(e) > 0). Besides single queries it times 5,000 ALARM queries in
one batched call against pyAgrum answering them in a loop, and all family marginals for 10,000 ALARM cases with
20% of cells unobserved.
"""
from __future__ import annotations

import argparse
import gzip
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from bnstudio.sampling import forward_sample, hide_at_random

NETWORKS = ["alarm", "insurance", "hailfinder", "win95pts", "andes", "munin1"]


def model_path(name: str) -> Path:
    import pgmpy
    return Path(pgmpy.__file__).parent / "utils" / "example_models" / f"{name}.bif.gz"


def make_queries(net, n: int, seed: int, findings: int | None = None) -> list[tuple[str, dict[str, str]]]:
    """Seeded (target, evidence) pairs: a random target and 0-4 findings (exactly ``findings`` if given)
    taken from one forward sample, so that p(e) > 0."""
    rng = np.random.default_rng(seed)
    names = net.variables
    queries = []
    for row in forward_sample(net, n, seed=seed):
        order = rng.permutation(len(names))
        count = rng.integers(0, 5) if findings is None else findings
        evidence = {names[k]: net.states(names[k])[row[k]] for k in order[1:1 + count]}
        queries.append((names[order[0]], evidence))
    return queries


def load_pyagrum(path: Path):
    """pyAgrum's BayesNet from a .bif.gz (pyAgrum reads plain files only)."""
    import pyagrum as gum
    with tempfile.NamedTemporaryFile("wb", suffix=".bif", delete=False) as fh:
        fh.write(gzip.decompress(path.read_bytes()))
    try:
        return gum.loadBN(fh.name)
    finally:
        os.unlink(fh.name)


def median_ms(fn, queries, budget_s: float) -> tuple[float, int]:
    """Median milliseconds per query over as many queries as fit in ``budget_s`` (at least 3)."""
    times = []
    start = time.perf_counter()
    for k, (target, evidence) in enumerate(queries):
        t0 = time.perf_counter()
        fn(target, evidence)
        times.append(time.perf_counter() - t0)
        if time.perf_counter() - start > budget_s and k >= 2:
            break
    return statistics.median(times) * 1e3, len(times)


def bnstudio_runner(net):
    engine = InferenceEngine(net)
    engine.posterior(net.variables[0])  # compile and cache outside the timing
    return lambda t, e: engine.posterior(t, e)


def pgmpy_runner(path: Path):
    from pgmpy.inference import VariableElimination
    from pgmpy.readwrite import BIFReader
    model = BIFReader(string=gzip.decompress(path.read_bytes()).decode()).get_model()
    ve = VariableElimination(model)
    return lambda t, e: ve.query([t], evidence=e, show_progress=False)


def pyagrum_runners(path: Path):
    import pyagrum as gum
    bn = load_pyagrum(path)
    runners = {}
    for label, cls in (("pyAgrum LP", gum.LazyPropagation), ("pyAgrum VE", gum.VariableElimination)):
        engine = cls(bn)
        engine.setNumberOfThreads(1)

        def run(t, e, engine=engine):
            # pyAgrum's best practice for one query: only this target, so LP computes only what it needs
            engine.eraseAllEvidence()
            engine.eraseAllTargets()
            engine.addTarget(t)
            engine.setEvidence(e)
            return engine.posterior(t).toarray()
        runners[label] = run
    return runners, bn


def single_queries(names: list[str], n_queries: int, budget_s: float) -> list[dict]:
    rows = []
    for name in names:
        path = model_path(name)
        net = read_network(path)
        queries = make_queries(net, n_queries, seed=1)
        row = {"network": name, "nodes": len(net)}
        row["bnstudio"] = median_ms(bnstudio_runner(net), queries, budget_s)
        try:
            row["pgmpy VE"] = median_ms(pgmpy_runner(path), queries, budget_s)
        except Exception as exc:  # report, keep going
            row["pgmpy VE"] = (float("nan"), 0)
            print(f"  pgmpy failed on {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
        try:
            runners, _ = pyagrum_runners(path)
            for label, fn in runners.items():
                row[label] = median_ms(fn, queries, budget_s)
        except ImportError:
            pass
        rows.append(row)
        print(format_row(row), flush=True)
    return rows


def format_row(row: dict) -> str:
    ours = row["bnstudio"][0]
    parts = [f"{row['network']:<11} {row['nodes']:>4} nodes  bnstudio {ours:7.3f} ms"]
    for label in ("pgmpy VE", "pyAgrum LP", "pyAgrum VE"):
        if label in row:
            ms, n = row[label]
            parts.append(f"{label} {ms:8.3f} ms (x{ms / ours:5.1f}, n={n})")
    return " | ".join(parts)


def batched_alarm(n_queries: int = 5000) -> None:
    path = model_path("alarm")
    net = read_network(path)
    queries = make_queries(net, n_queries, seed=5)
    target = net.variables[0]
    names = net.variables
    codes = np.full((n_queries, len(names)), -1, dtype=np.int64)
    for k, (_, evidence) in enumerate(queries):
        for var, state in evidence.items():
            codes[k, names.index(var)] = net.states(var).index(state)
    engine = InferenceEngine(net)
    engine.posterior(target)
    t0 = time.perf_counter()
    engine.posterior_batch(target, codes)
    ours = time.perf_counter() - t0
    line = f"ALARM {n_queries} queries, one batched call: bnstudio {ours * 1e3:.1f} ms"
    try:
        runners, _ = pyagrum_runners(path)
        fn = runners["pyAgrum LP"]
        evidences = [e for _, e in queries]
        t0 = time.perf_counter()
        for e in evidences:
            fn(target, e)
        theirs = time.perf_counter() - t0
        line += f" | pyAgrum LP loop {theirs * 1e3:.1f} ms (x{theirs / ours:.1f})"
    except ImportError:
        pass
    print(line, flush=True)


def family_marginals_alarm(n_cases: int = 10_000, missing: float = 0.2) -> None:
    net = read_network(model_path("alarm"))
    codes = hide_at_random(forward_sample(net, n_cases, seed=2), missing, seed=3)
    engine = InferenceEngine(net)
    engine.family_marginals_batch(codes[:10])
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        engine.family_marginals_batch(codes)
        times.append(time.perf_counter() - t0)
    print(f"ALARM all family marginals, {n_cases} cases, {missing:.0%} missing: bnstudio "
          f"{min(times) * 1e3:.1f} ms (best of 3)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="*", default=NETWORKS)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--budget", type=float, default=20.0, help="seconds per engine and network")
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, numpy {np.__version__}")
    single_queries(args.networks, args.queries, args.budget)
    batched_alarm()
    family_marginals_alarm()


if __name__ == "__main__":
    main()
