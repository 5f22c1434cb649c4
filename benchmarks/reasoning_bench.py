"""MPE (and the 5 most probable explanations) beside our own all-marginal posterior, and the peers' MPE, in one run.

For each bnlearn network (pgmpy's package data) and a few seeded evidence sets (4 findings from a forward
sample, so p(e) > 0), the warm median seconds of

* ``posterior``: ``engine.posterior(every variable, e)`` — one calibration of the junction tree;
* ``mpe``: ``engine.mpe(e)`` — max-product collect and traceback on the same tree (target: ≤ 1.5 × posterior);
* ``top5``: ``engine.mpe(e, top=5)`` — max-calibration and Nilsson's partitioning;
* pyAgrum 3.3 ``LazyPropagation.mpe()`` on the same tables (:func:`inference_bench.exact_twins`), its time or
  its error;
* pgmpy ``VariableElimination.map_query`` over every unobserved variable (``--pgmpy``, in a child process
  limited to ``--pgmpy-memory`` GiB of address space so that its allocation fails instead of swapping): its
  time or its error (the size it asks for).

    python benchmarks/reasoning_bench.py [--networks alarm munin ...] [--queries 5] [--pgmpy alarm]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from inference_bench import exact_twins, make_queries, model_path, timed_result

from bnstudio.inference import InferenceEngine

NETWORKS = ["alarm", "insurance", "hailfinder", "win95pts", "andes", "pathfinder", "pigs", "diabetes", "munin",
            "link"]


def ours(engine: InferenceEngine, names: list[str], evidences: list[dict]) -> dict[str, float]:
    """Median over the evidence sets of the fewest warm seconds of 3 calls, for posterior, mpe and top-5 (the
    machine is shared: the least of a few calls is the least noisy)."""
    engine.posterior(names, evidences[0])
    engine.mpe(evidences[0])
    out: dict[str, list[float]] = {"posterior": [], "mpe": [], "top5": []}
    for evidence in evidences:
        out["posterior"].append(timed_result(partial(engine.posterior, names, evidence), repeat=3)[0])
        out["mpe"].append(timed_result(partial(engine.mpe, evidence), repeat=3)[0])
        out["top5"].append(timed_result(partial(engine.mpe, evidence, top=5), repeat=3)[0])
    return {k: statistics.median(v) for k, v in out.items()}


def pyagrum_mpe(bn, evidence: dict) -> tuple[float | None, str]:
    """(seconds, "") of pyAgrum's mpe, or (None, its error)."""
    import pyagrum as gum
    ie = gum.LazyPropagation(bn)
    ie.setEvidence(evidence)
    start = time.perf_counter()
    try:
        ie.mpe()
    except Exception as exc:  # what the peer says is what we report
        return None, f"{type(exc).__name__}: {str(exc).strip().splitlines()[0]}"
    return time.perf_counter() - start, ""


PGMPY_CHILD = """
import gzip, resource, sys, tempfile, time, warnings
warnings.simplefilter("ignore")
limit = int(float(sys.argv[2]) * 2**30)
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from pgmpy.inference import VariableElimination
from pgmpy.readwrite import BIFReader
import json
with tempfile.NamedTemporaryFile("wb", suffix=".bif") as fh:
    fh.write(gzip.decompress(open(sys.argv[1], "rb").read())); fh.flush()
    model = BIFReader(fh.name).get_model()
evidence = json.loads(sys.argv[3])
start = time.perf_counter()
try:
    VariableElimination(model).map_query(variables=[v for v in model.nodes() if v not in evidence],
                                         evidence=evidence, show_progress=False)
    print(f"{time.perf_counter() - start:.3f} s")
except BaseException as exc:
    print(f"{type(exc).__name__}: {exc}"[:160])
"""


def pgmpy_map(name: str, evidence: dict, memory_gib: float) -> str:
    """pgmpy's map_query over every unobserved variable, in a memory-limited child process: its time or error."""
    import json
    result = subprocess.run([sys.executable, "-c", PGMPY_CHILD, str(model_path(name)), str(memory_gib),
                             json.dumps(evidence)], capture_output=True, text=True, timeout=1800)
    return (result.stdout.strip() or result.stderr.strip().splitlines()[-1])[:160]


def measure(name: str, n_queries: int) -> None:
    net, bn = exact_twins(model_path(name))
    engine = InferenceEngine(net)
    names = net.variables
    evidences = [e for _, e in make_queries(net, n_queries, seed=7, findings=4)]
    t = ours(engine, names, evidences)
    gum_times, errors = [], set()
    for evidence in [{}] + evidences:
        seconds, error = pyagrum_mpe(bn, evidence)
        if seconds is None:
            errors.add(error)
        else:
            gum_times.append(seconds)
    theirs = (f"pyAgrum mpe {statistics.median(gum_times):.4f} s" if gum_times else "pyAgrum mpe fails") + (
        f" ({len(gum_times)}/{n_queries + 1} answered; {'; '.join(sorted(errors))})" if errors else "")
    print(f"{name:11s} posterior {t['posterior']:8.4f} s | mpe {t['mpe']:8.4f} s (x{t['mpe'] / t['posterior']:.2f}) "
          f"| top5 {t['top5']:8.4f} s (x{t['top5'] / t['posterior']:.2f}) | {theirs}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="*", default=NETWORKS)
    parser.add_argument("--queries", type=int, default=5, help="evidence sets per network (4 findings each)")
    parser.add_argument("--pgmpy", nargs="*", default=["alarm"], help="networks to ask pgmpy's map_query")
    parser.add_argument("--pgmpy-memory", type=float, default=4.0, help="GiB of address space for pgmpy's process")
    args = parser.parse_args()
    for name in args.networks:
        measure(name, args.queries)
    for name in args.pgmpy:
        net, _ = exact_twins(model_path(name))
        evidence = make_queries(net, 1, seed=7, findings=4)[0][1]
        for given in ({}, evidence):
            print(f"pgmpy map_query on {name} ({len(given)} findings): {pgmpy_map(name, given, args.pgmpy_memory)}",
                  flush=True)


if __name__ == "__main__":
    main()
