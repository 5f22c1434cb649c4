"""The counts a Parquet footer declares, read from its bytes: what :mod:`bnstudio.data.columnar` checks the rows
against (issue 42; docs/data.md, "Parquet and Arrow"; docs/architecture.md §1: data layer).

A footer whose file and row-group ``num_rows`` were both lowered alike (2,993 for 3,000) reads without a word:
pyarrow decodes the rows a group declares and drops the rest. Each column chunk also says how many values
its pages hold (``ColumnMetaData.num_values``; for a column of single values, one per row, nulls included) and,
in newer files, how many of them each definition level has (``SizeStatistics.definition_level_histogram``,
which adds up to the same number). A group whose rows differ from them is damaged.

pyarrow's own accessor for column chunks (``RowGroupMetaData.column``) aborts the process on some damaged
footers (a C++ exception thrown through it, pyarrow 26), so the footer is read here instead: the FileMetaData
struct in thrift's compact protocol (Apache Parquet's ``parquet.thrift``), walked field by field with every
offset bounds-checked. Only the counts named above are kept, each with its place in the file (what
:func:`footer_counts` returns, and what tests use to rewrite a count in place).
"""
from __future__ import annotations

import os
import struct
from typing import BinaryIO

Path = tuple  # field ids and list indices from FileMetaData down, e.g. (4, 1, 3): row group 1's num_rows

FILE_ROWS: Path = (3,)


def group_rows(group: int) -> Path:
    """Where row group ``group`` keeps its ``num_rows``."""
    return (4, group, 3)


def chunk_values(group: int, column: int) -> Path:
    """Where column chunk ``column`` of row group ``group`` keeps its ``num_values`` (ColumnMetaData field 5)."""
    return (4, group, 1, column, 3, 5)


def chunk_histogram(group: int, column: int, level: int) -> Path:
    """Entry ``level`` of the chunk's definition level histogram (ColumnMetaData.size_statistics, field 16)."""
    return (4, group, 1, column, 3, 16, 3, level)


class DamagedFooter(ValueError):
    """The footer's bytes are not a FileMetaData struct."""


def _counted(path: Path) -> bool:
    """Whether ``path`` is a count :func:`footer_counts` keeps."""
    n = len(path)
    if n < 3 or path[0] != 4:
        return path == FILE_ROWS
    return (n == 3 and path[2] == 3) or (n == 6 and path[2:3] == (1,) and path[4:] == (3, 5)) or \
        (n == 8 and path[2:3] == (1,) and path[4:7] == (3, 16, 3))


class _Reader:
    """A compact-protocol struct walker keeping the integers :func:`_counted` names: {path: (start, end, value)}."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.found: dict[Path, tuple[int, int, int]] = {}

    def byte(self, pos: int) -> int:
        if pos >= len(self.data):
            raise DamagedFooter("the footer ends inside a field")
        return self.data[pos]

    def varint(self, pos: int) -> tuple[int, int]:
        value = shift = 0
        while True:
            byte = self.byte(pos)
            pos += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value, pos
            if shift > 70:
                raise DamagedFooter("a varint longer than 10 bytes")

    def struct(self, pos: int, path: Path, depth: int = 0) -> int:
        if depth > 32:
            raise DamagedFooter("structs nested too deeply")
        last = 0
        while True:
            head = self.byte(pos)
            pos += 1
            kind = head & 0x0F
            if kind == 0:
                return pos
            if head >> 4:
                field = last + (head >> 4)
            else:
                raw, pos = self.varint(pos)
                field = (raw >> 1) ^ -(raw & 1)
            last = field
            pos = self.value(kind, pos, path + (field,), depth)

    def value(self, kind: int, pos: int, path: Path, depth: int) -> int:
        if kind in (1, 2):  # a boolean struct field: its type is its value
            return pos
        if kind == 3:
            return pos + 1
        if kind in (4, 5, 6):
            raw, end = self.varint(pos)
            if _counted(path):
                self.found[path] = (pos, end, (raw >> 1) ^ -(raw & 1))
            return end
        if kind == 7:
            return pos + 8
        if kind == 8:
            size, pos = self.varint(pos)
            return pos + size
        if kind in (9, 10):
            head = self.byte(pos)
            size, element = head >> 4, head & 0x0F
            pos += 1
            if size == 15:
                size, pos = self.varint(pos)
            if size > len(self.data):
                raise DamagedFooter("a list longer than the footer")
            for k in range(size):
                pos = pos + 1 if element in (1, 2) else self.value(element, pos, path + (k,), depth + 1)
            return pos
        if kind == 11:
            size, pos = self.varint(pos)
            if size > len(self.data):
                raise DamagedFooter("a map longer than the footer")
            if size:
                types = self.byte(pos)
                pos += 1
                for k in range(size):
                    pos = self.value(types >> 4, pos, path + (k, "key"), depth + 1)
                    pos = self.value(types & 0x0F, pos, path + (k, "value"), depth + 1)
            return pos
        if kind == 12:
            return self.struct(pos, path, depth + 1)
        raise DamagedFooter(f"unknown compact type {kind}")


def footer_counts(data: bytes, offset: int = 0) -> dict[Path, tuple[int, int, int]]:
    """{path: (start, end, value)} of the file's rows, each row group's rows, each column chunk's values and
    definition level histogram in ``data``, a FileMetaData struct found ``offset`` bytes into the file (start
    and end are file offsets of the count's varint); :class:`DamagedFooter` when ``data`` is not one."""
    reader = _Reader(data)
    reader.struct(0, ())
    return {p: (offset + a, offset + b, v) for p, (a, b, v) in reader.found.items()}


def read_footer(handle: BinaryIO) -> tuple[bytes, int]:
    """(the footer's bytes, their offset) of the Parquet file open in ``handle``."""
    size = handle.seek(0, os.SEEK_END)
    if size < 12:
        raise DamagedFooter("shorter than a Parquet file")
    handle.seek(size - 8)
    tail = handle.read(8)
    length = struct.unpack("<i", tail[:4])[0]
    if tail[4:] != b"PAR1" or not 0 < length <= size - 12:
        raise DamagedFooter("no plain Parquet footer")
    handle.seek(size - 8 - length)
    return handle.read(length), size - 8 - length


def check_counts(counts: dict[Path, tuple[int, int, int]], groups: list[int], names: list[str]) -> str | None:
    """The first row group whose column chunks hold other than its rows (the group and column named, counted
    from 1), or None: every chunk's ``num_values`` and, where written, its definition level histogram's sum
    must equal the group's rows (``groups``, as pyarrow read them from the same footer) for the columns of
    single values read here (``names``: every leaf column, in the file's order)."""
    levels: dict[tuple[int, int], int] = {}
    for p, (_, _, v) in counts.items():
        if len(p) == 8:
            levels[p[1], p[3]] = levels.get((p[1], p[3]), 0) + v
    for g, rows in enumerate(groups):
        declared = counts.get(group_rows(g))
        if declared is None or declared[2] != rows:
            return f"row group {g + 1}'s rows cannot be read from the footer"
        for c, name in enumerate(names):
            values = counts.get(chunk_values(g, c))
            if values is None:
                return f"row group {g + 1} gives no value count for column '{name}'"
            if values[2] != rows:
                return f"row group {g + 1} declares {rows:,} rows but its column '{name}' holds {values[2]:,} values"
            if (g, c) in levels and levels[g, c] != rows:
                return (f"row group {g + 1} declares {rows:,} rows but the definition levels of its column "
                        f"'{name}' count {levels[g, c]:,} values")
    return None
