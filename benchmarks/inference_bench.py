"""Exact inference, side by side with pyAgrum (LazyPropagation, one thread, told the target) in one run: every
row printed as ours ÷ pyAgrum (below 1: ours faster), plus pgmpy's VariableElimination for the warm rows.

    .venv/bin/python benchmarks/inference_bench.py [--networks alarm pathfinder ...] [--queries 100]

Networks come from pgmpy's package data (bnlearn repository BIF files). Queries are seeded: a random target and
0-4 findings taken from a forward sample (so p(e) > 0). Per network:

* cold: a fresh engine answering one query on a network just read (ours: ``InferenceEngine(net).posterior``;
  pyAgrum: a fresh ``LazyPropagation`` told the target and the evidence), median over ``--cold`` queries;
* warm: one target, the engine kept (pyAgrum told the target each time), median over ``--queries``;
* all marginals: every variable's posterior under one query's evidence, the engine kept (pyAgrum:
  LazyPropagation with every variable a target), median over 3 queries (1 on networks over 150 nodes);
* agreement: the largest |ours − pyAgrum| over every answer compared, both engines given the same
  double-precision tables (see :func:`exact_twins`).

Every timed call runs with the garbage collector held off (as timeit does). Besides, it times 5,000 ALARM queries
in one batched call against pyAgrum answering them in a loop, and all family marginals for 10,000 ALARM cases
with 20% of cells unobserved.
"""
from __future__ import annotations

import argparse
import gc
import gzip
import json
import logging
import os
import platform
import statistics
import tempfile
import time
from functools import partial
from pathlib import Path

import numpy as np

from bnstudio.inference import InferenceEngine
from bnstudio.io import read_network
from bnstudio.sampling import forward_sample, hide_at_random

NETWORKS = ["alarm", "insurance", "hailfinder", "win95pts", "andes", "pathfinder", "pigs", "munin1", "munin",
            "link", "diabetes"]


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


def exact_twins(path: Path):
    """Our network and pyAgrum's with the very same double-precision tables: the file's, each row divided by its
    sum (what our engine uses; bnlearn's rows sum to 1 within ~1e-6). pyAgrum's own BIF reader parses
    probabilities as 32-bit floats (0.9 becomes 0.89999998), which alone moves its answers by ~1e-8, so its
    network is built from ours (:func:`bnstudio.interop.to_pyagrum`) for answers comparable to 1e-9."""
    from bnstudio.core.cpt_ops import normalise_rows
    from bnstudio.interop import to_pyagrum
    net = read_network(path)
    for var in net.variables:
        net.set_cpt(var, normalise_rows(np.asarray(net.cpt(var))))
    return net, to_pyagrum(net)


def timed(fn, clock=time.perf_counter) -> float:
    """Seconds one call takes, with the garbage collector held off during the call (``clock``:
    ``time.process_time`` for this process's CPU seconds)."""
    return timed_result(fn, clock=clock)[0]


def timed_result(fn, repeat: int = 1, clock=time.perf_counter) -> tuple[float, object]:
    """(the fewest seconds of ``repeat`` calls, the last call's result), the garbage collector held off during
    each call (as timeit does)."""
    best, out = float("inf"), None
    for _ in range(repeat):
        gc.disable()
        try:
            start = clock()
            out = fn()
            best = min(best, clock() - start)
        finally:
            gc.enable()
    return best, out


def lazy_propagation(bn):
    import pyagrum as gum
    engine = gum.LazyPropagation(bn)
    engine.setNumberOfThreads(1)
    return engine


def pyagrum_posterior(engine, target: str, evidence: dict) -> np.ndarray:
    """pyAgrum's best practice for one query: only this target, so LazyPropagation computes only what it needs."""
    engine.eraseAllEvidence()
    engine.eraseAllTargets()
    engine.addTarget(target)
    engine.setEvidence(evidence)
    return engine.posterior(target).toarray()


def pgmpy_engine(path: Path):
    from pgmpy.inference import VariableElimination
    from pgmpy.readwrite import BIFReader
    logging.disable(logging.WARNING)
    return VariableElimination(BIFReader(string=gzip.decompress(path.read_bytes()).decode()).get_model())


def median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1e3


def measure(name: str, n_queries: int, n_cold: int, with_pgmpy: bool) -> dict:
    """The cold, warm and all-marginal rows of one network (see module docstring)."""
    path = model_path(name)
    net, bn = exact_twins(path)
    queries = make_queries(net, max(n_queries, n_cold, 4), seed=1)
    row: dict = {"network": name, "nodes": len(net)}
    InferenceEngine(net).posterior(net.variables[0])  # the modules loaded and numpy's paths warm

    cold = {"ours": [], "pyAgrum": []}
    for target, evidence in queries[:n_cold]:
        cold["ours"].append(timed(lambda target=target, evidence=evidence:
                                  InferenceEngine(net).posterior(target, evidence)))
        cold["pyAgrum"].append(timed(lambda target=target, evidence=evidence:
                                     pyagrum_posterior(lazy_propagation(bn), target, evidence)))
    row["cold"] = (median_ms(cold["ours"]), median_ms(cold["pyAgrum"]))

    engine = InferenceEngine(net)
    warm, error = warm_times(net, bn, engine, queries[:n_queries], pgmpy_engine(path) if with_pgmpy else None)
    row["warm"] = (median_ms(warm["ours"]), median_ms(warm["pyAgrum"]),
                   median_ms(warm["pgmpy"]) if warm["pgmpy"] else None)
    row["declared"], declared_error = declared_target(net, bn, engine, queries[:n_queries])
    error = max(error, declared_error)

    names = net.variables
    n_all = 1 if len(net) > 150 else 3  # pyAgrum takes 1-30 s on munin1, munin and link
    everyone = lazy_propagation(bn)
    ours_all, theirs_all = [], []
    for _, evidence in queries[1:1 + n_all]:
        ours = engine.posterior(names, evidence)
        ours_all.append(timed(partial(engine.posterior, names, evidence)))

        theirs: dict[str, np.ndarray] = {}

        def pyagrum_all(evidence=evidence, theirs=theirs):
            everyone.eraseAllEvidence()
            everyone.setEvidence(evidence)
            everyone.makeInference()
            theirs.update((v, everyone.posterior(v).toarray()) for v in names)
        theirs_all.append(timed(pyagrum_all))
        for v in names:
            order = [bn.variable(v).labels().index(s) for s in net.states(v)]
            error = max(error, float(np.abs(ours[v] - theirs[v][order]).max()))
    row["all"] = (median_ms(ours_all), median_ms(theirs_all))
    row["error"] = error
    return row


def warm_times(net, bn, engine: InferenceEngine, queries: list, ve=None) -> tuple[dict[str, list[float]], float]:
    """Seconds per warm query {"ours", "pyAgrum", "pgmpy"} (pgmpy's VariableElimination ``ve`` if given; pyAgrum
    told each query's target) and the largest |ours - pyAgrum|."""
    lp = lazy_propagation(bn)
    warm: dict[str, list[float]] = {"ours": [], "pyAgrum": [], "pgmpy": []}
    error = 0.0
    for target, evidence in queries:
        ours = engine.posterior(target, evidence)[target]  # answered once untimed: the engine is warm
        warm["ours"].append(timed(partial(engine.posterior, target, evidence)))
        warm["pyAgrum"].append(timed(partial(pyagrum_posterior, lp, target, evidence)))
        if ve is not None:
            warm["pgmpy"].append(timed(partial(ve.query, [target], evidence=evidence, show_progress=False)))
        theirs = pyagrum_posterior(lp, target, evidence)
        order = [bn.variable(target).labels().index(s) for s in net.states(target)]
        error = max(error, float(np.abs(ours - theirs[order]).max()))
    return warm, error


def declared_target(net, bn, engine: InferenceEngine, queries: list, n_targets: int = 5
                    ) -> tuple[tuple[float, float], float]:
    """(ours, pyAgrum) median ms with the target declared once: ``n_targets`` targets, each asked under every
    query's evidence (without the target's own finding); pyAgrum keeps its LazyPropagation and its target and
    changes only the evidence, so it reuses whatever the new evidence leaves valid. Also the largest
    |ours - pyAgrum|."""
    ours_ms, theirs_ms, error = [], [], 0.0
    for target, _ in queries[:n_targets]:
        lp = lazy_propagation(bn)
        lp.addTarget(target)
        order = [bn.variable(target).labels().index(s) for s in net.states(target)]
        for _, evidence in queries:
            evidence = {k: v for k, v in evidence.items() if k != target}

            def theirs(lp=lp, evidence=evidence, target=target):
                lp.eraseAllEvidence()
                lp.setEvidence(evidence)
                return lp.posterior(target).toarray()
            ours = engine.posterior(target, evidence)[target]
            ours_ms.append(timed(partial(engine.posterior, target, evidence)))
            theirs_ms.append(timed(theirs))
            error = max(error, float(np.abs(ours - theirs()[order]).max()))
    return (median_ms(ours_ms), median_ms(theirs_ms)), error


def format_row(row: dict) -> str:
    (c_ours, c_gum), (w_ours, w_gum, w_pg), (a_ours, a_gum) = row["cold"], row["warm"], row["all"]
    d_ours, d_gum = row["declared"]
    pgmpy = "" if w_pg is None else f", pgmpy VE {w_pg:7.3f} (x{w_ours / w_pg:4.2f})"
    return (f"{row['network']:<10} {row['nodes']:>5} | cold {c_ours:7.3f} ms vs pyAgrum {c_gum:7.3f} "
            f"(x{c_ours / c_gum:4.2f}) | warm {w_ours:6.3f} vs pyAgrum {w_gum:6.3f} (x{w_ours / w_gum:4.2f}){pgmpy}"
            f" | target declared {d_ours:6.3f} vs pyAgrum {d_gum:6.3f} (x{d_ours / d_gum:4.2f})"
            f" | all marginals {a_ours:8.1f} vs pyAgrum {a_gum:8.1f} (x{a_ours / a_gum:4.2f}) | "
            f"max |ours - pyAgrum| {row['error']:.1e}")


FIRST_IN_PROCESS = """
import json, sys, time
ours = sys.argv[1] == "ours"
if ours:
    from bnstudio.io import read_network
    net = read_network(sys.argv[2])
else:
    import pyagrum as gum
    bn = gum.loadBN(sys.argv[2])
target, evidence = sys.argv[3], json.loads(sys.argv[4])
clock = time.process_time  # CPU seconds: on a busy machine a few-ms wall time is mostly waiting for a core
start = clock()
if ours:
    from bnstudio.inference import InferenceEngine
    imported = clock()
    answer = InferenceEngine(net).posterior(target, evidence)[target]
else:
    engine = gum.LazyPropagation(bn)
    engine.setNumberOfThreads(1)
    engine.addTarget(target)
    engine.setEvidence(evidence)
    answer = engine.posterior(target).toarray()
    imported = start
end = clock()
print((end - start) * 1e3, (end - imported) * 1e3, end * 1e3, json.dumps(answer.tolist()))
"""


def first_in_process(name: str, runs: int) -> dict:
    """The first query of a process that has just read the network, in CPU milliseconds of that process, medians
    over ``runs`` fresh processes with different queries (seeded), ours and pyAgrum's interleaved. Returns
    {"ours", "engine_only", "pyAgrum", "whole_ours", "whole_pyAgrum", "error"} and prints them. What each counts:

    * ``ours``: importing the engine (``bnstudio.inference``; the reader has loaded numpy and the core), making
      an ``InferenceEngine`` and answering; ``engine_only`` the same without the import;
    * ``pyAgrum``: making a ``LazyPropagation`` (one thread, told the target and the evidence) and answering.
      pyAgrum's inference code is loaded by ``import pyagrum``, which its reader needs: none of its import is
      counted, so this row counts more on our side than on its;
    * ``whole_*``: the whole process's CPU from its start to the answer (interpreter, every import, the read, the
      engine, the query): the same things counted on both sides.

    ``error`` is the largest |ours - pyAgrum| of the answers (pyAgrum reads BIF probabilities as 32-bit floats,
    so ~1e-8 here: :func:`exact_twins` gives the 1e-9 comparison). Byte-code is cached as an installed program
    has it (without it, compiling the engine's sources costs ours some 50 ms more)."""
    import subprocess
    import sys
    path = model_path(name)
    net = read_network(path)
    queries = make_queries(net, runs, seed=7)
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / f"{name}.bif"
        plain.write_bytes(gzip.decompress(path.read_bytes()))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        times: dict[str, list[tuple[float, ...]]] = {"ours": [], "pyAgrum": []}
        error = 0.0
        for k, (target, evidence) in enumerate([queries[0]] + queries):
            answers = {}
            for who in times if k % 2 else reversed(times):  # alternate which side runs first
                done = subprocess.run([sys.executable, "-c", FIRST_IN_PROCESS, who, str(plain), target,
                                       json.dumps(evidence)], env=env, capture_output=True, text=True, check=True)
                *figures, answer = done.stdout.split(maxsplit=3)
                answers[who] = np.array(json.loads(answer))
                if k:  # the first round writes the byte-code cache
                    times[who].append(tuple(map(float, figures)))
            # both list the states in the file's order
            error = max(error, float(np.abs(answers["ours"] - answers["pyAgrum"]).max()))
    (ours, engine_only, whole_ours), (theirs, _, whole_theirs) = (
        [statistics.median(t[k] for t in times[who]) for k in (0, 1, 2)] for who in ("ours", "pyAgrum"))
    print(f"{name}: first query of a fresh process (CPU): engine import + engine + query {ours:.2f} ms "
          f"(x{ours / theirs:.2f}), engine + query {engine_only:.2f} ms (x{engine_only / theirs:.2f}) vs pyAgrum "
          f"LazyPropagation + query {theirs:.2f} ms; whole process to the answer {whole_ours:.0f} vs "
          f"{whole_theirs:.0f} ms (x{whole_ours / whole_theirs:.2f}); max |ours - pyAgrum| {error:.1e}; medians "
          f"of {runs} processes", flush=True)
    return {"ours": ours, "engine_only": engine_only, "pyAgrum": theirs, "whole_ours": whole_ours,
            "whole_pyAgrum": whole_theirs, "error": error}


def batched_alarm(n_queries: int = 5000) -> None:
    """5,000 ALARM queries, one target, in one batched call against pyAgrum answering them in a loop."""
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
    ours = timed(lambda: engine.posterior_batch(target, codes))
    lp = lazy_propagation(load_pyagrum(path))
    theirs = timed(lambda: [pyagrum_posterior(lp, target, e) for _, e in queries])
    print(f"ALARM {n_queries} queries, one batched call: bnstudio {ours * 1e3:.1f} ms vs pyAgrum LP loop "
          f"{theirs * 1e3:.1f} ms (x{ours / theirs:.3f})", flush=True)


def family_marginals_alarm(n_cases: int = 10_000, missing: float = 0.2) -> None:
    """All family marginals of 10,000 ALARM cases with 20% of cells missing (EM's E-step; pyAgrum has no batch)."""
    net = read_network(model_path("alarm"))
    codes = hide_at_random(forward_sample(net, n_cases, seed=2), missing, seed=3)
    engine = InferenceEngine(net)
    engine.family_marginals_batch(codes[:10])
    best = min(timed(lambda: engine.family_marginals_batch(codes)) for _ in range(3))
    print(f"ALARM all family marginals, {n_cases} cases, {missing:.0%} missing: bnstudio {best * 1e3:.1f} ms "
          f"(best of 3)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="*", default=NETWORKS)
    parser.add_argument("--queries", type=int, default=100, help="warm queries per network")
    parser.add_argument("--cold", type=int, default=20, help="cold queries (fresh engines) per network")
    parser.add_argument("--no-pgmpy", action="store_true", help="leave pgmpy's column out")
    parser.add_argument("--no-batch", action="store_true", help="leave the two ALARM batch rows out")
    parser.add_argument("--process", nargs="*", default=["pathfinder"],
                        help="networks whose first query in a fresh process is timed")
    parser.add_argument("--runs", type=int, default=7, help="fresh processes per network for --process")
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.2f}, Python {platform.python_version()}, numpy {np.__version__}; "
          f"x = ours ÷ peer (below 1: ours faster)")
    for name in args.networks:
        print(format_row(measure(name, args.queries, args.cold, not args.no_pgmpy)), flush=True)
    for name in args.process:
        first_in_process(name, args.runs)
    if not args.no_batch:
        batched_alarm()
        family_marginals_alarm()


if __name__ == "__main__":
    main()
