"""Learning as the number of data rows grows: EM time and peak memory, CSV -> fitted memory, vs pyAgrum, in one run.

    .venv/bin/python benchmarks/scaling_rows_bench.py [--rows 10000 100000 1000000] [--em-iterations 2]
                                                      [--peer-em-rows 2000] [--peer-csv-rows 1000000]

ALARM (resources/networks/alarm.bif), forward-sampled rows. Every measurement runs in a fresh child process, so its
peak resident memory (``ru_maxrss``) is its own:

* **EM**, 20% of cells missing at random: seconds per iteration and the peak RSS *beyond the data*, i.e. the
  child's peak minus its resident size once the coded rows are loaded (the target of issue 13: < 1.5 GB beyond
  the data at 1,000,000 rows, time linear in rows). pyAgrum's EM (BNLearner, smoothing prior 1) runs on
  ``--peer-em-rows`` rows (about 5 s per 1,000 rows per iteration here) and is extrapolated linearly.
* **CSV -> fitted** (maximum likelihood, complete rows): wall time and the child's whole peak RSS for
  ``read_csv`` + ``align`` + ``fit``, against pyAgrum's ``BNLearner(csv)`` + ``learnParameters`` (smoothing 1) on the same file
  (target: at most 2x pyAgrum's memory).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from pathlib import Path

from processes import peak_mib, rss_mib, run_child


# ---------------------------------------------------------------------------------------------- children
def child_em(folder: Path, n: int, iterations: int) -> dict:
    import numpy as np
    from learning_bench import ALARM

    from bnstudio.io import read_network
    from bnstudio.learn.params import make_learner
    net = read_network(ALARM)
    codes = np.load(folder / "mcar.npy", mmap_mode="r")[:n].copy()
    make_learner("ml").fit(net, codes[:100])            # import and warm everything outside the measure
    base = rss_mib()
    start = time.perf_counter()
    fit = make_learner("em", max_iter=iterations, tol=0).fit(net, codes)
    seconds = time.perf_counter() - start
    return {"s_per_iter": seconds / fit.n_iterations, "data_mib": codes.nbytes / 2**20,
            "beyond_data_mib": peak_mib() - base}


def child_pyagrum_em(folder: Path, n: int) -> dict:
    import numpy as np
    from learning_bench import ALARM, pyagrum_em_seconds

    from bnstudio.io import read_network
    from bnstudio.sampling import write_samples_csv
    net = read_network(ALARM)
    csv = folder / f"mcar_{n}.csv"
    write_samples_csv(net, np.load(folder / "mcar.npy", mmap_mode="r")[:n], csv)
    return {"s_per_iter": pyagrum_em_seconds(csv, ALARM)}


def child_csv_ours(csv: Path) -> dict:
    from learning_bench import ALARM

    from bnstudio.data import align, read_csv
    from bnstudio.io import read_network
    from bnstudio.learn.params import make_learner
    net = read_network(ALARM)
    start = time.perf_counter()
    make_learner("ml").fit(net, align(read_csv(csv), net).codes)
    return {"seconds": time.perf_counter() - start, "peak_mib": peak_mib()}


def child_csv_pyagrum(csv: Path) -> dict:
    import pyagrum as gum
    from learning_bench import ALARM
    bn = gum.loadBN(str(ALARM))
    start = time.perf_counter()
    learner = gum.BNLearner(str(csv), bn)
    learner.useSmoothingPrior(1)      # parent configurations absent from the rows are refused otherwise
    learner.learnParameters(bn.dag())
    return {"seconds": time.perf_counter() - start, "peak_mib": peak_mib()}




# ---------------------------------------------------------------------------------------------- driver
def prepare(folder: Path, n: int) -> None:
    import numpy as np
    from learning_bench import ALARM

    from bnstudio.io import read_network
    from bnstudio.sampling import forward_sample, hide_at_random, write_samples_csv
    net = read_network(ALARM)
    complete = np.concatenate([forward_sample(net, min(200_000, n - s), seed=11 + s).astype(np.int8)
                               for s in range(0, n, 200_000)])
    write_samples_csv(net, complete, folder / "complete.csv")
    np.save(folder / "mcar.npy", hide_at_random(complete, 0.2, seed=3).astype(np.int8))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="*", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--em-iterations", type=int, default=2)
    parser.add_argument("--peer-em-rows", type=int, default=2_000, help="0: skip pyAgrum's EM")
    parser.add_argument("--peer-csv-rows", type=int, default=1_000_000, help="0: skip CSV -> fitted")
    parser.add_argument("--child", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, *rest = args.child
        result = {"em": lambda: child_em(Path(rest[0]), int(rest[1]), int(rest[2])),
                  "pyagrum_em": lambda: child_pyagrum_em(Path(rest[0]), int(rest[1])),
                  "csv_ours": lambda: child_csv_ours(Path(rest[0])),
                  "csv_pyagrum": lambda: child_csv_pyagrum(Path(rest[0]))}[kind]()
        print(json.dumps(result))
        return
    import numpy as np
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, numpy {np.__version__}; load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        n_max = max(args.rows + [args.peer_em_rows, args.peer_csv_rows])
        prepare(folder, n_max)
        peer = None
        if args.peer_em_rows:
            theirs = run_child(__file__, "pyagrum_em", str(folder), str(args.peer_em_rows))
            if "error" not in theirs:
                peer = theirs["s_per_iter"] / args.peer_em_rows
                print(f"pyAgrum EM: {theirs['s_per_iter']:.2f} s/iteration at {args.peer_em_rows:,} rows "
                      f"({peer * 1e6:.0f} µs per row)", flush=True)
            else:
                print(f"pyAgrum EM failed: {theirs['error']}")
        print("EM, ALARM, 20% of cells missing:")
        for n in sorted(args.rows):
            ours = run_child(__file__, "em", str(folder), str(n), str(args.em_iterations))
            if "error" in ours:
                print(f"{n:>9} rows: failed: {ours['error']}", flush=True)
                continue
            ratio = f" | pyAgrum ~{peer * n:8.0f} s (extrapolated), x{peer * n / ours['s_per_iter']:.0f}" if peer else ""
            print(f"{n:>9} rows: {ours['s_per_iter']:7.2f} s/iteration ({ours['s_per_iter'] / n * 1e6:5.1f} µs/row) | "
                  f"data {ours['data_mib']:6.0f} MiB, peak beyond the data {ours['beyond_data_mib']:6.0f} MiB"
                  f"{ratio}", flush=True)
        if args.peer_csv_rows:
            csv = folder / "complete.csv"
            if args.peer_csv_rows < n_max:
                lines = csv.read_text().splitlines(keepends=True)[: args.peer_csv_rows + 1]
                csv = folder / "complete_head.csv"
                csv.write_text("".join(lines))
            ours, theirs = run_child(__file__, "csv_ours", str(csv)), run_child(__file__, "csv_pyagrum", str(csv))
            size = csv.stat().st_size / 2**20
            print(f"CSV -> fitted (ML), {args.peer_csv_rows:,} rows ({size:.0f} MiB file): bnstudio "
                  f"{ours.get('seconds', float('nan')):.2f} s, peak {ours.get('peak_mib', float('nan')):.0f} MiB | "
                  f"pyAgrum {theirs.get('seconds', float('nan')):.2f} s, peak {theirs.get('peak_mib', float('nan')):.0f}"
                  f" MiB | memory x{ours.get('peak_mib', 0) / max(theirs.get('peak_mib', 1), 1):.2f}", flush=True)
            for name, result in (("bnstudio", ours), ("pyAgrum", theirs)):
                if "error" in result:
                    print(f"  {name} failed: {result['error']}")


if __name__ == "__main__":
    main()
