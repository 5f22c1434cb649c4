"""Qt-free data preparation behind the data panel: numeric columns, discretising one column from its raw
values, dropping rows with values a network lacks, and aligning without warnings escaping.

A column read from a file keeps its distinct values as state names, so the raw numbers of a column are its
state names parsed as numbers, taken at each row's code: nothing is lost by reading the file once.

>>> import numpy as np
>>> from bnstudio.data import Dataset
>>> ds = Dataset(["x", "c"], [("1", "2", "10"), ("a", "b")], np.array([[0, 0], [1, 1], [2, 1], [-1, 0]]))
>>> numeric_columns(ds), column_values(ds, "x").tolist()
(['x'], [1.0, 2.0, 10.0, nan])
>>> disc = fit_discretiser(ds, "x", "equal_width", 2)
>>> replace_column(ds, "x", disc).column_states("x")
('(-inf, 5.5]', '(5.5, inf)')
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from bnstudio.core.network import Network
from bnstudio.data import (
    AlignedData,
    BNStudioDataWarning,
    Dataset,
    Discretiser,
    align,
    equal_frequency,
    equal_width,
    mdl,
)
from bnstudio.data.states import numeric_values
from bnstudio.errors import ValidationError

METHODS = {"equal_width": "Equal width", "equal_frequency": "Equal frequency", "mdl": "MDL (supervised)"}


def numeric_columns(ds: Dataset) -> list[str]:
    """Columns whose every state is a number and that have more than two distinct values."""
    out = []
    for name, states in zip(ds.columns, ds.states, strict=True):
        if len(states) > 2 and not np.isnan(numeric_values(list(states))).any():
            out.append(name)
    return out


def column_values(ds: Dataset, column: str) -> np.ndarray:
    """The raw numbers of ``column`` (float, NaN = missing)."""
    numbers = np.r_[numeric_values(list(ds.column_states(column))), np.nan]  # code -1 picks the NaN
    return numbers[ds.column(column)]


def fit_discretiser(ds: Dataset, column: str, method: str, bins: int = 3,
                    class_column: str | None = None, rows: np.ndarray | None = None) -> Discretiser:
    """Cut points for ``column`` by ``method`` (``equal_width``, ``equal_frequency`` or ``mdl``), learnt on the
    ``rows`` only (the training rows: held-out rows never move a cut, docs/architecture.md §3.26; default all)."""
    if rows is not None:
        ds = ds.select_rows(np.asarray(rows))
    values = column_values(ds, column)
    if method == "equal_width":
        return equal_width(values, bins)
    if method == "equal_frequency":
        return equal_frequency(values, bins)
    if method == "mdl":
        if class_column is None or class_column == column:
            raise ValidationError("MDL discretisation needs a class column other than the one cut")
        return mdl(values, ds.column(class_column))
    raise ValidationError(f"unknown discretisation {method!r}; use one of {', '.join(METHODS)}")


def refit_cuts(raw: Dataset, discretised: dict[str, dict], rows: np.ndarray | None) -> dict[str, Discretiser]:
    """The cut points of each discretised column (its recorded method, bins and class) learnt again on
    ``rows``: what the held-out rows' change asks for."""
    return {column: fit_discretiser(raw, column, spec["method"], spec.get("bins") or 0, spec.get("class"), rows)
            for column, spec in discretised.items()}


def bin_counts(ds: Dataset, column: str, disc: Discretiser) -> np.ndarray:
    """Rows falling in each interval of ``disc`` (missing cells not counted)."""
    codes = disc.apply(column_values(ds, column))
    return np.bincount(codes[codes >= 0], minlength=disc.n_bins)


def replace_column(ds: Dataset, column: str, disc: Discretiser, raw: Dataset | None = None) -> Dataset:
    """A copy of ``ds`` whose ``column`` holds the interval codes of the raw values (from ``raw``, default
    ``ds``); the interval labels become the states."""
    source = ds if raw is None else raw
    j = ds.index(column)
    codes = np.array(ds.codes, order="F")
    codes[:, j] = disc.apply(column_values(source, column))
    states = list(ds.states)
    states[j] = disc.labels
    return Dataset(list(ds.columns), states, codes, ds.weights, ds.source, ds.row_lines)


def rows_with_values(ds: Dataset, values: Iterable[tuple[str, str]]) -> np.ndarray:
    """Boolean mask of the rows holding any of the (column, value) pairs."""
    mask = np.zeros(ds.n_rows, dtype=bool)
    for column, value in values:
        states = ds.column_states(column)
        if value in states:
            mask |= ds.column(column) == states.index(value)
    return mask


@dataclass
class Alignment:
    """An :class:`AlignedData` plus the notes (ignored columns, latent variables) to show the user."""

    data: AlignedData
    notes: list[str]


def align_quietly(ds: Dataset, net: Network) -> Alignment:
    """:func:`bnstudio.data.align` with its warnings turned into notes (raises UnknownDataStates)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BNStudioDataWarning)
        aligned = align(ds, net)
    notes = []
    if aligned.ignored:
        notes.append(f"data column(s) not in the network, ignored: {', '.join(aligned.ignored)}")
    if aligned.latent:
        notes.append(f"network variable(s) without data (hidden in every row): {', '.join(aligned.latent)}")
    return Alignment(aligned, notes)
