"""Wall time of one study on 1 local process, 2 local processes and a 2-worker Dask LocalCluster, and whether the
three stores hold identical numbers (timings aside).

    .venv/bin/python benchmarks/study_bench.py [--suite papers] [--folder /tmp/study-bench] [--no-dask]

The default study is the ``papers`` suite: 8 data sets x 3 structures (NB, TAN, KDB-1) x 4 methods (ml, mp,
clgd, wanbia) x 5 folds = 480 tasks. The machine's load average is printed before each run (shared machines).
``overhead`` is the wall time minus the tasks' own seconds divided by the workers: worker start-up, the data's
preparation and the driver's work that the workers do not hide. (Local workers are forked by a forkserver, not
by this process, so their CPU time is not in this process's children's usage; the tasks' seconds are measured
inside the workers.)
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

TIMING = {"time", "structure_time", "seconds"}


def numbers(path: Path) -> dict:
    from bnstudio.experiment.store import StudyStore

    with StudyStore(path, create=False) as store:
        return {r["key"]: (r["status"], {k: v for k, v in (r["metrics"] or {}).items() if k not in TIMING},
                           [{k: v for k, v in h.items() if k not in TIMING} for h in r["history"] or []])
                for r in store.rows()}


def _cpu() -> float:
    """CPU seconds (user + system) of this process (the driver)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


def _task_seconds(path: Path) -> float:
    """The tasks' own wall seconds, summed (as measured inside the workers)."""
    from bnstudio.experiment.store import StudyStore

    with StudyStore(path, create=False) as store:
        return sum(r["seconds"] or 0.0 for r in store.rows())


RUNS = ("1 process", "2 processes", "Dask LocalCluster, 2 workers")


def _executor(label: str):
    from bnstudio.experiment.dask_executor import DaskExecutor
    from bnstudio.experiment.executors import LocalExecutor

    return {"1 process": lambda: LocalExecutor(1), "2 processes": lambda: LocalExecutor(2),
            "Dask LocalCluster, 2 workers": lambda: DaskExecutor(local_workers=2)}[label]()


def time_one(label: str, suite_name: str, store: Path) -> None:
    """Run the study once on ``label``'s executor and print its line."""
    from bnstudio.experiment.runner import run_study
    from bnstudio.experiment.suite import suite

    for suffix in ("", "-wal", "-shm"):
        Path(f"{store}{suffix}").unlink(missing_ok=True)
    load = os.getloadavg()
    start, before = time.perf_counter(), _cpu()
    executor = _executor(label)
    summary = run_study(suite(suite_name), executor, store_path=store)
    wall = time.perf_counter() - start
    tasks = _task_seconds(store)
    print(f"{label:30s} {summary.done:4d} done {summary.failed:2d} failed  {wall:7.1f} s wall "
          f"(study {summary.seconds:.1f} s; driver CPU {_cpu() - before:.1f} s, tasks {tasks:.1f} s, "
          f"overhead {wall - tasks / executor.workers:.1f} s)  "
          f"load before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="papers")
    parser.add_argument("--folder", type=Path, default=Path("/tmp/study-bench"))
    parser.add_argument("--no-dask", action="store_true", help="time the local runs only")
    parser.add_argument("--only", choices=RUNS, help=argparse.SUPPRESS)   # one run, in a fresh interpreter
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    stores = [args.folder / f"{args.suite}-{label.split()[0]}-{k}.sqlite" for k, label in enumerate(RUNS)]
    if args.only:
        time_one(args.only, args.suite, stores[RUNS.index(args.only)])
        return
    runs = RUNS[:2] if args.no_dask else RUNS
    for label in runs:   # each in a fresh interpreter: no run inherits another's warm forkserver or imports
        subprocess.run([sys.executable, __file__, "--suite", args.suite, "--folder", str(args.folder),
                        "--only", label], check=True)
    first = numbers(stores[0])
    for store in stores[1:len(runs)]:
        print(f"{store.name}: numbers identical to {stores[0].name}: {numbers(store) == first}")


if __name__ == "__main__":
    main()
