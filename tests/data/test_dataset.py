"""The Dataset table: validation, summaries, row selection and conversion to pandas."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bnstudio.data import Dataset
from bnstudio.errors import UnknownVariableError, ValidationError


@pytest.fixture
def ds() -> Dataset:
    codes = np.array([[0, 1], [1, -1], [1, 0], [-1, 2], [1, 2]])
    return Dataset(["A", "B"], [("no", "yes"), ("lo", "mid", "hi")], codes, row_lines=np.array([2, 3, 5, 6, 7]))


def test_summaries(ds):
    assert ds.n_rows == 5 and ds.n_columns == 2
    assert ds.missing_counts() == {"A": 1, "B": 1}
    assert ds.state_counts("A").tolist() == [1, 3]
    assert ds.state_counts("B").tolist() == [1, 1, 2]
    assert ds.state_counts("B").dtype == np.int64
    assert ds.column("B").tolist() == [1, -1, 0, 2, 2]
    assert ds.column_states("B") == ("lo", "mid", "hi")
    assert ds.codes.dtype == np.int64


def test_weighted_counts(ds):
    ds.weights = np.array([1.0, 2.0, 0.5, 4.0, 1.0])
    ds.__post_init__()
    assert ds.state_counts("A").tolist() == [1.0, 3.5]


def test_unused_state_counts_zero():
    ds = Dataset(["A"], [("a", "b", "c")], np.array([[0], [0], [2]]))
    assert ds.state_counts("A").tolist() == [2, 0, 1]


def test_unknown_column_names_the_columns(ds):
    with pytest.raises(UnknownVariableError, match="no column 'C'.*A, B"):
        ds.column("C")


@pytest.mark.parametrize("columns, states, codes, message", [
    (["A"], [("a", "b")], np.array([[0], [2]]), "column 'A' must lie in -1..1, found 0..2"),
    (["A"], [("a", "b")], np.array([[-2], [0]]), "must lie in -1..1"),
    (["A", "A"], [("a",), ("a",)], np.zeros((1, 2), int), "'A' appears twice"),
    (["A"], [("a", "a")], np.zeros((1, 1), int), "lists a state twice"),
    (["A"], [("a",)], np.zeros((1, 1)), "2-D integer array"),
    (["A", "B"], [("a",)], np.zeros((1, 2), int), "2 columns, 1 state lists"),
])
def test_invalid_tables_are_refused(columns, states, codes, message):
    with pytest.raises(ValidationError, match=message):
        Dataset(columns, states, codes)


def test_negative_weights_refused():
    with pytest.raises(ValidationError, match="weights"):
        Dataset(["A"], [("a", "b")], np.array([[0], [1]]), weights=np.array([1.0, -1.0]))


def test_select_rows_by_mask_index_and_slice(ds):
    mask = np.array([True, False, True, False, True])
    by_mask = ds.select_rows(mask)
    assert by_mask.codes.tolist() == [[0, 1], [1, 0], [1, 2]]
    assert by_mask.row_lines.tolist() == [2, 5, 7]
    by_index = ds.select_rows(np.array([4, 0]))
    assert by_index.codes.tolist() == [[1, 2], [0, 1]] and by_index.row_lines.tolist() == [7, 2]
    assert ds.select_rows(slice(1, 3)).codes.tolist() == [[1, -1], [1, 0]]
    assert by_mask.states == ds.states and by_mask.columns == ds.columns
    with pytest.raises(ValidationError, match="row mask"):
        ds.select_rows(np.array([True, False]))


def test_describe_rows_uses_file_lines_or_row_positions(ds):
    assert ds.describe_rows(np.array([0, 2])) == "lines 2, 5"
    assert ds.describe_rows(np.arange(5), limit=3) == "lines 2, 3, 5, ..."
    plain = Dataset(ds.columns, ds.states, ds.codes)
    assert plain.describe_rows(np.array([3])) == "row 4"


def test_to_frame_is_categorical_with_state_names(ds):
    frame = ds.to_frame()
    assert list(frame.columns) == ["A", "B"]
    assert isinstance(frame["B"].dtype, pd.CategoricalDtype)
    assert list(frame["B"].cat.categories) == ["lo", "mid", "hi"]  # state order, not sorted
    assert frame["A"].tolist()[:3] == ["no", "yes", "yes"]
    assert pd.isna(frame["A"].iloc[3]) and pd.isna(frame["B"].iloc[1])
    assert frame["B"].cat.codes.tolist() == ds.column("B").tolist()
