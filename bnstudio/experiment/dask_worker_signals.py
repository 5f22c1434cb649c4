"""Imported by each local Dask worker as it starts (a Dask preload, see :mod:`bnstudio.experiment.dask_quiet`):
Ctrl+C, which the terminal sends to every process of its group, stops the worker as before but without a word
(by default its KeyboardInterrupt inside Dask's event loop printed a traceback per worker); bnstudio's driver,
which gets it too, closes the cluster and says "interrupted" once."""
from __future__ import annotations

import os
import signal
import threading
from typing import Any


def _leave(signum: int, frame: Any) -> None:
    """Stop as Python's default does (KeyboardInterrupt, so Dask's nanny sees its worker stop as before), with
    this process's stderr sent to the null device first: the traceback and Dask's lines go nowhere."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    os.close(devnull)
    signal.default_int_handler(signum, frame)


if threading.current_thread() is threading.main_thread():
    signal.signal(signal.SIGINT, _leave)


def dask_setup(worker: object) -> None:
    """Dask's preload hook: nothing more to do (the module's import did it)."""
