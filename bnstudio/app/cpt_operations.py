"""Qt-free table operations of the CPT editor, on the 2-D view of a CPT (one row per parent configuration,
one column per child state). Each returns a new array; the editor wraps it in one undo command."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from bnstudio.core.cpt_ops import normalise_rows


def as_rows(table: np.ndarray) -> np.ndarray:
    """The CPT as a (rows, states) array (row-major over the parents, as in the core)."""
    return np.asarray(table).reshape(-1, table.shape[-1])


def _rows(n: int, rows: Sequence[int] | None) -> list[int]:
    return list(range(n)) if rows is None else sorted(set(rows))


def normalise(table: np.ndarray, rows: Sequence[int] | None = None) -> np.ndarray:
    """Divide the chosen rows (all by default) by their sums; all-zero rows become uniform."""
    flat = as_rows(table).copy()
    idx = _rows(len(flat), rows)
    flat[idx] = normalise_rows(flat[idx])
    return flat.reshape(table.shape)


def uniform(table: np.ndarray, rows: Sequence[int] | None = None) -> np.ndarray:
    flat = as_rows(table).copy()
    flat[_rows(len(flat), rows)] = 1.0 / flat.shape[1]
    return flat.reshape(table.shape)


def random_fill(table: np.ndarray, rows: Sequence[int] | None = None,
                rng: np.random.Generator | None = None) -> np.ndarray:
    """Rows drawn uniformly from the probability simplex (Dirichlet(1, ..., 1))."""
    rng = rng or np.random.default_rng()
    flat = as_rows(table).copy()
    idx = _rows(len(flat), rows)
    flat[idx] = rng.dirichlet(np.ones(flat.shape[1]), size=len(idx))
    return flat.reshape(table.shape)


def parse_block(text: str) -> np.ndarray:
    """Numbers from spreadsheet clipboard text (tab-separated cells, one line per row).

    >>> parse_block("0.2\\t0.8\\n0.5\\t0.5\\n").tolist()
    [[0.2, 0.8], [0.5, 0.5]]
    """
    lines = [line for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n") if line.strip()]
    if not lines:
        raise ValueError("the clipboard holds no numbers")
    cells = [line.split("\t") for line in lines]
    width = max(len(r) for r in cells)
    out = np.zeros((len(cells), width))
    for i, row in enumerate(cells):
        if len(row) != width:
            raise ValueError(f"pasted line {i + 1} has {len(row)} cells, expected {width}")
        for j, cell in enumerate(row):
            try:
                out[i, j] = float(cell.strip().replace(",", ".") if cell.count(",") == 1 and "." not in cell
                                  else cell.strip())
            except ValueError:
                raise ValueError(f"pasted cell at line {i + 1}, column {j + 1} is not a number: {cell!r}") from None
    return out


def paste(table: np.ndarray, block: np.ndarray, top: int, left: int, upper: float | None = 1.0) -> np.ndarray:
    """``table`` with ``block`` written at (row ``top``, state column ``left``); checks bounds and values."""
    flat = as_rows(table).copy()
    rows, cols = block.shape
    if top < 0 or left < 0 or top + rows > flat.shape[0] or left + cols > flat.shape[1]:
        raise ValueError(f"the pasted block ({rows} x {cols}) does not fit at row {top + 1}, column {left + 1} "
                         f"of a {flat.shape[0]} x {flat.shape[1]} table")
    if not np.all(np.isfinite(block)) or np.any(block < 0) or (upper is not None and np.any(block > upper)):
        limit = f"between 0 and {upper:g}" if upper is not None else "at least 0"
        raise ValueError(f"pasted values must be {limit}")
    flat[top:top + rows, left:left + cols] = block
    return flat.reshape(table.shape)


def scale_counts(alpha: np.ndarray, row: int, ess: float) -> np.ndarray:
    """Dirichlet counts with row ``row`` rescaled to sum to ``ess`` (keeping its proportions)."""
    flat = as_rows(alpha).copy()
    total = flat[row].sum()
    flat[row] = flat[row] * (ess / total) if total > 0 else ess / flat.shape[1]
    return flat.reshape(alpha.shape)
