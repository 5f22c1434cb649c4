"""A Dask cluster that speaks only through bnstudio's own lines (issue 42 items 12 and 13).

Dask's processes log to stderr (a scheduler port in use, a worker's heartbeat missed, a nanny restarting a
worker, "Failed to reconnect" after Ctrl+C) and the workers of a local cluster, in the terminal's process
group, receive Ctrl+C too and each print a KeyboardInterrupt traceback. After :func:`quiet_dask` (called by a
command before it starts or joins a cluster, for the rest of its process: Dask's finalisers log at exit too):

* the ``distributed``, ``asyncio`` and ``tornado`` loggers of this process (tornado's event loop logs the errors
  of Dask's callbacks, e.g. a cancelled ``sync`` interrupted by SIGTERM) and the ``distributed`` logger of every
  worker started later (through the environment: ``DASK_LOGGING__DISTRIBUTED``) print only critical messages; what matters reaches the user as bnstudio's
  own one-line errors (a lost worker, an unreachable scheduler); the loggers under them to which Dask's
  configuration gives a level of their own (``distributed.client``, ``tornado.application``...) are turned down
  by name too (:func:`quieted_loggers`);
* each local worker ends silently on SIGINT once started (:mod:`bnstudio.experiment.dask_worker_signals`, a
  Dask preload): Ctrl+C stops the driver, which closes the cluster. A worker still importing when Ctrl+C
  comes (the first seconds of a local cluster's start) has no preload yet: workers are born with the null
  device as their stderr (:func:`bnstudio.data.cluster.start_local_cluster`).

Only used where a cluster is started; ``dask`` is imported here, when the extra is installed.
"""
from __future__ import annotations

import logging
import os

QUIET_LEVEL = "critical"
ENVIRONMENT = "DASK_LOGGING__DISTRIBUTED"
PRELOAD = "bnstudio.experiment.dask_worker_signals"


def quieted_loggers() -> list[str]:
    """The loggers turned down: ``distributed``, ``asyncio``, ``tornado`` and every logger under them that already
    has a level of its own (Dask's configuration gives ``distributed.client``, ``distributed.gc`` and
    ``tornado.application`` theirs, which a parent's level does not override: "Couldn't gather 1 keys" after
    Ctrl+C came from ``distributed.client``)."""
    roots = ("distributed", "asyncio", "tornado")
    known = [name for name, logger in logging.root.manager.loggerDict.items()
             if isinstance(logger, logging.Logger) and name.split(".")[0] in roots]
    return sorted(set(roots) | set(known))


def quiet_dask() -> None:
    """Dask's log lines silenced and local workers ending quietly on Ctrl+C from now on (see the module)."""
    os.environ[ENVIRONMENT] = QUIET_LEVEL
    try:
        import dask
        import distributed  # noqa: F401  (its logging set up now, then turned down)
    except ImportError:      # the cluster's own check says what to install
        return
    for name in quieted_loggers():
        logging.getLogger(name).setLevel(logging.CRITICAL)
    preload = list(dask.config.get("distributed.worker.preload", []) or [])
    dask.config.set({"distributed.worker.preload": preload + [PRELOAD] if PRELOAD not in preload else preload})

