"""Where a study run's time went, by CPU accounting: what a busy machine cannot fake.

Each task records its CPU seconds (user + system of the thread that ran it) and wall seconds, its start
and its wait in the queue (:mod:`~bnstudio.experiment.executors`); the driver records the run's wall time from
the moment the workers were asked to start, its own CPU, the seconds spent committing results and the machine's
load (:func:`machine`). With ``W`` workers and the run's wall time ``T``, each worker's ``T`` seconds split
exactly into

    T = start-up (before its first task) + Σ task CPU + Σ (task wall − task CPU) + gaps between tasks + tail,

so ``efficiency = Σ task CPU / (W · T)`` and ``1 − efficiency`` is the sum of the other terms over ``W · T``.
The task CPU is the work; ``task wall − task CPU`` is time a task was ready but another process had its core
(a busy machine) or it waited on I/O; start-up is the workers' start and the data shipped to them; gaps are
results shipped back and the next unit handed out; the tail is a worker idle while the last units finish
elsewhere. Each task also records its worker's CPU since the worker started: the last of these less the
worker's task CPU is what it spent outside tasks (its start-up, the data unpickled, results pickled back).
Speed-up on ``W`` free cores is at most ``W × efficiency`` against one process whose tasks take the
same CPU (see docs/architecture.md §3.13: speed is measured in benchmarks, this only explains it).

The machine's load: the CPU seconds every process used during the run (``/proc/stat``, Linux) less this run's
own (driver + tasks) is what others took; with ``os.sched_getaffinity`` cores, ``others / T`` cores were busy
elsewhere on average.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence


def usable_cores() -> int:
    """Cores this process may run on (its affinity mask; every core where that is unknown)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def machine_cpu_seconds() -> float | None:
    """CPU seconds every process on the machine has used since boot (user, nice, system, irq, softirq, steal from
    ``/proc/stat``), None where that file does not exist."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = stat.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[1:9])
    return (user + nice + system + irq + softirq + steal) / ticks


def process_cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) process ``pid`` has used (``/proc/PID/stat``), None where unknown."""
    try:
        with open(f"/proc/{int(pid)}/stat", encoding="ascii", errors="replace") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    return (int(fields[11]) + int(fields[12])) / ticks     # utime, stime: fields 14 and 15 of the line


def others_cores(before: Mapping[str, Any], after: Mapping[str, Any], own: float) -> float | None:
    """Cores other processes kept busy on average between two :func:`machine` snapshots, given ``own`` CPU
    seconds this run used meanwhile; None where the machine's CPU is unknown or no time passed."""
    if before.get("cpu") is None or after.get("cpu") is None or after["time"] <= before["time"]:
        return None
    return max(after["cpu"] - before["cpu"] - own, 0.0) / (after["time"] - before["time"])


def machine() -> dict[str, Any]:
    """A snapshot of the machine: epoch time, 1-minute load average, usable cores, CPU seconds used by all."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {"time": time.time(), "load": load, "cores": usable_cores(), "cpu": machine_cpu_seconds()}


@dataclass
class WorkerTime:
    """One worker's share of a run: tasks, their CPU and wall seconds, and its idle parts (seconds)."""

    worker: str
    tasks: int = 0
    cpu: float = 0.0
    busy: float = 0.0
    startup: float = 0.0
    gaps: float = 0.0
    tail: float = 0.0
    outside: float = 0.0        # the worker's CPU outside its tasks up to its last task's end


@dataclass
class RunAccounting:
    """A run's CPU accounting (see the module docstring); seconds, ``efficiency`` in [0, 1]."""

    workers: int
    wall: float
    task_cpu: float
    task_wall: float
    startup: float
    gaps: float
    tail: float
    wait: float                 # queue wait summed over tasks (informative: overlaps the workers' busy time)
    outside: float = 0.0        # the workers' CPU outside tasks: start-up, the data unpickled, results shipped
    driver_cpu: float = 0.0
    driver_before: float = 0.0      # the driver's CPU from its start to the study's: imports, data, store
    store: float = 0.0
    prepare: float = 0.0
    load: tuple[float | None, float | None] = (None, None)
    others: float | None = None     # CPU seconds other processes used during the run
    cores: int = 0
    note: str = ""
    per_worker: list[WorkerTime] = field(default_factory=list)
    partial: bool = False       # written while the run went on: up to then (it runs, or its driver was killed)

    @property
    def efficiency(self) -> float:
        return self.task_cpu / (self.wall * self.workers) if self.wall > 0 and self.workers else 0.0

    @property
    def stolen(self) -> float:
        """Seconds tasks were ready but not on a core (task wall − task CPU, summed)."""
        return max(self.task_wall - self.task_cpu, 0.0)

    def line(self) -> str:
        """One honest line: workers, wall, task CPU, efficiency and where the rest went."""
        capacity = self.wall * self.workers
        text = (f"{self.workers} worker{'s' if self.workers != 1 else ''}, {self.wall:.1f} s wall, task CPU "
                f"{self.task_cpu:.1f} s: efficiency {self.efficiency:.0%} of {capacity:.1f} worker-s; rest: "
                f"start-up {self.startup:.1f}, waiting for a core {self.stolen:.1f}, between tasks "
                f"{self.gaps:.1f}, tail {self.tail:.1f}; workers' CPU outside tasks {self.outside:.1f} s, driver "
                f"CPU {self.driver_cpu:.1f} s "
                f"(commits {self.store:.2f} s)")
        if self.others is not None and self.wall > 0:
            text += f"; other processes used {self.others / self.wall:.1f} of {self.cores} cores"
        elif self.load[0] is not None:
            text += f"; load {self.load[0]:.1f}"
        return text + (f"; {self.note}" if self.note else "")

    def worker_lines(self) -> list[str]:
        return [f"{w.worker}: {w.tasks} tasks, CPU {w.cpu:.1f} s (efficiency {w.cpu / self.wall if self.wall else 0:.0%}), "
                f"busy {w.busy:.1f} s, idle {self.wall - w.busy:.1f} s "
                f"(start-up {w.startup:.1f}, between tasks {w.gaps:.1f}, tail {w.tail:.1f}); CPU outside tasks "
                f"{w.outside:.1f} s" for w in self.per_worker]

    def to_json(self) -> dict[str, Any]:
        return {"workers": self.workers, "wall": self.wall, "task_cpu": self.task_cpu, "task_wall": self.task_wall,
                "efficiency": self.efficiency, "startup": self.startup, "stolen": self.stolen, "gaps": self.gaps,
                "tail": self.tail, "wait": self.wait, "outside": self.outside, "driver_cpu": self.driver_cpu,
                "driver_before": self.driver_before, "store": self.store,
                "others": self.others, "cores": self.cores, "load": list(self.load), "line": self.line(),
                "partial": self.partial,
                "per_worker": [vars(w) for w in self.per_worker]}


def account(run: Mapping[str, Any], timings: Sequence[Mapping[str, Any]]) -> RunAccounting | None:
    """The accounting of one run from the driver's record ``run`` (:meth:`StudyStore.accounting`) and its tasks'
    ``timings`` (:meth:`StudyStore.timings`); None without either (an older file, a run with nothing to do).

    A worker's start-up is its first task's start less the run's start; its gaps are the times between one
    task's end and its next task's start; its tail is the run's end less its last task's end (clamped at 0:
    another host's clock may differ). Workers that ran nothing count as idle for the whole run. A record written
    while the run went on (``partial``) ends at its writing: a worker's tail is then its running task so far."""
    timed = [t for t in timings if t.get("started") is not None and t.get("cpu") is not None]
    if not run or not timed or "t0" not in run or "t1" not in run:
        return None
    t0, t1 = float(run["t0"]), float(run["t1"])
    wall = max(t1 - t0, 0.0)
    workers = int(run.get("workers") or 1)
    by_worker: dict[str, list[Mapping[str, Any]]] = {}
    for task in sorted(timed, key=lambda t: t["started"]):
        by_worker.setdefault(str(task["worker"]), []).append(task)
    per_worker = []
    for name, tasks in by_worker.items():
        worker = WorkerTime(name, len(tasks), sum(t["cpu"] for t in tasks), sum(t["seconds"] or 0.0 for t in tasks))
        worker.startup = max(tasks[0]["started"] - t0, 0.0)
        ends = [t["started"] + (t["seconds"] or 0.0) for t in tasks]
        worker.gaps = sum(max(nxt["started"] - end, 0.0) for nxt, end in zip(tasks[1:], ends, strict=False))
        worker.tail = max(t1 - max(ends), 0.0)
        used = [t["process_cpu"] for t in tasks if t.get("process_cpu") is not None]
        worker.outside = max(max(used) - worker.cpu, 0.0) if len(used) == len(tasks) else 0.0
        per_worker.append(worker)
    idle_workers = max(workers - len(per_worker), 0)
    before, after = run.get("before") or {}, run.get("after") or {}
    others = None
    if before.get("cpu") is not None and after.get("cpu") is not None:
        own = sum(w.cpu for w in per_worker) + float(run.get("driver_cpu", 0.0))
        others = max(after["cpu"] - before["cpu"] - own, 0.0)
    return RunAccounting(
        workers=workers, wall=wall, task_cpu=sum(w.cpu for w in per_worker),
        task_wall=sum(w.busy for w in per_worker), startup=sum(w.startup for w in per_worker) + idle_workers * wall,
        gaps=sum(w.gaps for w in per_worker), tail=sum(w.tail for w in per_worker),
        wait=sum(t.get("wait") or 0.0 for t in timed), outside=sum(w.outside for w in per_worker), driver_cpu=float(run.get("driver_cpu", 0.0)),
        driver_before=float(run.get("driver_before", 0.0)), store=float(run.get("store", 0.0)), prepare=float(run.get("prepare", 0.0)),
        load=(before.get("load"), after.get("load")), others=others, cores=int(before.get("cores") or 0),
        note=str(run.get("note", "")), per_worker=per_worker, partial=bool(run.get("partial", False)))


def last_run_accounting(store: Any) -> RunAccounting | None:
    """The accounting of the newest run of ``store`` (a :class:`~bnstudio.experiment.store.StudyStore`) that
    recorded one; None if none did."""
    for run in reversed(store.runs()):
        record = store.accounting(run["id"])
        if record:
            return account(record, store.timings(run["id"]))
    return None


def accounting_line(store: Any, run: int) -> str | None:
    """The one line of run ``run`` of ``store`` (:meth:`RunAccounting.line`), None when it recorded none (an
    older file, a run with nothing to do): what a report shows beside each run."""
    record = store.accounting(run)
    found = account(record, store.timings(run)) if record else None
    return None if found is None else found.line()
