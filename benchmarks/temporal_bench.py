"""Filtering over long sequences: time and peak memory at T = 1,000 and 10,000 slices, against exact inference
on the unrolled network (ours and pyAgrum's LazyPropagation on ``unroll2TBN``) where that is feasible.

    .venv/bin/python benchmarks/temporal_bench.py [--slices 1000 10000] [--unrolled 100 300 1000] [--network machine]

Every measurement runs in a fresh process (this script with ``--one``) so that peak memory is the process's own
high-water mark (``resource.getrusage``: peak RSS, which sees numpy's and pyAgrum's C allocations alike), less
the process's RSS after its imports and the model's reading; ``tracemalloc`` adds Python's own peak (numpy
arrays included; not pyAgrum's C++ memory) in a second, untimed run of the same work.
Evidence: a fixed-seed random table with Vibration and Temperature observed in 80 % of slices (the bundled
machine-monitoring 2TBN, docs/temporal.md). Rows:

* ``filter-stream``: :func:`bnstudio.temporal.iter_filter` over rows streamed from a generator, keeping only
  the last belief (what "memory independent of T" means: one α at a time);
* ``filter``: :func:`bnstudio.temporal.filtering` over the whole table, every belief kept (output O(T));
* ``smooth``: :func:`bnstudio.temporal.smoothing` (keeps T interface tables);
* ``unrolled`` / ``pyagrum``: p(X_{T-1} | e_{0..T-1}) of the last slice on the unrolled network, ours and
  pyAgrum's, including the unrolling.

Ratios printed: T=10,000 ÷ T=1,000 of peak memory (≈ 1 means independent of T) and time (≈ 10: linear), and
unrolled ÷ filtering at the same T.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

OBSERVED = ("Vibration", "Temperature")


def evidence_rows(tbn, slices: int, seed: int = 0):
    """A generator of code rows (radicals order): the observed variables seen in 80 % of slices."""
    rng = np.random.default_rng(seed)
    cols = [tbn.radicals.index(v) for v in OBSERVED]
    for _ in range(slices):
        row = np.full(len(tbn.radicals), -1, dtype=np.int64)
        seen = rng.random(len(cols)) < 0.8
        row[cols] = np.where(seen, rng.integers(0, 2, size=len(cols)), -1)
        yield row


def peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kilobytes on Linux


def current_rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def work(kind: str, slices: int, network: str):
    """The measurement's computation, as a function of no arguments returning the last slice's belief."""
    from bnstudio.io import read_network
    from bnstudio.temporal import filtering, from_network, iter_filter, smoothing, unrolled_posterior

    path = ROOT / "resources" / "networks" / "temporal" / f"{network}.bif"
    tbn = from_network(read_network(path))
    last = tbn.radicals[0]
    target = f"{last}{slices - 1}"

    def evidence() -> dict[str, str]:
        return {f"{r}{t}": tbn.states(r)[c] for t, row in enumerate(evidence_rows(tbn, slices))
                for r, c in zip(tbn.radicals, row, strict=True) if c >= 0}

    def stream():
        for _, beliefs, _ in iter_filter(tbn, evidence_rows(tbn, slices), last):
            answer = beliefs[last]
        return answer

    def whole():
        run = filtering if kind == "filter" else smoothing
        return run(tbn, np.array(list(evidence_rows(tbn, slices))), last).beliefs[last][-1]

    if kind == "pyagrum":  # imported and converted before the clock starts; in memory, since pyAgrum's BIF
        import warnings  # reader keeps numbers to float32 precision (answers then differ by 1e-8)

        import pyagrum as gum

        from bnstudio.interop import to_pyagrum
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # pyagrum.lib.dynamicBN is deprecated for pyagrum.ktbn
            from pyagrum.lib.dynamicBN import unroll2TBN
        two_slices = to_pyagrum(tbn.network)

    def pyagrum():
        engine = gum.LazyPropagation(unroll2TBN(two_slices, slices))
        engine.setEvidence(evidence())
        return engine.posterior(target).toarray()

    plans = {"filter-stream": stream, "filter": whole, "smooth": whole, "pyagrum": pyagrum,
             "unrolled": lambda: unrolled_posterior(tbn, slices, target, evidence())[target]}
    if kind not in plans:
        raise SystemExit(f"unknown measurement {kind}")
    return plans[kind]


def one(kind: str, slices: int, network: str) -> dict:
    """Time (a first run, untraced: tracemalloc slows every allocation) and peak memory (a second run, traced) of
    one measurement, in this process."""
    run = work(kind, slices, network)
    base = current_rss()
    start = time.perf_counter()
    answer = run()
    seconds = time.perf_counter() - start
    tracemalloc.start()
    run()
    python_peak = tracemalloc.get_traced_memory()[1]
    return {"kind": kind, "slices": slices, "seconds": seconds, "rss_peak": peak_rss() - base,
            "python_peak": python_peak, "answer": [float(x) for x in np.ravel(answer)]}


def measure(kind: str, slices: int, network: str) -> dict | None:
    cmd = [sys.executable, __file__, "--one", kind, str(slices), "--network", network]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if done.returncode:
        print(f"  {kind} T={slices}: failed: {done.stderr.strip().splitlines()[-1:]}")
        return None
    return json.loads(done.stdout)


def mib(n: float) -> str:
    return f"{n / 2**20:8.2f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slices", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--unrolled", type=int, nargs="+", default=[100, 300, 1_000])
    parser.add_argument("--network", default="machine")
    parser.add_argument("--one", nargs=2, metavar=("KIND", "T"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]), args.network)))
        return
    rows: dict[tuple[str, int], dict] = {}
    print(f"{'measurement':<14} {'T':>7} {'seconds':>9} {'peak RSS':>13} {'Python peak':>13}")
    plan = [(k, t) for k in ("filter-stream", "filter", "smooth") for t in args.slices]
    plan += [(k, t) for k in ("unrolled", "pyagrum") for t in args.unrolled]
    for kind, slices in plan:
        row = measure(kind, slices, args.network)
        if row is None:
            continue
        rows[kind, slices] = row
        print(f"{kind:<14} {slices:>7} {row['seconds']:9.3f} {mib(row['rss_peak']):>13} {mib(row['python_peak']):>13}")
    lo, hi = min(args.slices), max(args.slices)
    print(f"\nratios T={hi:,} ÷ T={lo:,} (memory ≈ 1: independent of T; time ≈ {hi // lo}: linear)")
    for kind in ("filter-stream", "filter", "smooth"):
        a, b = rows.get((kind, lo)), rows.get((kind, hi))
        if a and b:
            print(f"  {kind:<14} Python peak x{b['python_peak'] / a['python_peak']:.2f}, "
                  f"time x{b['seconds'] / a['seconds']:.1f}")
    print("\nunrolled exact inference ÷ streamed filtering at the same T (last slice's belief)")
    for t in args.unrolled:
        base = rows.get(("filter-stream", t)) or measure("filter-stream", t, args.network)
        for kind in ("unrolled", "pyagrum"):
            row = rows.get((kind, t))
            if base and row:
                gap = max(abs(x - y) for x, y in zip(row["answer"], base["answer"], strict=True))
                print(f"  {kind:<9} T={t:>6}: time x{row['seconds'] / base['seconds']:.1f}, Python peak "
                      f"x{row['python_peak'] / max(base['python_peak'], 1):.1f}, peak RSS {mib(row['rss_peak'])} vs "
                      f"{mib(base['rss_peak'])}; answers differ by {gap:.1e}")


if __name__ == "__main__":
    main()
