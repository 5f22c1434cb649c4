"""The Monte-Carlo check of the error bars as the number of draws grows: andes, time and peak memory, vs pyAgrum.

    .venv/bin/python benchmarks/scaling_draws_bench.py [--network andes] [--draws 230 1000 5000] [--peer-draws 20]

Singh §3.6: draw r parameter sets Θ_i from the Dirichlet rows (α = ESS · θ, ESS 50 per row here) and answer the
query exactly under each. Ours: ``query_samples`` (draws in chunks that fit the engine's memory budget, one
batched propagation per chunk). Each size runs in a fresh child process so its peak resident memory is its own;
"beyond the start" is that peak minus the resident size once the network is read and compiled. The query is a
seeded random target with 5 findings from a forward sample. Issue 13 found the check failing at >= 230 draws on
andes (8.7 GiB at 1,000). pyAgrum has no such check; its equivalent is a loop that writes every CPT of a draw
into the network and runs a fresh LazyPropagation (told the target; a kept engine
would not see the new CPTs), timed on ``--peer-draws`` draws and extrapolated;
its answers are compared with ours on those draws.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numpy as np
from processes import peak_mib, rss_mib, run_child

ESS = 50.0




def setup(name: str):
    from inference_bench import make_queries, model_path

    from bnstudio.io import read_network
    net = read_network(model_path(name))
    target, evidence = make_queries(net, 1, seed=5, findings=5)[0]
    alpha = {v: ESS * np.asarray(net.cpt(v), dtype=float) + 1e-3 for v in net.variables}
    query = {target: net.states(target)[0]}
    return net, alpha, query, evidence


def child_ours(name: str, r: int) -> dict:
    from bnstudio.inference import InferenceEngine
    from bnstudio.uncertainty.montecarlo import query_samples
    net, alpha, query, evidence = setup(name)
    engine = InferenceEngine(net)
    query_samples(net, alpha, query, evidence, 2, seed=1, engine=engine)   # compile outside the measure
    base = rss_mib()
    start = time.perf_counter()
    samples = query_samples(net, alpha, query, evidence, r, seed=1, engine=engine)
    seconds = time.perf_counter() - start
    peak = peak_mib()
    return {"seconds": seconds, "beyond_mib": peak - base, "first": samples[:50].tolist()}


def child_pyagrum(name: str, r: int) -> dict:
    import pyagrum as gum
    from inference_bench import load_pyagrum, model_path

    from bnstudio.uncertainty.dirichlet import sample_parameters
    net, alpha, query, evidence = setup(name)
    bn = load_pyagrum(model_path(name))
    params = sample_parameters(alpha, r, 1)
    (target, state), = query.items()
    findings = {v: bn.variable(v).labels().index(s) for v, s in evidence.items()}
    axes = {v: [net.parents(v).index(n) if n != v else len(net.parents(v)) for n in reversed(bn.cpt(v).names)]
            for v in net.variables}
    answers = []
    start = time.perf_counter()
    for i in range(r):
        for v in net.variables:
            bn.cpt(v).fillWith(np.transpose(params[v][i], axes[v]).ravel().tolist())
        engine = gum.LazyPropagation(bn)     # a kept engine does not see CPTs written after it was made
        engine.setNumberOfThreads(1)
        engine.addTarget(target)
        engine.setEvidence(findings)
        engine.makeInference()
        answers.append(engine.posterior(target)[bn.variable(target).labels().index(state)])
    return {"seconds": time.perf_counter() - start, "first": answers}




def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", default="andes")
    parser.add_argument("--draws", type=int, nargs="*", default=[230, 1000, 5000])
    parser.add_argument("--peer-draws", type=int, default=20, help="0: skip pyAgrum")
    parser.add_argument("--child", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, name, r = args.child
        print(json.dumps((child_ours if kind == "ours" else child_pyagrum)(name, int(r))))
        return
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, numpy {np.__version__}; load {os.getloadavg()[0]:.1f}")
    per_draw = None
    if args.peer_draws:
        theirs = run_child(__file__, "pyagrum", args.network, str(args.peer_draws))
        if "error" in theirs:
            print(f"pyAgrum loop failed: {theirs['error']}")
        else:
            per_draw = theirs["seconds"] / args.peer_draws
            mine = run_child(__file__, "ours", args.network, str(args.peer_draws))
            error = np.abs(np.array(mine["first"]) - np.array(theirs["first"])).max()
            print(f"pyAgrum loop (CPTs written, LazyPropagation): {per_draw * 1e3:.1f} ms per draw "
                  f"({args.peer_draws} draws); max |ours - pyAgrum| {error:.1e}", flush=True)
    print(f"Monte-Carlo check, {args.network}, 5 findings:")
    for r in sorted(args.draws):
        ours = run_child(__file__, "ours", args.network, str(r))
        if "error" in ours:
            print(f"{r:>7} draws: failed: {ours['error']}", flush=True)
            continue
        peer = (f" | pyAgrum loop ~{per_draw * r:7.1f} s (extrapolated), x{per_draw * r / ours['seconds']:.1f}"
                if per_draw else "")
        print(f"{r:>7} draws: {ours['seconds']:7.2f} s ({ours['seconds'] / r * 1e3:5.2f} ms/draw) | peak beyond the "
              f"start {ours['beyond_mib']:6.0f} MiB{peer}", flush=True)


if __name__ == "__main__":
    main()
