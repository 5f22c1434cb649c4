"""Where tasks run: worker processes on this machine (the default), behind the small interface the runner uses;
:mod:`bnstudio.experiment.dask_executor` implements the same interface on a Dask cluster.

Interface: ``warm_up()`` starts what can start before the data are ready, ``start(context)`` sends the data to
the workers once, ``submit(tasks)`` hands out a unit of tasks (the methods of one learned structure: run in one
worker, the structure is learned once) and returns a handle, ``wait(handles, timeout)`` the handles that
finished, ``outcome(handle)`` an :class:`Outcome` per task (or raises :class:`WorkerLost` when the worker died
before answering), and ``close(abandon)`` ends the workers (``abandon``: at once, dropping running tasks, which
stay unfinished in the store and run again next time).

:class:`SerialExecutor` runs the tasks one by one in this process (the tests compare it with the
others). Local workers are fresh processes (no state inherited by accident), forked from a ``forkserver``
that has imported the modules a task needs once (:mod:`~bnstudio.experiment.worker_start`): a worker starts in
milliseconds instead of paying ~1.5 s of imports each. :meth:`LocalExecutor.warm_up` starts the server before
the driver prepares the data, so its imports overlap that work. Workers receive the study's data
(:class:`StudyData`) once, in their initializer, and make it the evaluation's
:class:`~bnstudio.experiment.evaluation.Context` there: the process running the study prepares data and stores
results, it never imports the learners (0.2 s of its start-up, on the path to the first task). Workers ignore
Ctrl+C (the process running the study handles it), end themselves when that process is gone (killed: the pipe
it holds to each worker closes) and use one BLAS thread (``import bnstudio`` sets that), as Dask's workers do: so results are
bit-for-bit the same in all.
"""
from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
import traceback
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from bnstudio.errors import BNStudioError
from bnstudio.experiment.accounting import machine, others_cores, process_cpu_seconds
from bnstudio.experiment.tasks import Task
from bnstudio.experiment.worker_start import forkserver_pid, start_forkserver, started_sample, worker_context

if TYPE_CHECKING:
    from bnstudio.experiment.datasets import PreparedData
    from bnstudio.experiment.evaluation import Context
    from bnstudio.experiment.queries import Query

_CONTEXT: "Context | None" = None


@dataclass
class StudyData:
    """What every worker needs, sent once: the prepared data sets by name and a query study's queries (made an
    evaluation :class:`~bnstudio.experiment.evaluation.Context` where tasks run, :func:`as_context`)."""

    datasets: "Mapping[str, PreparedData]"
    queries: "list[Query] | None" = None


def as_context(data: Any) -> "Context":
    """``data`` (a :class:`StudyData`, or already a Context) as the evaluation's Context; imports the evaluation
    (and so the learners): call it where tasks run."""
    from bnstudio.experiment.evaluation import Context

    return data if isinstance(data, Context) else Context(data.datasets, data.queries)


@dataclass
class Outcome:
    """What came back for one task: a result dict or an error line, the task's wall seconds and the worker; its
    CPU seconds (user + system time of the thread that ran it, ``time.thread_time``: a task runs on one thread
    and BLAS uses one; other threads of a Dask worker or of the app are left out; what a busy machine cannot
    inflate),
    when it started (epoch seconds, this host's clock: the driver measures queue waits against it) and the
    worker's CPU since it started (what it spent outside tasks: start-up, unpickling, shipping results)."""

    result: dict[str, Any] | None
    error: str | None
    seconds: float
    worker: str
    cpu: float = 0.0
    started: float = 0.0
    process_cpu: float = 0.0    # the worker's CPU seconds since it started, at the task's end


class WorkerLost(Exception):
    """The worker running a unit went away (killed, out of memory): its tasks did not fail, they did not run."""


def run_task(context: "Context", task: Task) -> dict[str, Any]:
    """:func:`bnstudio.experiment.evaluation.run_task`, imported on first use (where tasks run)."""
    from bnstudio.experiment.evaluation import run_task as run

    return run(context, task)


def execute(context: "Context", task: Task, worker: str) -> Outcome:
    """Run one task, turning any exception into an error line (a failed task, stored and retried next time)."""
    started, start, cpu = time.time(), time.perf_counter(), time.thread_time()
    try:
        result, error = run_task(context, task), None
    except BNStudioError as exc:
        result, error = None, " ".join(str(exc).splitlines())
    except Exception as exc:   # a bug: keep where it happened, on one line
        where = traceback.extract_tb(exc.__traceback__)[-1]
        result, error = None, (f"internal error ({type(exc).__name__}: {' '.join(str(exc).splitlines())}) "
                               f"at {os.path.basename(where.filename)}:{where.lineno}")
    seconds, cpu = time.perf_counter() - start, time.thread_time() - cpu
    return Outcome(result, error, seconds, worker, cpu, started, time.process_time())


def _install(data: StudyData) -> None:
    global _CONTEXT
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _CONTEXT = as_context(data)
    threading.Thread(target=_exit_with_parent, daemon=True).start()


def _exit_with_parent() -> None:
    """End this worker when the process running the study is gone (killed: its pool never says goodbye, and a
    worker waiting on the task queue would otherwise wait for ever). The parent's sentinel is the end of a pipe
    that process holds open (spawn and forkserver alike): it becomes readable when the process dies."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        multiprocessing.connection.wait([parent.sentinel])
    os._exit(0)


def execute_all(context: "Context", tasks: Sequence[Task], worker: str) -> list[Outcome]:
    """:func:`execute` every task of a unit, in order."""
    return [execute(context, task, worker) for task in tasks]


def _run_installed(tasks: Sequence[Task]) -> list[Outcome]:
    assert _CONTEXT is not None, "worker started without its context"
    return execute_all(_CONTEXT, tasks, f"pid {os.getpid()}")


#: the shortest look at the machine before choosing how many workers pay (seconds; /proc/stat counts in 10 ms)
SAMPLE_SECONDS = 0.25
#: the share of a core a worker must find free beyond the workers before it to be started: below it, the tasks'
#: CPU growing with each process (shared caches: about 10 % measured) and its start-up cost more than it brings
MIN_SHARE = 0.2
#: the oldest start of the forkserver the machine is watched from (seconds): older, the look starts at warm-up
SAMPLE_MAX_AGE = 30.0


def workers_for(asked: int, cores: int, others: float | None) -> int:
    """How many of ``asked`` workers pay when other processes keep ``others`` of ``cores`` busy: worker ``w``
    is started when ``cores − others − (w − 1) ≥`` :data:`MIN_SHARE`; at least 1, at most ``asked``
    (``others`` unknown: ``asked``). A worker beyond the free cores gets no CPU of its own: Linux shares a busy
    machine between sessions (autogroup), so a second worker splits this session's share with the first and
    only adds its start-up and cache misses (measured: benchmarks/study_bench.py)."""
    if others is None:
        return asked
    return max(1, min(asked, int(cores - others - MIN_SHARE) + 1))


def _cpu_of_us(server: int | None) -> float:
    """CPU seconds of this process and of the forkserver ``server`` (our own use while sampling the machine)."""
    own = time.process_time()
    if server is not None:
        own += process_cpu_seconds(server) or 0.0
    return own


class LocalExecutor:
    """``workers`` processes on this machine (default: every core). ``adapt``: start fewer when other processes
    keep the cores busy (:func:`workers_for`, from the machine's CPU use between :meth:`warm_up` and
    :meth:`start` less this process's and the forkserver's own); :attr:`note` says what it chose and why."""

    def __init__(self, workers: int | None = None, adapt: bool = True) -> None:
        self.workers = int(workers or os.cpu_count() or 1)
        if self.workers < 1:
            raise ValueError("workers must be at least 1")
        self.asked, self.adapt, self.note = self.workers, adapt, ""
        self.pool: ProcessPoolExecutor | None = None
        self.data: StudyData | None = None
        self.sample: tuple[dict[str, Any], float] | None = None
        self.description = self._describe()

    def _describe(self) -> str:
        text = f"{self.workers} local process{'es' if self.workers > 1 else ''}"
        return text + (f" ({self.asked} asked; {self.note})" if self.workers != self.asked else "")

    def warm_up(self) -> None:
        """Start the forkserver now: its imports run while the driver prepares the data. With ``adapt``, begin
        watching the machine's CPU use, from when the server was started if that was recent (a command starts
        it before its own imports: watched that long, the machine needs no extra wait in :meth:`start`)."""
        start_forkserver()
        early = started_sample(SAMPLE_MAX_AGE)      # taken by the first study after the server's start, used or not
        if self.adapt and self.workers > 1:
            self.sample = early or (machine(), _cpu_of_us(forkserver_pid()))

    def choose_workers(self) -> int:
        """The workers to start (see :func:`workers_for`), from the CPU other processes used since
        :meth:`warm_up` (watched for at least :data:`SAMPLE_SECONDS`)."""
        if self.sample is None:
            return self.workers
        before, ours = self.sample
        self.sample = None
        time.sleep(max(0.0, SAMPLE_SECONDS - (time.time() - before["time"])))
        server = forkserver_pid()
        others = others_cores(before, machine(), _cpu_of_us(server) - ours)
        chosen = workers_for(self.workers, before["cores"], others)
        if others is not None:
            self.note = (f"other processes kept {others:.1f} of {before['cores']} cores busy: "
                         f"{chosen} worker{'s' if chosen != 1 else ''} chosen")
        return chosen

    def start(self, data: StudyData) -> None:
        """Start the workers (how many: :meth:`choose_workers`) with the study's ``data`` (a :class:`StudyData`
        or a Context: its data sets and queries are sent)."""
        self.data = StudyData(data.datasets, data.queries)
        self.workers = self.choose_workers()
        self.description = self._describe()
        self.pool = ProcessPoolExecutor(self.workers, mp_context=worker_context(), initializer=_install,
                                        initargs=(self.data,))

    def submit(self, tasks: Sequence[Task]) -> Future:
        assert self.pool is not None and self.data is not None
        try:
            return self.pool.submit(_run_installed, list(tasks))
        except BrokenProcessPool:   # a worker died (its units come back as lost): start fresh workers
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.start(self.data)
            return self.pool.submit(_run_installed, list(tasks))

    def wait(self, handles: Iterable[Future], timeout: float) -> list[Future]:
        done, _ = wait(list(handles), timeout=timeout, return_when=FIRST_COMPLETED)
        return list(done)

    def outcome(self, handle: Future) -> list[Outcome]:
        try:
            return handle.result()
        except BrokenProcessPool as exc:    # a worker process died: every unit the pool held is lost
            raise WorkerLost(f"worker lost ({type(exc).__name__}: {exc})") from None

    def close(self, abandon: bool = False) -> None:
        if self.pool is None:
            return
        if abandon:
            terminate = getattr(self.pool, "terminate_workers", None)    # Python 3.14
            if terminate is not None:
                terminate()
            else:
                for process in list(getattr(self.pool, "_processes", {}).values()):
                    process.terminate()
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.pool = None


class SerialExecutor:
    """Every task in this process, one at a time, in the order handed out (no parallelism, no pickling)."""

    workers = 1
    description = "this process (serial)"

    def __init__(self) -> None:
        self.context: "Context | None" = None
        self.queue: deque[tuple[int, list[Task]]] = deque()
        self.outcomes: dict[int, list[Outcome]] = {}
        self.count = 0

    def warm_up(self) -> None:
        """Nothing to start."""

    def start(self, data: StudyData) -> None:
        self.context = as_context(data)

    def submit(self, tasks: Sequence[Task]) -> int:
        self.count += 1
        self.queue.append((self.count, list(tasks)))
        return self.count

    def wait(self, handles: Iterable[int], timeout: float) -> list[int]:
        """Run the oldest submitted unit (``timeout`` does not apply: a unit runs to its end)."""
        assert self.context is not None
        if not self.queue:
            return []
        handle, tasks = self.queue.popleft()
        self.outcomes[handle] = execute_all(self.context, tasks, f"pid {os.getpid()}")
        return [handle]

    def outcome(self, handle: int) -> list[Outcome]:
        return self.outcomes.pop(handle)

    def close(self, abandon: bool = False) -> None:
        self.queue.clear()
