"""Mutation fuzz test over influence-diagram JSON, study files and results files (issue 25; see
:mod:`tests.fuzz.hostile_files`). Small in the suite (``BNSTUDIO_FUZZ_HOSTILE_CASES`` per kind, default 24): a
few seconds."""
from __future__ import annotations

import os

import pytest

from tests.fuzz.hostile_files import KINDS, SUFFIX, check_case, check_cli, corrupt_fields, mutate

CASES = int(os.environ.get("BNSTUDIO_FUZZ_HOSTILE_CASES", "24"))
CLI_EVERY = 6


@pytest.mark.parametrize("kind", KINDS)
def test_mutated_files_read_or_fail_cleanly(kind, tmp_path):
    failures = []
    for index in range(CASES):
        path = tmp_path / f"case{index}{SUFFIX[kind]}"
        path.write_bytes(mutate(kind, index))
        if kind == "results" and index % 2:
            corrupt_fields(path, index)
        out = tmp_path / f"out{index}"
        out.mkdir()
        problem = check_case(kind, path, out)
        if problem is None and index % CLI_EVERY == 0:
            problem = check_cli(kind, path, out)
        if problem is not None:
            failures.append(f"{kind} case {index}: {problem}")
    assert not failures, "\n".join(failures)


def test_cases_are_replayable():
    assert mutate("diagram", 3) == mutate("diagram", 3) and mutate("study", 3) != mutate("study", 4)
