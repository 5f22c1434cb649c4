"""Tasks on a Dask distributed cluster (the optional extra ``pip install bnstudio[cluster]``): an existing
scheduler (``tcp://HOST:PORT``, checked first: :func:`~bnstudio.experiment.scheduler.check_scheduler`) or a
:class:`distributed.LocalCluster` of worker processes started here.

The study's data (:class:`~bnstudio.experiment.evaluation.Context`) are scattered to every worker once
(``broadcast=True``); each task then only names its data set. A task whose worker dies is run again elsewhere by
the scheduler (up to ``distributed.scheduler.allowed-failures`` times; then it counts as failed here, and as
unfinished in the store: the next run retries it). A unit is the tasks of one learned structure (see
:mod:`~bnstudio.experiment.executors`). Workers started by a nanny use one BLAS thread, like the
local workers, so the numbers agree with a local run. A local cluster keeps its scratch files (worker folders,
lock files) in a folder of its own that :meth:`DaskExecutor.close` removes: nothing is left in the system's
temporary folder (dask's default ``dask-scratch-space`` outlives every run). Only this module imports dask.
"""
from __future__ import annotations

import shutil
import tempfile
from typing import TYPE_CHECKING, Any, Iterable

from bnstudio.data.cluster import start_local_cluster
from bnstudio.errors import ValidationError
from bnstudio.experiment.executors import Outcome, StudyData, WorkerLost, as_context, execute_all
from bnstudio.experiment.scheduler import DEFAULT_CONNECT_TIMEOUT, check_scheduler, check_timeout
from bnstudio.experiment.tasks import Task

if TYPE_CHECKING:
    from bnstudio.experiment.evaluation import Context


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise ValidationError("running on a Dask cluster needs the optional dependency: "
                              "pip install 'bnstudio[cluster]'") from None
    return distributed


def _run_on_worker(context: "Context", tasks: list[Task]) -> list[Outcome]:
    from distributed import get_worker

    return execute_all(context, tasks, get_worker().address)


class DaskExecutor:
    """Run tasks on the cluster at ``scheduler`` or on a new local cluster of ``local_workers`` processes."""

    def __init__(self, scheduler: str | None = None, local_workers: int | None = None,
                 connect_timeout: float | None = None) -> None:
        if (scheduler is None) == (local_workers is None):
            raise ValidationError("give either a scheduler address or a number of local Dask workers")
        if local_workers is not None and local_workers < 1:
            raise ValidationError(f"local Dask workers must be at least 1, got {local_workers}")
        self.scheduler, self.local_workers = scheduler, local_workers
        self.connect_timeout = check_timeout(connect_timeout or DEFAULT_CONNECT_TIMEOUT)
        self.cluster: Any = None
        self.scratch: str | None = None
        self.client: Any = None
        self.context: Any = None
        self.pending: set[Any] = set()
        self.workers = local_workers or 1
        self.description = (f"a local Dask cluster of {local_workers} process{'es' if local_workers != 1 else ''}"
                            if local_workers else f"the Dask cluster at {scheduler}")

    def warm_up(self) -> None:
        """Nothing to start before the data are ready (the cluster starts in :meth:`start`)."""

    def start(self, data: StudyData) -> None:
        """Connect to (or start) the cluster and scatter the study's ``data`` (as a Context) to every worker."""
        context = as_context(data)
        distributed = _import_distributed()
        try:
            self._start(distributed, context)
        except BaseException:          # Ctrl+C during the start, an unreachable scheduler: nothing left behind
            self.close(abandon=True)
            raise

    def _start(self, distributed: Any, context: "Context") -> None:
        if self.local_workers is not None:
            self.scratch = tempfile.mkdtemp(prefix="bnstudio-dask-")
            self.cluster = start_local_cluster(distributed, self.local_workers, self.scratch)
            self.client = distributed.Client(self.cluster)
        else:
            address = check_scheduler(str(self.scheduler), self.connect_timeout)   # answers as a Dask scheduler
            try:
                self.client = distributed.Client(address, timeout=self.connect_timeout)
            except (OSError, TimeoutError, ValueError) as exc:
                raise ValidationError(f"cannot reach the Dask scheduler at {self.scheduler}: {exc}") from None
        threads = sum(self.client.nthreads().values())
        self.workers = max(threads, 1)
        self.context = self.client.scatter(context, broadcast=True)

    def submit(self, tasks: list[Task]) -> Any:
        future = self.client.submit(_run_on_worker, self.context, list(tasks), key=f"bnstudio-{tasks[0].key}",
                                    pure=False)
        self.pending.add(future)
        return future

    def wait(self, handles: Iterable[Any], timeout: float) -> list[Any]:
        from distributed import wait
        from distributed.client import FIRST_COMPLETED

        handles = list(handles)
        if not handles:
            return []
        try:
            done, _ = wait(handles, timeout=timeout, return_when=FIRST_COMPLETED)
        except TimeoutError:
            return []
        return list(done)

    def outcome(self, handle: Any) -> list[Outcome]:
        self.pending.discard(handle)
        try:
            return handle.result()
        except Exception as exc:    # KilledWorker after repeated worker deaths, a lost connection
            raise WorkerLost(f"lost on the cluster ({type(exc).__name__}: {exc})") from None

    def close(self, abandon: bool = False) -> None:
        if self.client is not None:
            if abandon and self.pending:
                self.client.cancel(list(self.pending))
            self.pending.clear()
            self.client.close()
            self.client = None
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None
