"""The command line as a user runs it: whole processes, side by side with pyAgrum's equivalent process.

    .venv/bin/python benchmarks/scaling_cli_bench.py [--queries 5000] [--runs 5] [--network FILE.bif]
                                                     [--before /path/to/other/checkout]

Times whole processes, as medians of ``--runs`` runs (the processes interleaved, so load on a shared machine hits
both alike): wall-clock seconds, and CPU seconds (user + system, from the child's resource usage), which a busy
machine disturbs less. bnstudio runs as ``python -m bnstudio`` (:func:`bnstudio.cli.main.run_program`):

* ``bnstudio query NET --queries Q.json --json`` answering ``--queries`` seeded ALARM queries (a random target and
  0-4 findings from a forward sample, as in ``inference_bench.py``), against a ``python -c`` script that reads the
  same network with pyAgrum, answers the same queries with LazyPropagation (one target each, one thread) and
  prints the same JSON; the run stops unless both outputs agree to 1e-6;
* the start-up of ``bnstudio info NET``, ``bnstudio --help`` and ``python -c "import bnstudio"``, against
  ``python -c pass``.

``--before DIR`` also runs the bnstudio of another checkout (e.g. the main branch) through ``PYTHONPATH``, so one
run prints before and after.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from inference_bench import make_queries  # the same seeded queries as the in-process inference benchmark

ALARM = Path(__file__).resolve().parents[1] / "resources" / "networks" / "alarm.bif"

PYAGRUM = """
import json, sys
import pyagrum as gum
bn = gum.loadBN(sys.argv[1])
with open(sys.argv[2]) as fh:
    queries = json.load(fh)
ie = gum.LazyPropagation(bn)
ie.setNumberOfThreads(1)
results = []
for q in queries:
    target, evidence = q["target"], q["evidence"]
    ie.eraseAllEvidence()
    ie.eraseAllTargets()
    ie.addTarget(target)
    ie.setEvidence(evidence)
    p = ie.posterior(target).toarray().tolist()
    results.append({"target": target, "evidence": evidence, "posterior": dict(zip(bn.variable(target).labels(), p))})
print(json.dumps({"results": results}))
"""


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(command: list[str], out_path: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall-clock, CPU) seconds of one process, stdout to ``out_path``; a failure stops the benchmark."""
    with open(out_path, "wb") as out:
        cpu = cpu_of_children()
        start = time.perf_counter()
        # cwd: the output's folder, so that a checkout in the current directory cannot shadow PYTHONPATH
        done = subprocess.run(command, stdout=out, stderr=subprocess.PIPE, env=env, cwd=out_path.parent)
        elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr.decode()[-2000:]}")
    return elapsed, cpu_of_children() - cpu


def medians(commands: dict[str, tuple[list[str], dict[str, str]]], runs: int, folder: Path
            ) -> dict[str, tuple[float, float]]:
    """Median (wall-clock, CPU) seconds per labelled command over ``runs`` interleaved rounds (after one warm-up
    round)."""
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
    for round_ in range(runs + 1):
        for label, (command, env) in commands.items():
            measured = run_once(command, folder / f"{label}.out", env)
            if round_:
                times[label].append(measured)
    return {label: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t))
            for label, t in times.items()}


def max_difference(ours: Path, theirs: Path) -> float:
    """Largest absolute difference between the posteriors of two ``{"results": [...]}`` outputs."""
    a, b = (json.loads(p.read_text())["results"] for p in (ours, theirs))
    assert len(a) == len(b), (len(a), len(b))
    worst = 0.0
    for x, y in zip(a, b, strict=True):
        assert x["target"] == y["target"] and x["posterior"].keys() == y["posterior"].keys()
        worst = max(worst, max(abs(x["posterior"][s] - y["posterior"][s]) for s in x["posterior"]))
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--network", type=Path, default=ALARM)
    parser.add_argument("--before", type=Path, help="another checkout whose bnstudio runs too (as 'before')")
    args = parser.parse_args()

    from bnstudio.io import read_network
    net = read_network(args.network)
    queries = [{"target": t, "evidence": e} for t, e in make_queries(net, args.queries, seed=5)]
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        run_all(args, queries, Path(tmp), py)


def run_all(args: argparse.Namespace, queries: list[dict], folder: Path, py: str) -> None:
    # Byte-code as an installed program has it (pip compiles it at install): written once, by the warm-up round,
    # to a cache outside the source trees (this machine sets PYTHONDONTWRITEBYTECODE, which would make every
    # run compile bnstudio's sources again).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    versions = {"bnstudio (this checkout)": env}
    if args.before:
        versions["bnstudio (before)"] = {**env, "PYTHONPATH": str(args.before.resolve())}
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}, Python "
          f"{platform.python_version()}; {args.network.name}, {args.queries} queries, medians of {args.runs}")

    qfile = folder / "queries.json"
    qfile.write_text(json.dumps(queries))
    commands = {label: ([py, "-m", "bnstudio", "query", str(args.network), "--queries", str(qfile), "--json"], e)
                for label, e in versions.items()}
    commands["pyAgrum"] = ([py, "-c", PYAGRUM, str(args.network), str(qfile)], env)
    result = medians(commands, args.runs, folder)
    for label in versions:
        worst = max_difference(folder / f"{label}.out", folder / "pyAgrum.out")
        print(f"  max |ours - pyAgrum| ({label}): {worst:.1e}")
        if not worst <= 1e-6:
            sys.exit(f"{label} and pyAgrum disagree by {worst:.3g}")
    print(f"query --queries ({args.queries}), whole process:")
    wall0, cpu0 = result["pyAgrum"]
    for label, (wall, cpu) in result.items():
        print(f"  {label:<26} wall {wall:6.3f} s ({wall / wall0:.2f}x pyAgrum)   CPU {cpu:6.3f} s ({cpu / cpu0:.2f}x)")

    startup = {"python -c pass": ([py, "-c", "pass"], env)}
    for label, e in versions.items():
        startup[f"import bnstudio, {label}"] = ([py, "-c", "import bnstudio"], e)
        startup[f"--help, {label}"] = ([py, "-m", "bnstudio", "--help"], e)
        startup[f"info, {label}"] = ([py, "-m", "bnstudio", "info", str(args.network)], e)
    result = medians(startup, args.runs, folder)
    print(f"start-up, whole process ({args.network.name} for info):")
    for label, (wall, cpu) in result.items():
        print(f"  {label:<44} wall {wall * 1e3:7.1f} ms   CPU {cpu * 1e3:7.1f} ms")


if __name__ == "__main__":
    main()
