"""Error bars over time (bnstudio.temporal.errorbars): time and Python peak memory at T = 1,000 and 10,000 slices
on the bundled machine model with learned counts (resources/networks/temporal/machine_learned.bnsproj).

    .venv/bin/python benchmarks/temporal_errorbars_bench.py [--slices 1000 10000]

Evidence: Vibration and Temperature observed in 80 % of slices (fixed seed), made before measuring (as is the
list of slices asked for). Rows:

* ``sweep-filter``: iterating :class:`~bnstudio.temporal.errorbars.ErrorBarSweep` in filtering mode and keeping
  nothing (one [α, F] table at a time: memory independent of T is what this row shows);
* ``bars-filter`` / ``bars-smooth``: :func:`~bnstudio.temporal.temporal_error_bars` for every slice (its output,
  a few numbers and the top rows per slice, grows with T; smoothing also keeps T [α, F] tables);
* ``smooth``: the core's smoothing of the same evidence, for the time ratio.

Python peak memory by ``tracemalloc`` in a second, untimed run of the same work.
"""
from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from collections import deque
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    from bnstudio.io import read_network
    from bnstudio.temporal import from_network, smoothing, temporal_error_bars
    from bnstudio.temporal.errorbars import ErrorBarSweep

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slices", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--only", nargs="+", help="measure only these rows")
    args = parser.parse_args()
    tbn = from_network(read_network(ROOT / "resources" / "networks" / "temporal" / "machine_learned.bnsproj"))
    alpha = {v: tbn.network.alpha(v) for v in tbn.network.variables}
    cols = [tbn.radicals.index(v) for v in ("Vibration", "Temperature")]
    work = {
        "sweep-filter": lambda codes, every: deque(ErrorBarSweep(tbn, codes, "Wear", "worn", every, "filter", alpha),
                                                   maxlen=0),
        "bars-filter": lambda codes, every: temporal_error_bars(tbn, codes, "Wear", "worn", mode="filter"),
        "bars-smooth": lambda codes, every: temporal_error_bars(tbn, codes, "Wear", "worn", mode="smooth"),
        "smooth": lambda codes, every: smoothing(tbn, codes, "Wear"),
    }
    work = {k: v for k, v in work.items() if not args.only or k in args.only}
    results: dict[tuple[str, int], tuple[float, float]] = {}
    print(f"{'measurement':<14} {'T':>6} {'seconds':>9} {'Python peak':>12}")
    for T in args.slices:
        rng = np.random.default_rng(0)
        codes = np.full((T, len(tbn.radicals)), -1, dtype=np.int64)
        codes[:, cols] = np.where(rng.random((T, 2)) < 0.8, rng.integers(0, 2, size=(T, 2)), -1)
        every = np.arange(T)                            # the slices asked for, made before measuring too
        for name, fn in work.items():
            start = time.perf_counter()
            fn(codes, every)
            seconds = time.perf_counter() - start
            tracemalloc.start()
            fn(codes, every)
            peak = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
            results[name, T] = seconds, peak
            print(f"{name:<14} {T:>6} {seconds:>9.3f} {peak:>9.2f} MiB")
    if len(args.slices) >= 2:
        a, b = args.slices[0], args.slices[-1]
        print(f"\nratios T={b:,} ÷ T={a:,} (memory ≈ 1: independent of T; time ≈ {b // a}: linear)")
        for name in work:
            (ta, ma), (tb, mb) = results[name, a], results[name, b]
            print(f"  {name:<14} Python peak x{mb / ma:.2f}, time x{tb / ta:.1f}")
        if ("bars-smooth", b) in results and ("smooth", b) in results:
            print(f"\nerror bars ÷ smoothing at T={b:,}: time x{results['bars-smooth', b][0] / results['smooth', b][0]:.1f}")


if __name__ == "__main__":
    main()
