"""Mutation fuzz test over every reader (BIF, XMLBIF, Hugin NET, XDSL, UAI, .bnsproj, CSV) and the regression corpus.

Each mutated file (see :mod:`tests.fuzz.mutate`) must read into a valid network or dataset, or fail with a
BNStudioError whose message is one line of readable length -- never another exception, never a warning other
than BN Studio's own -- within a time and a memory limit. A sample of cases also goes through the command line
(``info`` and ``convert`` for networks, ``fit`` for data), whose exit status must be 0 or 2 with a one-line error.

The run in the suite is small (``BNSTUDIO_FUZZ_CASES`` cases per format, default 40); the long run is
``python -m tests.fuzz.run --cases 20000``. Every case that ever failed is kept under ``corpus/<format>/`` and
replayed here.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.fuzz.mutate import CLI_EVERY, FORMATS, NETWORK_FORMATS, case_path, check_case, check_cli, mutate

CASES = int(os.environ.get("BNSTUDIO_FUZZ_CASES", "40"))
CORPUS = Path(__file__).parent / "corpus"
CORPUS_FILES = sorted(p for p in CORPUS.rglob("*") if p.is_file())


@pytest.mark.parametrize("fmt", FORMATS)
def test_mutated_files_read_or_fail_cleanly(fmt, tmp_path):
    failures = []
    for index in range(CASES):
        seed, data = mutate(fmt, index)
        path = case_path(tmp_path, fmt, seed, str(index))
        path.write_bytes(data)
        problem = check_case(fmt, path)
        if problem is None and index % CLI_EVERY == 0:
            problem = check_cli(fmt, path, tmp_path, index // CLI_EVERY)
        if problem is not None:
            failures.append(f"{fmt} case {index} (from {seed}): {problem}")
        path.unlink()
    assert not failures, "\n".join(failures)


def _format_of(path: Path) -> str:
    return path.parent.name


@pytest.mark.parametrize("path", CORPUS_FILES, ids=[str(p.relative_to(CORPUS)) for p in CORPUS_FILES])
def test_corpus_case(path, tmp_path):
    fmt = _format_of(path)
    if fmt == "rows":  # the issue's row cases, read by tests/io/test_row_policy.py
        fmt = "bif" if path.suffix == ".bif" else "bnsproj"
    assert fmt in FORMATS and path.name.endswith(".csv" if fmt == "csv" else NETWORK_FORMATS[fmt]), path
    assert check_case(fmt, path) is None
    assert check_cli(fmt, path, tmp_path, len(path.name)) is None


@pytest.mark.skipif(os.name != "posix", reason="FIFOs and /dev/zero are POSIX")
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_the_special_files_of_the_issue(fmt, kind, tmp_path):
    """A FIFO (which blocked) and /dev/zero (which ate memory): made here, as git cannot hold them."""
    path = case_path(tmp_path, fmt, "asia", kind)
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    assert check_case(fmt, path) is None
    assert check_cli(fmt, path, tmp_path, 0) is None


def test_the_corpus_holds_the_issue_cases():
    names = {str(p.relative_to(CORPUS)) for p in CORPUS_FILES}
    assert {"uai/card1e8.uai", "xmlbif/unknown_encoding.xml", "xdsl/unknown_encoding.xdsl", "rows/row9995.bif",
            "rows/row9995.bnsproj"} <= names


def test_cases_are_replayable():
    assert mutate("uai", 7) == mutate("uai", 7) and mutate("uai", 7) != mutate("uai", 8)
