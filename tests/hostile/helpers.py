"""Helpers of the hostile-input tests (issue 25): a real ``bnstudio`` process and its one error line."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ASIA = ROOT / "resources" / "networks" / "asia.bif"
OIL = ROOT / "resources" / "decision" / "oil_wildcatter.json"


def bnstudio(*argv, timeout: float = 120) -> subprocess.CompletedProcess:
    """``bnstudio ARGV`` in a process of its own (offscreen, UTF-8)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "bnstudio", *map(str, argv)], capture_output=True, text=True,
                          env=env, timeout=timeout)


def refused(*argv, timeout: float = 120) -> str:
    """Run a command that must fail cleanly: exit 2, exactly one ``bnstudio: error:`` line; returns it."""
    done = bnstudio(*argv, timeout=timeout)
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("bnstudio: error: "), \
        (argv, done.returncode, done.stderr)
    return lines[0]


def oil(folder: Path, name: str, edit) -> Path:
    """The oil wildcatter diagram with ``edit(dict)`` applied, written to ``folder/name``."""
    data = json.loads(OIL.read_text())
    edit(data)
    path = folder / name
    path.write_text(json.dumps(data))
    return path
