"""How local study workers start: forked from this process's one ``forkserver``, which imports the modules a
task needs (:data:`PRELOAD`: numpy, scipy and bnstudio's learners, about 0.45 s of CPU; not pandas: workers get
codes, not tables) once, so each worker starts in milliseconds instead of importing them itself. ``spawn``
where there is no forkserver (Windows).

Only the standard library (and bnstudio's errors) is imported here, so a command can call :func:`start_forkserver` before its own heavy
imports and the server's imports overlap them.
"""
from __future__ import annotations

import multiprocessing
import multiprocessing.context
import os
import sys
import tempfile
import time
from typing import Any

from bnstudio.errors import ValidationError

#: what a task imports (learning, scoring, structure search, the fitted network's project JSON; the
#: worker's loop)
PRELOAD = ("bnstudio.experiment.evaluation", "bnstudio.learn.params", "bnstudio.learn.structure.api",
           "bnstudio.io.project", "scipy.optimize", "bnstudio.experiment.executors")
#: what the forkserver imports: :data:`PRELOAD`, its collector paused (:mod:`~bnstudio.experiment.worker_preload`)
SERVER_PRELOAD = ("bnstudio.experiment.worker_preload",)


#: the longest AF_UNIX socket path: 108 bytes of ``sun_path`` on Linux, 104 on macOS and the BSDs, less the NUL
SOCKET_PATH_LIMIT = 103 if sys.platform.startswith("linux") else 99
#: what multiprocessing adds to the temporary folder for a socket: ``/pymp-XXXXXXXX/listener-XXXXXXXX``
SOCKET_SUFFIX = len("/pymp-xxxxxxxx/listener-xxxxxxxx")
SHORT_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm")


def socket_folder(base: str, candidates: tuple[str, ...] = SHORT_FOLDERS) -> str | None:
    """Where multiprocessing's sockets can live: ``base`` (the temporary folder) when its socket paths fit in
    :data:`SOCKET_PATH_LIMIT`, else the first writable short folder of ``candidates``, else None."""
    if len(os.fsencode(base)) + SOCKET_SUFFIX <= SOCKET_PATH_LIMIT:
        return base
    for folder in candidates:
        if (len(os.fsencode(folder)) + SOCKET_SUFFIX <= SOCKET_PATH_LIMIT and os.path.isdir(folder)
                and os.access(folder, os.W_OK | os.X_OK)):
            return folder
    return None


def ensure_short_socket_folder() -> None:
    """Give this process's multiprocessing sockets (the forkserver's) a folder whose paths fit an AF_UNIX
    address: with a long TMPDIR they would fail with "AF_UNIX path too long". multiprocessing keeps its
    ``pymp-*`` folder per process (made on first use, removed at exit); it is made here, in a short folder,
    when the temporary folder is too long. Neither possible: one line saying what to do."""
    from multiprocessing import util

    base = tempfile.gettempdir()
    folder = socket_folder(base, SHORT_FOLDERS)
    if folder is None:
        raise ValidationError(f"the temporary folder's path is too long for the local workers' sockets "
                              f"({len(base)} characters: {base}); set TMPDIR to a shorter folder or use --workers 1")
    if folder == base:
        return
    saved = tempfile.tempdir
    tempfile.tempdir = folder
    try:
        util.get_temp_dir()          # made now, under the short folder, and kept for this process
    finally:
        tempfile.tempdir = saved


def worker_context() -> multiprocessing.context.BaseContext:
    """The start method of local workers: ``forkserver`` with :data:`PRELOAD` (through
    :data:`SERVER_PRELOAD`; ``spawn`` where it does not exist). Preloading is a setting of this process's one
    forkserver; a server already running keeps its own."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ensure_short_socket_folder()
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(SERVER_PRELOAD))
    return context


#: the machine's snapshot (:func:`~bnstudio.experiment.accounting.machine`) and this process's CPU seconds when
#: :func:`start_forkserver` last started a server: other processes' CPU use is measured from then on
_STARTED: tuple[dict[str, Any], float] | None = None


def start_forkserver() -> None:
    """Start the forkserver now without waiting for its imports (the first worker waits for them); a server
    started here notes the machine's CPU use first (:func:`started_sample`)."""
    global _STARTED
    if worker_context().get_start_method() == "forkserver":
        from multiprocessing import forkserver

        if forkserver_pid() is None:
            from bnstudio.experiment.accounting import machine  # standard library only

            _STARTED = (machine(), time.process_time())
        forkserver.ensure_running()


def forkserver_pid() -> int | None:
    """The process id of this process's forkserver, None when none was started."""
    from multiprocessing import forkserver

    return getattr(getattr(forkserver, "_forkserver", None), "_forkserver_pid", None)


def started_sample(max_age: float) -> tuple[dict[str, Any], float] | None:
    """The machine's snapshot and this process's CPU seconds taken when :func:`start_forkserver` started the
    running server, if at most ``max_age`` seconds ago; given once (the first study after the server's start:
    the server's CPU since then is all its own, no other study's workers ran). None otherwise (no server started
    here, taken already, or long ago: a measure of the machine then says little now)."""
    global _STARTED
    sample, _STARTED = _STARTED, None
    if sample is None or forkserver_pid() is None or time.time() - sample[0]["time"] > max_age:
        return None
    return sample
