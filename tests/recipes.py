"""What the recipe tests share (docs/architecture.md §4 and §6): a copy of the repository (package, tests,
resources, pyproject.toml) with a recipe's changes made to it, and the project's own registry-wide tests run
inside that copy, so that a recipe that breaks them (a hard-coded list, a name dispatch falling through, an
import that loads a numerical library on every read) fails here as it would for a maintainer."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, Mapping

ROOT = Path(__file__).resolve().parents[1]
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")


def patched_copy(tmp_path: Path, new_files: Mapping[str, str],
                 edits: Mapping[str, Callable[[str], str]]) -> Path:
    """A copy of the repository under ``tmp_path/src`` with ``new_files`` (path -> text) written and each
    ``edits`` path rewritten by its function (which must change it)."""
    copy = tmp_path / "src"
    for folder in ("bnstudio", "tests", "resources"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=IGNORED)
    shutil.copy2(ROOT / "pyproject.toml", copy / "pyproject.toml")
    for path, text in new_files.items():
        (copy / path).write_text(text, encoding="utf-8")
    for path, edit in edits.items():
        before = (copy / path).read_text(encoding="utf-8")
        after = edit(before)
        assert after != before, f"the recipe's edit of {path} changed nothing"
        (copy / path).write_text(after, encoding="utf-8")
    return copy


def environment(copy: Path) -> dict[str, str]:
    """The copy first on the path, offscreen Qt."""
    return {**os.environ, "PYTHONPATH": str(copy), "QT_QPA_PLATFORM": "offscreen"}


def run_python(copy: Path, code: str, *args: str, cwd: Path, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=environment(copy),
                          cwd=cwd, timeout=timeout)


def run_suite(copy: Path, *pytest_args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """The copy's own tests (``pytest_args``: files and -k expressions), in one process, inside the copy."""
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                           *pytest_args], capture_output=True, text=True, env=environment(copy), cwd=copy,
                          timeout=timeout)


def summary(result: subprocess.CompletedProcess) -> str:
    """The end of a run's output, for an assertion message."""
    return "\n".join((result.stdout + result.stderr).strip().splitlines()[-30:])
