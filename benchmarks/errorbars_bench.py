"""Error bars on ALARM (Singh §3.6): accuracy against Monte Carlo and speed.

    .venv/bin/python benchmarks/errorbars_bench.py

Uniform prior (1 per cell) + 200 sampled rows, 50 random queries (target + 1-5 findings). Prints the fraction of
queries whose delta-method variance is within 20% of the Monte-Carlo variance (r = 2000), the mean coverage of
the normal and Beta 90% intervals, KS conformity counts (p > 0.001, Singh §3.6.1), and timings: one query's error
bars (variance, both intervals, contributions), a Monte-Carlo check with r = 1000, a 50-query batch.
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path

import numpy as np

from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from bnstudio.learn.params import make_learner
from bnstudio.sampling import forward_sample
from bnstudio.uncertainty import error_bars

ALARM = Path(__file__).resolve().parents[1] / "resources" / "networks" / "alarm.bif"


def queries(net, n, seed):
    rng = np.random.default_rng(seed)
    names = net.variables
    out = []
    for row in forward_sample(net, n, seed=seed):
        order = rng.permutation(len(names))
        evidence = {names[k]: net.states(names[k])[row[k]] for k in order[1:1 + rng.integers(1, 6)]}
        out.append(({names[order[0]]: net.states(names[order[0]])[row[order[0]]]}, evidence))
    return out


def main() -> None:
    truth = read_network(ALARM)
    net = make_learner("mp").fit(truth, forward_sample(truth, 200, seed=7)).network(truth)
    engine = InferenceEngine(net)
    qs = queries(net, 50, seed=11)
    results = [error_bars(net, q, e, mc=2000, seed=k, engine=engine) for k, (q, e) in enumerate(qs)]
    ratio = np.array([r.variance / r.mc.variance for r in results])
    print(f"delta variance within 20% of MC (r=2000): {np.mean(np.abs(ratio - 1) <= 0.2):.0%} of 50 queries "
          f"(median ratio {np.median(ratio):.3f})")
    cov_n = np.mean([r.mc.coverage_normal for r in results])
    cov_b = np.mean([r.mc.coverage_beta for r in results if r.mc.coverage_beta is not None])
    print(f"mean coverage of 90% intervals: normal {cov_n:.3f}, Beta {cov_b:.3f}")
    ks_n = sum(1 for r in results if r.mc.ks_normal_p is not None and r.mc.ks_normal_p > 1e-3)
    ks_b = sum(1 for r in results if r.mc.ks_beta_p is not None and r.mc.ks_beta_p > 1e-3)
    print(f"KS conformity (p > 0.001): normal {ks_n}/50, Beta {ks_b}/50")
    times = []
    for q, e in qs:
        t0 = time.perf_counter()
        error_bars(net, q, e, engine=engine)
        times.append(time.perf_counter() - t0)
    print(f"one query (variance, intervals, contributions): median {statistics.median(times) * 1e3:.2f} ms")
    t0 = time.perf_counter()
    error_bars(net, *qs[0], mc=1000, seed=0, engine=engine)
    print(f"Monte-Carlo check r=1000: {(time.perf_counter() - t0) * 1e3:.1f} ms")
    t0 = time.perf_counter()
    for q, e in qs:
        error_bars(net, q, e, engine=engine)
    print(f"50-query batch (one compiled engine): {(time.perf_counter() - t0) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
