"""Mutation fuzz test over Parquet and Arrow files and folders of parts (issue 42; see
:mod:`tests.fuzz.columnar`): every case reads or fails with one BN Studio error line, in a child process that
must not crash and whose resident memory stays below ``RSS_LIMIT``. Small in the suite
(``BNSTUDIO_FUZZ_COLUMNAR_CASES`` per kind, default 12): seconds."""
from __future__ import annotations

import os

import pytest

from tests.fuzz.columnar import KINDS, RSS_LIMIT, corpus, mutate, run

CASES = int(os.environ.get("BNSTUDIO_FUZZ_COLUMNAR_CASES", "12"))


def test_mutated_parquet_arrow_and_parts_read_or_fail_cleanly():
    pytest.importorskip("pyarrow")
    problems, peak = run(["corpus", *KINDS], CASES, timeout=300.0)
    assert not problems, "\n".join(f"{case}: {problem}" for case, problem in sorted(problems.items()))
    assert 0 < peak < RSS_LIMIT >> 20


def test_the_corpus_holds_the_issue_cases():
    assert {p.name for p in corpus()} >= {"column_metadata_abort.parquet", "row_group_993_rows.parquet",
                                          "string_offsets_segfault.arrow", "lz4_segfault.arrow"}


def test_cases_are_replayable():
    pytest.importorskip("pyarrow")
    assert mutate("arrow-lz4", 3) == mutate("arrow-lz4", 3) != mutate("arrow-lz4", 4)
