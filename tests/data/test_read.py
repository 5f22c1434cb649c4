"""Reading delimited files and DataFrames: round trips, missing markers, state order, and every error."""
from __future__ import annotations

import importlib.util
import warnings

import numpy as np
import pandas as pd
import pytest

from bnstudio.data import from_frame, read_csv, read_table
from bnstudio.errors import FormatError, ValidationError


def test_round_trip_csv_dataset_frame_csv(write, tmp_path):
    text = ("Smoker,Age,Note,Score\n"
            "yes,10,plain,1.5\n"
            "no,2,\"with, comma\",\n"
            ",100,\"say \"\"hi\"\"\",-3\n"
            "no,2,plain,1.5\n")
    ds = read_csv(write("in.csv", text))
    out = tmp_path / "out.csv"
    ds.to_frame().to_csv(out, index=False, lineterminator="\n")
    assert out.read_text(encoding="utf-8") == text


def test_codes_and_states(write):
    ds = read_csv(write("d.csv", "A,B\nx,1\ny,2\nx,?\n"))
    assert ds.columns == ["A", "B"]
    assert ds.states == [("x", "y"), ("1", "2")]
    assert ds.codes.tolist() == [[0, 0], [1, 1], [0, -1]]
    assert ds.source.endswith("d.csv") and ds.row_lines.tolist() == [2, 3, 4]


@pytest.mark.parametrize("marker", ["", "?", "NA", "NaN", "nan", "N/A", " ? ", "  "])
def test_default_missing_markers(write, marker):
    ds = read_csv(write("m.csv", f"A,B\na,{marker}\nb,u\nb,v\n"))
    assert ds.column("B").tolist() == [-1, 0, 1]
    assert ds.column_states("B") == ("u", "v")


def test_custom_missing_markers(write):
    ds = read_csv(write("m.csv", "A\n?\n-\nb\n"), missing=("-",))
    assert ds.column_states("A") == ("?", "b")
    assert ds.column("A").tolist() == [0, -1, 1]


def test_values_are_stripped(write):
    ds = read_csv(write("s.csv", "A , B\n a ,x\na,y \n"))
    assert ds.columns == ["A", "B"]
    assert ds.column_states("A") == ("a",) and ds.column_states("B") == ("x", "y")


def test_numeric_columns_sort_by_value(write):
    ds = read_csv(write("n.csv", "A\n10\n2\n-1.5\n100\n2\n"))
    assert ds.column_states("A") == ("-1.5", "2", "10", "100")
    assert ds.column("A").tolist() == [2, 1, 0, 3, 1]


def test_spellings_of_one_number_are_one_state_named_by_the_shortest(write):
    ds = read_csv(write("n.csv", "A\n1.0\n2\n1\n01\n"))
    assert ds.column_states("A") == ("1", "2")
    assert ds.column("A").tolist() == [0, 1, 0, 0]


def test_text_columns_sort_in_string_order_independent_of_row_order(write):
    first = read_csv(write("a.csv", "A\nzeta\nAlpha\nbeta\nalpha\n"))
    second = read_csv(write("b.csv", "A\nalpha\nbeta\nzeta\nAlpha\n"))
    assert first.column_states("A") == second.column_states("A") == ("Alpha", "alpha", "beta", "zeta")


def test_mixed_numbers_and_text_sort_as_text(write):
    ds = read_csv(write("x.csv", "A\n10\n9\nlow\n"))
    assert ds.column_states("A") == ("10", "9", "low")


def test_state_order_overrides_and_keeps_unseen_states(write):
    path = write("o.csv", "Level,X\nhigh,1\nlow,2\nhigh,1\n")
    ds = read_csv(path, state_order={"Level": ["low", "medium", "high"]})
    assert ds.column_states("Level") == ("low", "medium", "high")
    assert ds.column("Level").tolist() == [2, 0, 2]
    ds = read_csv(path, state_order={"X": ["2.0", "1.0"]})  # numeric values match numerically
    assert ds.column("X").tolist() == [1, 0, 1]


def test_state_order_errors(write):
    path = write("o.csv", "Level,X\nhigh,1\nodd,2\n")
    with pytest.raises(FormatError, match=r"o\.csv: column 'Level' has value\(s\) not in its state_order.*'odd'"):
        read_csv(path, state_order={"Level": ["low", "high"]})
    with pytest.raises(FormatError, match="state_order names column.*Nope"):
        read_csv(path, state_order={"Nope": ["a"]})


def test_blank_lines_crlf_and_quoted_line_breaks_keep_file_lines(write):
    text = 'A,B\r\n\r\nx,"two\r\nlines"\r\n   \r\ny,"plain"\r\nx,z\r\n'
    ds = read_csv(write("q.csv", text))
    assert ds.column_states("B") == ("plain", "two\r\nlines", "z")
    assert ds.row_lines.tolist() == [3, 6, 7]
    assert ds.column("A").tolist() == [0, 1, 0]


def test_blank_lines_without_quotes_keep_file_lines(write):
    ds = read_csv(write("b.csv", "A,B\n1,2\n \t \n\n3,4\n5,2"))
    assert ds.row_lines.tolist() == [2, 5, 6]
    assert ds.codes.tolist() == [[0, 0], [1, 1], [2, 0]]


def test_old_mac_line_breaks(write):
    ds = read_csv(write("m.csv", "A,B\r1,x\r\r2,y\r"))
    assert ds.codes.tolist() == [[0, 0], [1, 1]] and ds.row_lines.tolist() == [2, 4]
    with pytest.raises(FormatError, match=r"m\.csv:3: row has 1 field but the header has 2$"):
        read_csv(write("m.csv", "A,B\r1,x\r2\r"))


def test_separator_sniffing_and_extensions(write):
    assert read_csv(write("s.txt", "A;B\n1;x\n2;y\n")).columns == ["A", "B"]
    assert read_csv(write("t.tsv", "A,1\tB\n1\tx\n2\ty\n")).columns == ["A,1", "B"]
    assert read_csv(write("p.csv", "A|B\n1|x\n2|y\n"), sep="|").columns == ["A", "B"]
    with pytest.raises(FormatError, match="separator"):
        read_csv(write("p.csv", "A|B\n1|x\n"), sep="||")


def test_utf8_bom_and_non_ascii_states(write):
    ds = read_csv(write("u.csv", "\ufeffCity,n\nZürich,1\nMalmö,2\n"))
    assert ds.columns == ["City", "n"] and ds.column_states("City") == ("Malmö", "Zürich")


# ---------------------------------------------------------------------------------------------- errors
def test_missing_file(tmp_path):
    with pytest.raises(FormatError, match=r"nope\.csv: no such file"):
        read_csv(tmp_path / "nope.csv")


@pytest.mark.parametrize("content", ["", "\n\n", "  \r\n\t\n"])
def test_empty_file(write, content):
    with pytest.raises(FormatError, match=r"e\.csv: the file is empty"):
        read_csv(write("e.csv", content))


@pytest.mark.parametrize("content, line", [("A,B\n", 1), ("A,B", 1), ("\n\nA,B\n\n", 3), ('"A",B\n', 1)])
def test_header_without_rows(write, content, line):
    with pytest.raises(FormatError, match=rf"h\.csv:{line}: the file has a header but no data rows") as err:
        read_csv(write("h.csv", content))
    assert err.value.line == line


def test_non_utf8_bytes_name_line_and_byte(write):
    path = write("l.csv", "A,B\n1,x\n2,caf\xe9\n".encode("latin-1"))
    with pytest.raises(FormatError, match=r"l\.csv:3:6: not UTF-8 text: byte 0xe9") as err:
        read_csv(path)
    assert (err.value.line, err.value.column) == (3, 6)


@pytest.mark.parametrize("content, line, fields, extra", [
    ("A,B,C\n1,2,3\n4,5\n6,7,8\n", 3, 2, None),          # short row: pandas would pad it silently
    ("A,B,C\n1,2,3\n4,5,6\n6,7", 4, 2, None),            # short last row without a final line break
    ("A,B,C\n1,2,3\n4,5,6,7\n6,7,8\n", 3, 4, None),      # long row
    ("A,B,C\n1,2,3,4\n4,5,6\n", 2, 4, None),             # long first row: pandas only warns
    ("A,B,C\n1,2,3\n4,5,6,\n", 3, 4, None),              # trailing separator
    ("A,B,C\n\n1,2,3\n\n\n4,5\n7\n", 6, 2, 2),           # blank lines count as lines; two bad rows
    ('A,B,C\n1,"x\ny",3\n4,"5,5"\n', 4, 2, None),        # quoted line break and separator
])
def test_ragged_rows_name_the_line_and_field_counts(write, content, line, fields, extra):
    with warnings.catch_warnings(record=True) as caught, pytest.raises(FormatError) as err:
        warnings.simplefilter("always")
        read_csv(write("r.csv", content))
    assert not caught  # pandas' own ParserWarning must not leak out
    message = str(err.value)
    assert message.startswith(f"{err.value.path}:{line}: row has {fields} fields but the header has 3")
    assert err.value.path.endswith("r.csv") and err.value.line == line
    if extra:
        assert f"{extra} rows in all" in message


def test_duplicate_and_unnamed_columns(write):
    with pytest.raises(FormatError, match=r"d\.csv:1: duplicate column name 'A' \(columns 1 and 3\)"):
        read_csv(write("d.csv", "A,B,A\n1,2,3\n4,5,6\n"))
    with pytest.raises(FormatError, match=r"d\.csv:1: duplicate column name 'A'"):
        read_csv(write("d.csv", '"A",B," A"\n1,2,3\n'))
    with pytest.raises(FormatError, match=r"u\.csv:2: column 2 of the header has no name"):
        read_csv(write("u.csv", "\nA,,C\n1,2,3\n4,5,6\n"))


def test_constant_and_empty_columns_are_observations(write):
    """A small sample may show one value of a column, or none (a latent variable): both are data."""
    path = write("c.csv", "A,B,C\nx,1,?\nx,2,\n")
    ds = read_csv(path)
    assert ds.states == [("x",), ("1", "2"), ()]
    assert ds.column("A").tolist() == [0, 0] and ds.column("C").tolist() == [-1, -1]
    assert ds.unobserved_columns() == ["C"]
    assert read_csv(write("e.csv", "B,C\n1,?\n1,\n")).states == [("1",), ()]


@pytest.mark.parametrize("text", ["A,B\n?,\n,NA\n", "A,B\n\"\",?\n"])
def test_a_file_without_any_observed_value_is_refused(write, text):
    with pytest.raises(FormatError, match=r"m\.csv: every cell is missing \(\d rows?, 2 columns\): there is no "
                                          r"observed value$"):
        read_csv(write("m.csv", text))


# ---------------------------------------------------------------------------------------------- frames
def test_from_frame_numbers_categoricals_and_missing():
    frame = pd.DataFrame({
        "f": [1.0, 2.0, np.nan, 2.0],
        "g": pd.Categorical(["hi", "lo", "hi", None], categories=["lo", "mid", "hi"]),
        "s": ["a", None, "?", "b"],
        "b": [True, False, True, True],
    })
    ds = from_frame(frame)
    assert ds.states == [("1", "2"), ("lo", "mid", "hi"), ("a", "b"), ("False", "True")]
    assert ds.codes.tolist() == [[0, 2, 0, 1], [1, 0, -1, 0], [-1, 2, -1, 1], [1, -1, 1, 1]]
    assert ds.row_lines is None and ds.describe_rows(np.array([0])) == "row 1"


def test_from_frame_nullable_dtypes():
    frame = pd.DataFrame({"i": pd.array([1, None, 3, 1], dtype="Int64"),
                          "b": pd.array([True, None, False, True], dtype="boolean"),
                          "s": pd.array(["x", None, "y", "x"], dtype="string")})
    ds = from_frame(frame)
    assert ds.states == [("1", "3"), ("False", "True"), ("x", "y")]
    assert ds.codes.tolist() == [[0, 1, 0], [-1, -1, -1], [1, 0, 1], [0, 1, 0]]


def test_from_frame_round_trips_to_frame():
    frame = pd.DataFrame({"g": pd.Categorical(["hi", "lo", None], categories=["lo", "hi"]), "n": ["1", "2", "1"]})
    ds = from_frame(frame)
    back = from_frame(ds.to_frame())
    assert back.states == ds.states and np.array_equal(back.codes, ds.codes)


def test_from_frame_errors_are_validation_errors_without_a_file():
    assert from_frame(pd.DataFrame({"k": [1, 1], "v": [1, 2]})).states == [("1",), ("1", "2")]
    with pytest.raises(ValidationError, match="every cell is missing") as err:
        from_frame(pd.DataFrame({"k": [np.nan, np.nan]}))
    assert not isinstance(err.value, FormatError)
    with pytest.raises(ValidationError, match="duplicate column name 'a'"):
        from_frame(pd.DataFrame([[1, 2], [3, 4]], columns=["a", "a"]))


def test_read_table_dispatch(write, tmp_path):
    assert read_table(write("t.tsv", "A\tB\n1\tx\n2\ty\n")).states == [("1", "2"), ("x", "y")]
    assert read_table(write("t.csv", "A,B\n1,x\n1,y\n")).states[0] == ("1",)
    with pytest.raises(FormatError, match=r"t\.json: unknown table type.*\.csv"):
        read_table(write("t.json", "{}"))
    with pytest.raises(FormatError, match=r"absent\.json: no such file$"):
        read_table(tmp_path / "absent.json")
    with pytest.raises(FormatError, match=r"parts/: no such folder$"):   # not "unknown table type"
        read_table(f"{tmp_path}/parts/")


@pytest.mark.skipif(importlib.util.find_spec("openpyxl") is not None, reason="openpyxl is installed")
def test_spreadsheet_without_openpyxl_says_so(tmp_path):
    (tmp_path / "t.xlsx").write_bytes(b"PK")
    with pytest.raises(FormatError, match=r"\.xlsx files needs the optional package openpyxl"):
        read_table(tmp_path / "t.xlsx")


def test_spreadsheet_rows_keep_sheet_row_numbers(tmp_path, monkeypatch):
    """The spreadsheet path with pandas.read_excel stood in for (openpyxl is not a dependency)."""
    sheet = pd.DataFrame([["A", "B"], ["x", 1], [None, None], ["y", 2.0], [None, 1]], dtype=object)
    monkeypatch.setattr("bnstudio.data.read.has_package", lambda name: True)
    monkeypatch.setattr(pd, "read_excel", lambda path, header, dtype: sheet)
    path = tmp_path / "t.xlsx"
    path.write_bytes(b"stand-in")
    ds = read_table(path)
    assert ds.columns == ["A", "B"] and ds.states == [("x", "y"), ("1", "2")]
    assert ds.codes.tolist() == [[0, 0], [1, 1], [-1, 0]]
    assert ds.row_lines.tolist() == [2, 4, 5] and ds.source == str(path)
    sheet.iloc[0, 1] = "A"
    with pytest.raises(FormatError, match=r"t\.xlsx: duplicate column name 'A'"):
        read_table(path)
