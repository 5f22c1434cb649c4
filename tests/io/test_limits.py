"""Every size a file declares is checked before anything is allocated, against limits a user can raise."""
from __future__ import annotations

import gzip
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from bnstudio.core.network import Network
from bnstudio.errors import FormatError, ValidationError
from bnstudio.io import read_network, write_network
from bnstudio.io.limits import MAX_AXES, SizeBudget

FORMATS = [".bif", ".bif.gz", ".xmlbif", ".net", ".xdsl", ".uai", ".bnsproj"]


def _chain(cards: list[int], parents_of_last: int = 1) -> Network:
    """Variables V0.. with the given cardinalities; the last has the ``parents_of_last`` previous ones as
    parents (names valid in every format, so UAI's V0.. names match)."""
    net = Network("n")
    rng = np.random.default_rng(0)
    for i, card in enumerate(cards):
        parents = [f"V{j}" for j in range(max(0, i - parents_of_last), i)] if i == len(cards) - 1 else []
        shape = tuple(cards[int(p[1:])] for p in parents)
        net.add_variable(f"V{i}", [f"s{k}" for k in range(card)], parents, cpt=rng.dirichlet(np.ones(card), shape))
    return net


def _refused(path: Path, *fragments: str) -> str:
    started = time.perf_counter()
    with pytest.raises(FormatError) as info:
        read_network(path)
    assert time.perf_counter() - started < 2
    message = str(info.value)
    assert message.startswith(str(path)) and "\n" not in message, message
    for fragment in fragments:
        assert fragment in message, message
    return message


@pytest.mark.parametrize("ext", FORMATS)
def test_each_limit_is_checked_and_named_and_can_be_raised(tmp_path, monkeypatch, ext):
    net = _chain([2, 3, 4, 5], parents_of_last=3)  # V3's table: 2 * 3 * 4 * 5 = 120 entries; 129 in all
    path = tmp_path / f"n{ext}"
    write_network(net, path)
    cases = [
        ("BNSTUDIO_MAX_VARIABLES", "3", ["the number of variables is 4, above the limit of 3"]),
        ("BNSTUDIO_MAX_STATES", "4", ["the number of states of variable 'V3' is 5, above the limit of 4"]),
        ("BNSTUDIO_MAX_PARENTS", "2", ["the number of parents of 'V3' is 3, above the limit of 2"]),
        ("BNSTUDIO_MAX_TABLE_ENTRIES", "119", ["the number of entries of the table of 'V3' is 120, above the "
                                               "limit of 119"]),
        ("BNSTUDIO_MAX_TOTAL_ENTRIES", "128", ["with the table of 'V3', the number of table entries in the file "
                                               "is 129, above the limit of 128"]),
    ]
    for env, value, fragments in cases:
        monkeypatch.setenv(env, value)
        _refused(path, *fragments, f"(set the environment variable {env} to raise it)")
        monkeypatch.setenv(env, str(int(value) + 1))  # at the limit is fine
        assert read_network(path).variables == net.variables
        monkeypatch.delenv(env)


def test_the_limits_in_force_by_default_fit_every_real_network():
    budget = SizeBudget()
    assert budget.max_variables >= 10_000 and budget.max_states >= 1_000
    assert budget.max_table >= 10 ** 8 and budget.max_total >= budget.max_table
    assert 20 <= budget.max_parents < MAX_AXES


@pytest.mark.parametrize("value", ["abc", "0", "-5", "1.5", "nan", "inf", "1e999"])
def test_a_bad_limit_setting_is_one_clear_error(tmp_path, monkeypatch, value):
    path = tmp_path / "n.bif"
    write_network(_chain([2]), path)
    monkeypatch.setenv("BNSTUDIO_MAX_STATES", value)
    with pytest.raises(ValidationError, match=r"^the environment variable BNSTUDIO_MAX_STATES must be a "
                                              r"positive integer, got '.*'$"):
        read_network(path)


def test_limit_settings_accept_underscores_and_exponents(tmp_path, monkeypatch):
    monkeypatch.setenv("BNSTUDIO_MAX_TABLE_ENTRIES", "1_000")
    assert SizeBudget().max_table == 1000
    monkeypatch.setenv("BNSTUDIO_MAX_TABLE_ENTRIES", "2e9")
    assert SizeBudget().max_table == 2 * 10 ** 9


def test_parents_cannot_exceed_numpys_axes(monkeypatch):
    monkeypatch.setenv("BNSTUDIO_MAX_PARENTS", "1000")
    budget = SizeBudget()
    assert budget.max_parents == MAX_AXES - 1
    with pytest.raises(FormatError, match=f"above the limit of {MAX_AXES - 1} \\(numpy arrays have at most "
                                          f"{MAX_AXES} axes\\)$"):
        budget.parents("X", MAX_AXES, lambda m: FormatError(m, path="f"))


def test_a_tiny_uai_file_declaring_1e8_states_fails_at_once(tmp_path):
    """card1e8.uai from the issue: 48 s and 3.8 GB, then MemoryError, before sizes were checked."""
    path = Path(__file__).parent.parent / "fuzz" / "corpus" / "uai" / "card1e8.uai"
    assert path.stat().st_size <= 64
    tracemalloc.start()
    try:
        _refused(path, ":3:1: the number of states of variable 'V0' is 100,000,000, above the limit of 1,000,000 "
                       "(set the environment variable BNSTUDIO_MAX_STATES to raise it)")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000


@pytest.mark.parametrize("text, fragment", [
    ("BAYES 200000 " + "2 " * 3, "the number of variables is 200,000, above the limit of 100,000"),
    ("BAYES 1 100000000000000000000000000 1 1 0 1 1", "the cardinality of variable 0 is 10000000000000000000... "
                                                      "(27 digits), far too large"),
    ("BAYES 3 1000 1000 1000 3 1 0 1 1 3 0 1 2", "the number of entries of the table of 'V2' is 1,000,000,000"),
    ("BAYES 2 " + "1" * 5000 + " 2", "(5000 digits), far too large"),
])
def test_uai_declared_sizes(tmp_path, text, fragment):
    path = tmp_path / "big.uai"
    path.write_text(text)
    _refused(path, fragment)


def test_a_bif_default_row_cannot_fill_a_huge_table(tmp_path):
    """``default`` fills every row: a few hundred bytes could declare 10^10 entries."""
    states = "{ " + ", ".join(f"s{k}" for k in range(100)) + " }"
    parents = [f"P{i}" for i in range(5)]
    text = "".join(f"variable {p} {{ type discrete [ 100 ] {states}; }}\n" for p in parents)
    text += "variable X { type discrete [ 2 ] { a, b }; }\n"
    text += "".join(f"probability ( {p} ) {{ default " + ", ".join(["0.01"] * 100) + "; }\n" for p in parents)
    text += f"probability ( X | {', '.join(parents)} ) {{ default 0.5, 0.5; }}\n"
    path = tmp_path / "big.bif"
    path.write_text(text)
    _refused(path, "the number of entries of the table of 'X' is 20,000,000,000, above the limit of 100,000,000")


def test_a_bif_default_row_fills_a_large_table_quickly(tmp_path):
    """The rows a default fills are set with numpy, not one by one: 10^6 rows in well under a second."""
    states = "{ " + ", ".join(f"s{k}" for k in range(1000)) + " }"
    text = "".join(f"variable {p} {{ type discrete [ 1000 ] {states}; }}\n" for p in ("P", "Q"))
    text += "variable X { type discrete [ 2 ] { a, b }; }\n"
    text += "".join(f"probability ( {p} ) {{ default " + ", ".join(["0.001"] * 1000) + "; }\n" for p in "PQ")
    text += "probability ( X | P, Q ) { (s3, s7) 0.1, 0.9; default 0.5, 0.5; }\n"
    path = tmp_path / "wide.bif"
    path.write_text(text)
    started = time.perf_counter()
    net = read_network(path)
    assert time.perf_counter() - started < 5
    assert net.cpt("X").shape == (1000, 1000, 2)
    assert net.cpt("X")[3, 7].tolist() == [0.1, 0.9] and net.cpt("X")[0, 0].tolist() == [0.5, 0.5]


def test_a_bif_state_count_with_thousands_of_digits(tmp_path):
    path = tmp_path / "n.bif"
    path.write_text("variable A { type discrete [ " + "9" * 5000 + " ] { a, b }; }")
    _refused(path, "variable 'A' declares 9999999999999999999999999999999999999... states but lists 2")


def test_a_gzip_bomb_stops_at_the_limit(tmp_path, monkeypatch):
    path = tmp_path / "bomb.bif.gz"
    path.write_bytes(gzip.compress(b"// " + b" " * 5_000_000))
    assert path.stat().st_size < 10_000
    assert read_network(path).variables == []
    monkeypatch.setenv("BNSTUDIO_MAX_GUNZIP_BYTES", "1000000")
    _refused(path, "the file expands to more than 1,000,000 bytes, the limit (set the environment variable "
                   "BNSTUDIO_MAX_GUNZIP_BYTES to raise it)")


@pytest.mark.parametrize("data, fragment", [
    (gzip.compress(b"network n {}", mtime=0)[:-12], "it ends before its compressed data"),
    (b"not gzip at all", "not a valid gzip file"),
    (gzip.compress(b"network n {}", mtime=0) + b"garbage", "not a valid gzip file"),
])
def test_broken_gzip(tmp_path, data, fragment):
    path = tmp_path / "n.bif.gz"
    path.write_bytes(data)
    _refused(path, fragment)


def test_gzip_with_several_members_reads_them_all(tmp_path):
    path = tmp_path / "n.bif.gz"
    path.write_bytes(gzip.compress(b"variable A { type discrete [ 2 ] { a, b }; }\n")
                     + gzip.compress(b"probability ( A ) { table 0.5, 0.5; }\n"))
    assert read_network(path).variables == ["A"]


@pytest.mark.parametrize("ext", FORMATS)
def test_a_network_without_variables_reads_and_writes(tmp_path, ext):
    path = tmp_path / f"empty{ext}"
    write_network(Network("empty"), path)
    back = read_network(path)
    assert back.variables == [] and back.name == ("empty" if ext != ".uai" else "empty")
