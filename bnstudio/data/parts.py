"""Tables larger than memory: a Parquet file, a large CSV or a folder of CSV/Parquet parts, read a piece at a time.

:func:`open_parts` lists the *pieces* of the table without reading its cells: a Parquet file's row groups
(each read in batches of ``chunk_rows`` rows), and blocks of about ``chunk_bytes`` whole lines of a CSV file
(a file containing a quote character is one piece, since a quoted field may hold a line break). Each piece is
read with the same reader and rules as a whole table (:mod:`bnstudio.data.read`: states, missing markers,
layout checks, one-line errors naming the file and the line, or the row for Parquet) and aligned to a network
by name (:func:`~bnstudio.data.align.align`), so its codes are exactly the rows of the whole table's codes.

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
from bnstudio.data.csvscan import read_bytes, sniff_separator
from bnstudio.data.dataset import Dataset
from bnstudio.data.errors import BNStudioDataWarning
from bnstudio.data.states import DEFAULT_MISSING
from bnstudio.errors import BNStudioError, Cancelled, FormatError
from bnstudio.io.atomic import check_exists
from bnstudio.io.messages import listing

TEXT_SEPARATORS = {".csv": None, ".txt": None, ".tsv": "\t", ".tab": "\t"}
PART_SUFFIXES = (*TEXT_SEPARATORS, ".parquet")
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
            yield from _parquet_batches(piece, self.chunk_rows, self.missing, self.state_order)
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
                yield align(ds, net).codes

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
    return tuple(t + r for t, r in zip(total, result))


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
        names, found = (_parquet_pieces(file) if file.suffix.lower() == ".parquet"
                        else _csv_pieces(file, max(int(chunk_bytes), 1)))
        pieces += found
        columns.update(dict.fromkeys(names))
    return DataParts(str(path), pieces, list(columns), tuple(missing), dict(state_order or {}) or None,
                     max(int(chunk_rows), 1), runner)


def with_runner(parts: DataParts, runner: Any) -> DataParts:
    """The same pieces, computed by ``runner`` (a cluster, :mod:`bnstudio.data.cluster`)."""
    return replace(parts, runner=runner)


def _csv_pieces(path: Path, chunk_bytes: int) -> tuple[list[str], list[Piece]]:
    """Blocks of whole lines of a plain CSV file (one block per file containing a quote or no LF line break)."""
    name = str(path)
    size = path.stat().st_size
    with open(path, "rb") as handle:
        head = handle.read(min(size, 1 << 16))
        bom = 3 if head.startswith(b"\xef\xbb\xbf") else 0
        end = head.find(b"\n", bom)
        sep = TEXT_SEPARATORS.get(path.suffix.lower()) or sniff_separator(head[bom:])
        if end < 0 or not head[bom:end].strip() or b'"' in head[bom:end]:
            return _whole_csv(path, sep)     # a long or quoted header, leading blank lines: read in one go
        header = head[bom:end + 1]
        names = [n.strip() for n in header.decode("utf-8", errors="replace").rstrip("\r\n").split(sep)]
        pieces, start, line = [], end + 1, 2
        handle.seek(start)
        while start < size:
            block = handle.read(chunk_bytes)
            if b'"' in block:
                return _whole_csv(path, sep)
            cut = block.rfind(b"\n") + 1
            if cut == 0 and start + len(block) < size:     # one line longer than a block: take the whole line
                rest = handle.read()
                if b'"' in rest:
                    return _whole_csv(path, sep)
                tail = rest.find(b"\n") + 1 or len(rest)
                block, cut = block + rest[:tail], len(block) + tail
            cut = cut or len(block)
            pieces.append(Piece(name, "csv", start, start + cut, line, sep, header))
            line += block.count(b"\n", 0, cut)
            start += cut
            handle.seek(start)
    if not pieces:
        raise FormatError("the file has a header but no data rows", path=name, line=1)
    return names, pieces


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
    shift = piece.first - 2            # the piece is read as a header (line 1) and its rows from line 2
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


def parquet_module() -> Any:
    """pyarrow.parquet, or a one-line error naming the ``parquet`` extra."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        from bnstudio.data.read import missing_package_message
        raise FormatError(missing_package_message(".parquet", "pyarrow")) from None
    return pq


def _parquet_file(path: str) -> Any:
    pq = parquet_module()
    try:
        return pq.ParquetFile(path)
    except Exception as exc:  # pyarrow raises many types for damaged files
        raise FormatError(f"cannot read the parquet file: {str(exc).splitlines()[0]}", path=path) from None


def _parquet_pieces(path: Path) -> tuple[list[str], list[Piece]]:
    """One piece per row group (with its first row), from the file's metadata."""
    file = _parquet_file(str(path))
    meta = file.metadata
    names = [str(n) for n in file.schema_arrow.names if not str(n).startswith("__index_level_")]
    pieces, first = [], 0
    for group in range(meta.num_row_groups):
        rows = meta.row_group(group).num_rows
        if rows:
            pieces.append(Piece(str(path), "parquet", group, group + 1, first))
        first += rows
    if not pieces:
        raise FormatError("the file has no data rows", path=str(path))
    return names, pieces


def _parquet_batches(piece: Piece, chunk_rows: int, missing: Sequence[str],
                     state_order: dict | None) -> Iterator[Dataset]:
    from bnstudio.data.read import from_frame

    file = _parquet_file(piece.path)
    first = piece.first
    try:
        batches = file.iter_batches(batch_size=chunk_rows, row_groups=list(range(piece.start, piece.stop)),
                                    use_pandas_metadata=False)
        for batch in batches:
            frame = batch.to_pandas()
            frame = frame[[c for c in frame.columns if not str(c).startswith("__index_level_")]]
            ds = from_frame(frame, missing=missing, state_order=state_order, source=piece.path,
                            require_observed=False)
            ds.row_offset = first
            first += ds.n_rows
            yield ds
    except Exception as exc:  # pyarrow raises many types for damaged files
        if isinstance(exc, BNStudioError):
            raise
        raise FormatError(f"cannot read the parquet file: {str(exc).splitlines()[0]}", path=piece.path) from None
