"""Parquet and Arrow IPC files read as untrusted input: pyarrow's checks, then ours, before a cell is converted.

A damaged file can declare rows its columns do not hold, offsets outside its buffers or cells that are lists;
handed straight to pandas such a file crashed the process, grew its memory without bound or silently lost a row
group (issue 42). Every Parquet or Arrow file therefore goes through these steps, each failure one
:class:`~bnstudio.errors.FormatError` line naming the file:

1. open it with pyarrow (the Parquet footer; the Arrow IPC footer over a memory map, so no buffer reaches past
   the file);
2. check the schema: at most ``BNSTUDIO_MAX_VARIABLES`` columns (:mod:`bnstudio.io.limits`), each holding single
   values (text, numbers, booleans, dates and times, or those dictionary-encoded); list, struct, map and union
   columns are refused with the column's name and type;
3. check what the file declares before reading it: the Parquet row groups' rows add up to the file's, each
   group's column chunks hold as many values as it has rows (:mod:`bnstudio.data.parquet_footer`: a footer whose
   row counts were all lowered alike would otherwise lose rows without a word), and a group expands to at most
   ``BNSTUDIO_MAX_ROW_GROUP_BYTES`` (:data:`GROUP_BYTES`);
4. read one row group (Parquet) or record batch (Arrow) at a time, validate it in full
   (``RecordBatch.validate(full=True)``: offsets within buffers, UTF-8 text, dictionary indices in range) and
   count its rows against the declaration;
5. convert it to pandas without the file's pandas metadata: every stored column is data (a column pandas wrote
   as the index, e.g. after ``set_index("asia")``, is a column like the others); only pandas' unnamed index
   levels (``__index_level_0__``, ...) are row labels and are dropped. Integers keep their exact values
   (Arrow-backed pandas columns, never float64), and a float NaN is a missing cell, as in a DataFrame.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from bnstudio.errors import BNStudioError, FormatError
from bnstudio.io.limits import Limit, SizeBudget
from bnstudio.io.messages import shorten

#: bytes a Parquet row group may expand to before it is read: its declared uncompressed size, or its rows times
#: its columns as int64 codes (a few kilobytes of run-length encoded values may declare billions of rows)
GROUP_BYTES = Limit("BNSTUDIO_MAX_ROW_GROUP_BYTES", 4 << 30)
#: the file extensions read here and the name of their format in messages
KINDS = {".parquet": "parquet", ".arrow": "Arrow", ".feather": "Arrow"}
_INDEX_LEVEL = re.compile(r"__index_level_\d+__")


def pyarrow_modules() -> Any:
    """pyarrow (with its parquet and ipc modules loaded), or a one-line error naming the ``parquet`` extra."""
    try:
        import pyarrow as pa
        import pyarrow.ipc
        import pyarrow.parquet
    except ImportError:
        from bnstudio.data.read import missing_package_message
        raise FormatError(missing_package_message(".parquet", "pyarrow")) from None
    return pa


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


@dataclass
class ColumnarFile:
    """An opened, checked Parquet or Arrow file: its data columns and the rows of each group (Parquet row groups,
    Arrow record batches), which :meth:`batches` reads one at a time."""

    path: str
    kind: str
    names: list[str]
    groups: list[int]
    handle: Any

    def fail(self, message: str) -> FormatError:
        return FormatError(f"cannot read the {self.kind} file: {message}", path=self.path)

    def frame(self, data: Any) -> Any:
        """:func:`to_frame` of a batch or table of this file (a cell it cannot convert is an error)."""
        try:
            return to_frame(data)
        except BNStudioError:
            raise
        except Exception as exc:
            raise self.fail(_first_line(exc)) from None

    def batches(self, group: int, chunk_rows: int) -> Iterator[Any]:
        """The validated record batches (of at most ``chunk_rows`` rows) of group ``group``; a group holding
        other than the rows it declares is an error."""
        read = 0
        try:
            for batch in self._raw_batches(group, chunk_rows):
                batch.validate(full=True)
                read += batch.num_rows
                if read > self.groups[group]:
                    break
                yield batch
        except BNStudioError:
            raise
        except Exception as exc:  # pyarrow raises many types (and MemoryError) for damaged files
            raise self.fail(_first_line(exc)) from None
        if read != self.groups[group]:
            what = "row group" if self.kind == "parquet" else "record batch"
            raise self.fail(f"{what} {group + 1} declares {self.groups[group]:,} rows but holds "
                            f"{'more' if read > self.groups[group] else f'{read:,}'}")

    def _raw_batches(self, group: int, chunk_rows: int) -> Iterator[Any]:
        if self.kind == "parquet":
            yield from self.handle.iter_batches(batch_size=chunk_rows, row_groups=[group],
                                                use_pandas_metadata=False)
            return
        batch = self.handle.get_batch(group)
        for start in range(0, batch.num_rows, chunk_rows):
            yield batch.slice(start, chunk_rows)

    def table(self) -> Any:
        """Every group, validated, as one pyarrow Table (dictionaries unified across groups)."""
        pa = pyarrow_modules()
        batches = [b for g in range(len(self.groups)) for b in self.batches(g, max(self.groups[g], 1))]
        try:
            return pa.Table.from_batches(batches, schema=self.schema()).unify_dictionaries()
        except Exception as exc:
            raise self.fail(_first_line(exc)) from None

    def schema(self) -> Any:
        return self.handle.schema_arrow if self.kind == "parquet" else self.handle.schema


def open_columnar(path: str | Path) -> ColumnarFile:
    """Open and check a Parquet (``.parquet``) or Arrow IPC (``.arrow``, ``.feather``) file: steps 1-3 of the
    module docstring."""
    pa = pyarrow_modules()
    name = str(path)
    kind = KINDS.get(Path(name).suffix.lower(), "parquet")
    try:
        if kind == "parquet":
            handle = pa.parquet.ParquetFile(name)
            schema = handle.schema_arrow
        else:
            handle = pa.ipc.open_file(pa.memory_map(name, "r"))
            schema = handle.schema
    except Exception as exc:  # pyarrow raises many types for damaged files
        raise FormatError(f"cannot read the {kind} file: {_first_line(exc)}", path=name) from None
    names = [str(n) for n in schema.names]
    SizeBudget().variables(len(names), lambda m: FormatError(m, path=name), "columns")
    for field in schema:
        _check_type(field, name)
    file = ColumnarFile(name, kind, [n for n in names if not _INDEX_LEVEL.fullmatch(n)], [], handle)
    file.groups = _parquet_groups(file) if kind == "parquet" else _arrow_groups(file)
    return file


def _check_type(field: Any, name: str) -> None:
    """Columns must hold single values (dictionary-encoded or not)."""
    pa = pyarrow_modules()
    kind = field.type.value_type if pa.types.is_dictionary(field.type) else field.type
    if isinstance(kind, pa.ExtensionType):
        kind = kind.storage_type
    if pa.types.is_nested(kind) or pa.types.is_dictionary(kind):
        raise FormatError(f"column '{shorten(str(field.name))}' holds {shorten(str(kind))} cells, not single values: a table for BN Studio "
                          f"has one value (or none) per cell", path=name)


def _parquet_groups(file: ColumnarFile) -> list[int]:
    """Rows of each row group, after checking that they add up to the file's rows and that no group expands
    beyond :data:`GROUP_BYTES`, and that each group's column chunks declare one value per row. pyarrow's column
    chunk metadata is not read: for some damaged files pyarrow aborts the process when asked for it (a C++
    exception thrown through ``RowGroupMetaData.column``, pyarrow 26); the footer's bytes are read instead
    (:mod:`bnstudio.data.parquet_footer`). The rows each group really holds are counted as it is read
    (:meth:`ColumnarFile.batches`)."""
    meta, limit = file.handle.metadata, GROUP_BYTES.value()
    groups = []
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        rows = group.num_rows     # its bytes once decoded, and the int64 codes it becomes (RLE makes both tiny)
        expanded = max(group.total_byte_size, rows * group.num_columns * 8)
        if rows < 0:
            raise file.fail(f"row group {g + 1} declares {rows:,} rows")
        if expanded > limit:
            raise file.fail(GROUP_BYTES.message(f"the bytes row group {g + 1} expands to number", expanded, limit))
        groups.append(rows)
    if sum(groups) != meta.num_rows:
        raise file.fail(f"the file declares {meta.num_rows:,} rows but its row groups {sum(groups):,} "
                        f"(a damaged footer)")
    leaves = [str(file.handle.schema.column(j).path) for j in range(meta.num_columns)]
    problem = _chunk_problem(file.path, groups, leaves)
    if problem:
        raise file.fail(f"{problem} (a damaged footer)")
    return groups


def _chunk_problem(path: str, groups: list[int], names: list[str]) -> str | None:
    """What is wrong with the values the column chunks declare against the rows of their groups
    (:mod:`bnstudio.data.parquet_footer`: the footer read from its bytes, never through pyarrow's column chunk
    metadata), or None."""
    from bnstudio.data.parquet_footer import DamagedFooter, check_counts, footer_counts, read_footer

    try:
        with open(path, "rb") as handle:
            data, offset = read_footer(handle)
        return check_counts(footer_counts(data, offset), groups, names)
    except (DamagedFooter, RecursionError) as exc:
        return f"the footer cannot be read ({exc or type(exc).__name__})"
    except OSError as exc:
        return f"the footer cannot be read ({exc.strerror or exc})"


def _arrow_groups(file: ColumnarFile) -> list[int]:
    """Rows of each record batch (an Arrow file's footer gives no row counts: each batch's header is read)."""
    groups = []
    try:
        for g in range(file.handle.num_record_batches):
            groups.append(file.handle.get_batch(g).num_rows)
    except Exception as exc:
        raise file.fail(_first_line(exc)) from None
    return groups


def _is(pa: Any, test: str, kind: Any) -> bool:
    """``pa.types.<test>(kind)``, False where this pyarrow lacks the test (the extra allows pyarrow 15)."""
    return bool(getattr(pa.types, test, lambda _: False)(kind))


def to_frame(data: Any) -> Any:
    """A validated RecordBatch or Table as a DataFrame (step 5): dictionary columns become pandas categoricals
    (their order kept), every other column an Arrow-backed pandas column; float NaN becomes missing; pandas'
    unnamed index levels are dropped."""
    pa = pyarrow_modules()
    import pandas as pd
    import pyarrow.compute as pc

    keep = [j for j, n in enumerate(data.schema.names) if not _INDEX_LEVEL.fullmatch(str(n))]
    data = data.select(keep)
    columns = []
    for column in data.columns:
        kind = column.type
        if pa.types.is_binary(kind) or pa.types.is_large_binary(kind) or _is(pa, "is_binary_view", kind):
            column = pc.cast(column, pa.string())   # Spark writes text as binary; not UTF-8 is an error
        elif pa.types.is_floating(kind):
            column = pc.if_else(pc.is_nan(column), pa.scalar(None, kind), column)
            if pa.types.is_float16(kind):
                column = pc.cast(column, pa.float32())
        columns.append(column)
    data = type(data).from_arrays(columns, names=[str(n) for n in data.schema.names])
    return data.to_pandas(ignore_metadata=True,
                          types_mapper=lambda t: None if pa.types.is_dictionary(t) else pd.ArrowDtype(t))
