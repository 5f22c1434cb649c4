"""The numpy tokeniser for plain files gives exactly what the general (pandas) path gives, or steps aside."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnstudio.data.plaincsv as plaincsv
import bnstudio.data.read as read_module
from bnstudio.data import read_csv
from bnstudio.errors import FormatError

# cell texts: short and long (over 8 and 16 bytes), sharing 8-byte prefixes, multi-byte UTF-8, blanks, missing
# markers, numbers spelled several ways
VALUES = ["a", "b", "", " x ", "?", "NA", "1", "1.0", "01", "2.5", "-3e2", "LOW", "NORMAL", "HIGH",
          "ESOPHAGEAL", "ESOPHAGEAX", "ESOPHAGEAL_LONGER_THAN_16", "ESOPHAGEAL_LONGER_THAN_17",
          "ñandú", "日本語のテキスト", "12345678", "123456789", "abcdefgh", "abcdefghi"]


def general_path(path, **options):
    """read_csv with the plain tokeniser switched off."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(read_module, "plain_table", lambda *args: None)
        return read_csv(path, **options)


def same(a, b) -> None:
    assert a.columns == b.columns
    assert a.states == b.states
    np.testing.assert_array_equal(a.codes, b.codes)
    np.testing.assert_array_equal(a.row_lines, b.row_lines)


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 40), columns=st.integers(2, 5), seed=st.integers(0, 10_000),
       crlf=st.booleans(), final_break=st.booleans(), sep=st.sampled_from([",", ";", "\t"]))
def test_plain_files_read_exactly_as_the_general_path(tmp_path_factory, rows, columns, seed, crlf, final_break,
                                                     sep):
    rng = np.random.default_rng(seed)
    # every column gets at least two distinct present values so neither path refuses it as constant
    table = [[VALUES[i] for i in rng.integers(0, len(VALUES), size=columns)] for _ in range(rows)]
    table += [["a"] * columns, ["b"] * columns]
    eol = "\r\n" if crlf else "\n"
    text = eol.join(sep.join(row) for row in [[f"C{j}" for j in range(columns)]] + table)
    path = tmp_path_factory.mktemp("plain") / "data.csv"
    path.write_bytes((text + (eol if final_break else "")).encode("utf-8"))
    plain = plaincsv.plain_table(path.read_bytes(), sep, columns)
    assert plain is not None
    assert set(plain.texts) <= set(VALUES)          # the raw cells: no separator, CR or line break in them
    same(read_csv(path, sep=sep), general_path(path, sep=sep))


@pytest.mark.parametrize("workers", [1, 2])
def test_blocks_and_threads_cover_the_whole_file(tmp_path, monkeypatch, workers):
    rng = np.random.default_rng(1)
    words = np.array(VALUES[:3] + VALUES[11:18])
    cells = words[rng.integers(0, len(words), size=(3_000, 6))]
    text = "\n".join([",".join(f"V{j}" for j in range(6))] + [",".join(row) for row in cells])   # no final break
    path = tmp_path / "big.csv"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(plaincsv, "_BLOCK", 4096)
    monkeypatch.setattr(plaincsv, "_WORKERS", workers)
    assert len(text) > 20 * plaincsv._BLOCK
    same(read_csv(path), general_path(path))


@pytest.mark.parametrize("content", [
    'A,B\nx,"y"\nz,w\n',            # quotes
    "A,B\n\nx,y\nz,w\n",            # a blank line
    "A,B\nx,y\rz,w\n",              # a lone CR
    "A,B\nx,y,z\nz,w\n",            # a ragged row
    "A,B\nx\0,y\nz,w\n",            # a NUL byte
    "\nA,B\nx,y\nz,w\n",            # the header not on line 1
    "A\nx\ny\n",                    # a single column
])
def test_files_that_are_not_plain_are_left_to_the_general_path(content):
    data = content.encode("utf-8")
    names = content.strip("\n").split("\n")[0].split(",")
    assert plaincsv.plain_table(data, ",", len(names)) is None


def test_ragged_rows_still_get_the_precise_error(write):
    with pytest.raises(FormatError, match=r"r\.csv:3: row has 3 fields but the header has 2"):
        read_csv(write("r.csv", "A,B\nx,y\nx,y,z\nz,w\n"))


def test_a_hash_collision_is_detected_and_the_general_path_takes_over(write, monkeypatch):
    """With every long cell hashed to the same key, the word-by-word check must refuse the table."""
    path = write("c.csv", "A,B\nESOPHAGEAL,1\nLONGER_THAN_EIGHT,2\nESOPHAGEAL,1\n")
    expected = general_path(path)
    zero = np.uint64(0)
    monkeypatch.setattr(plaincsv, "_MIX", (zero, zero, zero))
    assert plaincsv.plain_table(path.read_bytes(), ",", 2) is None
    same(read_csv(path), expected)
    assert read_csv(path).states[0] == ("ESOPHAGEAL", "LONGER_THAN_EIGHT")


def test_a_long_cell_cannot_share_a_key_with_a_short_one(write, monkeypatch):
    """Long cells hashed to key 0 would collide with the empty cell's key; counting must catch it."""
    path = write("e.csv", "A,B\nESOPHAGEAL,1\n,2\nx,1\n")
    zero = np.uint64(0)
    monkeypatch.setattr(plaincsv, "_MIX", (zero, zero, zero))
    assert plaincsv.plain_table(path.read_bytes(), ",", 2) is None
    monkeypatch.undo()
    assert read_csv(path).states[0] == ("ESOPHAGEAL", "x")


def test_many_distinct_texts_take_the_general_path(tmp_path, monkeypatch):
    """Numbers or ids make the dense (column, key) tables big: the tokeniser steps aside, same result."""
    rng = np.random.default_rng(2)
    rows = [",".join(f"{v:.6f}" for v in rng.random(8)) for _ in range(300)]
    path = tmp_path / "numbers.csv"
    path.write_text("\n".join([",".join(f"X{j}" for j in range(8))] + rows) + "\n", encoding="utf-8")
    monkeypatch.setattr(plaincsv, "_MAX_PAIRS", 1000)
    assert plaincsv.plain_table(path.read_bytes(), ",", 8) is None
    same(read_csv(path), general_path(path))


def test_state_order_errors_list_values_the_same_way_on_both_paths(write):
    path = write("so.csv", "A,B\nx,c\nb,b\nc,x\n")
    messages = []
    for reader in (read_csv, general_path):
        with pytest.raises(FormatError) as info:
            reader(path, state_order={"A": ["x"]})
        messages.append(str(info.value))
    assert messages[0] == messages[1] and "'b', 'c'" in messages[0]


def test_long_cells_take_the_general_path_and_read_the_same(tmp_path):
    """A cell longer than 256 bytes would cost the numpy tokeniser a pass per 8 bytes: pandas reads it."""
    import time

    from bnstudio.data import read_csv

    long = "y" * 300_000
    path = tmp_path / "long.csv"
    path.write_text("A,B\n" + "".join(f"a{k % 3},{long if k == 5 else 'x'}\n" for k in range(50)))
    started = time.perf_counter()
    ds = read_csv(path)
    assert time.perf_counter() - started < 2
    assert ds.column_states("B") == ("x", long) and ds.column("B").tolist() == [0] * 5 + [1] + [0] * 44
