"""Data beyond memory: fits from Parquet parts and CSV read a piece at a time, against the in-memory fit, a Dask
LocalCluster and pyAgrum, every figure from a fresh child process (its own peak resident memory).

    .venv/bin/python benchmarks/stream_bench.py [--rows 10000000] [--part-rows 500000] [--workers 2]
                                                [--csv-rows 1000000] [--em-rows 200000] [--no-in-memory]

1. **Parquet parts** (``--rows`` ALARM rows, forward-sampled, written as parts of ``--part-rows`` rows with
   categorical columns): maximum likelihood three ways — every part read and aligned into memory then fitted
   (``DataParts.load``), streamed in one process, and on a LocalCluster of ``--workers`` processes. Wall time and
   the peak RSS of the process that fits (on the cluster: the driver; the workers' peaks are printed too). The
   CPTs of the three must agree (max |difference| printed; counts are integers, so 0).
2. **CSV -> fitted network** (``--csv-rows`` complete ALARM rows, issue 26): whole processes, peak RSS and wall
   time of ``bnstudio fit alarm.bif data.csv --method ml`` (streams the CSV) and of the in-memory API
   (``read_csv`` + ``align`` + fit) against pyAgrum's ``BNLearner(csv)`` + ``learnParameters`` (smoothing 1) in
   a script of its own.
3. **EM** (``--em-rows`` rows, 20% of cells missing, 2 iterations): in memory, streamed, on the cluster.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from processes import HERE, peak_mib, run_child

ALARM = HERE.parent / "resources" / "networks" / "alarm.bif"


# ---------------------------------------------------------------------------------------------- children
def _fit(method: str, data, options: dict) -> tuple[dict, float]:
    from bnstudio.io import read_network
    from bnstudio.learn.params import make_learner
    net = read_network(ALARM)
    start = time.perf_counter()
    result = make_learner(method, **options).fit(net, data(net))
    return result.cpts, time.perf_counter() - start


def _warm() -> None:
    import bnstudio.data.parts
    import bnstudio.learn.params.streamed  # noqa: F401
    from bnstudio.data.parts import parquet_module
    parquet_module()


def _save(cpts: dict, path: str) -> None:
    import numpy as np
    np.savez(path, **cpts)


def child_fit(kind: str, folder: str, method: str, out: str, workers: str) -> dict:
    """Fit ``folder`` in memory, streamed or on a LocalCluster; CPTs saved to ``out``."""
    from bnstudio.data.parts import open_parts, with_runner
    options = {"max_iter": 2, "tol": 0} if method == "em" else {}
    extra = {}
    if kind == "memory":
        cpts, seconds = _fit(method, lambda net: open_parts(folder).load(net).codes, options)
    elif kind == "streamed":
        cpts, seconds = _fit(method, lambda net: open_parts(folder), options)
    else:
        from bnstudio.data.cluster import DaskRunner
        with DaskRunner(local_workers=int(workers)) as runner:
            runner.client.run(_warm)                # workers up, their imports done, before the clock starts
            cpts, seconds = _fit(method, lambda net: with_runner(open_parts(folder), runner), options)
            extra["worker_peaks_mib"] = sorted(runner.client.run(peak_mib).values())
    _save(cpts, out)
    return {"seconds": seconds, "peak_mib": peak_mib(), **extra}


def child_process(*command: str) -> dict:
    """Run ``command`` as a whole process from this small one: its wall time and peak RSS (it is this child's
    only child), updated by the JSON object on its last output line if it prints one.

    Linux keeps a process's peak RSS across fork and exec, so a child forked from the benchmark's driver (large
    after writing the data) would report at least the driver's size: every measured process starts here."""
    import resource
    start = time.perf_counter()
    done = subprocess.run(list(command), capture_output=True, text=True, cwd=HERE,
                          env={**os.environ, "PYTHONPATH": str(HERE)})
    if done.returncode:
        return {"error": (done.stderr.strip().splitlines() or ["?"])[-1]}
    lines = done.stdout.strip().splitlines()
    own = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
    return {"seconds": time.perf_counter() - start,
            "peak_mib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, **own}


def child_csv_in_memory(csv: str) -> dict:
    """The in-memory path before streaming (measured as a whole process by :func:`child_process`)."""
    from bnstudio.data import align, read_csv
    from bnstudio.io import read_network
    from bnstudio.learn.params import make_learner
    net = read_network(ALARM)
    make_learner("ml").fit(net, align(read_csv(csv), net).codes)
    return {}


PYAGRUM_SCRIPT = """
import sys, pyagrum as gum
bn = gum.loadBN(sys.argv[1])
learner = gum.BNLearner(sys.argv[2], bn)
learner.useSmoothingPrior(1)      # parent configurations absent from the rows are refused otherwise
learner.learnParameters(bn.dag())
"""


# ---------------------------------------------------------------------------------------------- data
def write_parts(folder: Path, rows: int, part_rows: int, missing: float = 0.0) -> None:
    """Forward-sampled ALARM rows as Parquet parts (categorical columns), a part at a time."""
    from bnstudio.io import read_network
    from bnstudio.sampling import codes_to_frame, forward_sample, hide_at_random
    net = read_network(ALARM)
    folder.mkdir()
    for k, first in enumerate(range(0, rows, part_rows)):
        codes = forward_sample(net, min(part_rows, rows - first), seed=1000 + k)
        if missing:
            codes = hide_at_random(codes, missing, seed=2000 + k)
        codes_to_frame(net, codes).to_parquet(folder / f"part-{k:05d}.parquet", row_group_size=100_000)
        del codes


def write_csv(path: Path, rows: int) -> None:
    import numpy as np

    from bnstudio.io import read_network
    from bnstudio.sampling import forward_sample, write_samples_csv
    net = read_network(ALARM)
    codes = np.concatenate([forward_sample(net, min(200_000, rows - s), seed=11 + s).astype(np.int8)
                            for s in range(0, rows, 200_000)])
    write_samples_csv(net, codes, path)


# ---------------------------------------------------------------------------------------------- driver
def max_difference(a: str, b: str) -> float:
    import numpy as np
    x, y = np.load(a), np.load(b)
    return max(float(np.abs(x[k] - y[k]).max()) for k in x.files)


def show(label: str, result: dict, reference: dict | None = None) -> None:
    if "error" in result:
        print(f"  {label:<44} failed: {result['error']}", flush=True)
        return
    ratio = ""
    if reference and "error" not in reference:
        ratio = (f"   time x{result['seconds'] / reference['seconds']:.2f}, "
                 f"memory x{result['peak_mib'] / reference['peak_mib']:.2f} of {reference['label']}")
    workers = result.get("worker_peaks_mib")
    more = f" (workers {', '.join(f'{w:.0f}' for w in workers)} MiB)" if workers else ""
    print(f"  {label:<44} {result['seconds']:8.2f} s   peak {result['peak_mib']:7.0f} MiB{more}{ratio}", flush=True)
    result["label"] = label


def fits(folder: Path, method: str, workers: int, in_memory: bool, tmp: Path) -> None:
    runs = (["memory"] if in_memory else []) + ["streamed", "cluster"]
    results, files = {}, {}
    for kind in runs:
        files[kind] = str(tmp / f"{method}-{kind}.npz")
        results[kind] = run_child(__file__, "process", sys.executable, __file__, "--child", "fit", kind, str(folder),
                                  method, files[kind], str(workers))
    reference = results.get("memory") or results["streamed"]
    names = {"memory": "in memory (parts read, then fit)", "streamed": "streamed, one process",
             "cluster": f"LocalCluster of {workers} workers (driver)"}
    for kind in runs:
        show(names[kind], results[kind], None if kind == runs[0] else reference)
        if kind == "cluster" and "error" not in results["streamed"] and "error" not in results[kind]:
            show("  (cluster against the streamed run)", dict(results[kind]), results["streamed"])
    ok = [k for k in runs if "error" not in results[k]]
    if len(ok) > 1:
        print(f"  max |CPT difference| against {ok[0]}: "
              + ", ".join(f"{k} {max_difference(files[ok[0]], files[k]):.1e}" for k in ok[1:]), flush=True)


def csv_to_fitted(tmp: Path, rows: int, in_memory: bool = True) -> dict[str, dict]:
    """CSV -> fitted network on ``rows`` complete ALARM rows written to ``tmp``, whole processes (see module
    docstring, 2.): {"pyAgrum", "cli", "api"} each with seconds and peak_mib, printed as they come."""
    csv = tmp / "complete.csv"
    write_csv(csv, rows)
    print(f"\nCSV -> fitted network (ML), {rows:,} complete ALARM rows "
          f"({csv.stat().st_size / 2**20:.0f} MiB), whole processes:", flush=True)
    script = tmp / "pyagrum_fit.py"
    script.write_text(PYAGRUM_SCRIPT)
    out = {"pyAgrum": run_child(__file__, "process", sys.executable, str(script), str(ALARM), str(csv)),
           "cli": run_child(__file__, "process", str(Path(sys.executable).with_name("bnstudio")), "fit", str(ALARM),
                            str(csv), "--method", "ml", "-o", str(tmp / "fitted.bif"))}
    show("pyAgrum BNLearner + learnParameters", out["pyAgrum"])
    show("bnstudio fit (streams the CSV)", out["cli"], out["pyAgrum"])
    if in_memory:
        out["api"] = run_child(__file__, "process", sys.executable, __file__, "--child", "csv_memory", str(csv))
        show("read_csv + align + fit, in memory", out["api"], out["pyAgrum"])
    csv.unlink()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--part-rows", type=int, default=500_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--csv-rows", type=int, default=1_000_000, help="0: skip CSV -> fitted")
    parser.add_argument("--em-rows", type=int, default=200_000, help="0: skip EM")
    parser.add_argument("--no-in-memory", action="store_true", help="skip the in-memory fit of --rows")
    parser.add_argument("--child", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, *rest = args.child
        result = {"fit": lambda: child_fit(*rest), "process": lambda: child_process(*rest),
                  "csv_memory": lambda: child_csv_in_memory(*rest)}[kind]()
        print(json.dumps(result))
        return
    import numpy as np
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"numpy {np.__version__}; load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="stream-bench-") as tmp_name:
        tmp = Path(tmp_name)
        if args.rows:
            start = time.perf_counter()
            write_parts(tmp / "parts", args.rows, args.part_rows)
            size = sum(p.stat().st_size for p in (tmp / "parts").iterdir()) / 2**20
            print(f"\nML, {args.rows:,} ALARM rows in {len(list((tmp / 'parts').iterdir()))} Parquet parts "
                  f"({size:.0f} MiB; written in {time.perf_counter() - start:.0f} s):", flush=True)
            fits(tmp / "parts", "ml", args.workers, not args.no_in_memory, tmp)
            for part in (tmp / "parts").iterdir():
                part.unlink()
            (tmp / "parts").rmdir()
        if args.csv_rows:
            csv_to_fitted(tmp, args.csv_rows)
        if args.em_rows:
            write_parts(tmp / "em", args.em_rows, max(args.em_rows // 8, 1), missing=0.2)
            print(f"\nEM (2 iterations), {args.em_rows:,} ALARM rows, 20% of cells missing, 8 Parquet parts:",
                  flush=True)
            fits(tmp / "em", "em", args.workers, True, tmp)


if __name__ == "__main__":
    main()
