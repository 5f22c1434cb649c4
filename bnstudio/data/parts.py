"""Tables larger than memory: a Parquet or Arrow file, a large CSV or a folder of such parts, read a piece at a
time.

:func:`open_parts` lists the *pieces* of the table without reading its cells: a Parquet file's row groups or an
Arrow file's record batches (each read in batches of ``chunk_rows`` rows, through the checks of
:mod:`bnstudio.data.columnar`), and blocks of about ``chunk_bytes`` of whole records of a CSV file (a block ends
at a line break outside quotes, so a quoted field holding line breaks stays in one piece; a NUL byte, which no
text holds, is refused in the block where it occurs, and a record longer than :data:`LONGEST_RECORD` is an
error). Each piece is read with the same reader and rules as a whole table (:mod:`bnstudio.data.read`: states,
missing markers, layout checks, one-line errors naming the file and the line, or the row for Parquet) and
aligned to a network by name (:func:`~bnstudio.data.align.align`), so its codes are exactly the rows of the
whole table's codes. The parts of a folder must have the same columns (in any order): a part lacking a column
of the others, or holding one they lack, is an error naming both parts, since its rows would otherwise be
silently missing that column.

:meth:`DataParts.map_reduce` runs a task on every piece's codes and sums the results: the sufficient statistics
of a fit (docs/architecture.md §3.15: memory follows the piece, not the table). The pieces run in this process
or on a Dask cluster (:mod:`bnstudio.data.cluster`); the driver holds one result at a time.
"""
from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from bnstudio.core.network import Network
from bnstudio.data.align import AlignedData, align
from bnstudio.data.columnar import KINDS, open_columnar
from bnstudio.data.csvscan import check_names, check_no_nul, check_text_head, header_names, read_bytes, sniff_separator
from bnstudio.data.dataset import Dataset
from bnstudio.data.errors import BNStudioDataWarning, UnknownDataStates
from bnstudio.data.states import DEFAULT_MISSING
from bnstudio.errors import Cancelled, FormatError
from bnstudio.io.atomic import check_exists
from bnstudio.io.messages import listing

TEXT_SEPARATORS = {".csv": None, ".txt": None, ".tsv": "\t", ".tab": "\t"}
COLUMNAR_SUFFIXES = tuple(KINDS)
PART_SUFFIXES = (*TEXT_SEPARATORS, *COLUMNAR_SUFFIXES)
#: bytes of CSV text per piece: the piece's codes and parse buffers stay in the tens of MiB
DEFAULT_CHUNK_BYTES = 16 * 2**20
#: rows per Parquet batch (a 37-column batch's codes are 30 MB; larger batches are no faster)
DEFAULT_CHUNK_ROWS = 100_000


@dataclass(frozen=True)
class Piece:
    """One piece of a part: CSV bytes ``start:stop`` whose first row is file line ``first``, or Parquet row
    groups ``start:stop`` whose first row is row ``first`` + 1 of the file."""

    path: str
    kind: str               # "csv", "csv-whole" (a file read in one go) or "parquet"
    start: int
    stop: int
    first: int
    sep: str = ","
    header: bytes = b""


@dataclass
class DataParts:
    """The pieces of a table on disk, with the reading options (``missing``, ``state_order``) of
    :func:`~bnstudio.data.read.read_csv`; picklable, so a piece can be read on a cluster worker."""

    source: str
    pieces: list[Piece]
    columns: list[str]
    missing: Sequence[str] = DEFAULT_MISSING
    state_order: dict | None = None
    chunk_rows: int = DEFAULT_CHUNK_ROWS
    runner: Any = field(default=None, repr=False, compare=False)    # None: this process

    def __getstate__(self) -> dict:
        return {**self.__dict__, "runner": None}     # a cluster client does not travel

    # ------------------------------------------------------------------ reading
    def datasets(self, piece: Piece) -> Iterator[Dataset]:
        """The piece as one or more :class:`Dataset` (Parquet: batches of ``chunk_rows`` rows)."""
        if piece.kind == "parquet":
            yield from _columnar_batches(piece, self.chunk_rows, self.missing, self.state_order)
        else:
            ds = _csv_piece(piece, self.missing, self.state_order)
            if ds is not None:
                yield ds

    def codes(self, piece: Piece, net: Network) -> Iterator[np.ndarray]:
        """The piece's rows as codes aligned to ``net`` (columns the network lacks are ignored quietly: the
        driver names them once, :meth:`check_columns`)."""
        for ds in self.datasets(piece):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", BNStudioDataWarning)
                try:
                    aligned = align(ds, net)
                except UnknownDataStates as exc:   # which part, when there are several
                    if ds.source is None or ds.source == self.source:
                        raise
                    raise UnknownDataStates([p._replace(where=f"{p.where} of {ds.source}")
                                             for p in exc.problems]) from None
            yield aligned.codes

    def check_columns(self, net: Network) -> None:
        """Warn once about columns the network lacks (they are ignored, as :func:`align` does)."""
        ignored = [c for c in self.columns if c not in net]
        if ignored:
            warnings.warn(f"data column(s) not in network '{net.name}', ignored: {listing(ignored, quote=False)}",
                          BNStudioDataWarning, stacklevel=3)

    def load(self, net: Network) -> AlignedData:
        """Every row in memory, aligned to ``net`` (for learners that need all rows at once)."""
        self.check_columns(net)
        blocks = [codes for piece in self.pieces for codes in self.codes(piece, net)]
        codes = np.concatenate(blocks) if blocks else np.zeros((0, len(net)), dtype=np.int64)
        latent = [v for v in net.variables if v not in set(self.columns)]
        return AlignedData(codes, net, latent, [c for c in self.columns if c not in net])

    # ------------------------------------------------------------------ computing
    def map_reduce(self, net: Network, task: Callable[..., tuple], args: tuple = (),
                   cancelled: Callable[[], bool] | None = None) -> tuple:
        """Σ over pieces of ``task(net, codes, *args)`` (a tuple of numbers or arrays, summed elementwise),
        here or on the cluster of ``runner``; ``cancelled()`` is asked after every piece (then
        :class:`~bnstudio.errors.Cancelled`)."""
        if self.runner is not None:
            return self.runner.map_reduce(self, net, task, args, cancelled)
        total = None
        for piece in self.pieces:
            total = add_results(total, piece_result(self, piece, net, task, args))
            if cancelled is not None and cancelled():
                raise Cancelled(f"stopped while reading {self.source}")
        if total is None:
            raise FormatError("the data have no rows", path=self.source)
        return total


def piece_result(parts: DataParts, piece: Piece, net: Network, task: Callable[..., tuple], args: tuple
                 ) -> tuple | None:
    """Σ of ``task(net, codes, *args)`` over the batches of one piece (None: it has none)."""
    total = None
    for codes in parts.codes(piece, net):
        total = add_results(total, task(net, codes, *args))
    return total


def add_results(total: tuple | None, result: tuple | None) -> tuple | None:
    """Elementwise sum of two result tuples (None = nothing yet)."""
    if result is None:
        return total
    if total is None:
        return tuple(np.array(r, dtype=float) if isinstance(r, np.ndarray) else r for r in result)
    return tuple(t + r for t, r in zip(total, result, strict=True))


# ---------------------------------------------------------------------------------------------- listing
def open_parts(path: str | os.PathLike, *, chunk_bytes: int = DEFAULT_CHUNK_BYTES,
               chunk_rows: int = DEFAULT_CHUNK_ROWS, missing: Sequence[str] = DEFAULT_MISSING,
               state_order: dict | None = None, runner: Any = None) -> DataParts:
    """The pieces of a Parquet or CSV file, or of a folder of them (its files ending in .parquet, .csv,
    .tsv, .tab or .txt, in name order; names starting with ``.`` or ``_`` are skipped, as Spark and Dask
    write them). Only headers and line breaks are read here. ``runner``: compute on a cluster
    (:class:`~bnstudio.data.cluster.DaskRunner`) instead of this process.

    Raises :class:`FormatError` naming the path: no such file, a folder without parts, an unknown extension,
    a Parquet file without pyarrow (naming the ``parquet`` extra).
    """
    check_exists(path)
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in PART_SUFFIXES
                       and not p.name.startswith((".", "_")))
        if not files:
            raise FormatError(f"the folder has no data parts ({', '.join(PART_SUFFIXES)})", path=str(path))
    elif path.is_file():
        if path.suffix.lower() not in PART_SUFFIXES:
            raise FormatError(f"unknown table type for streaming; supported extensions: "
                              f"{', '.join(PART_SUFFIXES)}", path=str(path))
        files = [path]
    else:
        raise FormatError("is neither a file nor a folder", path=str(path))
    pieces: list[Piece] = []
    columns: dict[str, None] = {}
    for file in files:
        names, found = (_columnar_pieces(file) if file.suffix.lower() in COLUMNAR_SUFFIXES
                        else _csv_pieces(file, max(int(chunk_bytes), 1)))
        if pieces:
            _check_same_columns(list(columns), names, files[0], file)
        pieces += found
        columns.update(dict.fromkeys(names))
    return DataParts(str(path), pieces, list(columns), tuple(missing), dict(state_order or {}) or None,
                     max(int(chunk_rows), 1), runner)


def _check_same_columns(first: list[str], names: list[str], first_file: Path, file: Path) -> None:
    """The parts of one table have the same columns (in any order). A part without a column the others have
    would leave that column missing in its rows without a word, and one with an extra column would leave it
    missing in every other part's: both are errors naming the two parts (docs/learning.md, "Beyond memory")."""
    lacking = [c for c in first if c not in set(names)]
    extra = [c for c in names if c not in set(first)]
    if lacking or extra:
        what = (f"lacks column(s) {listing(lacking)} of {first_file.name}" if lacking else
                f"has column(s) {listing(extra)} that {first_file.name} lacks")
        raise FormatError(f"{what}: the parts of a table must have the same columns", path=str(file))


def with_runner(parts: DataParts, runner: Any) -> DataParts:
    """The same pieces, computed by ``runner`` (a cluster, :mod:`bnstudio.data.cluster`)."""
    return replace(parts, runner=runner)


def _csv_pieces(path: Path, chunk_bytes: int) -> tuple[list[str], list[Piece]]:
    """Blocks of whole records of a CSV file: each block ends at a line break outside quotes (the quotes before it
    are even in number, RFC 4180), so a quoted field holding line breaks stays in one piece; a record longer
    than :data:`LONGEST_RECORD` is an error, and so is a NUL byte (not text). A file whose first line break is
    not LF (old Mac CR-only lines) and is small is read in one go."""
    name = str(path)
    size = path.stat().st_size
    with open(path, "rb") as handle:
        head = handle.read(min(size, 1 << 16))
        check_text_head(head, name)    # a binary file (or UTF-16 text) is refused before more is read
        bom = 3 if head.startswith(b"\xef\xbb\xbf") else 0
        sep = TEXT_SEPARATORS.get(path.suffix.lower()) or sniff_separator(head[bom:])
        found = _header(handle, head, bom, size, name)
        if found is None:
            return _whole_csv(path, sep)
        header, start, header_line = found
        names = header_names(header, name, sep, header_line)
        pieces, line = [], header_line + header.count(b"\n")
        while start < size:
            handle.seek(start)
            block = _record_block(handle, chunk_bytes, name, line)
            if block.strip():
                pieces.append(Piece(name, "csv", start, start + len(block), line, sep, header))
            line += block.count(b"\n")
            start += len(block)
    if not pieces:
        raise FormatError("the file has a header but no data rows", path=name, line=header_line)
    return names, pieces


#: the longest record (or header line) a streamed CSV may have: longer is an unclosed quote or not a table
LONGEST_RECORD = 64 << 20


def _header(handle: Any, head: bytes, bom: int, size: int, name: str) -> tuple[bytes, int, int] | None:
    """(the header record with its line break, the offset after it, its file line), skipping blank lines before
    it; None for a small file without LF line breaks (read in one go)."""
    if size <= len(head) and not head[bom:].strip():
        raise FormatError("the file is empty", path=name)
    skipped = len(head[bom:]) - len(head[bom:].lstrip(b" \t\r\n"))
    line = 1 + head.count(b"\n", 0, bom + skipped)
    start = head.rfind(b"\n", 0, bom + skipped) + 1 if skipped else bom
    handle.seek(start)
    try:
        header = _record_block(handle, 1 << 16, name, line, one=True)
    except FormatError:
        if size <= LONGEST_RECORD:
            return None
        raise
    if not header.endswith(b"\n"):
        if size <= LONGEST_RECORD and b"\r" in header:
            return None
        raise FormatError("the file has a header but no data rows", path=name, line=line)
    return header, start + len(header), line


def _record_block(handle: Any, chunk_bytes: int, name: str, line: int, one: bool = False) -> bytes:
    """The bytes from the handle's position to the last (``one``: the first) line break outside quotes within
    about ``chunk_bytes``, reading on while there is none; the rest of the file if it ends first."""
    block = handle.read(chunk_bytes)
    check_no_nul(block, name, line)
    while True:
        cut = _record_end(block, one)
        if cut:
            handle.seek(handle.tell() - (len(block) - cut))
            return block[:cut]
        more = handle.read(max(chunk_bytes, len(block)))
        if not more:
            return block
        if len(block) + len(more) > LONGEST_RECORD:
            raise FormatError(f"a record runs on for more than {LONGEST_RECORD >> 20} MiB (an unclosed quote, or "
                              f"not a table)", path=name, line=line)
        check_no_nul(more, name, line + block.count(b"\n"))
        block += more


def _record_end(block: bytes, first: bool) -> int:
    """The offset after the last (or first) LF of ``block`` outside double quotes; 0 if there is none."""
    if b'"' not in block:
        return (block.find(b"\n") if first else block.rfind(b"\n")) + 1
    buf = np.frombuffer(block, dtype=np.uint8)
    inside = np.logical_xor.accumulate(buf == ord('"'))
    ends = np.flatnonzero((buf == ord("\n")) & ~inside)
    return int(ends[0 if first else -1]) + 1 if ends.size else 0


def _whole_csv(path: Path, sep: str) -> tuple[list[str], list[Piece]]:
    from bnstudio.data.csvscan import first_line_header, scan

    data = read_bytes(path)
    names = scan(data, str(path), sep).names if b'"' in data or b"\n" not in data else \
        first_line_header(data, str(path), sep)[0]
    return names, [Piece(str(path), "csv-whole", 0, len(data), 1, sep)]


def _csv_piece(piece: Piece, missing: Sequence[str], state_order: dict | None) -> Dataset | None:
    """Read one CSV piece; its rows keep their file lines (and so do its errors). None for blank lines only."""
    from bnstudio.data.read import parse_csv

    if piece.kind == "csv-whole":
        return parse_csv(read_bytes(Path(piece.path)), piece.path, piece.sep, missing=missing,
                         state_order=state_order, require_observed=False)
    with open(piece.path, "rb") as handle:
        handle.seek(piece.start)
        body = handle.read(piece.stop - piece.start)
    if not body.strip():
        return None
    shift = piece.first - 1 - piece.header.count(b"\n")     # the piece is read as its header, then its rows
    try:
        ds = parse_csv(piece.header + body, piece.path, piece.sep, missing=missing, state_order=state_order,
                       require_observed=False)
    except FormatError as exc:
        if exc.line is None or exc.line == 1:
            raise
        raise _shifted(exc, shift) from None
    if ds.row_lines is not None:
        ds.row_lines += shift
    return ds


def _shifted(exc: FormatError, shift: int) -> FormatError:
    """The same error with its line moved by ``shift`` (the piece's place in the file)."""
    assert exc.line is not None  # the caller shifts located errors only
    where = f"{exc.path}:{exc.line}" + (f":{exc.column}" if exc.column is not None else "") + ": "
    message = str(exc)[len(where):] if str(exc).startswith(where) else str(exc)
    return type(exc)(message, path=exc.path, line=exc.line + shift, column=exc.column)


def _columnar_pieces(path: Path) -> tuple[list[str], list[Piece]]:
    """One piece per row group (Parquet) or record batch (Arrow), with its first row, from the checked file."""
    file = open_columnar(path)
    check_names(file.names, lambda m: FormatError(m, path=str(path)))
    pieces, first = [], 0
    for group, rows in enumerate(file.groups):
        if rows:
            pieces.append(Piece(str(path), "parquet", group, group + 1, first))
        first += rows
    if not pieces:
        raise FormatError("the file has no data rows", path=str(path))
    return file.names, pieces


def _columnar_batches(piece: Piece, chunk_rows: int, missing: Sequence[str],
                      state_order: dict | None) -> Iterator[Dataset]:
    from bnstudio.data.read import from_frame

    file = open_columnar(piece.path)
    if len(file.groups) < piece.stop:
        raise FormatError("the file changed since it was opened", path=piece.path)
    first = piece.first
    for group in range(piece.start, piece.stop):
        for batch in file.batches(group, chunk_rows):
            ds = from_frame(file.frame(batch), missing=missing, state_order=state_order, source=piece.path,
                            require_observed=False)
            ds.row_offset = first
            first += ds.n_rows
            yield ds
