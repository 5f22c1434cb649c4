"""Sufficient statistics on a Dask cluster: every piece of a table (:mod:`bnstudio.data.parts`) is read, aligned
and reduced to its statistics on a worker; the driver only sums the results as they arrive (one at a time), so
its memory is the size of the statistics, not of the data.

The cluster is an existing scheduler (``tcp://HOST:PORT``) or a :class:`distributed.LocalCluster` of worker
processes started here (the optional extra ``pip install 'bnstudio[cluster]'``); only this module imports dask.
The network is sent to the workers once per run; each call's arguments (e.g. EM's current parameters) once
per call. Workers of an existing cluster read pieces fastest when started without ``MALLOC_TRIM_THRESHOLD_`` in
their environment (see :func:`_adaptive_malloc`).
"""
from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import threading
import warnings
from typing import Any, Callable, Iterator

from bnstudio.core.network import Network
from bnstudio.data.parts import DataParts, Piece, add_results, piece_result
from bnstudio.errors import Cancelled, FormatError, ValidationError


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ValidationError("computing on a Dask cluster needs the optional dependency: "
                              "pip install 'bnstudio[cluster]'") from None
    return distributed


def _adaptive_malloc() -> Any:
    """Start workers without the nanny's default ``MALLOC_TRIM_THRESHOLD_``: setting it turns off glibc's adaptive
    mmap threshold, so every large array of a piece is a fresh mapping, page-faulted in (measured: 40,000 minor
    faults and 2-3x the time per 200,000-row piece). Workers of an existing cluster keep their own setting."""
    import dask

    return dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None})


#: seconds a stopped start of a local cluster gets to end before it is left to Dask's own exit handler
STOP_WAIT = 60.0


def start_local_cluster(distributed: Any, workers: int, scratch: str) -> Any:
    """A LocalCluster of ``workers`` one-thread processes with ``scratch`` as their folder: no dashboard, the
    scheduler's HTTP server on a free port (it binds 8787 even without a dashboard and warns when another cluster
    holds it), workers with glibc's adaptive mmap threshold (:func:`_adaptive_malloc`). Studies and streamed fits
    both start their clusters here.

    Ctrl+C during the start (issue 42 item 13; docs/experiments.md, "Executors"): the terminal sends it to the
    workers too, and one still importing Dask printed its traceback, while the driver, interrupted inside Dask's
    constructor, left a half-made cluster that Dask's exit handler then failed to close (another traceback) and
    the scratch folder behind. So the workers are born with the null device as their stderr (Dask's own lines
    are silenced anyway, :mod:`bnstudio.experiment.dask_quiet`; their errors reach the driver through Dask), and
    the cluster is made in a thread of its own: Ctrl+C lets that start end (at most :data:`STOP_WAIT` s), closes
    what it made and then raises KeyboardInterrupt here."""
    made: dict[str, Any] = {}
    done = threading.Event()      # not Thread.join: an interrupted join marks the thread ended (Python 3.11)

    def build() -> None:
        try:
            with _adaptive_malloc(), warnings.catch_warnings(), _stderr_to_null():
                warnings.simplefilter("ignore", ResourceWarning)
                made["cluster"] = distributed.LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                    local_directory=scratch, scheduler_kwargs={"local_directory": scratch,
                                                               "dashboard_address": "127.0.0.1:0"})
        except BaseException as exc:   # raised again in the caller's thread
            made["error"] = exc
        finally:
            done.set()

    threading.Thread(target=build, name="bnstudio local cluster start", daemon=True).start()
    try:
        while not done.wait(0.05):
            pass
    except BaseException:              # Ctrl+C or SIGTERM: close what the start makes, then stop
        done.wait(STOP_WAIT)
        if "cluster" in made:
            with contextlib.suppress(Exception):
                made["cluster"].close()
        raise
    if "error" in made:
        raise made["error"]
    return made["cluster"]


@contextlib.contextmanager
def _stderr_to_null() -> Iterator[None]:
    """File descriptor 2 on the null device while the block runs: what processes started meanwhile inherit."""
    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def _run_piece(parts: DataParts, piece: Piece, net: Network, task: Callable[..., tuple], args: tuple
               ) -> tuple | None:
    return piece_result(parts, piece, net, task, args)


class DaskRunner:
    """Reduce pieces on the cluster at ``scheduler``, or on a new local cluster of ``local_workers`` processes
    (one thread each). A context manager: leaving it closes the client and any cluster started here."""

    def __init__(self, scheduler: str | None = None, local_workers: int | None = None) -> None:
        if (scheduler is None) == (local_workers is None):
            raise ValidationError("give either a scheduler address or a number of local Dask workers")
        if local_workers is not None and local_workers < 1:
            raise ValidationError(f"local Dask workers must be at least 1, got {local_workers}")
        distributed = _distributed()
        self._closing = contextlib.ExitStack()      # closed in reverse: client, cluster, scratch folder
        try:
            self._start(distributed, scheduler, local_workers)
        except BaseException:
            self._closing.close()
            raise
        self._sent: dict[int, tuple[Network, Any]] = {}

    def _start(self, distributed: Any, scheduler: str | None, local_workers: int | None) -> None:
        if local_workers is not None:
            scratch = tempfile.mkdtemp(prefix="bnstudio-dask-")
            self._closing.callback(shutil.rmtree, scratch, ignore_errors=True)
            cluster = start_local_cluster(distributed, local_workers, scratch)
            self._closing.callback(cluster.close)
            self.client = distributed.Client(cluster)
        else:
            try:
                self.client = distributed.Client(scheduler, timeout=30)
            except (OSError, TimeoutError, ValueError) as exc:
                raise ValidationError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        self._closing.callback(self.client.close)

    def __enter__(self) -> "DaskRunner":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def map_reduce(self, parts: DataParts, net: Network, task: Callable[..., tuple], args: tuple,
                   cancelled: Callable[[], bool] | None) -> tuple:
        """Σ over ``parts.pieces`` of ``task(net, codes, *args)``, each piece on a worker (see the module)."""
        distributed = _distributed()
        sent = self._sent.get(id(net))
        if sent is None or sent[0] is not net:
            sent = self._sent[id(net)] = (net, self._send(net))
        remote_net = sent[1]
        remote_parts, remote_args = self._send(parts), self._send(args)
        futures = [self.client.submit(_run_piece, remote_parts, piece, remote_net, task, remote_args, pure=False)
                   for piece in parts.pieces]
        total = None
        try:
            for future in distributed.as_completed(futures):
                total = add_results(total, future.result())
                future.release()
                if cancelled is not None and cancelled():
                    raise Cancelled(f"stopped while reading {parts.source} on the cluster")
        except BaseException:
            self.client.cancel(futures)
            raise
        if total is None:
            raise FormatError("the data have no rows", path=parts.source)
        return total

    def _send(self, value: Any) -> Any:
        """``value`` on every worker, as one future under a key of its own (content-hashed keys shared by two
        calls could be released by the first while the second still needs them)."""
        return self.client.scatter([value], broadcast=True, hash=False)[0]

    def close(self) -> None:
        """Close the client and any cluster started here, and remove its scratch folder."""
        self._closing.close()
        self._sent.clear()
