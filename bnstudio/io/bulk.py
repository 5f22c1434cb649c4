"""Reading number tables in bulk, and the switch that turns every bulk path off (the exact, token-by-token
readers are the reference: ``tests/io/test_bulk_reading.py`` reads every network both ways).

The readers find the tables made only of plain numbers -- a BIF probability body, a NET ``data``, a DSL
``PROBABILITIES`` or DNE ``probs`` list, an XML table's text, a UAI function -- and convert each with one ``float``
map and one vectorised check (:func:`probabilities`). Anything unusual (another character, a number that is not a
probability, a count or structure the exact reader would refuse or repair differently) is read token by token,
which raises the located one-line error (docs/architecture.md §3.16).
"""
from __future__ import annotations

import contextlib
import math
import re
from contextvars import ContextVar
from typing import Callable, Hashable, Iterator, Sequence

import numpy as np

from bnstudio.io.repairs import EXACT_TOLERANCE, NEGATIVE_TOLERANCE

_LARGEST = float(np.finfo(float).max)
_FEW = 1000  # fewer numbers than this are written one by one (finding the distinct ones costs more)
_BULK: ContextVar[bool] = ContextVar("bnstudio_bulk_reading", default=True)
# a character no NUMBER has: without one, float() accepts exactly the NUMBER tokens (no '_', 'nan', 'inf' ...)
_NOT_IN_NUMBERS = re.compile(r"[^0-9.eE+\-]")


@contextlib.contextmanager
def exact_reading() -> Iterator[None]:
    """Within the block every reader reads its tables token by token (the reference for the bulk paths)."""
    token = _BULK.set(False)
    try:
        yield
    finally:
        _BULK.reset(token)


def bulk_enabled() -> bool:
    """Whether the readers may take their bulk paths (False inside :func:`exact_reading`)."""
    return _BULK.get()


def probabilities(tokens: Sequence[str], exact: Callable[[], Sequence[float]]) -> np.ndarray:
    """The numbers of a whole table in bulk: what ``[probability(t, fail) for t in tokens]`` gives
    (:func:`bnstudio.io.common.probability`), after one scan of their characters (digits, '.', 'e', 'E', '+',
    '-' only: then ``float`` accepts exactly the NUMBER tokens), one ``float`` map and one vectorised test of the
    values (finite, at least -:data:`~bnstudio.io.repairs.NEGATIVE_TOLERANCE`). On any doubt, and inside
    :func:`exact_reading`, ``exact()`` -- the reader's token-by-token loop -- reads them and raises its located
    error."""
    if _BULK.get() and _NOT_IN_NUMBERS.search("".join(tokens)) is None:
        try:
            values = np.fromiter(map(float, tokens), float, len(tokens))
        except ValueError:  # '1e', '.', '1.2.3', '+-1' ...
            values = None
        # NaN fails both tests, infinities the second
        if values is not None and (values.size == 0 or (values.min() >= -NEGATIVE_TOLERANCE
                                                         and values.max() <= _LARGEST)):
            return values + 0.0  # no -0.0
    return np.asarray(exact(), dtype=float)


def number_text(values: np.ndarray | Sequence[float], sep: str = " ") -> str:
    """The numbers of ``values`` (flattened) as their shortest round-trip texts -- ``repr`` of each float, what
    :func:`bnstudio.io.common.fmt` writes -- joined by ``sep``: one ``tolist`` and one ``repr`` map."""
    return sep.join(map(repr, np.asarray(values, dtype=float).ravel().tolist()))


def number_rows(table: np.ndarray, sep: str = " ") -> list[str]:
    """Each row (the last axis) of ``table`` as :func:`number_text` would write it, the whole table converted
    at once."""
    return tables_rows([table], sep)[0]


def tables_rows(tables: Sequence[np.ndarray], sep: str = " ") -> list[list[str]]:
    """:func:`number_rows` of each table, all converted at once (one ``tolist`` and one ``repr`` map for a whole
    network: a small table costs no numpy call of its own)."""
    tables, words = _words(tables)
    out, at = [], 0
    for table in tables:
        width, end = table.shape[-1], at + table.size
        out.append([sep.join(words[start:start + width]) for start in range(at, end, width)])
        at = end
    return out


def tables_text(tables: Sequence[np.ndarray], sep: str = " ") -> list[str]:
    """:func:`number_text` of each table, all converted at once (see :func:`tables_rows`)."""
    tables, words = _words(tables)
    ends = np.cumsum([t.size for t in tables]).tolist()
    return [sep.join(words[start:end]) for start, end in zip([0] + ends, ends, strict=False)]


def _words(tables: Sequence[np.ndarray]) -> tuple[list[np.ndarray], list[str]]:
    """The tables as float arrays (at least 1-d) and the texts of all their numbers, in order."""
    arrays = [np.atleast_1d(np.asarray(t, dtype=float)) for t in tables]
    if not arrays:
        return [], []
    flat = np.concatenate([t.ravel() for t in arrays])
    if flat.size < _FEW:
        return arrays, list(map(repr, flat.tolist()))
    # tables repeat few distinct values (0.0, 1.0, 0.01...): each distinct float -- told apart by its bits, so
    # -0.0 stays -0.0 -- is written once
    distinct, where = np.unique(flat.view(np.int64), return_inverse=True)
    texts = list(map(repr, distinct.view(np.float64).tolist()))
    return arrays, list(map(texts.__getitem__, where.ravel().tolist()))


def untouched_tables(tables: Sequence[tuple[Hashable, Sequence[str], tuple[int, ...]]]) -> dict[Hashable, np.ndarray]:
    """Of the tables ``(key, number tokens, shape)`` (the child's axis last), those read without a word of
    :func:`probabilities` and :func:`~bnstudio.io.common.make_cpt`, all at once: {key: CPT} for each table whose
    tokens are ``prod(shape)`` NUMBER tokens, every entry in [0, 1] and every row summing to 1 within half of
    :data:`~bnstudio.io.repairs.EXACT_TOLERANCE` (half: the sums here are sequential, :func:`untouched`'s pairwise,
    so a row at the edge is left to it). One character scan, one ``float`` map and a few vectorised tests for a
    whole network, where table by table a small table costs a dozen numpy calls. Tables left out (and all of them
    inside :func:`exact_reading`, or when a token is not a plain number) are read one by one, as before."""
    kept = [(key, tokens, shape) for key, tokens, shape in tables if shape and len(tokens) == math.prod(shape) > 0]
    if not kept or not _BULK.get():
        return {}
    words = [w for _, tokens, _ in kept for w in tokens]
    if _NOT_IN_NUMBERS.search("".join(words)) is not None:
        return {}
    try:
        values = np.fromiter(map(float, words), float, len(words)) + 0.0  # no -0.0
    except ValueError:
        return {}
    sizes = np.array([len(tokens) for _, tokens, _ in kept], dtype=np.int64)
    cards = np.array([shape[-1] for _, _, shape in kept], dtype=np.int64)
    widths = np.repeat(cards, sizes // cards)                        # each row's width, in file order
    row_starts = np.cumsum(widths) - widths
    bad_entry = ~((values >= 0) & (values <= 1))                     # NaN is bad
    bad_row = np.logical_or.reduceat(bad_entry, row_starts)
    with np.errstate(over="ignore", invalid="ignore"):  # a sum beyond the float range: that row is bad
        bad_row |= ~(np.abs(np.add.reduceat(values, row_starts) - 1.0) <= EXACT_TOLERANCE / 2)
    table_rows = np.cumsum(sizes // cards) - sizes // cards          # each table's first row
    bad_table = np.logical_or.reduceat(bad_row, table_rows).tolist()
    out: dict[Hashable, np.ndarray] = {}
    start = 0
    for (key, tokens, shape), bad in zip(kept, bad_table, strict=True):
        end = start + len(tokens)
        if not bad:
            out[key] = values[start:end].reshape(shape)
        start = end
    return out
