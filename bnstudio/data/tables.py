"""Data as people hold it, turned into what learners and scores take: integer codes aligned to a network.

A learner, :func:`~bnstudio.evaluate.evaluate` or a structure learner accepts any of

* integer codes (N, |V|) already aligned to the network (-1 = missing), or an :class:`AlignedData`;
* a :class:`Dataset`, or a pandas DataFrame (``category`` columns keep their category order, plain columns
  follow :mod:`bnstudio.data.states`);
* a path to a table file (CSV, TSV, Excel, Parquet: :func:`~bnstudio.data.read.read_table`).

Tables are coded with the same rules whatever their form (states, missing markers, numeric matching, the
checks of :mod:`bnstudio.data.read`) and aligned by column name (:func:`~bnstudio.data.align.align`), so
the same data as CSV, DataFrame or Parquet give the same codes and hence the same fit.
"""
from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

from bnstudio import hooks
from bnstudio.core.network import Network
from bnstudio.data.align import AlignedData, align
from bnstudio.data.dataset import Dataset
from bnstudio.errors import ValidationError


def is_table(data: Any) -> bool:
    """Whether ``data`` is a table to code (a Dataset, a DataFrame or a file path) rather than codes."""
    if isinstance(data, (Dataset, str, os.PathLike)):
        return True
    frame_type = _frame_type()
    return frame_type is not None and isinstance(data, frame_type)


def _frame_type() -> type | None:
    """pandas.DataFrame if pandas is already loaded (a DataFrame cannot exist otherwise)."""
    pandas = sys.modules.get("pandas")
    return None if pandas is None else pandas.DataFrame


def as_dataset(data: Any, **options: Any) -> Dataset:
    """``data`` as a :class:`Dataset`: a Dataset as it is, a DataFrame through
    :func:`~bnstudio.data.read.from_frame`, a path through :func:`~bnstudio.data.read.read_table`
    (``options``: ``missing``, ``state_order``, and ``sep`` for text files)."""
    from bnstudio.data.read import from_frame, read_table

    if isinstance(data, Dataset):
        return data
    if isinstance(data, (str, os.PathLike)):
        return read_table(data, **options)
    frame_type = _frame_type()
    if frame_type is not None and isinstance(data, frame_type):
        return from_frame(data, **options)
    raise ValidationError(f"cannot read data from a {type(data).__name__}: give integer codes, a pandas "
                          f"DataFrame, a Dataset or the path of a table file")


def as_codes(net: Network, data: Any, weights: Any = None) -> tuple[Any, Any]:
    """(codes, weights) aligned to ``net``: tables are coded and aligned (values the network lacks raise
    :class:`~bnstudio.data.errors.UnknownDataStates`); an :class:`AlignedData` gives its codes, and its
    case weights when ``weights`` is None; anything else is returned as it is (codes)."""
    if is_table(data):
        data = align(as_dataset(data), net)
    if isinstance(data, AlignedData):
        return data.codes, data.weights if weights is None else weights
    return data, weights


def table_columns(data: Any) -> tuple[np.ndarray, list[str], list[tuple[str, ...]]]:
    """(codes, column names, states) of a table for a structure learner, which takes its variables from the
    data: see :func:`as_dataset`."""
    ds = as_dataset(data)
    return ds.codes, list(ds.columns), list(ds.states)


# the learners accept tables through these hooks (they sit below bnstudio.data): bnstudio.hooks
hooks.table_codes.provide(as_codes)
hooks.table_columns.provide(table_columns)
