"""Tokenise a plain delimited file straight into per-column value codes with numpy: no Python object per cell.

"Plain" means what most exported data sets are: no quotes, LF or CRLF line breaks, a header on line 1 and
every line with the same number of fields (so no blank lines), no NUL bytes, no cell longer than 256 bytes.
Anything else returns None and the caller takes the general path (pandas after a layout scan), which also
produces the precise error messages.
The cells are exactly the ones pandas' C parser gives for such a file (the raw text between separators).

Each cell's bytes are read as little-endian 64-bit words from an overlapping (stride-1) uint64 view of the
file, masked to the cell's length. A cell of up to 8 bytes is its own key (exact: text without NUL bytes).
A longer cell's key is a hash of its words and length; afterwards every long cell is compared word by word with
the first long cell of its key, and keys shared with short cells are ruled out by counting, so the result is
exact (a collision, however unlikely, returns None). The file is tokenised in blocks of whole lines (about
256 KB), so each pass over a block's arrays stays in the processor cache, shared among threads (numpy releases
the GIL in these passes). The keys are then factorised once over
the whole file (pandas' hash table), and a column's distinct values are a bincount of (column, key) pairs.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd

_LF, _CR = 10, 13
_MASKS = np.array([(1 << (8 * i)) - 1 for i in range(8)] + [2 ** 64 - 1], dtype=np.uint64)  # by length
_BLOCK = 1 << 18    # bytes per tokenising block
_WORKERS = min(4, os.cpu_count() or 1)  # threads sharing the blocks
_MAX_PAIRS = 1 << 22     # the largest dense (column, key) table worth building when there are fewer cells
_MAX_CELL = 256     # longer cells (rare in categorical data) go to pandas: hashing costs a pass per 8 bytes
_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F), np.uint64(0x165667B19E3779F9))


@dataclass
class PlainTable:
    """The data rows as keys: ``pairs`` (n_rows × n_fields) numbers j · n_keys + key of the cell in column j,
    where key indexes ``texts`` (distinct cell texts, raw); ``present`` (n_fields × n_keys) counts them."""

    pairs: np.ndarray
    texts: list[str]
    present: np.ndarray

    def column_values(self) -> list[np.ndarray]:
        """Per column, the keys that occur in it (ascending)."""
        return [np.flatnonzero(row) for row in self.present]

    def map(self, table: np.ndarray) -> np.ndarray:
        """``table[pairs]`` as a column-major (n_rows × n_fields) array, gathered a block of rows at a time so
        the transposition stays in cache."""
        out = np.empty(self.pairs.shape, dtype=table.dtype, order="F")
        for row in range(0, len(out), 1024):
            out[row:row + 1024] = np.take(table, self.pairs[row:row + 1024])
        return out


def plain_table(data: bytes, sep: str, n_fields: int) -> PlainTable | None:
    """The data rows of ``data`` (a header on line 1 with ``n_fields`` names) as cell keys, or None if the file
    is not plain (see the module docstring)."""
    if n_fields < 2 or len(data) < 16 or b'"' in data or b"\0" in data or b"\n" not in data:
        return None
    crlf = b"\r" in data
    if crlf and data.count(b"\r") != data.count(b"\r\n"):
        return None
    header_end = data.find(b"\n") + 1
    if header_end >= len(data) or data.count(sep.encode(), 0, header_end) != n_fields - 1:
        return None
    cells = _Cells(data, sep, n_fields, crlf)
    bounds, start = [], header_end
    while start < len(data):
        end = data.find(b"\n", min(start + _BLOCK, len(data)) - 1) + 1 or len(data)
        bounds.append((start, end))
        start = end
    if len(bounds) > 2 and _WORKERS > 1:    # numpy releases the GIL in these passes: blocks go to threads
        with ThreadPoolExecutor(max_workers=_WORKERS) as pool:
            blocks = list(pool.map(cells.tokenise, *zip(*bounds, strict=True)))
    else:
        blocks = [cells.tokenise(a, b) for a, b in bounds]
    tokenised = [block for block in blocks if block is not None]
    if len(tokenised) < len(blocks):
        return None
    keys = cells.keys(tokenised)
    codes, uniques = pd.factorize(keys, sort=False)
    n_keys = len(uniques)
    if n_fields * n_keys > max(_MAX_PAIRS, codes.size):
        return None     # many distinct texts (numbers, ids): the dense (column, key) tables would not pay
    long_codes = codes[cells.long]
    pairs = codes.reshape(-1, n_fields)
    pairs += np.arange(n_fields) * n_keys                      # (column, key) as one number
    present = np.bincount(pairs.ravel(), minlength=n_fields * n_keys).reshape(n_fields, n_keys)
    texts = cells.texts(long_codes, uniques, present.sum(axis=0))
    return None if texts is None else PlainTable(pairs, texts, present)


@dataclass
class _Block:
    """One block's cell keys and its long cells (index in the block, start in the file, length)."""

    keys: np.ndarray
    long: np.ndarray
    long_starts: np.ndarray
    long_lengths: np.ndarray


class _Cells:
    """Cells of a plain file, tokenised block by block: a key per cell (its bytes up to 8 bytes long, a hash of
    its words and length beyond) and, for the long cells, what proving the hashes exact needs."""

    def __init__(self, data: bytes, sep: str, n_fields: int, crlf: bool) -> None:
        self.data, self.sep, self.n_fields, self.crlf = data, ord(sep), n_fields, crlf
        self.buf = np.frombuffer(data, dtype=np.uint8)
        self.words = np.ndarray(shape=(len(data) - 7,), dtype="<u8", buffer=data, strides=(1,))
        self.long = np.zeros(0, dtype=np.int64)
        self.long_words: list[np.ndarray] = []
        self.long_starts = self.long_lengths = self.long

    def tokenise(self, start: int, end: int) -> _Block | None:
        """The cells of the whole lines in data[start:end]; None if they are not plain."""
        segment = self.buf[start:end]
        delimiter = segment == _LF
        n_lines = int(np.count_nonzero(delimiter))
        delimiter |= segment == self.sep
        ends = np.flatnonzero(delimiter)
        ends += start
        if segment[-1] != _LF:                    # the last line of a file without a final line break
            ends = np.append(ends, end)
            n_lines += 1
        if ends.size != n_lines * self.n_fields:
            return None
        line_ends = ends[self.n_fields - 1::self.n_fields]
        if not (self.buf[line_ends[:-1]] == _LF).all():   # so each line break closes a line of n_fields
            return None
        starts = np.empty_like(ends)
        starts[0] = start
        np.add(ends[:-1], 1, out=starts[1:])
        lengths = ends - starts
        if self.crlf:
            last = lengths[self.n_fields - 1::self.n_fields]
            last -= self.buf[line_ends - 1] == _CR
        if lengths.max() > _MAX_CELL:
            return None
        keys = self._word_at(starts)
        keys &= np.take(_MASKS, lengths, mode="clip")
        long = np.flatnonzero(lengths > 8)
        return _Block(keys, long, starts[long], lengths[long])

    def keys(self, blocks: list[_Block]) -> np.ndarray:
        """Every cell's key, the long cells' hashed (their words kept for :meth:`texts`)."""
        keys = np.concatenate([b.keys for b in blocks])
        first_cell = np.cumsum([0] + [b.keys.size for b in blocks[:-1]])
        self.long = np.concatenate([b.long + first for b, first in zip(blocks, first_cell, strict=True)])
        if not self.long.size:
            return keys
        self.long_starts = np.concatenate([b.long_starts for b in blocks])
        self.long_lengths = np.concatenate([b.long_lengths for b in blocks])
        at, left = self.long_starts, self.long_lengths
        self.long_words = [keys[self.long]]
        mixed = keys[self.long] * _MIX[0]
        offset = 8
        while (left > offset).any():
            word = self._word_at(at + offset)
            word &= np.take(_MASKS, np.maximum(left - offset, 0), mode="clip")
            self.long_words.append(word)
            mixed ^= word
            mixed *= _MIX[2]
            offset += 8
        keys[self.long] = mixed ^ (left.astype(np.uint64) * _MIX[1])
        return keys

    def _word_at(self, positions: np.ndarray) -> np.ndarray:
        """The 8 bytes from each (ascending) position as a little-endian uint64, zeros past the end of the file."""
        near_end = int(np.searchsorted(positions, self.words.size, side="left"))
        if near_end == positions.size:
            return self.words[positions]      # fancy indexing: np.take would copy the whole strided view
        out = np.empty(positions.size, dtype=np.uint64)
        out[:near_end] = self.words[positions[:near_end]]
        for i in range(near_end, positions.size):         # at most the last few cells of the file
            chunk = self.data[positions[i]:positions[i] + 8]
            out[i] = int.from_bytes(chunk + bytes(8 - len(chunk)), "little")
        return out

    def texts(self, long_codes: np.ndarray, uniques: np.ndarray, counts: np.ndarray) -> list[str] | None:
        """The text of every key, given the keys' codes at the long cells and every key's number of cells;
        None if two different cells share a key (see the module docstring)."""
        n_keys = len(uniques)
        if self.long.size == 0:
            return [_short_text(u) for u in uniques]
        among_long = np.bincount(long_codes, minlength=n_keys)
        if (counts[long_codes] != among_long[long_codes]).any():
            return None                               # a long cell shares its key with a short one
        first = np.empty(n_keys, dtype=np.int64)
        first[long_codes[::-1]] = np.arange(self.long.size)[::-1]
        rep = first[long_codes]
        if (self.long_lengths != self.long_lengths[rep]).any() or any((w != w[rep]).any() for w in self.long_words):
            return None
        texts = []
        for code, key in enumerate(uniques):
            if among_long[code]:
                start = int(self.long_starts[first[code]])
                texts.append(self.data[start:start + int(self.long_lengths[first[code]])].decode("utf-8"))
            else:
                texts.append(_short_text(key))
        return texts


def _short_text(key: np.uint64) -> str:
    """The text of a cell of at most 8 bytes from its key (its bytes, little-endian, zero-padded)."""
    return int(key).to_bytes(8, "little").rstrip(b"\0").decode("utf-8")
