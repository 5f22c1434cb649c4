"""Measurements in fresh child processes, so that each one's peak resident memory is its own.

The peak is read from ``VmHWM`` in /proc/self/status: the high-water mark of this process's address space, which
exec starts afresh. ``getrusage(RUSAGE_SELF).ru_maxrss`` is not: Linux carries the spawning process's peak across
fork (and vfork, which subprocess uses) and exec, so a child of a benchmark driver holding 500 MiB reported at
least 500 MiB whatever it did itself (measured: ru_maxrss 531 MiB, VmHWM 11 MiB for a bare child).
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def rss_mib() -> float:
    """Current resident size of this process (MiB), from /proc."""
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_mib() -> float:
    """Peak resident size of this process so far (MiB): ``VmHWM`` of /proc/self/status, this process's own since
    its exec (``ru_maxrss`` where /proc is absent, which may include the parent's size; see module docstring)."""
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_child(script: str, *args: str) -> dict:
    """Run ``script --child ARGS`` in a fresh interpreter; its last stdout line is a JSON result
    ({"error": last stderr line} if it failed)."""
    out = subprocess.run([sys.executable, script, "--child", *args], capture_output=True, text=True,
                         cwd=HERE, env={**os.environ, "PYTHONPATH": str(HERE)})
    if out.returncode:
        return {"error": (out.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])
