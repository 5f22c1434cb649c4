"""Commit subjects are at most 72 characters (docs/architecture.md §5): `make lint` checks the commits not yet on
the base, one line per subject that is longer, and fails if there is one.

The base is $COMMIT_SUBJECTS_BASE if set, else origin/main when the clone has it; without either (a fresh clone
with no remote) HEAD alone is checked. The history up to KNOWN_HISTORY is never checked: subjects ran longer
before the rule was enforced. Outside a git checkout (a source archive) there is nothing to check.

    python3 .ci/commit_subjects.py [--base REV] [--known REV]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

LIMIT = 72
#: the last commit before the rule was checked (issue 41): it and its ancestors are known history
KNOWN_HISTORY = "534d83a"
BASE_VARIABLE = "COMMIT_SUBJECTS_BASE"


def git(*args: str) -> subprocess.CompletedProcess[str]:
    """``git args`` in the current folder, its output captured (a failure, or no git at all, is a return code)."""
    try:
        return subprocess.run(["git", *args], capture_output=True, text=True, encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return subprocess.CompletedProcess(["git", *args], 127, "", "git is not installed")


def has_commit(rev: str) -> bool:
    return git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").returncode == 0


def default_base() -> str | None:
    """$COMMIT_SUBJECTS_BASE, else origin/main if the clone has it, else None (HEAD alone)."""
    chosen = os.environ.get(BASE_VARIABLE)
    if chosen:
        return chosen
    return "origin/main" if has_commit("origin/main") else None


def subjects(base: str | None, known: str | None) -> list[tuple[str, str]]:
    """(short hash, subject) of the commits in ``base..HEAD`` (HEAD alone without a base), leaving out
    ``known`` and its ancestors when the clone has that commit."""
    revs = [f"{base}..HEAD"] if base else ["-1", "HEAD"]
    if known and has_commit(known):
        revs.append(f"^{known}")
    out = git("log", "--format=%h%x00%s", *revs)
    if out.returncode != 0:
        raise SystemExit(f"commit_subjects: git log {' '.join(revs)} failed: {out.stderr.strip()}")
    pairs = [line.split("\0", 1) for line in out.stdout.splitlines() if "\0" in line]
    return [(sha, subject) for sha, subject in pairs]


def long_subjects(base: str | None, known: str | None = KNOWN_HISTORY) -> list[str]:
    """One line per subject over :data:`LIMIT` characters."""
    return [f"commit {sha}: subject has {len(subject)} characters (at most {LIMIT}): {subject}"
            for sha, subject in subjects(base, known) if len(subject) > LIMIT]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default=None, help=f"check BASE..HEAD (default: ${BASE_VARIABLE}, origin/main, "
                                                     "or HEAD alone)")
    parser.add_argument("--known", default=KNOWN_HISTORY, help="this commit and its ancestors are not checked")
    args = parser.parse_args(argv)
    if git("rev-parse", "--verify", "--quiet", "HEAD").returncode != 0:
        print("commit_subjects: no git history here, nothing to check")
        return 0
    base = args.base or default_base()
    if base and not has_commit(base):
        print(f"commit_subjects: no such base {base!r}", file=sys.stderr)
        return 2
    found = long_subjects(base, args.known)
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
