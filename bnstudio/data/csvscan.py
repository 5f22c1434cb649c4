"""Check the layout of a delimited text file before pandas parses it, with numpy over the raw bytes.

pandas silently pads short rows and renames duplicate columns, and reports positions in its own terms, so this
scan finds records, their file lines and field counts itself (no Python loop over rows): it raises a
:class:`~bnstudio.errors.FormatError` naming the file and line for non-UTF-8 bytes, an empty file, a header
without rows, unnamed or duplicate columns and ragged rows.

Quoting follows RFC 4180: a field containing the separator, a quote or a line break is enclosed in double
quotes and its quotes are doubled. A stray quote inside an unquoted field is therefore reported as a layout
error rather than guessed around. Blank lines (only spaces, tabs, CR) are skipped, as pandas does.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from bnstudio.errors import FormatError
from bnstudio.io.atomic import check_regular_file
from bnstudio.io.atomic import read_bytes as read_file_bytes
from bnstudio.io.messages import shorten

SEPARATORS = (",", "\t", ";", "|")
_BLANK = frozenset(b" \t\r")


@dataclass
class Layout:
    """What the scan found: the separator, the header names and line, and the file line of every data row."""

    sep: str
    names: list[str]
    header_line: int
    row_lines: np.ndarray


def read_bytes(path: Path) -> bytes:
    """The file's bytes without a UTF-8 byte-order mark; unreadable files raise :class:`FormatError`, and so does
    a NUL byte in its first 64 KiB (:func:`check_no_nul`), before the rest of a large binary file is read."""
    check_regular_file(path)
    if not str(path).lower().endswith(".gz"):
        with open(path, "rb") as handle:
            check_text_head(handle.read(1 << 16), str(path))
    data = read_file_bytes(path)
    return data[3:] if data.startswith(b"\xef\xbb\xbf") else data


#: how binary table files begin, and what they are
_MAGIC = {b"PAR1": ("a Parquet file", ".parquet"), b"ARROW1": ("an Arrow file", ".arrow")}


def check_text_head(head: bytes, name: str) -> None:
    """The first bytes of a file read as delimited text: a Parquet or Arrow file is named as such, and any other
    NUL byte refused (:func:`check_no_nul`)."""
    for magic, (what, suffix) in _MAGIC.items():
        if head.startswith(magic):
            raise FormatError(f"{what}, not delimited text: name it {suffix} (or read it with read_table)",
                              path=name)
    check_no_nul(head, name)


def check_no_nul(data: bytes, name: str, line: int = 1) -> None:
    """Text holds no NUL byte: one marks a binary file (or text saved as UTF-16); ``line`` is the file line
    ``data`` starts on."""
    at = data.find(b"\0")
    if at >= 0:
        raise FormatError("not a text file: it holds a NUL byte (a binary file, or text not saved as UTF-8)",
                          path=name, line=line + data.count(b"\n", 0, at))


def check_utf8(data: bytes, name: str) -> None:
    """Raise a :class:`FormatError` giving the line, column and value of the first byte that is not UTF-8."""
    if data.isascii():
        return
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise FormatError(f"not UTF-8 text: byte 0x{data[exc.start]:02x} (byte {column} of the line); "
                          f"save the file as UTF-8", path=name, line=line, column=column) from None


def check_separator(sep: str, name: str) -> None:
    """The separator must be one ASCII character other than a quote or a line break."""
    if len(sep) != 1 or not sep.isascii() or sep in "\"\r\n":
        raise FormatError(f"the separator must be one ASCII character other than a quote or line break, "
                          f"got {sep!r}", path=name)


def sniff_separator(data: bytes) -> str:
    """The candidate separator occurring most often in the first non-blank line (``,`` if none occurs)."""
    for line in io.BytesIO(data):  # stops at the first non-blank line
        if line.strip():
            counts = [line.count(sep.encode()) for sep in SEPARATORS]
            return SEPARATORS[int(np.argmax(counts))] if max(counts) else ","
    return ","


def _records(buf: np.ndarray, sep: int, quoted: bool, eol: int
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(starts, ends, first file line, separator count) of every record, line breaks in quotes excluded."""
    is_eol, is_sep = buf == eol, buf == sep
    if quoted:
        inside = np.logical_xor.accumulate(buf == ord('"'))  # True after an odd number of quotes
        breaks = np.flatnonzero(is_eol & ~inside)
        is_sep &= ~inside
    else:
        breaks = np.flatnonzero(is_eol)
    starts: np.ndarray = np.r_[0, breaks + 1]
    ends = np.r_[breaks, buf.size]
    keep = starts < buf.size  # a final line break opens no record
    starts, ends = starts[keep], ends[keep]
    lines = (np.searchsorted(np.flatnonzero(is_eol), starts) + 1) if quoted else np.arange(1, starts.size + 1)
    seps = np.add.reduceat(is_sep, starts, dtype=np.int32) if starts.size else np.zeros(0, np.int32)
    seps[ends == starts] = 0  # reduceat yields the element itself for an empty slice
    return starts, ends, lines, seps


def _blank(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, seps: np.ndarray, sep: int) -> np.ndarray:
    """Records made only of blanks (spaces, tabs other than the separator, CR)."""
    blank = np.zeros(starts.size, dtype=bool)
    cand = np.flatnonzero(seps == 0)
    lengths = ends[cand] - starts[cand]
    blank[cand[lengths == 0]] = True
    cand, lengths = cand[lengths > 0], lengths[lengths > 0]
    if cand.size:
        offsets = np.cumsum(lengths) - lengths
        gather = np.arange(lengths.sum()) + np.repeat(starts[cand] - offsets, lengths)
        solid = ~np.isin(buf[gather], np.array(sorted(_BLANK - {sep}), dtype=np.uint8))
        blank[cand] = np.add.reduceat(solid, offsets, dtype=np.int64) == 0
    return blank


def check_names(names: list[str], fail: Callable[[str], Exception]) -> None:
    """Column names must be non-empty and distinct; ``fail(message)`` builds the error."""
    first: dict[str, int] = {}
    for j, col in enumerate(names):
        if not col:
            raise fail(f"column {j + 1} of the header has no name")
        if col in first:
            raise fail(f"duplicate column name '{shorten(col)}' (columns {first[col] + 1} and {j + 1})")
        first[col] = j


def header_names(header: bytes, name: str, sep: str, line: int, fields: int | None = None) -> list[str]:
    """The checked column names of the header record ``header`` (RFC 4180 quoting; ``fields``: how many the
    layout scan counted), which is file line ``line``."""
    text = header.decode("utf-8", errors="strict") if header.isascii() else _utf8(header, name, line)
    try:
        found = list(csv.reader(io.StringIO(text.rstrip("\r\n"), newline=""), delimiter=sep))
    except csv.Error as exc:  # e.g. a field over the csv module's 131,072 characters
        raise FormatError(f"cannot split the header into column names ({exc})", path=name, line=line) from None
    names = [n.strip() for n in found[0]] if len(found) == 1 else []
    if not names or (fields is not None and len(names) != fields):
        raise FormatError("cannot split the header into column names (check its quotes)", path=name, line=line)
    check_names(names, lambda m: FormatError(m, path=name, line=line))
    return names


def _utf8(data: bytes, name: str, line: int) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(f"not UTF-8 text: byte 0x{data[exc.start]:02x} (byte {exc.start + 1} of the line); "
                          f"save the file as UTF-8", path=name, line=line, column=exc.start + 1) from None


def first_line_header(data: bytes, name: str, sep: str) -> tuple[list[str], int]:
    """(names, line) of the first non-blank line of a file without quotes and with LF line breaks; checked like
    :func:`scan`."""
    blank = re.escape(bytes(sorted(_BLANK - {ord(sep)})) + b"\n")
    found = re.search(b"[^" + blank + b"]", data)
    if found is None:
        raise FormatError("the file is empty", path=name)
    start = data.rfind(b"\n", 0, found.start()) + 1
    end = data.find(b"\n", start)
    text = data[start:end if end >= 0 else len(data)].decode("utf-8")
    names = [n.strip() for n in text.split(sep)]
    line = data.count(b"\n", 0, start) + 1
    check_names(names, lambda m: FormatError(m, path=name, line=line))
    return names, line


def quick_layout(data: bytes, sep: str, names: list[str], n_rows: int) -> Layout | None:
    """The layout of a quote-free file that pandas parsed into ``n_rows`` rows without a too-long row, if two
    counts prove it regular: exactly one line per row after a header on line 1 (so no blank lines) and
    ``(n_rows + 1) * (len(names) - 1)`` separators (no row can have more, so none has fewer). None otherwise."""
    n_fields = len(names)
    if n_rows == 0 or b'"' in data or b"\n" not in data:
        return None
    lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    if lines != n_rows + 1 or not data[:data.find(b"\n")].strip(b" \t\r"):
        return None
    if data.count(sep.encode()) != (n_rows + 1) * (n_fields - 1):
        return None
    return Layout(sep, names, 1, np.arange(2, n_rows + 2, dtype=np.int64))


def scan(data: bytes, name: str, sep: str) -> Layout:
    """Check ``data`` (UTF-8 text, BOM removed) and return its :class:`Layout`; problems raise FormatError."""
    check_separator(sep, name)
    check_utf8(data, name)
    buf = np.frombuffer(data, dtype=np.uint8)
    sep_byte = ord(sep)
    eol = 13 if b"\r" in data and b"\n" not in data else 10  # old Mac files end lines with CR only
    starts, ends, lines, seps = _records(buf, sep_byte, b'"' in data, eol)
    solid = np.flatnonzero(~_blank(buf, starts, ends, seps, sep_byte))
    if solid.size == 0:
        raise FormatError("the file is empty", path=name)
    head, rows = solid[0], solid[1:]
    header_line = int(lines[head])
    names = header_names(data[starts[head]:ends[head]], name, sep, header_line, int(seps[head]) + 1)
    if rows.size == 0:
        raise FormatError("the file has a header but no data rows", path=name, line=header_line)
    bad = rows[seps[rows] != seps[head]]
    if bad.size:
        first, fields = int(bad[0]), int(seps[bad[0]]) + 1
        others = f"; {bad.size} rows in all have the wrong number of fields" if bad.size > 1 else ""
        raise FormatError(f"row has {fields} field{'s' if fields != 1 else ''} but the header has {len(names)}"
                          f"{others}", path=name, line=int(lines[first]))
    return Layout(sep, names, header_line, lines[rows].astype(np.int64))
