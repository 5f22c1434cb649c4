"""Wall time of one study on 1 local process, 2 local processes and a 2-worker Dask LocalCluster, and whether the
three stores hold identical numbers (timings aside).

    .venv/bin/python benchmarks/study_bench.py [--suite papers] [--folder /tmp/study-bench]

The default study is the ``papers`` suite: 8 data sets x 3 structures (NB, TAN, KDB-1) x 4 methods (ml, mp,
clgd, wanbia) x 5 folds = 480 tasks. The machine's load average is printed before each run (shared machines).
"""
from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

TIMING = {"time", "structure_time", "seconds"}


def numbers(path: Path) -> dict:
    from bnstudio.experiment.store import StudyStore

    with StudyStore(path, create=False) as store:
        return {r["key"]: (r["status"], {k: v for k, v in (r["metrics"] or {}).items() if k not in TIMING},
                           [{k: v for k, v in h.items() if k not in TIMING} for h in r["history"] or []])
                for r in store.rows()}


def _cpu() -> tuple[float, float]:
    """CPU seconds (user + system) of this process and of its finished children (local workers)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, children.ru_utime + children.ru_stime


def _task_seconds(path: Path) -> float:
    """The tasks' own wall seconds, summed (as measured inside the workers)."""
    from bnstudio.experiment.store import StudyStore

    with StudyStore(path, create=False) as store:
        return sum(r["seconds"] or 0.0 for r in store.rows())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="papers")
    parser.add_argument("--folder", type=Path, default=Path("/tmp/study-bench"))
    args = parser.parse_args()
    from bnstudio.experiment.dask_executor import DaskExecutor
    from bnstudio.experiment.executors import LocalExecutor
    from bnstudio.experiment.runner import run_study
    from bnstudio.experiment.suite import suite

    args.folder.mkdir(parents=True, exist_ok=True)
    runs = [("1 process", lambda: LocalExecutor(1)), ("2 processes", lambda: LocalExecutor(2)),
            ("Dask LocalCluster, 2 workers", lambda: DaskExecutor(local_workers=2))]
    stores = []
    for label, make in runs:
        store = args.folder / f"{args.suite}-{label.split()[0]}-{len(stores)}.sqlite"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{store}{suffix}").unlink(missing_ok=True)
        load = os.getloadavg()
        start, before = time.perf_counter(), _cpu()
        summary = run_study(suite(args.suite), make(), store_path=store)
        wall = time.perf_counter() - start
        driver, workers = (after - first for after, first in zip(_cpu(), before))
        print(f"{label:30s} {summary.done:4d} done {summary.failed:2d} failed  {wall:7.1f} s wall "
              f"(study {summary.seconds:.1f} s; CPU: driver {driver:.1f} s, local workers {workers:.1f} s, "
              f"tasks {_task_seconds(store):.1f} s)  load before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
              flush=True)
        stores.append(store)
    first = numbers(stores[0])
    for store in stores[1:]:
        print(f"{store.name}: numbers identical to {stores[0].name}: {numbers(store) == first}")


if __name__ == "__main__":
    main()
