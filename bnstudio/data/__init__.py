"""Categorical data for learning and evaluation: reading tables, aligning them with a network, discretising
numeric columns and seeded hold-out splits.

>>> import numpy as np
>>> ds = Dataset(["A"], [("no", "yes")], np.array([[0], [1], [-1]]))
>>> ds.missing_counts()
{'A': 1}

Modules: :mod:`~bnstudio.data.dataset` (the :class:`Dataset` table), :mod:`~bnstudio.data.read` (files and
DataFrames), :mod:`~bnstudio.data.states` (state naming, ordering and matching rules),
:mod:`~bnstudio.data.csvscan` (file layout checks), :mod:`~bnstudio.data.align` (coding for a network),
:mod:`~bnstudio.data.discretise` and :mod:`~bnstudio.data.mdl` (cutting numeric columns),
:mod:`~bnstudio.data.split` (train/test and k-fold indices), :mod:`~bnstudio.data.tables` (DataFrames, files and codes
as learners take them), :mod:`~bnstudio.data.parts` and :mod:`~bnstudio.data.cluster` (tables read a piece at a
time, here or on a Dask cluster).
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from bnstudio.data.align import AlignedData, align
from bnstudio.data.dataset import Dataset
from bnstudio.data.discretise import Discretiser, columns_to_cut, discretise_frame, equal_frequency, equal_width, mdl
from bnstudio.data.errors import BNStudioDataWarning, StateProblem, UnknownDataStates
from bnstudio.data.split import k_folds, train_test_indices, train_test_split
from bnstudio.data.states import DEFAULT_MISSING, match_states

if TYPE_CHECKING:
    from bnstudio.data.parts import DataParts, open_parts
    from bnstudio.data.read import from_frame, read_csv, read_table

#: names loaded on first use: their modules import pandas, which codes (a study worker's data) never need
_LAZY = {**dict.fromkeys(("DataParts", "open_parts"), "parts"),
         **dict.fromkeys(("from_frame", "read_csv", "read_table"), "read")}


def __getattr__(name: str) -> Any:
    """The names of :data:`_LAZY`, imported from their module the first time one is asked for."""
    if name not in _LAZY:
        raise AttributeError(f"module 'bnstudio.data' has no attribute '{name}'")
    value = getattr(importlib.import_module(f"bnstudio.data.{_LAZY[name]}"), name)
    globals()[name] = value
    return value


__all__ = ["AlignedData", "BNStudioDataWarning", "DEFAULT_MISSING", "DataParts", "Dataset", "Discretiser",
           "StateProblem", "UnknownDataStates", "align", "columns_to_cut", "discretise_frame", "equal_frequency",
           "equal_width", "from_frame", "k_folds", "match_states", "mdl", "open_parts", "read_csv", "read_table",
           "train_test_indices", "train_test_split"]
