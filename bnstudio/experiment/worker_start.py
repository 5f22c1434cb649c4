"""How local study workers start: forked from this process's one ``forkserver``, which imports the modules a
task needs (:data:`PRELOAD`: numpy, scipy, pandas and bnstudio's learners, about 1.1 s) once, so each worker
starts in milliseconds instead of importing them itself. ``spawn`` where there is no forkserver (Windows).

Only the standard library is imported here, so a command can call :func:`start_forkserver` before its own heavy
imports and the server's imports overlap them.
"""
from __future__ import annotations

import multiprocessing
import multiprocessing.context

#: what a task imports (learning, scoring, structure search, the fitted network's project JSON)
PRELOAD = ("bnstudio.experiment.evaluation", "bnstudio.learn.params", "bnstudio.learn.structure.api",
           "bnstudio.project", "scipy.optimize")


def worker_context() -> multiprocessing.context.BaseContext:
    """The start method of local workers: ``forkserver`` with :data:`PRELOAD` (``spawn`` where it does not
    exist). Preloading is a setting of this process's one forkserver; a server already running keeps its own."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(PRELOAD))
    return context


def start_forkserver() -> None:
    """Start the forkserver now without waiting for its imports (the first worker waits for them)."""
    if worker_context().get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()
