"""Line a :class:`Dataset` up with a network: columns by name, states by name, codes in network order.

Columns are matched by exact name. States are matched with :func:`bnstudio.data.states.match_states`: an exact
string match wins, otherwise a numeric value matches the single network state with the same value (data
``1.0`` matches state ``1``). The result's ``codes`` table is what the inference engine takes as batched
evidence: (N, n_vars) int64, columns in ``network.variables`` order, -1 = unobserved.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np

from bnstudio.core.network import Network
from bnstudio.data.dataset import Dataset, describe_positions
from bnstudio.data.errors import BNStudioDataWarning, StateProblem, UnknownDataStates
from bnstudio.data.states import match_states
from bnstudio.io.messages import listing, shorten


@dataclass
class AlignedData:
    """Data coded for a network.

    Attributes
    ----------
    codes : ndarray, shape (n_rows, n_vars), int64
        State codes in ``network.variables`` order, -1 = missing or latent.
    network : Network
        The network the codes refer to (a copy with added states when aligned with ``extend_states=True``).
    latent : list of str
        Network variables the data have no column for (their column is all -1).
    ignored : list of str
        Data columns the network has no variable for.
    added_states : dict
        Variable -> states added by ``extend_states=True`` (in order of first appearance).
    weights : ndarray, optional
        The dataset's case weights.
    """

    codes: np.ndarray
    network: Network
    latent: list[str]
    ignored: list[str]
    added_states: dict[str, list[str]] = field(default_factory=dict)
    weights: np.ndarray | None = None

    @property
    def variables(self) -> list[str]:
        """Column names of ``codes`` (the network's variables, in order)."""
        return self.network.variables

    @property
    def n_rows(self) -> int:
        return int(self.codes.shape[0])

    def unobserved_variables(self) -> list[str]:
        """Variables observed in no row: latent ones and those whose every cell is missing (nothing to learn
        their parameters from but the other variables, e.g. by EM)."""
        observed = np.asarray((self.codes >= 0).any(axis=0))  # per column (the stubs allow a scalar)
        return [v for v, seen in zip(self.variables, observed, strict=True) if not seen]

    def evidence(self) -> dict[str, np.ndarray]:
        """``{variable: (N,) codes}`` for the observed (not latent) variables: the engine's mapping form."""
        return {v: self.codes[:, k] for k, v in enumerate(self.variables) if v not in self.latent}


def _first_rows(col: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Row of the first occurrence of each code in ``codes`` (all of which occur in ``col``)."""
    order = np.argsort(col, kind="stable")
    sorted_col = col[order]
    return order[np.searchsorted(sorted_col, codes)]


def align(dataset: Dataset, net: Network, *, extend_states: bool = False) -> AlignedData:
    """Code ``dataset`` for ``net``.

    Parameters
    ----------
    dataset : Dataset
        The data; column order does not matter.
    net : Network
        The network; it is never modified.
    extend_states : bool
        Add data values that are not states of their variable to a copy of ``net`` (appended in order of first
        appearance in the data) instead of raising. The result's ``network`` is then always a copy.

    Raises
    ------
    UnknownDataStates
        Listing every (column, value, count, first rows) that matches no state, unless ``extend_states``.

    Warns
    -----
    BNStudioDataWarning
        Naming the data columns the network lacks (they are ignored).
    """
    ignored = [c for c in dataset.columns if c not in net]
    if ignored:
        warnings.warn(f"data column(s) not in network '{shorten(net.name)}', ignored: "
                      f"{listing(ignored, quote=False)}", BNStudioDataWarning, stacklevel=2)
    position = {c: j for j, c in enumerate(dataset.columns)}
    latent = [v for v in net.variables if v not in position]
    target = net.copy() if extend_states else net
    lookups: dict[str, np.ndarray] = {}
    problems: list[StateProblem] = []
    added: dict[str, list[str]] = {}
    for var in net.variables:
        if var not in position:  # latent
            continue
        j = position[var]
        lookup = np.r_[match_states(dataset.states[j], net.states(var)), -1]  # last entry: missing -> -1
        unmatched = np.flatnonzero(lookup[:-1] < 0)
        if unmatched.size:
            col = dataset.codes[:, j]
            counts = np.bincount(col + 1, minlength=len(dataset.states[j]) + 1)[1:]
            unmatched = unmatched[counts[unmatched] > 0]  # declared but unused states do not matter
            if unmatched.size:
                first = _first_rows(col, unmatched)
                unmatched, first = unmatched[np.argsort(first)], np.sort(first)
                if extend_states:
                    added[var] = [dataset.states[j][k] for k in unmatched]
                    for k, state in zip(unmatched, added[var], strict=True):
                        lookup[k] = target.cardinality(var)
                        target.add_state(var, state)
                else:
                    problems += _problems(dataset, var, dataset.states[j], col, unmatched, counts)
        lookups[var] = lookup
    if problems:
        raise UnknownDataStates(problems)
    observed = [var for var in net.variables if var in lookups]
    codes = _remap(dataset.codes, [position[v] for v in observed], [lookups[v] for v in observed])
    if latent:
        full = np.full((dataset.n_rows, len(net)), -1, dtype=np.int64)
        full[:, [k for k, v in enumerate(net.variables) if v in lookups]] = codes
        codes = full
    return AlignedData(codes, target, latent, ignored, added, dataset.weights)


def _problems(dataset: Dataset, var: str, states: tuple[str, ...], col: np.ndarray, unmatched: np.ndarray,
              counts: np.ndarray, shown: int = 5) -> list[StateProblem]:
    """One :class:`StateProblem` per code in ``unmatched`` (ordered by first row), its first ``shown`` rows
    found with one stable sort of the column (not one scan of it per value)."""
    order = np.argsort(col, kind="stable")
    start = np.searchsorted(col[order], unmatched)
    firsts = order[np.minimum(start[:, None] + np.arange(shown), col.size - 1)]  # (values, shown) rows
    out = []
    for k, rows in zip(unmatched, firsts, strict=True):
        n = int(counts[k])
        numbers, kind = dataset.row_numbers(rows[:min(n, shown)])
        out.append(StateProblem(var, states[k], n, describe_positions(numbers, n, kind, shown)))
    return out


def _remap(source: np.ndarray, columns: list[int], lookups: list[np.ndarray]) -> np.ndarray:
    """out[:, i] = lookups[i][source[:, columns[i]]] (each lookup ends with -1 for the missing code -1).

    One gather for the whole table: lookup i is stored as [-1, lookup...] at offset o_i, indexed by code + 1 + o_i.
    """
    if not columns:
        return np.empty((source.shape[0], 0), dtype=np.int64)
    tables = [np.r_[-1, lookup[:-1]] for lookup in lookups]
    offsets = np.cumsum([0] + [len(t) for t in tables[:-1]]) + 1
    block = source if columns == list(range(source.shape[1])) else source[:, columns]
    if not block.flags.c_contiguous:    # column by column keeps a column-major table column-major
        out = np.empty(block.shape, dtype=np.int64, order="F")
        for i, lookup in enumerate(lookups):
            np.take(lookup, block[:, i], out=out[:, i])
        return out
    index = block + offsets
    return np.take(np.concatenate(tables), index, out=index)
