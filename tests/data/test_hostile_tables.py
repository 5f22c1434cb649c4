"""Hostile tables, round 4 (issue 42): Parquet index metadata, integers beyond 2**53, a row group declaring other
rows than it holds, list and dict cells, NUL bytes and quotes in CSV, parts that disagree, names that disguise
themselves. Each case ends in the right answer or one clean line; the references are the CSV of the same rows,
Python's exact integers and the rows as written."""
from __future__ import annotations

import re
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from bnstudio.cli.data_source import STREAMED_SUFFIXES
from bnstudio.data import align, from_frame, open_parts, read_csv, read_table
from bnstudio.data.errors import BNStudioDataWarning, UnknownDataStates
from bnstudio.data.parts import PART_SUFFIXES
from bnstudio.errors import FormatError, ValidationError
from bnstudio.evaluate import evaluate
from bnstudio.io import read_network
from bnstudio.learn.params import make_learner
from bnstudio.learn.structure import learn_structure
from bnstudio.sampling import codes_to_frame, forward_sample
from tests.data.conftest import NETWORKS


@pytest.fixture(scope="module")
def asia():
    """ASIA and 3,000 sampled rows as a DataFrame of state names (asia = yes in about 1% of rows)."""
    net = read_network(NETWORKS / "asia.bif")
    codes = forward_sample(net, 3000, seed=1)
    return net, codes, codes_to_frame(net, codes).astype(str)


def one_line(exc: BaseException) -> str:
    text = str(exc)
    assert "\n" not in text and len(text) < 400, text
    return text


# ------------------------------------------------------------------ item 1: a column pandas wrote as the index
@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
def test_a_column_written_as_the_index_is_data(asia, tmp_path, suffix):
    pytest.importorskip("pyarrow")
    net, codes, frame = asia
    path = tmp_path / f"indexed{suffix}"
    indexed = frame.set_index("asia")
    indexed.to_parquet(path) if suffix == ".parquet" else indexed.reset_index().set_index("asia").to_feather(path)
    for aligned in (align(read_table(path), net), open_parts(path).load(net)):
        assert np.array_equal(aligned.codes, codes)
    fitted = make_learner("ml").fit(net, open_parts(path)).cpts["asia"]
    assert fitted == pytest.approx(make_learner("ml").fit(net, codes).cpts["asia"], abs=1e-12)
    assert fitted[0] < 0.05    # asia = yes is rare: not the uniform row of a lost column


def test_streaming_without_pyarrow_is_one_line_naming_the_extra(tmp_path, monkeypatch):
    (tmp_path / "x.arrow").write_bytes(b"ARROW1")
    monkeypatch.setitem(sys.modules, "pyarrow", None)       # import pyarrow raises ImportError
    with pytest.raises(FormatError, match=r"pip install 'bnstudio\[parquet\]'$"):
        open_parts(tmp_path / "x.arrow")


def test_pandas_unnamed_index_levels_are_not_columns(asia, tmp_path):
    pytest.importorskip("pyarrow")
    net, codes, frame = asia
    frame.iloc[::2].to_parquet(tmp_path / "every_other.parquet")     # a non-range index: __index_level_0__
    for ds in (read_table(tmp_path / "every_other.parquet"),):
        assert ds.columns == list(frame.columns)
    assert open_parts(tmp_path / "every_other.parquet").columns == list(frame.columns)
    assert np.array_equal(open_parts(tmp_path / "every_other.parquet").load(net).codes, codes[::2])


# ------------------------------------------------------------------ item 2: integers beyond 2**53
BIG = [2**53, 2**53 + 1, 2**63 - 1, 2**63 - 2, 5, -(2**53) - 1, -(2**53)]


def test_integers_beyond_2_53_stay_apart_and_agree_across_forms(tmp_path):
    pytest.importorskip("pyarrow")
    values = BIG * 3
    frame = pd.DataFrame({"id": values, "b": ["x", "y", "z"] * len(BIG)})
    expected = tuple(str(v) for v in sorted(set(values)))      # Python's exact integers, in value order
    frame.to_csv(tmp_path / "big.csv", index=False)
    frame.to_parquet(tmp_path / "big.parquet")
    frame.to_feather(tmp_path / "big.arrow")
    nullable = frame.astype({"id": "Int64"})
    nullable.loc[1, "id"] = None
    nullable.to_parquet(tmp_path / "nullable.parquet")
    forms = {"csv": read_csv(tmp_path / "big.csv"), "parquet": read_table(tmp_path / "big.parquet"),
             "arrow": read_table(tmp_path / "big.arrow"), "frame": from_frame(frame),
             "text frame": from_frame(frame.astype(str))}
    for name, ds in forms.items():
        assert ds.states[0] == expected, name
        labels = np.array(ds.states[0], dtype=object)[ds.codes[:, 0]]
        assert list(labels) == [str(v) for v in values], name
    ds = read_table(tmp_path / "nullable.parquet")
    assert ds.states[0] == expected and ds.codes[1, 0] == -1
    parts = open_parts(tmp_path / "big.parquet")
    assert [d.states[0] for piece in parts.pieces for d in parts.datasets(piece)] == [expected]


def test_spellings_of_one_number_are_still_one_state():
    ds = read_csv_text("n\n1\n01\n1.0\n9007199254740993\n9007199254740992.0\n9007199254740992\n")
    assert ds.states[0] == ("1", "9007199254740992", "9007199254740993")
    assert ds.codes[:, 0].tolist() == [0, 0, 0, 2, 1, 1]


def read_csv_text(text: str):
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.csv"
        path.write_text(text)
        return read_csv(path)


def test_a_network_state_matches_only_the_exact_integer(tmp_path):
    from bnstudio.data.states import match_states
    assert match_states(["9007199254740993", "1.0"], ["9007199254740992", "1"]).tolist() == [-1, 1]


# ------------------------------------------------------------------ item 3: a row group declaring other rows
def damaged_row_group(frame: pd.DataFrame, path, declared: int = 993, changes: dict | None = None) -> None:
    """``frame`` as Parquet in row groups of 1,000 rows, the second declaring ``declared`` rows in the footer
    (its columns still hold 1,000 values): the thrift varint of num_rows rewritten in place, and the other footer
    counts of ``changes`` ({path: value}, :mod:`bnstudio.data.parquet_footer`) with it."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from bnstudio.data.parquet_footer import group_rows
    from tests.data.parquet_footer import rewrite

    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), path, row_group_size=1000)
    rewrite(path, {group_rows(1): declared, **(changes or {})})
    assert pq.ParquetFile(path).metadata.row_group(1).num_rows == declared


def test_a_row_group_declaring_fewer_rows_is_refused_everywhere(asia, tmp_path):
    pytest.importorskip("pyarrow")
    net, codes, frame = asia
    path = tmp_path / "damaged.parquet"
    damaged_row_group(frame, path)
    calls = {"read_table": lambda: read_table(path), "load": lambda: open_parts(path).load(net),
             "streamed ml": lambda: make_learner("ml").fit(net, open_parts(path)),
             "ml": lambda: make_learner("ml").fit(net, path),
             "clgd": lambda: make_learner("clgd", max_iter=2).fit(net, path, target="dysp"),
             "evaluate": lambda: evaluate(net, path, "dysp")}
    for call in calls.values():
        with pytest.raises(FormatError, match="declares 3,000 rows but its row groups 2,993") as caught:
            call()
        one_line(caught.value)


def test_the_commands_refuse_the_damaged_row_group(asia, tmp_path):
    pytest.importorskip("pyarrow")
    from tests.hostile.helpers import ASIA, refused
    net, codes, frame = asia
    path = tmp_path / "damaged.parquet"
    damaged_row_group(frame, path)
    out = tmp_path / "out.bif"
    for argv in (["fit", ASIA, path, "--method", "ml", "-o", out],
                 ["fit", ASIA, path, "--method", "clgd", "--target", "dysp", "-o", out],
                 ["evaluate", ASIA, path, "--target", "dysp"]):
        assert "declares 3,000 rows but its row groups 2,993" in refused(*argv)
    assert not out.exists()


@pytest.mark.parametrize("declared", [993, 1007])
def test_a_footer_whose_row_counts_agree_is_checked_against_its_column_chunks(asia, tmp_path, declared):
    """The file's rows and the second group's changed alike (2,993 or 3,007 and 993 or 1,007): the footer adds
    up, and pyarrow read 993 rows of the group without a word (7 rows lost); each column chunk still says it
    holds 1,000 values, which every reader now compares."""
    pytest.importorskip("pyarrow")
    from bnstudio.data.parquet_footer import FILE_ROWS
    net, codes, frame = asia
    path = tmp_path / "consistent.parquet"
    damaged_row_group(frame, path, declared, {FILE_ROWS: 2000 + declared})
    expected = (f"consistent.parquet: cannot read the parquet file: row group 2 declares {declared:,} rows but its "
                f"column 'asia' holds 1,000 values (a damaged footer)")
    calls = {"read_table": lambda: read_table(path), "load": lambda: open_parts(path).load(net),
             "streamed ml": lambda: make_learner("ml").fit(net, open_parts(path)),
             "ml": lambda: make_learner("ml").fit(net, path), "evaluate": lambda: evaluate(net, path, "dysp")}
    for name, call in calls.items():
        with pytest.raises(FormatError) as caught:
            call()
        assert one_line(caught.value).endswith(expected), (name, str(caught.value))


def test_value_counts_changed_too_are_caught_by_the_level_histogram(asia, tmp_path):
    """Every column chunk's num_values lowered with the rows: the definition level histogram pyarrow writes
    (SizeStatistics) still counts 1,000 values. (A footer with those changed as well, or written without
    size statistics, agrees with itself everywhere: only decoding the pages' own headers could tell.)"""
    pytest.importorskip("pyarrow")
    from bnstudio.data.parquet_footer import FILE_ROWS, chunk_values
    net, codes, frame = asia
    path = tmp_path / "values.parquet"
    damaged_row_group(frame, path, 993, {FILE_ROWS: 2993, **{chunk_values(1, j): 993 for j in range(8)}})
    with pytest.raises(FormatError, match="row group 2 declares 993 rows but the definition levels of its "
                                          "column 'asia' count 1,000 values") as caught:
        read_table(path)
    one_line(caught.value)


def test_valid_parquet_files_still_read_whole(asia, tmp_path):
    """Writers' options that change the footer (statistics, page versions, dictionaries, small pages, a page index,
    pandas' index, no rows) read back every row; the footer's counts read from its bytes are pyarrow's."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from bnstudio.data.columnar import open_columnar
    from bnstudio.data.parquet_footer import chunk_values, footer_counts, read_footer
    net, codes, frame = asia
    table = pa.Table.from_pandas(frame, preserve_index=False)
    writers = {"plain": dict(row_group_size=1000), "no statistics": dict(write_statistics=False),
               "v2 pages, zstd": dict(data_page_version="2.0", compression="zstd", row_group_size=700),
               "no dictionary, small pages": dict(use_dictionary=False, data_page_size=100, row_group_size=512),
               "page index": dict(write_page_index=True, row_group_size=1000)}
    for name, options in writers.items():
        path = tmp_path / f"{name}.parquet"
        pq.write_table(table, path, **options)
        assert np.array_equal(align(read_table(path), net).codes, codes), name
        meta = pq.ParquetFile(path).metadata
        with open(path, "rb") as handle:
            counts = footer_counts(*read_footer(handle))
        assert all(counts[chunk_values(g, j)][2] == meta.row_group(g).column(j).num_values
                   for g in range(meta.num_row_groups) for j in range(meta.num_columns)), name
    nulls = frame.copy()
    nulls.loc[::3, "dysp"] = None
    nulls.set_index("asia").to_parquet(tmp_path / "index.parquet", row_group_size=900)
    assert len(read_table(tmp_path / "index.parquet").to_frame()) == 3000
    frame.iloc[:0].to_parquet(tmp_path / "empty.parquet")
    assert open_columnar(tmp_path / "empty.parquet").groups in ([], [0])


def test_a_row_group_expanding_beyond_the_limit_is_refused_before_reading(asia, tmp_path, monkeypatch):
    """3,000 rows x 8 columns become 192,000 bytes of codes: above a limit of 100,000, below 200,000."""
    pytest.importorskip("pyarrow")
    net, codes, frame = asia
    frame.to_parquet(tmp_path / "asia.parquet", row_group_size=3000)
    monkeypatch.setenv("BNSTUDIO_MAX_ROW_GROUP_BYTES", "100000")
    for call in (lambda: read_table(tmp_path / "asia.parquet"), lambda: open_parts(tmp_path / "asia.parquet")):
        with pytest.raises(FormatError, match=r"row group 1 expands to number 192,000, above the limit of 100,000 "
                                              r"\(set the environment variable BNSTUDIO_MAX_ROW_GROUP_BYTES"):
            call()
    monkeypatch.setenv("BNSTUDIO_MAX_ROW_GROUP_BYTES", "200000")
    assert np.array_equal(align(read_table(tmp_path / "asia.parquet"), net).codes, codes)


# ------------------------------------------------------------------ item 8: list and dict cells
def container_frames(frame: pd.DataFrame) -> dict[str, pd.DataFrame]:
    small = frame.iloc[:40].astype(object).reset_index(drop=True)
    out = {}
    for name, value in {"list": ["yes", "no"], "dict": {"k": 1}, "tuple": ("yes",),
                        "array": np.array([1, 2])}.items():
        bad = small.copy()
        bad["dysp"] = pd.Series([value] * len(bad), dtype=object)
        out[name] = bad
    return out


def test_list_and_dict_cells_are_one_clean_error(asia):
    net, codes, frame = asia
    for bad in container_frames(frame).values():
        calls = [lambda bad=bad: from_frame(bad), lambda bad=bad: make_learner("ml").fit(net, bad),
                 lambda bad=bad: make_learner("clgd", max_iter=2).fit(net, bad, target="dysp"),
                 lambda bad=bad: evaluate(net, bad, "dysp"), lambda bad=bad: learn_structure("nb", bad, target="dysp")]
        for call in calls:
            with pytest.raises(ValidationError, match=r"column 'dysp' row 1 holds .*a cell must hold one value"):
                call()


@pytest.mark.parametrize("kind", ["list", "large list", "struct", "map"])
def test_nested_parquet_and_arrow_columns_are_refused(asia, tmp_path, kind):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.feather as feather
    import pyarrow.parquet as pq
    net, codes, frame = asia
    table = pa.Table.from_pandas(frame.iloc[:50], preserve_index=False)
    values = list(frame["dysp"].iloc[:50])
    column = {"list": pa.array([[v] for v in values]), "struct": pa.array([{"x": v} for v in values]),
              "map": pa.array([[(v, 1)] for v in values], pa.map_(pa.string(), pa.int64())),
              "large list": pa.array([[v] for v in values], pa.large_list(pa.string()))}[kind]
    table = table.set_column(table.schema.get_field_index("dysp"), "dysp", column)
    pq.write_table(table, tmp_path / "nested.parquet")
    feather.write_feather(table, tmp_path / "nested.arrow")
    for path in (tmp_path / "nested.parquet", tmp_path / "nested.arrow"):
        for call in (lambda path=path: read_table(path), lambda path=path: open_parts(path),
                     lambda path=path: make_learner("clgd", max_iter=2).fit(net, path, target="dysp"),
                     lambda path=path: evaluate(net, path, "dysp")):
            with pytest.raises(FormatError, match=r"column 'dysp' holds .* cells, not single values") as caught:
                call()
            one_line(caught.value)


# ------------------------------------------------------------------ item 7: NUL bytes and quotes in CSV
def sparse_nul_file(path, size: int = 2 << 30) -> None:
    """A file of ``size`` NUL bytes that takes no disk space (a hole)."""
    with open(path, "wb") as handle:
        handle.truncate(size)


def test_a_nul_byte_file_is_refused_from_its_first_block(asia, tmp_path):
    net, codes, frame = asia
    path = tmp_path / "zeros.csv"
    sparse_nul_file(path)
    folder = tmp_path / "parts"
    folder.mkdir()
    frame.iloc[:100].to_csv(folder / "a.csv", index=False)
    sparse_nul_file(folder / "b.csv")
    for call in (lambda: read_csv(path), lambda: read_table(path), lambda: open_parts(path),
                 lambda: open_parts(folder), lambda: make_learner("clgd").fit(net, path, target="dysp")):
        with pytest.raises(FormatError, match="not a text file: it holds a NUL byte") as caught:
            call()
        one_line(caught.value)


def test_a_nul_byte_late_in_a_file_names_its_line(asia, tmp_path):
    net, codes, frame = asia
    path = tmp_path / "late.csv"
    text = pd.concat([frame] * 3).to_csv(index=False).encode()
    cut = text.find(b"\n", 100_000) + 1
    assert cut > 1 << 16
    path.write_bytes(text[:cut] + b"no,\0" + text[cut:])
    line = text[:cut].count(b"\n") + 1
    for call in (lambda: read_csv(path), lambda: open_parts(path, chunk_bytes=10_000).load(net)):
        with pytest.raises(FormatError, match=rf"late\.csv:{line}: not a text file"):
            call()


def test_one_long_line_is_refused_without_a_layout_scan(tmp_path):
    path = tmp_path / "one_line.csv"
    path.write_bytes(b"a," * (1 << 20))
    with pytest.raises(FormatError, match=r"one_line\.csv:1: the file has no line break"):
        read_csv(path)


def test_a_parquet_file_given_as_text_is_named(asia, tmp_path):
    pytest.importorskip("pyarrow")
    net, codes, frame = asia
    frame.to_parquet(tmp_path / "asia.parquet")
    (tmp_path / "asia.csv").write_bytes((tmp_path / "asia.parquet").read_bytes())
    with pytest.raises(FormatError, match=r"a Parquet file, not delimited text: name it \.parquet"):
        read_csv(tmp_path / "asia.csv")


def test_quoted_csv_is_streamed_in_pieces_with_the_same_codes(tmp_path):
    """Cells with quotes, separators and line breaks: cut at line breaks outside quotes (RFC 4180)."""
    rng = np.random.default_rng(3)
    states = ['plain', '"a, b"', '"two\nlines"', '"say ""hi"""', '"x\r\ny, z"']
    rows = ["\"col,A\",B\n"] + [f"{states[i]},{states[j]}\n" for i, j in rng.integers(0, 5, (2000, 2))]
    path = tmp_path / "quoted.csv"
    path.write_text("".join(rows), newline="")
    whole = read_csv(path)
    parts = open_parts(path, chunk_bytes=997)
    assert len(parts.pieces) > 10 and parts.columns == ["col,A", "B"]
    pieces = [ds for piece in parts.pieces for ds in parts.datasets(piece)]
    labels = np.concatenate([np.array(ds.states[1], dtype=object)[ds.codes[:, 1]] for ds in pieces])
    assert list(labels) == list(np.array(whole.states[1], dtype=object)[whole.codes[:, 1]])
    assert np.array_equal(np.concatenate([ds.row_lines for ds in pieces]), whole.row_lines)


def test_an_unclosed_quote_is_refused_in_bounded_memory(tmp_path, monkeypatch):
    from bnstudio.data import parts as parts_module
    monkeypatch.setattr(parts_module, "LONGEST_RECORD", 50_000)
    path = tmp_path / "unclosed.csv"
    path.write_text("A,B\nx,y\n\"x,y\n" + "x,y\n" * 20_000)
    with pytest.raises(FormatError, match=r"unclosed\.csv:3: a record runs on"):
        open_parts(path, chunk_bytes=1000)


# ------------------------------------------------------------------ item 14: messages
def test_an_empty_column_name_is_one_error_without_a_warning(asia, tmp_path):
    net, codes, frame = asia
    path = tmp_path / "unnamed.csv"
    path.write_text("asia,,dysp\nyes,x,no\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(FormatError, match=r"unnamed\.csv:1: column 2 of the header has no name"):
            make_learner("ml").fit(net, open_parts(path))


def test_an_unknown_state_in_a_folder_names_the_part(asia, tmp_path):
    net, codes, frame = asia
    frame.iloc[:10].to_csv(tmp_path / "a.csv", index=False)
    bad = frame.iloc[10:20].copy()
    bad.iloc[3, bad.columns.get_loc("dysp")] = "maybe"
    bad.to_csv(tmp_path / "b.csv", index=False)
    with pytest.raises(UnknownDataStates, match=rf"value 'maybe' \(1 row: line 5 of {re.escape(str(tmp_path))}/b\.csv"):
        make_learner("ml").fit(net, open_parts(tmp_path))


def test_learn_reads_parquet(asia, tmp_path):
    pytest.importorskip("pyarrow")
    from tests.hostile.helpers import bnstudio
    net, codes, frame = asia
    frame.to_parquet(tmp_path / "asia.parquet")
    frame.to_csv(tmp_path / "asia.csv", index=False)
    for name in ("asia.parquet", "asia.csv"):
        done = bnstudio("learn", tmp_path / name, "--algorithm", "chow-liu", "-o", tmp_path / f"{name}.bif")
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "asia.parquet.bif").read_text().split("\n", 1)[1] == \
        (tmp_path / "asia.csv.bif").read_text().split("\n", 1)[1]


def test_parts_must_have_the_same_columns(asia, tmp_path):
    net, codes, frame = asia
    frame.iloc[:10].to_csv(tmp_path / "a.csv", index=False)
    frame.iloc[10:20].drop(columns="dysp").to_csv(tmp_path / "b.csv", index=False)
    with pytest.raises(FormatError, match=r"b\.csv: lacks column\(s\) 'dysp' of a\.csv: the parts of a table"):
        open_parts(tmp_path)
    (tmp_path / "b.csv").unlink()
    frame.iloc[10:20].assign(extra="1").to_csv(tmp_path / "b.csv", index=False)
    with pytest.raises(FormatError, match=r"b\.csv: has column\(s\) 'extra' that a\.csv lacks"):
        open_parts(tmp_path)
    frame.iloc[10:20][list(reversed(frame.columns))].to_csv(tmp_path / "b.csv", index=False)  # order: fine
    assert np.array_equal(open_parts(tmp_path).load(net).codes, codes[:20])


def test_a_right_to_left_override_in_a_name_is_escaped(asia, tmp_path):
    net, codes, frame = asia
    evil = "txt.exe\u202egpj"
    path = tmp_path / "rtl.csv"
    frame.iloc[:10].assign(**{evil: "1"}).to_csv(path, index=False)
    with pytest.warns(BNStudioDataWarning) as caught:
        align(read_csv(path), net)
    message = str(caught[0].message)
    assert "\u202e" not in message and "txt.exe\\u202egpj" in message
    path.write_text(f"{evil},{evil}\n1,2\n")
    with pytest.raises(FormatError) as error:
        read_csv(path)
    assert "\u202e" not in str(error.value) and "\\u202e" in str(error.value)


def test_the_command_line_streams_every_part_type():
    assert set(STREAMED_SUFFIXES) == set(PART_SUFFIXES)
