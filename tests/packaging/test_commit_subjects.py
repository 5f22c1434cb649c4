"""`make lint` checks commit subjects (at most 72 characters, docs/architecture.md §5) with .ci/commit_subjects.py:
the commits since the base, HEAD alone without one, never the history before the rule."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.scripts import ROOT

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
SCRIPT = ROOT / ".ci" / "commit_subjects.py"
LONG = "A subject that goes on and on about everything the change did, past the limit"
assert len(LONG) > 72


def _commit(repo: Path, subject: str) -> str:
    (repo / "f.txt").write_text(subject, encoding="utf-8")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "add", "f.txt"], check=True, capture_output=True)
    subprocess.run([*git, "commit", "-q", "-m", subject, "-m", "the details"], check=True, capture_output=True)
    return subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def repo(tmp_path, monkeypatch):
    monkeypatch.delenv("COMMIT_SUBJECTS_BASE", raising=False)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, capture_output=True)
    return tmp_path


def _run(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(repo.parent)}  # never the repository around tmp_path
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=repo, env=env, capture_output=True, text=True)


def test_a_long_subject_at_head_fails_in_one_line(repo):
    _commit(repo, "Short subject")
    assert _run(repo).returncode == 0
    sha = _commit(repo, LONG)
    done = _run(repo)  # no remote, no base: HEAD alone
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith(f"commit {sha[:7]}")
    assert line.endswith(f": subject has {len(LONG)} characters (at most 72): {LONG}")


def test_a_base_checks_every_commit_since_it_and_no_other(repo, monkeypatch):
    _commit(repo, LONG + " (before the base)")
    base = _commit(repo, "The base")
    _commit(repo, LONG)
    _commit(repo, "A short one on top")
    assert _run(repo).returncode == 0  # HEAD alone is short
    done = _run(repo, "--base", base)
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1 and LONG in done.stderr
    monkeypatch.setenv("COMMIT_SUBJECTS_BASE", base)
    assert _run(repo).returncode == 1


def test_the_known_history_is_never_checked(repo):
    root = _commit(repo, "Root")
    known = _commit(repo, LONG)
    assert _run(repo, "--base", root, "--known", "").returncode == 1
    assert _run(repo, "--base", root, "--known", known).returncode == 0
    _commit(repo, LONG + " again")
    assert _run(repo, "--base", root, "--known", known).returncode == 1


def test_outside_git_there_is_nothing_to_check(tmp_path):
    done = _run(tmp_path)
    assert done.returncode == 0 and "nothing to check" in done.stdout


def test_make_lint_runs_it():
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    lint = make.split("\nlint:", 1)[1].split("\n\n", 1)[0]
    assert ".ci/commit_subjects.py" in lint
