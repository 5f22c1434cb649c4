"""One study on 1 and 2 local processes (and a 2-worker Dask LocalCluster), interleaved and repeated, with the
CPU accounting of every run, the machine's load while it ran, and whether the stores hold identical numbers.

    .venv/bin/python benchmarks/study_bench.py [--suite papers] [--repeat 3] [--folder /tmp/study-bench] [--dask]

The default study is the ``papers`` suite: 8 data sets x 3 structures (NB, TAN, KDB-1) x 4 methods (ml, mp,
clgd, wanbia) x 5 folds = 480 tasks. Each run is a fresh interpreter (no warm forkserver or imports inherited);
rounds of 1, 2, 2 asked, each round starting one later (1 2 a, 2 a 1, a 1 2, ...), so a change in the machine's
load hits all alike. ``2 processes`` starts 2 workers whatever the load; ``2 asked`` is what ``bnstudio
experiment --workers 2`` does: fewer when other processes keep the cores busy
(:func:`bnstudio.experiment.executors.workers_for`).

Per run: ``process`` = what the user waits for, the whole process on the parent's clock, from its start to its
end (interpreter start-up and shutdown included); ``wall`` = the run inside it (imports, data, workers, tasks,
commits); ``study`` = from asking the workers to start to the last result stored (what the accounting splits).
``serial CPU`` = the driver's CPU outside the study: before it (interpreter, imports, data, store) and after it
(commits, shutdown), from the parent's ``wait4``; ``server CPU`` = the forkserver's (its imports, the forks). The accounting
(:mod:`bnstudio.experiment.accounting`): task CPU (user + system seconds measured inside the workers: a busy
machine does not inflate them), efficiency = task CPU / (study × workers), and the rest: start-up, waiting for a
core (task wall − task CPU: another process had the core), between tasks, tail. ``others`` = cores other
processes used on average during the run (/proc/stat less this run's CPU).

The summary gives the speed-up of 2 processes over 1 (wall and study; min / median over the rounds) and the
speed-up expected on 2 free cores from the accounting alone: each run's study time without the time its tasks
waited for a core, the longest worker's ``start-up + task CPU + gaps`` (:func:`_on_free_cores`); and for the
whole process, that plus the serial CPU (:func:`_process_on_free_cores`).
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

TIMING = {"time", "structure_time", "seconds"}
RUNS = {"1": "1 process", "2": "2 processes", "auto": "2 asked", "dask": "Dask LocalCluster, 2 workers"}


def numbers(path: Path) -> dict:
    from bnstudio.experiment.store import StudyStore

    with StudyStore(path, create=False) as store:
        return {r["key"]: (r["status"], {k: v for k, v in (r["metrics"] or {}).items() if k not in TIMING},
                           [{k: v for k, v in h.items() if k not in TIMING} for h in r["history"] or []])
                for r in store.rows()}


def _executor(kind: str):
    """The executor of ``kind``, imported as `bnstudio experiment` does (Dask's only for a Dask run)."""
    from bnstudio.experiment.executors import LocalExecutor

    if kind == "dask":
        from bnstudio.experiment.dask_executor import DaskExecutor

        return DaskExecutor(local_workers=2)
    if kind == "auto":      # what `bnstudio experiment --workers 2` does: fewer when the machine is busy
        return LocalExecutor(2)
    return LocalExecutor(int(kind), adapt=False)


def time_one(kind: str, suite_name: str, store: Path) -> None:
    """Run the study once on ``kind``'s executor (in this fresh interpreter); write its figures beside the
    store as JSON and print its lines."""
    start = time.perf_counter()
    if kind != "dask":      # as `bnstudio experiment` does: the forkserver imports while this process does
        from bnstudio.experiment.worker_start import start_forkserver

        start_forkserver()
    gc.disable()            # as `bnstudio experiment` does: no collection during the imports
    try:
        from bnstudio.experiment.accounting import last_run_accounting, process_cpu_seconds
        from bnstudio.experiment.runner import run_study
        from bnstudio.experiment.store import StudyStore
        from bnstudio.experiment.suite import suite
        from bnstudio.experiment.worker_start import forkserver_pid
    finally:
        gc.enable()

    for suffix in ("", "-wal", "-shm"):
        Path(f"{store}{suffix}").unlink(missing_ok=True)
    summary = run_study(suite(suite_name), _executor(kind), store_path=store)
    wall = time.perf_counter() - start
    with StudyStore(store, create=False) as opened:
        accounting = last_run_accounting(opened)
    assert accounting is not None
    server = forkserver_pid()
    figures = {**accounting.to_json(), "kind": kind, "total": wall, "study": accounting.wall, "done": summary.done,
               "failed": summary.failed, "server_cpu": None if server is None else process_cpu_seconds(server),
               "cpu_at_end": time.process_time()}
    Path(f"{store}.json").write_text(json.dumps(figures))
    load = " → ".join("?" if x is None else f"{x:.1f}" for x in accounting.load)
    print(f"{RUNS[kind]:13s} wall {wall:5.1f} s, study {accounting.wall:5.1f} s, load {load}: {accounting.line()}",
          flush=True)
    for line in accounting.worker_lines():
        print(f"{'':15s}{line}", flush=True)


def _median_min(values: list[float]) -> str:
    return f"min {min(values):.2f} median {statistics.median(values):.2f} (n={len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="papers")
    parser.add_argument("--folder", type=Path, default=Path("/tmp/study-bench"))
    parser.add_argument("--repeat", type=int, default=3, help="rounds of (1 process, 2 processes, 2 asked)")
    parser.add_argument("--dask", action="store_true", help="also one run on a 2-worker Dask LocalCluster")
    parser.add_argument("--no-dask", action="store_true", help=argparse.SUPPRESS)   # the default now
    parser.add_argument("--only", choices=tuple(RUNS), help=argparse.SUPPRESS)   # one run, in a fresh interpreter
    parser.add_argument("--store", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    if args.only:
        time_one(args.only, args.suite, args.store)
        gc.freeze()         # as `bnstudio experiment` ends (bnstudio.cli.main.run_program): no collection at exit
        return
    kinds = ("1", "2", "auto")      # each round starts with the next kind: no kind always runs first
    plan = [kinds[(k + r) % 3] for r in range(args.repeat) for k in range(3)] + (["dask"] if args.dask else [])
    results: list[dict] = []
    for k, kind in enumerate(plan):
        store = args.folder / f"{args.suite}-{kind}-{k}.sqlite"
        process, cpu = _whole_process([sys.executable, __file__, "--suite", args.suite, "--only", kind,
                                       "--store", str(store)])
        figures = json.loads(Path(f"{store}.json").read_text())
        serial = None if cpu is None else cpu - figures["driver_cpu"]
        print(f"{'':15s}whole process {process:5.2f} s; serial CPU {_seconds(serial)} (before the study "
              f"{figures['driver_before']:.2f}, after it {_seconds(None if cpu is None else cpu - figures['cpu_at_end'])}"
              f"); server CPU {_seconds(figures['server_cpu'])}", flush=True)
        results.append({**figures, "store": store, "process": process, "serial": serial})
    ones = [r for r in results if r["kind"] == "1"]
    twos = [r for r in results if r["kind"] == "2"]
    autos = [r for r in results if r["kind"] == "auto"]
    pairs = list(zip(ones, twos, strict=True))
    print(f"speed-up of 2 processes, whole process: {_median_min([a['process'] / b['process'] for a, b in pairs])}")
    print(f"speed-up of 2 asked, whole process: "
          f"{_median_min([a['process'] / b['process'] for a, b in zip(ones, autos, strict=True)])}")
    print(f"speed-up of 2 processes, wall:  {_median_min([a['total'] / b['total'] for a, b in pairs])}")
    print(f"speed-up of 2 processes, study: {_median_min([a['study'] / b['study'] for a, b in pairs])}")
    adaptive = _median_min([a['total'] / b['total'] for a, b in zip(ones, autos, strict=True)])
    print(f"speed-up of 2 asked (adaptive), wall: {adaptive}"
          f"; workers chosen: {[b['workers'] for b in autos]}")
    free = [_on_free_cores(a) / _on_free_cores(b) for a, b in pairs]
    print(f"expected on 2 free cores (each worker's start-up + task CPU + gaps, the longest): {_median_min(free)}")
    if all(r["serial"] is not None for r in results):
        whole = [_process_on_free_cores(a) / _process_on_free_cores(b) for a, b in pairs]
        print(f"expected on 2 free cores, whole process (serial CPU + the study on free cores): {_median_min(whole)}")
        for name, runs in (("1 process", ones), ("2 processes", twos), ("2 asked", autos)):
            print(f"serial CPU, {name}: {_median_min([r['serial'] for r in runs])} s; before the study "
                  f"{_median_min([r['driver_before'] for r in runs])} s")
    print(f"efficiency, 2 processes: {_median_min([b['efficiency'] for b in twos])}; 1 process: "
          f"{_median_min([a['efficiency'] for a in ones])}")
    print(f"task CPU, 1 process: {_median_min([a['task_cpu'] for a in ones])} s; 2 processes: "
          f"{_median_min([b['task_cpu'] for b in twos])} s")
    others = [r["others"] / r["study"] for r in results if r["others"] is not None]
    if others:      # /proc/stat: Linux
        print(f"other processes' cores during the runs: {_median_min(others)}")
    first = numbers(results[0]["store"])
    for result in results[1:]:
        print(f"{result['store'].name}: numbers identical to {results[0]['store'].name}: "
              f"{numbers(result['store']) == first}")


def _on_free_cores(figures: dict) -> float:
    """The run's study time had no other process taken a core: the longest of its workers' start-up + task CPU
    + gaps between tasks (the tail is the others' remaining work; start-up, gaps and the tasks' CPU are
    themselves inflated on a busy machine, so this errs low)."""
    return max(w["startup"] + w["cpu"] + w["gaps"] for w in figures["per_worker"])


def _process_on_free_cores(figures: dict) -> float:
    """The whole process had no other process taken a core: the driver's CPU outside the study (its interpreter,
    imports, data, commits and shutdown: one core, serial) plus :func:`_on_free_cores`."""
    return figures["serial"] + _on_free_cores(figures)


def _whole_process(command: list[str]) -> tuple[float, float | None]:
    """Run ``command``; (its wall seconds on this clock, start to end; its CPU seconds, user + system, None
    where ``os.wait4`` does not exist). Fails as ``subprocess.run(check=True)`` does."""
    start = time.perf_counter()
    child = subprocess.Popen(command)
    if not hasattr(os, "wait4"):
        child.wait()
        usage = None
    else:
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if child.returncode:
        raise subprocess.CalledProcessError(child.returncode, command)
    return wall, None if usage is None else usage.ru_utime + usage.ru_stime


def _seconds(value: float | None) -> str:
    return "?" if value is None else f"{value:.2f} s"


if __name__ == "__main__":
    main()
