"""Approximate inference side by side: our likelihood weighting and loopy BP vs pyAgrum's WeightedSampling and
LoopyBeliefPropagation, each answer's largest error against the exact posterior, in one run.

    .venv/bin/python benchmarks/approximate_bench.py [--networks alarm munin] [--queries 5] [--samples 100000]

Per network: seeded queries (a random target, 3 findings from one forward sample, so p(e) > 0), our time and
error at ``--samples`` samples, pyAgrum's WeightedSampling stopped at ``--peer-samples`` samples (epsilon and its
rate set to 0: it stops at setMaxIter; it draws about 2,000-3,000 samples a second on ALARM, so the same 10^5
would take minutes per query), both loopy BPs, and the ratios ours ÷ pyAgrum (below 1: ours faster) — for
sampling, of the time per sample.
Then the 40x40 grid (binary, treewidth 40) that no exact engine here holds: our answer and its standard error.
The issue's target: munin within 0.01 of exact at 10^5 samples in under a second (docs/inference.md §12).
"""
from __future__ import annotations

import argparse
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.inference_bench import load_pyagrum, make_queries, model_path
from bnstudio.inference import InferenceEngine
from bnstudio.inference.loopy import loopy_belief_propagation
from bnstudio.inference.sampled import likelihood_weighting
from bnstudio.io import read_network


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def pyagrum_answer(bn, kind: str, target: str, evidence: dict[str, str], samples: int) -> tuple[np.ndarray, int]:
    """(pyAgrum's posterior of ``target``, the samples its WeightedSampling drew: 0 for loopy BP)."""
    import pyagrum as gum
    ie = gum.WeightedSampling(bn) if kind == "lw" else gum.LoopyBeliefPropagation(bn)
    if kind == "lw":
        ie.setEpsilon(0.0)
        ie.setMinEpsilonRate(0.0)
        ie.setMaxIter(samples)
        ie.setPeriodSize(100)
        ie.setMaxTime(600)
    ie.setEvidence(evidence)
    ie.makeInference()
    drawn = ie.nbrIterations() if kind == "lw" else 0   # one iteration is one sample; it may stop earlier
    return np.asarray(ie.posterior(target).toarray()), drawn


def measure(name: str, n_queries: int, samples: int, peer_samples: int, peers: bool = True) -> None:
    path = model_path(name)
    net = read_network(path)
    bn = load_pyagrum(path)
    engine = InferenceEngine(net)
    rows: dict[str, list[float]] = {"ours lw": [], "pyAgrum lw": [], "ours bp": [], "pyAgrum bp": []}
    peer_drawn = []
    errors = {k: [] for k in rows}
    for k, (target, evidence) in enumerate(make_queries(net, n_queries, seed=1, findings=3)):
        exact = engine.posterior(target, evidence)[target]
        # the loop's values bound now (default arguments), whenever a run is called
        runs = {"ours lw": lambda target=target, evidence=evidence, k=k: (
                    likelihood_weighting(net, target, evidence, samples, seed=k).posteriors[target], 0),
                "pyAgrum lw": partial(pyagrum_answer, bn, "lw", target, evidence, peer_samples),
                "ours bp": lambda target=target, evidence=evidence: (
                    loopy_belief_propagation(net, target, evidence).posteriors[target], 0),
                "pyAgrum bp": partial(pyagrum_answer, bn, "bp", target, evidence, peer_samples)}
        for label, run in runs.items():
            if not peers and label.startswith("pyAgrum"):
                continue
            seconds, (answer, drawn) = timed(run)
            rows[label].append(seconds)
            if label == "pyAgrum lw":
                peer_drawn.append(drawn)
            errors[label].append(float(np.abs(np.asarray(answer) - exact).max()))
    med = {k: float(np.median(v)) for k, v in rows.items() if v}
    if not peers:
        print(f"{name:10s} | lw: ours {samples} samples {med['ours lw']:.3f} s (max err {max(errors['ours lw']):.4f})"
              f" | loopy bp: ours {med['ours bp']:.3f} s ({max(errors['ours bp']):.4f})", flush=True)
        return
    peer = int(np.median(peer_drawn))
    per_sample = (med["ours lw"] / samples) / (med["pyAgrum lw"] / peer)
    print(f"{name:10s} | lw: ours {samples} samples {med['ours lw']:.3f} s (max err {max(errors['ours lw']):.4f}) "
          f"vs pyAgrum {peer} samples {med['pyAgrum lw']:.3f} s ({max(errors['pyAgrum lw']):.4f}), "
          f"per sample x{per_sample:.4f}"
          f" | loopy bp: ours {med['ours bp']:.3f} s ({max(errors['ours bp']):.4f}) vs pyAgrum "
          f"{med['pyAgrum bp']:.3f} s ({max(errors['pyAgrum bp']):.4f}) x{med['ours bp'] / med['pyAgrum bp']:.2f}",
          flush=True)


def grid_row(samples: int) -> None:
    from tests.cli.test_query_paths import grid

    net = grid(40, 2)
    seconds, answer = timed(lambda: likelihood_weighting(net, "x39_39", {"x0_0": "s0", "x20_25": "s1"}, samples,
                                                         seed=0))
    print(f"grid 40x40  | lw {samples} samples: {seconds:.2f} s, p(x39_39 = s0 | e) = "
          f"{answer.posteriors['x39_39'][0]:.4f} ± {answer.standard_errors['x39_39'][0]:.4f} (standard error)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="*", default=["alarm", "hailfinder", "pathfinder", "munin"])
    parser.add_argument("--queries", type=int, default=5)
    parser.add_argument("--samples", type=int, default=100_000)
    parser.add_argument("--peer-samples", type=int, default=5_000)
    parser.add_argument("--no-peers", action="store_true",
                        help="ours only (pyAgrum's sampler takes minutes a query on munin)")
    args = parser.parse_args()
    for name in args.networks:
        measure(name, args.queries, args.samples, args.peer_samples, not args.no_peers)
    grid_row(args.samples)


if __name__ == "__main__":
    main()
