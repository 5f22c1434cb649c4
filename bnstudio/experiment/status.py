"""Whether a study finished, was interrupted or still runs, from its store's state and task counts.

The process running a study writes its pid and host into the store's state when it starts and ``ended`` (with
``stopped``: a stop on request or Ctrl+C) when it ends. A process killed outright (SIGKILL, a power cut) writes
no end: the next reader finds no ``ended`` and a pid that no longer lives on this host, and calls the run
interrupted. On another host the pid cannot be checked, and a state not written for :data:`STALE_SECONDS`
(the driver writes it every second) counts as dead.
"""
from __future__ import annotations

import os
import socket
import time
from typing import Any, Mapping

STALE_SECONDS = 30.0
STATUSES = ("not started", "running", "interrupted", "finished", "incomplete")


def pid_alive(pid: int) -> bool:
    """True if a process ``pid`` exists on this host (signal 0: checks, sends nothing)."""
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:     # it exists, owned by another user
        return True
    return True


def driver_alive(state: Mapping[str, Any], now: float | None = None) -> bool:
    """The process that wrote ``state`` has not ended: its pid lives (same host), or (another host, or no pid
    recorded) its state was written in the last :data:`STALE_SECONDS`."""
    if not state or "ended" in state:
        return False
    if state.get("pid") and state.get("host", socket.gethostname()) == socket.gethostname():
        return pid_alive(state["pid"])
    now = time.time() if now is None else now
    return now - float(state.get("updated", state.get("started", 0.0))) < STALE_SECONDS


def study_status(state: Mapping[str, Any] | None, counts: Mapping[str, int]) -> str:
    """One of :data:`STATUSES`: ``running`` while the driver lives; ``interrupted`` when it was stopped or died
    without an end; ``finished`` when its last run ended with no task left to run; ``incomplete`` when tasks
    are left although no run was interrupted (the study changed since); ``not started`` without any run."""
    if not state:
        return "not started" if not counts.get("done") and not counts.get("failed") else "incomplete"
    if driver_alive(state):
        return "running"
    if "ended" not in state or state.get("stopped"):
        return "interrupted"
    return "finished" if not counts.get("pending") else "incomplete"


def run_outcome(run: Mapping[str, Any]) -> str:
    """How a run of the store's ``runs`` table ended, as a reader sees it now: its recorded outcome, or
    ``interrupted`` for a run still marked ``running`` whose process is gone (the next run records that)."""
    if run["outcome"] == "running" and not driver_alive({k: v for k, v in run.items() if k != "ended"}):
        return "interrupted"
    return run["outcome"]
