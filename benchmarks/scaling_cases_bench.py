"""Batched exact queries as the number of cases grows: bnstudio's one call vs pyAgrum's per-case loop, in one run.

    .venv/bin/python benchmarks/scaling_cases_bench.py [--cases 1000 10000 100000 1000000] [--peer-cases 20000]

ALARM, one target (``--target``, default BP), 5 findings per case on random other variables, their states taken
from a forward sample (so every case is possible). Ours: one ``posterior_batch`` call over all the cases (it
chunks to the memory budget and accumulates). pyAgrum: LazyPropagation told the target once, then per case
``setEvidence`` + ``posterior`` in a Python loop over ``--peer-cases`` cases (a loop over a million cases takes
minutes; its time per case does not depend on how many there are), extrapolated to N; answers are compared on
those cases. Also printed: the peak resident memory of the process after each call (it only grows).
"""
from __future__ import annotations

import argparse
import os
import platform
import resource
import time
from pathlib import Path

import numpy as np
from inference_bench import load_pyagrum, model_path

from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from bnstudio.sampling import forward_sample


def five_finding_cases(net, n: int, target: str, seed: int) -> np.ndarray:
    """(n, |V|) int8 codes: 5 findings per row on variables other than the target, -1 elsewhere."""
    rng = np.random.default_rng(seed)
    names = net.variables
    others = np.array([k for k, v in enumerate(names) if v != target])
    codes = np.full((n, len(names)), -1, dtype=np.int8)
    step = 100_000
    for start in range(0, n, step):
        rows = forward_sample(net, min(step, n - start), seed=seed + start).astype(np.int8)
        picked = others[np.argpartition(rng.random((len(rows), others.size), dtype=np.float32), 5, axis=1)[:, :5]]
        index = np.arange(len(rows))[:, None]
        codes[start + index, picked] = rows[index, picked]
    return codes


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pyagrum_loop(path: Path, net, target: str, codes: np.ndarray) -> tuple[float, np.ndarray]:
    import pyagrum as gum
    bn = load_pyagrum(path)
    engine = gum.LazyPropagation(bn)
    engine.setNumberOfThreads(1)
    engine.addTarget(target)
    names = net.variables
    evidences = [{names[k]: int(c) for k, c in enumerate(row) if c >= 0} for row in codes]
    order = [bn.variable(target).labels().index(s) for s in net.states(target)]
    out = np.empty((len(codes), net.cardinality(target)))
    start = time.perf_counter()
    for k, evidence in enumerate(evidences):
        engine.eraseAllEvidence()
        engine.setEvidence(evidence)
        out[k] = engine.posterior(target).toarray()
    return time.perf_counter() - start, out[:, order]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, nargs="*", default=[1_000, 10_000, 100_000, 1_000_000])
    parser.add_argument("--peer-cases", type=int, default=20_000)
    parser.add_argument("--target", default="BP")
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, numpy {np.__version__}")
    path = model_path("alarm")
    net = read_network(path)
    codes = five_finding_cases(net, max(args.cases + [args.peer_cases]), args.target, seed=7)
    engine = InferenceEngine(net)
    engine.posterior_batch(args.target, codes[:10])  # compile outside the timing
    peer_n = args.peer_cases
    peer_s, peer_answers = pyagrum_loop(path, net, args.target, codes[:peer_n])
    per_case = peer_s / peer_n
    ours_peer = engine.posterior_batch(args.target, codes[:peer_n])[args.target]
    print(f"pyAgrum LazyPropagation loop: {per_case * 1e6:.1f} µs per case ({peer_n} cases); "
          f"max |ours - pyAgrum| {np.abs(ours_peer - peer_answers).max():.1e}")
    for n in sorted(args.cases):
        start = time.perf_counter()
        engine.posterior_batch(args.target, codes[:n])
        ours = time.perf_counter() - start
        theirs = per_case * n
        print(f"{n:>9} cases: bnstudio one call {ours:8.3f} s ({ours / n * 1e6:5.1f} µs/case) | pyAgrum loop "
              f"{theirs:8.1f} s{' (extrapolated)' if n > peer_n else ''} | x{theirs / ours:5.1f} faster | "
              f"peak RSS {peak_rss_mib():7.0f} MiB", flush=True)


if __name__ == "__main__":
    main()
