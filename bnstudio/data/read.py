"""Read categorical data from delimited text, spreadsheets, parquet or a pandas DataFrame into a :class:`Dataset`.

Every column becomes a categorical variable; how states are named and ordered is described in
:mod:`bnstudio.data.states`. Encoding is vectorised: pandas factorises each column once, and the few distinct
values are mapped to state codes with a lookup array.
"""
from __future__ import annotations

import importlib.util
import io
import os
import warnings
from pathlib import Path
from typing import Mapping, Sequence, Union

import numpy as np
import pandas as pd

from bnstudio.data.csvscan import (
    Layout,
    check_names,
    check_no_nul,
    check_separator,
    check_utf8,
    first_line_header,
    quick_layout,
    read_bytes,
    scan,
    sniff_separator,
)
from bnstudio.data.dataset import Dataset
from bnstudio.data.errors import fail
from bnstudio.data.plaincsv import PlainTable, plain_table
from bnstudio.data.states import DEFAULT_MISSING, encode_labels, label_text
from bnstudio.errors import FormatError, ValidationError
from bnstudio.io.atomic import check_exists, check_regular_file
from bnstudio.io.limits import SizeBudget
from bnstudio.io.messages import listing, shown

PathLike = Union[str, "os.PathLike[str]"]  # a str, a Path or any other path object
StateOrder = Mapping[str, Sequence[str]]
TEXT_SUFFIXES = {".csv": None, ".txt": None, ".tsv": "\t", ".tab": "\t"}


def read_csv(path: PathLike, *, sep: str | None = None, missing: Sequence[str] = DEFAULT_MISSING,
             state_order: StateOrder | None = None) -> Dataset:
    """Read a delimited UTF-8 text file with a header line into a :class:`Dataset`.

    A column showing a single value is a one-state column (a small sample may show one state of many: aligned
    to a network, its states come from the network); a column whose every cell is missing has no states (a
    latent variable, see :meth:`Dataset.unobserved_columns`).

    Parameters
    ----------
    path : str or Path
        The file.
    sep : str, optional
        Field separator; by default a tab for ``.tsv``/``.tab`` files, otherwise whichever of ``, TAB ; |``
        occurs most in the header line (``,`` if none does).
    missing : sequence of str
        Cell values meaning "missing" (compared after stripping blanks).
    state_order : mapping column -> list of states, optional
        Explicit state order of some columns (states absent from the data are kept).

    Raises
    ------
    FormatError
        Naming the file and, where it applies, the line: missing or empty file (or not a regular file), header
        without rows, unnamed or duplicate columns, ragged rows, non-UTF-8 bytes, values outside
        ``state_order``, no observed value at all, more columns or distinct values than
        :mod:`bnstudio.io.limits` allows.
    """
    check_exists(path)
    path = Path(path)
    data = read_bytes(path)
    if sep is None:
        sep = TEXT_SUFFIXES.get(path.suffix.lower()) or sniff_separator(data)
    return parse_csv(data, str(path), sep, missing=missing, state_order=state_order)


def parse_csv(data: bytes, name: str, sep: str, *, missing: Sequence[str] = DEFAULT_MISSING,
              state_order: StateOrder | None = None, require_observed: bool = True) -> Dataset:
    """The :func:`read_csv` of the bytes ``data`` (a header line, then rows; no byte-order mark) of the file
    ``name``. ``require_observed=False`` accepts a table whose every cell is missing (one part of a larger
    table, :mod:`bnstudio.data.parts`)."""
    check_separator(sep, name)
    check_no_nul(data, name)
    check_utf8(data, name)
    if len(data) > 1 << 20 and b"\n" not in data and b"\r" not in data:   # the layout scan would cost 8x its size
        raise FormatError("the file has no line break: a header but no data rows", path=name, line=1)
    layout: Layout | None
    if b'"' in data or b"\n" not in data:  # quotes may hide separators and line breaks; CR-only lines
        layout = scan(data, name, sep)  # check the layout in full first
        names = layout.names
    else:  # cheap checks now; the full scan only if pandas or the counts find something wrong
        names, header_line = first_line_header(data, name, sep)
        plain = plain_table(data, sep, len(names)) if header_line == 1 else None
        if plain is not None:   # the common case, tokenised with numpy (the cells pandas would give)
            return _encode_plain(names, plain, missing=missing, state_order=state_order, source=name,
                                 require_observed=require_observed)
        layout = None
    frame = _parse(data, sep, names)
    if layout is None and not isinstance(frame, Exception):
        layout = quick_layout(data, sep, names, len(frame))
    if layout is None:
        layout = scan(data, name, sep)  # raises a precise error for ragged rows, a header without rows...
    if isinstance(frame, Exception):
        raise FormatError(f"cannot parse the file: {frame}", path=name)
    if len(frame) != layout.row_lines.size:
        raise FormatError(f"found {layout.row_lines.size} data rows but pandas parsed {len(frame)}; "
                          f"check quotes and line breaks", path=name)
    return _encode_frame(frame, missing=missing, state_order=state_order, source=name,
                         row_lines=layout.row_lines, require_observed=require_observed)


def _parse(data: bytes, sep: str, names: list[str]) -> pd.DataFrame | Exception:
    """Every cell as a string (pandas C parser), or the exception pandas raised (or warned) about the file."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)  # e.g. a too-long first row
            return pd.read_csv(io.BytesIO(data), sep=sep, header=0, names=names, dtype=object, na_filter=False,
                               index_col=False, skip_blank_lines=True, engine="c", encoding="utf-8",
                               quotechar='"', doublequote=True)
    except (ValueError, pd.errors.ParserError, pd.errors.ParserWarning) as exc:
        return exc


def from_frame(frame: pd.DataFrame, *, missing: Sequence[str] = DEFAULT_MISSING,
               state_order: StateOrder | None = None, source: str | None = None,
               require_observed: bool = True) -> Dataset:
    """Encode every column of ``frame`` as a categorical variable (see :mod:`bnstudio.data.states`).

    NaN/None cells and ``missing`` values are missing; pandas ``category`` columns keep their category order.
    Problems raise :class:`~bnstudio.errors.ValidationError` (a :class:`FormatError` naming ``source`` if given).
    """
    check_names([str(c) for c in frame.columns], lambda m: fail(m, source))
    return _encode_frame(frame, missing=missing, state_order=state_order, source=source, row_lines=None,
                         require_observed=require_observed)


def read_table(path: PathLike, **options) -> Dataset:
    """Read any supported table, dispatching on the extension.

    ``.csv .txt .tsv .tab`` use :func:`read_csv` (``options`` are passed on); ``.xlsx``/``.xlsm`` need the
    optional package openpyxl, ``.parquet`` and Arrow files (``.arrow``, ``.feather``: the Arrow IPC file format)
    need pyarrow (neither is a dependency of BN Studio). For those, ``options`` may hold ``missing`` and
    ``state_order``.
    """
    check_exists(path)   # before the extension: a missing "parts/" is no such folder, not an unknown type
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        return read_csv(path, **options)
    readers = {".xlsx": ("openpyxl", _read_excel), ".xlsm": ("openpyxl", _read_excel),
               ".parquet": ("pyarrow", _read_parquet), ".arrow": ("pyarrow", _read_arrow),
               ".feather": ("pyarrow", _read_arrow)}
    if suffix not in readers:
        raise FormatError(f"unknown table type; supported extensions: "
                          f"{', '.join(sorted(set(TEXT_SUFFIXES) | set(readers)))}", path=str(path))
    package, reader = readers[suffix]
    if not has_package(package):
        raise FormatError(missing_package_message(suffix, package), path=str(path))
    check_regular_file(path)
    return reader(path, options)


#: the extra of BN Studio that installs an optional reader's package
EXTRAS = {"pyarrow": "parquet"}


def missing_package_message(suffix: str, package: str) -> str:
    """What to install to read ``suffix`` files: the extra of BN Studio when there is one."""
    extra = EXTRAS.get(package)
    how = f"pip install 'bnstudio[{extra}]'" if extra else f"pip install {package}"
    return f"reading {suffix} files needs the optional package {package}: {how}"


def has_package(name: str) -> bool:
    """Whether an optional package can be imported (without importing it)."""
    return importlib.util.find_spec(name) is not None


def _read_excel(path: Path, options: dict) -> Dataset:
    name = str(path)
    try:
        raw = pd.read_excel(path, header=None, dtype=object)
    except Exception as exc:  # openpyxl raises many types for damaged files
        raise FormatError(f"cannot read the spreadsheet: {exc}", path=name) from None
    raw = raw.dropna(how="all")
    if raw.empty:
        raise FormatError("the spreadsheet is empty", path=name)
    header = [label_text(v).strip() if not pd.isna(v) else "" for v in raw.iloc[0]]
    if len(raw) == 1:
        raise FormatError("the spreadsheet has a header but no data rows", path=name, line=int(raw.index[0]) + 1)
    frame = raw.iloc[1:].set_axis(header, axis=1)
    if "" in header:
        raise FormatError(f"column {header.index('') + 1} of the header has no name", path=name)
    ds = from_frame(frame, source=name, **options)
    ds.row_lines = frame.index.to_numpy(dtype=np.int64) + 1  # spreadsheet row numbers
    return ds


def _read_parquet(path: Path, options: dict) -> Dataset:
    return _read_columnar(path, options)


def _read_arrow(path: Path, options: dict) -> Dataset:
    return _read_columnar(path, options)


def _read_columnar(path: Path, options: dict) -> Dataset:
    """A Parquet or Arrow file read whole through the checks of :mod:`bnstudio.data.columnar`, then coded as a
    DataFrame."""
    from bnstudio.data.columnar import open_columnar

    file = open_columnar(path)
    if sum(file.groups) == 0:
        raise FormatError("the file has no data rows", path=str(path))
    return from_frame(file.frame(file.table()), source=str(path), **options)


def _factorise(series: pd.Series, source: str | None = None) -> tuple[np.ndarray, list[str], bool]:
    """(raw codes with -1 = NaN, distinct values as text, keep their order?) for one column."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        cats = [label_text(c) for c in series.cat.categories]
        return series.cat.codes.to_numpy(dtype=np.int64), cats, True
    try:   # the values as they are: integers beyond 2**53 stay apart (no float conversion)
        raw, uniques = pd.factorize(series, use_na_sentinel=True)
    except TypeError:   # unhashable cells: lists, dicts, arrays
        raise _container_cell(series, source) from None
    labels = [label_text(u) for u in uniques]
    if uniques.dtype == object and any(isinstance(u, (tuple, frozenset)) for u in uniques):
        raise _container_cell(series, source)
    return raw.astype(np.int64, copy=False), labels, False


def _container_cell(series: pd.Series, source: str | None) -> FormatError | ValidationError:
    """The error for a column holding lists, dicts, tuples, sets or arrays (found with a scan: error path only)."""
    for row, value in enumerate(series):
        if isinstance(value, (list, dict, tuple, set, frozenset, np.ndarray)):
            return fail(f"column '{series.name}' row {row + 1} holds a {type(value).__name__} "
                        f"({shown(value, 30)}): a cell must hold one value (or none)", source)
    return fail(f"column '{series.name}' holds cells that are not single values", source)


def _encode_frame(frame: pd.DataFrame, *, missing: Sequence[str], state_order: StateOrder | None,
                  source: str | None, row_lines: np.ndarray | None, require_observed: bool = True) -> Dataset:
    names = [str(c) for c in frame.columns]
    budget = _checked_columns(names, source)
    order = _checked_order(state_order, names, source)
    codes = np.empty((len(frame), len(names)), dtype=np.int64, order="F")
    states: list[tuple[str, ...]] = []
    for j, col in enumerate(names):
        raw, labels, keep = _factorise(frame.iloc[:, j].rename(col), source)
        # categories may be unused: count what occurs (factorised values all occur)
        present = np.bincount(raw + 1, minlength=len(labels) + 1)[1:] > 0 if keep else None
        st, lookup = _column_states(col, labels, present, keep, missing, order.get(col), budget, source)
        np.take(lookup, raw, out=codes[:, j])  # raw -1 picks lookup[-1] == -1
        states.append(st)
    ds = Dataset(names, states, codes, source=source, row_lines=row_lines)
    return _checked_observed(ds) if require_observed else ds


def _encode_plain(names: list[str], plain: PlainTable, *, missing: Sequence[str], state_order: StateOrder | None,
                  source: str, require_observed: bool = True) -> Dataset:
    """States per column from its distinct keys, then every code in one gather of (column, key) pairs."""
    budget = _checked_columns(names, source)
    order = _checked_order(state_order, names, source)
    n_keys = len(plain.texts)
    table = np.full(len(names) * n_keys, -1, dtype=np.int64)
    states: list[tuple[str, ...]] = []
    for j, (col, used) in enumerate(zip(names, plain.column_values(), strict=True)):
        labels = [plain.texts[k] for k in used]
        st, lookup = _column_states(col, labels, None, False, missing, order.get(col), budget, source)
        table[j * n_keys + used] = lookup[:-1]
        states.append(st)
    n_rows = len(plain.pairs)
    ds = Dataset(names, states, plain.map(table), source=source, row_lines=np.arange(2, n_rows + 2, dtype=np.int64))
    return _checked_observed(ds) if require_observed else ds


def _checked_columns(names: list[str], source: str | None) -> SizeBudget:
    """The size budget of a table, after checking its number of columns."""
    budget = SizeBudget()
    budget.variables(len(names), lambda m: fail(m, source), "columns")
    return budget


def _checked_observed(ds: Dataset) -> Dataset:
    """``ds``, unless not one of its cells is observed (nothing to learn from or evaluate)."""
    if ds.n_columns and len(ds.unobserved_columns()) == ds.n_columns:
        raise fail(f"every cell is missing ({ds.n_rows:,} row{'s' if ds.n_rows != 1 else ''}, {ds.n_columns:,} "
                   f"column{'s' if ds.n_columns != 1 else ''}): there is no observed value", ds.source)
    return ds


def _checked_order(state_order: StateOrder | None, names: list[str], source: str | None) -> dict:
    order = dict(state_order or {})
    known = set(names)
    unknown = [c for c in order if c not in known]
    if unknown:
        raise fail(f"state_order names column(s) the data lack: {listing(map(str, unknown))}", source)
    return order


def _column_states(col: str, labels: list[str], present: np.ndarray | None, keep: bool, missing: Sequence[str],
                   order: Sequence[str] | None, budget: SizeBudget, source: str | None
                   ) -> tuple[tuple[str, ...], np.ndarray]:
    """(states, lookup label -> state code, with a final -1) of one column, or the error naming it."""
    budget.states(col, len(labels) if order is None else len(order), lambda m: fail(m, source), "column")
    st, lookup, outside = encode_labels(labels, missing=missing, order=order, keep_order=keep)
    if outside:
        raise fail(f"column '{col}' has value(s) not in its state_order ({listing(st)}): "
                   f"{listing(sorted(outside))}", source)
    return st, lookup
