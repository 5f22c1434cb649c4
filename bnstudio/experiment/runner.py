"""Run a study: prepare the data once, register the tasks in the store, skip the finished ones, run the rest on an
executor and save every result the moment it arrives.

Progress goes through the one protocol of :mod:`bnstudio.jobs`: ``begin("study", total)``, then one
``iteration`` per finished unit (and about once a second while tasks run) whose ``objectives`` are ``done``,
``failed``, ``running`` (tasks being computed: at most one per worker), ``pending`` and ``eta`` (seconds: the
measured mean task time × tasks left / workers; -1 until a few tasks finished, :func:`eta_after`);
a reporter returning True stops the study: running tasks are abandoned (they stay unfinished in the store) and
:class:`~bnstudio.errors.Cancelled` is raised. Ctrl+C (KeyboardInterrupt) does the same and propagates; the
command turns SIGTERM into it (:func:`bnstudio.cli.experiment.terminate_as_interrupt`).

Tasks go out in units, the methods of one learned structure (:func:`units`); at most two units per worker at a
time, in task order, so a stop leaves little queued. A unit whose worker died (killed, out of memory) is handed
out again, up to :data:`MAX_LOSSES` times, each loss counted in its tasks' ``attempts``. The store's ``state``
says which process runs the study, how many tasks run and the ETA (for the app's study view); its ``runs``
table records each run and is the lease that keeps a second process off the same file.

Every stored task carries its CPU accounting (its thread's CPU seconds, wall, start, queue wait, the worker's CPU
so far), the run's ``runs`` row the driver's side (wall from the workers' start to the last result, driver CPU,
commit seconds, the machine's CPU use before and after): :mod:`~bnstudio.experiment.accounting` splits the
workers' time from them. The driver's side is written with the state while the run goes on (marked
``partial``), so ``--status`` mid-run accounts for the tasks done so far. A unit's results are committed in one
transaction.
"""
from __future__ import annotations

import contextlib
import os
import socket
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

import numpy as np

from bnstudio import __version__
from bnstudio.data.errors import BNStudioDataWarning
from bnstudio.errors import Cancelled
from bnstudio.experiment.accounting import machine
from bnstudio.experiment.datasets import PreparedData, file_digest, prepare, single_state_columns, split_rows
from bnstudio.experiment.executors import LocalExecutor, Outcome, StudyData, WorkerLost, as_context
from bnstudio.experiment.fingerprint import code_fingerprint
from bnstudio.experiment.spec import Study
from bnstudio.experiment.store import StudyStore
from bnstudio.experiment.tasks import Task, expand, n_folds, split_of
from bnstudio.io.messages import shorten
from bnstudio.jobs import IterationInfo, NullReporter, Reporter

if TYPE_CHECKING:
    from bnstudio.experiment.evaluation import Context

TICK = 1.0   # seconds between progress reports while nothing finishes
MAX_LOSSES = 3   # a unit whose worker died this often in one run is stored as failed (retried on the next run)
ETA_PER_WORKER = 2   # finished tasks per worker before an ETA is given


@dataclass
class RunSummary:
    """How a run went: tasks in the study, skipped (done before), done and failed in this run, wall seconds."""

    store: Path
    total: int
    skipped: int
    done: int
    failed: int
    seconds: float
    executor: str
    lost: int = 0       # task attempts lost with a worker that died (handed out again)

    def to_json(self) -> dict[str, Any]:
        return {"store": str(self.store), "total": self.total, "skipped": self.skipped, "done": self.done,
                "failed": self.failed, "seconds": self.seconds, "executor": self.executor, "lost": self.lost}


def plan(study: Study) -> "tuple[Context, list[Task]]":
    """The prepared data (and queries) as the evaluation's Context, and every task of ``study``."""
    data, tasks = prepare_study(study)
    return as_context(data), tasks


def prepare_study(study: Study) -> tuple[StudyData, list[Task]]:
    """The prepared data (and queries) and every task of ``study``; the evaluation (and its learners) is not
    imported: the process running a study on workers never needs it."""
    datasets: dict[str, PreparedData] = {d.name: prepare(d) for d in study.datasets}
    queries, digest = None, ""
    if study.queries is not None:
        from bnstudio.experiment.queries import generate_queries, queries_digest

        network = datasets[study.datasets[0].name].network
        assert network is not None  # the spec takes a query study's data from a network
        queries = generate_queries(network, study.queries)
        digest = queries_digest(queries)
    files = {s.label: file_digest(s.network) for s in study.structures if s.network not in (None, "true")}
    tasks = expand(study, {name: d.fingerprint for name, d in datasets.items()}, digest, files)
    return StudyData(datasets, queries), tasks


def single_state_note(study: Study, datasets: Mapping[str, PreparedData]) -> dict[str, list[str]]:
    """{data set: its columns that end with a single state} (:func:`single_state_columns`; a per-fold data set in
    any of the study's training parts), said in one warning line: such a column carries no information, and a
    data set of them only predicts the class prior."""
    found: dict[str, list[str]] = {}
    for spec in study.datasets:
        data = datasets[spec.name]
        n, split = len(data.codes), split_of(study, spec)
        trains = [] if data.fold_cuts is None else [np.arange(n)] if spec.test_set is not None else [
            split_rows(n, split, fold, seed)[0] for seed in study.seeds for fold in range(n_folds(study, spec))]
        columns = single_state_columns(data, trains)
        if columns:
            found[spec.name] = columns
    if found:
        where = "; ".join(f"{name}: {', '.join(columns)}" for name, columns in found.items())
        warnings.warn(f"column(s) with a single state after preparation (in at least one fold), which carry no "
                      f"information: {shorten(where, 600)}", BNStudioDataWarning, stacklevel=2)
    return found


def run_study(study: Study, executor: Any = None, reporter: Reporter | None = None,
              store_path: str | Path | None = None, max_tasks: int | None = None) -> RunSummary:
    """Run every unfinished task of ``study`` (see the module docstring), or the first ``max_tasks`` of them in
    the study's order (the rest wait for the next run); results go to ``store_path`` (default: next to the
    study file). Another live process running the same file: StudyBusy, before any work. A store this call
    created is removed again when the study fails before its tasks are registered (its data cannot be read)."""
    executor = executor or LocalExecutor()
    reporter = reporter or NullReporter()
    store_path = Path(store_path) if store_path is not None else study.store_path()
    created = not store_path.exists()
    registered = False
    try:
        with StudyStore(store_path) as store:
            store.open_run(executor.description)
            outcome = "failed"
            try:
                summary = _run(study, executor, reporter, store, max_tasks)
                outcome = "finished"
            except (Cancelled, KeyboardInterrupt):
                outcome = "stopped"
                raise
            finally:
                with contextlib.suppress(Exception):    # the first failure is the one to report
                    registered = store.study() is not None
                store.close_run(outcome)
    except BaseException:
        if created and not registered:
            _remove_store(store_path)
        raise
    return summary


def _remove_store(path: Path) -> None:
    """Delete a study file and SQLite's side files (write-ahead log, shared memory) of it."""
    for name in (path.name, f"{path.name}-wal", f"{path.name}-shm"):
        with contextlib.suppress(OSError):
            (path.parent / name).unlink()


def _run(study: Study, executor: Any, reporter: Reporter, store: StudyStore,
         max_tasks: int | None = None) -> RunSummary:
    """Prepare, register, run what is left, at most ``max_tasks`` of it (the store's run is open)."""
    executor.warm_up()      # local workers' imports run while the data are prepared
    prepare = time.perf_counter()
    data, tasks = prepare_study(study)
    single = single_state_note(study, data.datasets)
    start = time.perf_counter()
    store.register({**study.to_json(), **({"single_state": single} if single else {})}, tasks)
    by_key = {t.key: t for t in tasks}
    unfinished = [by_key[k] for k in store.todo()]
    todo, skipped = unfinished[:max_tasks], len(tasks) - len(unfinished)
    planned = skipped + len(todo)       # the progress counts up to the tasks this run does (with max_tasks)
    reporter.begin("study", planned)
    counts: dict[str, float] = {"done": 0, "failed": 0, "lost": 0, "seconds": 0.0}
    if todo:
        needed = {t.dataset for t in todo}
        accounting: dict[str, Any] = {"prepare": start - prepare, "before": machine(), "t0": time.time(),
                                      "cpu0": time.process_time(), "store": 0.0}
        executor.start(StudyData({n: d for n, d in data.datasets.items() if n in needed}, data.queries))
        try:
            _drive(executor, todo, store, reporter, counts, skipped, planned, start, accounting)
        except BaseException:
            with contextlib.suppress(Exception):    # the first failure is the one to report
                _close_accounting(store, executor, accounting)
            executor.close(abandon=True)
            store.set_state({**(store.state() or {}), "running": 0, "ended": time.time(), "stopped": True})
            raise
        _close_accounting(store, executor, accounting)
        executor.close()
        store.set_state({**(store.state() or {}), "running": 0, "ended": time.time(), "stopped": False})
    else:
        _report(reporter, counts, skipped, planned, 0, start, 0)
    reporter.end()
    return RunSummary(store.path, len(tasks), skipped, int(counts["done"]), int(counts["failed"]),
                      time.perf_counter() - start, executor.description, int(counts["lost"]))


def _close_accounting(store: StudyStore, executor: Any, accounting: dict[str, Any]) -> None:
    """Save the driver's side of the run's CPU accounting (:mod:`~bnstudio.experiment.accounting`): the run
    ends when the last result was stored; the workers' shutdown is not part of it."""
    store.set_accounting(accounting_so_far(executor, accounting, partial=False), executor.description)


def accounting_so_far(executor: Any, accounting: dict[str, Any], partial: bool = True) -> dict[str, Any]:
    """The driver's side of the run's CPU accounting up to now (``t1``: now; ``driver_cpu``: this process's CPU
    since the workers were asked to start); ``partial``: the run goes on (written with the state once a
    :data:`TICK`, so a reader mid-run, or after the driver was killed, sees the tasks done so far)."""
    cpu0 = accounting["cpu0"]
    return {**{k: v for k, v in accounting.items() if k != "cpu0"}, "t1": time.time(), "after": machine(),
            "workers": executor.workers, "driver_cpu": time.process_time() - cpu0, "driver_before": cpu0,
            "note": getattr(executor, "note", ""), "partial": partial}


def units(tasks: list[Task]) -> list[list[Task]]:
    """The tasks grouped by (data set, structure, seed, fold), in first-appearance order: one unit learns its
    structure once and fits every method on it."""
    grouped: dict[tuple[str, str, int, int], list[Task]] = {}
    for task in tasks:
        grouped.setdefault((task.dataset, task.structure, task.seed, task.fold), []).append(task)
    return list(grouped.values())


def _drive(executor: Any, todo: list[Task], store: StudyStore, reporter: Reporter, counts: dict[str, float],
           skipped: int, total: int, start: float, accounting: dict[str, Any] | None = None) -> None:
    """Hand out units (two per worker at most), store each outcome (one commit per unit), report (the reporter
    at each finished unit, the store's state at most once a :data:`TICK`), stop on request;
    ``accounting["store"]`` adds up the seconds spent storing."""
    accounting = {"store": 0.0} if accounting is None else accounting
    queue = list(reversed(units(todo)))
    in_flight: dict[Any, list[Task]] = {}
    submitted: dict[Any, float] = {}
    losses: dict[str, int] = {}
    state: dict[str, Any] = {}
    last = saved = 0.0
    while queue or in_flight:
        while queue and len(in_flight) < 2 * executor.workers:
            unit = queue.pop()
            handle = executor.submit(unit)
            in_flight[handle], submitted[handle] = unit, time.time()
        if not state:       # once the first units are out: the workers start while the code is fingerprinted
            state = {"workers": executor.workers, "executor": executor.description, "started": time.time(),
                     "pid": os.getpid(), "host": socket.gethostname(), "version": __version__,
                     "code": code_fingerprint()}
            store.set_state(state)
        finished = executor.wait(in_flight, timeout=TICK)
        for handle in finished:
            unit, sent = in_flight.pop(handle), submitted.pop(handle)
            try:
                outcomes = executor.outcome(handle)
            except WorkerLost as lost:
                counts["lost"] += len(unit)
                losses[unit[0].key] = losses.get(unit[0].key, 0) + 1
                if losses[unit[0].key] < MAX_LOSSES:
                    store.lost(t.key for t in unit)     # an attempt that did not finish: counted
                    queue.append(unit)          # its worker died: hand it out again, next
                    continue
                outcomes = [Outcome(None, str(lost), 0.0, "") for _ in unit]    # record() counts this attempt
            storing = time.perf_counter()
            store.record_many(_records(unit, outcomes, sent))
            accounting["store"] += time.perf_counter() - storing
            for outcome in outcomes:
                counts["done" if outcome.error is None else "failed"] += 1
                counts["seconds"] += outcome.seconds
        now = time.perf_counter()
        if finished or now - last >= TICK:
            last = now
            running = min(len(in_flight), executor.workers)     # a worker runs one task at a time
            left = len(todo) - int(counts["done"] + counts["failed"])    # whole counts in a dict of floats
            stop, eta = _report(reporter, counts, skipped, total, running, start, left, executor.workers)
            if now - saved >= TICK:     # the state for readers (the app's view): once a second, one commit
                saved = now
                store.set_state({**state, "running": running, "eta": eta, "updated": time.time()},
                                accounting_so_far(executor, accounting) if "cpu0" in accounting else None)
            if stop:
                raise Cancelled(f"study stopped: {counts['done']} task(s) finished in this run are saved")


def _records(unit: list[Task], outcomes: list[Outcome], sent: float) -> list[tuple[Any, ...]]:
    """The store's records of a unit's outcomes; a task's queue wait is from the unit's hand-out (first task)
    or the previous task's end to its start (None when the worker measured nothing: a lost unit)."""
    records, ready = [], sent
    for task, outcome in zip(unit, outcomes, strict=True):
        started = outcome.started or None
        wait = max(started - ready, 0.0) if started is not None else None
        if started is not None:
            ready = started + outcome.seconds
        cpu, used = (outcome.cpu, outcome.process_cpu) if started is not None else (None, None)
        records.append((task.key, outcome.result, outcome.error, outcome.seconds, outcome.worker, cpu, started, wait,
                        used))
    return records


def eta_seconds(task_seconds: float, finished: int, left: int, workers: int) -> float:
    """Seconds left: the tasks' own mean time in this run × tasks left / workers, once :func:`eta_after`
    tasks finished (-1 before: the first results measure the start-up, not the pace)."""
    if finished < eta_after(workers):
        return -1.0
    return task_seconds / finished * left / max(1, workers)


def eta_after(workers: int) -> int:
    """Finished tasks before an ETA is given: a few per worker (:data:`ETA_PER_WORKER`), at least 3."""
    return max(3, ETA_PER_WORKER * workers)


def _report(reporter: Reporter, counts: dict[str, float], skipped: int, total: int, running: int, start: float,
            left: int, workers: int = 1) -> tuple[bool, float]:
    """One progress report: (the reporter asks to stop, ETA in seconds from :func:`eta_seconds`)."""
    elapsed = time.perf_counter() - start
    finished = int(counts["done"] + counts["failed"])
    eta = eta_seconds(counts["seconds"], finished, left, workers)
    objectives = {"done": float(skipped + counts["done"]), "failed": float(counts["failed"]),
                  "running": float(running), "pending": float(total - skipped - finished - running),
                  "eta": eta}
    return bool(reporter.iteration(IterationInfo(skipped + finished, objectives, elapsed))), eta
