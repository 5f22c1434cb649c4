"""Turn user evidence into likelihood arrays the engine multiplies into clique potentials.

Hard evidence X = x is the indicator vector of x; soft (likelihood) evidence is a non-negative vector λ over
X's states meaning p(observation | X) ∝ λ. Batched evidence is a table of integer codes (-1 = unobserved) or,
per variable, an (N, |X|) array of likelihood vectors. Every array returned has shape (1 | N, |X|).

Likelihood vectors are returned scaled to a maximum of 1 (λ / max λ), so finite but huge values (1e308) cannot
overflow a product or a sum in a clique; the posterior does not change and the scale removed is kept in
:attr:`Likelihoods.log_scale`: log p(e) = log Σ_x p(x) λ'(x) + Σ_v log max λ_v.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from bnstudio.errors import EvidenceError, UnknownStateError, UnknownVariableError
from bnstudio.inference.cases import case_codes, is_named_table

if TYPE_CHECKING:  # annotations only: building typing aliases costs a first query in a new process ~0.08 ms
    from typing import Union
    StateSpec = Union[str, int, Sequence[float], np.ndarray]
    Evidence = Mapping[str, StateSpec]


class Likelihoods(dict):
    """{variable index: (1 | N, |X|) likelihood, each vector scaled to max 1} with ``log_scale``, the sum over
    variables of log max λ_v that the scaling removed: a float, or an (N,) array for batched evidence."""

    def __init__(self, items: Mapping[int, np.ndarray] | None = None,
                 log_scale: float | np.ndarray = 0.0) -> None:
        super().__init__(items or {})
        self.log_scale = log_scale


def _scaled(lam: np.ndarray) -> tuple[np.ndarray, float | np.ndarray]:
    """(λ / max λ per row, log max λ per row) for a non-negative (M, |X|) array; an all-zero row stays zero
    with log scale -inf (p(e) = 0)."""
    top = lam.max(axis=1) if lam.size else np.ones(lam.shape[0])
    positive = top > 0
    safe = np.where(positive, top, 1.0)
    scale = np.where(positive, np.log(safe), -np.inf)
    return lam / safe[:, None], (float(scale[0]) if lam.shape[0] == 1 else scale)


class VariableIndex:
    """Names, states and cardinalities by index: what evidence parsing needs from a network."""

    def __init__(self, names: Sequence[str], states: Sequence[Sequence[str]]) -> None:
        self.names = list(names)
        self.states = [tuple(s) for s in states]
        self.cards = [len(s) for s in states]
        self.position = {n: i for i, n in enumerate(self.names)}

    def index(self, name: str) -> int:
        try:
            return self.position[name]
        except (KeyError, TypeError):
            raise UnknownVariableError(f"unknown variable '{name}'") from None

    def state_index(self, var: int, state: str | int | np.integer) -> int:
        states = self.states[var]
        if isinstance(state, (int, np.integer)) and not isinstance(state, bool):
            if 0 <= state < len(states):
                return int(state)
            raise EvidenceError(f"state index {state} out of range for '{self.names[var]}' ({len(states)} states)")
        if state in states:
            return states.index(state)
        raise UnknownStateError(f"variable '{self.names[var]}' has no state '{state}' "
                                f"(states: {', '.join(states)})")


def likelihood_vector(index: VariableIndex, var: int, spec: StateSpec) -> np.ndarray:
    """A (1, |X|) likelihood for one hard (state name or index) or soft (vector) finding."""
    card = index.cards[var]
    if isinstance(spec, (str, int, np.integer)) and not isinstance(spec, bool):
        out = np.zeros((1, card))
        out[0, index.state_index(var, spec)] = 1.0
        return out
    try:
        vec = np.asarray(spec, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise EvidenceError(f"evidence on '{index.names[var]}' must be a state or a likelihood vector, "
                            f"got {spec!r}") from None
    if vec.shape != (card,):
        raise EvidenceError(f"likelihood evidence on '{index.names[var]}' needs {card} values, got {vec.size}")
    if not np.all(np.isfinite(vec)) or np.any(vec < 0) or not np.any(vec > 0):
        raise EvidenceError(f"likelihood evidence on '{index.names[var]}' must be finite, non-negative and "
                            f"not all zero, got {vec.tolist()}")
    return vec[None, :]


def single_evidence(index: VariableIndex, evidence: Evidence | None) -> Likelihoods:
    """Parse a single case: {name: state | index | likelihood vector} -> {var: (1, |X|) array, max 1}."""
    out = Likelihoods()
    for name, spec in (evidence or {}).items():
        var = index.index(name)
        lam = likelihood_vector(index, var, spec)
        if isinstance(spec, (str, int, np.integer)):  # an indicator: already at most 1
            out[var] = lam
        else:
            out[var], scale = _scaled(lam)
            out.log_scale += scale
    return out


class BatchColumns(dict):
    """Validated batched evidence: {variable index: (N,) integer codes (-1 = unobserved) or (N, |X|) likelihoods},
    views of the caller's arrays (nothing per case is allocated), with ``n_cases``. Columns without any
    observation are left out."""

    def __init__(self, items: Mapping[int, np.ndarray], n_cases: int, cards: Sequence[int]) -> None:
        super().__init__(items)
        self.n_cases = n_cases
        self.cards = cards

    def soft(self, var: int) -> bool:
        """Whether column ``var`` holds likelihood vectors (else state codes)."""
        return self[var].ndim == 2

    def likelihoods(self, rows: slice = slice(None)) -> Likelihoods:
        """{var: (n, |X|) likelihood} for the cases in ``rows`` (rows of soft evidence scaled to max 1)."""
        out = Likelihoods()
        for var, arr in self.items():
            part = arr[rows]
            if part.ndim == 2:
                out[var], scale = _scaled(part.astype(float))
                out.log_scale = out.log_scale + scale
            elif np.any(part >= 0):
                lam = (part[:, None] == np.arange(self.cards[var])[None, :]).astype(float)
                lam[part < 0] = 1.0
                out[var] = lam
        return out


def batch_columns(index: VariableIndex, cases: Mapping[str, np.ndarray] | np.ndarray,
                  columns: Sequence[str] | None = None) -> BatchColumns:
    """Validate N cases at once, with no Python loop over cases (see :func:`batch_evidence`)."""
    if is_named_table(cases):
        if columns is not None:
            raise EvidenceError("columns= names the columns of a bare array; a table of cases is matched by its "
                                "own column names")
        cases = case_codes(index, cases)
    else:
        table = np.asarray(cases)
        if table.ndim != 2:
            raise EvidenceError(f"a case table must be 2-D (cases x variables), got shape {table.shape}")
        columns = list(columns) if columns is not None else index.names
        if table.shape[1] != len(columns):
            raise EvidenceError(f"case table has {table.shape[1]} columns but {len(columns)} names")
        cases = {name: table[:, k] for k, name in enumerate(columns)}
    n_cases = None
    out: dict[int, np.ndarray] = {}
    for name, values in cases.items():
        var = index.index(name)
        arr = np.asarray(values)
        n = arr.shape[0] if arr.ndim >= 1 else None
        if n is None or (n_cases is not None and n != n_cases):
            raise EvidenceError(f"evidence column '{name}' has {n} cases, expected {n_cases}")
        n_cases = n
        if _check_column(index, var, arr):
            out[var] = arr
    if n_cases is None:
        raise EvidenceError("no evidence columns given")
    return BatchColumns(out, n_cases, index.cards)


def batch_evidence(index: VariableIndex, cases: Mapping[str, np.ndarray] | np.ndarray,
                   columns: Sequence[str] | None = None) -> tuple[Likelihoods, int]:
    """Parse N cases at once, with no Python loop over cases.

    ``cases`` is either a 2-D integer array (N, len(columns)) of state codes with -1 = unobserved (columns
    default to all network variables in order), or a table matched by its column names
    (:mod:`bnstudio.inference.cases`): a mapping name -> (N,) codes or state names, or name -> (N, |X|)
    likelihoods, or a pandas DataFrame.
    An all-zero likelihood row is a case of probability zero (e.g. the (q, e) case of a query state that
    contradicts its evidence): batched answers report it as impossible (log p(e) = -inf).
    Fully unobserved columns are dropped. Returns ({var: (N, |X|) likelihood, rows scaled to max 1}, N).
    """
    parsed = batch_columns(index, cases, columns)
    return parsed.likelihoods(), parsed.n_cases


def _check_column(index: VariableIndex, var: int, arr: np.ndarray) -> bool:
    """Raise EvidenceError for a malformed column; False when it observes nothing."""
    card, name = index.cards[var], index.names[var]
    if arr.ndim == 2:
        if arr.shape[1] != card:
            raise EvidenceError(f"likelihood evidence on '{name}' needs {card} columns, got {arr.shape[1]}")
        if not np.issubdtype(arr.dtype, np.number) or not np.all(np.isfinite(arr)) or np.any(arr < 0):
            raise EvidenceError(f"likelihood evidence on '{name}' must be finite and non-negative")
        return True
    if arr.ndim != 1 or not np.issubdtype(arr.dtype, np.integer):
        raise EvidenceError(f"evidence codes for '{name}' must be a 1-D integer array (-1 = unobserved)")
    bad = (arr < -1) | (arr >= card)
    if np.any(bad):
        rows = np.flatnonzero(bad)[:5].tolist()
        raise EvidenceError(f"evidence codes for '{name}' out of range -1..{card - 1} in case(s) {rows}")
    return bool(np.any(arr >= 0))


DESCRIBED_FINDINGS = 3  # findings an error message names; the rest are counted


def describe(index: VariableIndex, evidence: Evidence | None, limit: int = DESCRIBED_FINDINGS) -> str:
    """``HRBP=HIGH, BP=LOW`` (soft findings as ``X~[...]``) for error messages: the first ``limit`` findings
    and a count of the rest, so a message stays one readable line whatever the number of findings.

    >>> vi = VariableIndex(["A", "B", "C", "D", "E"], [("y", "n")] * 5)
    >>> describe(vi, {"A": "y", "B": "n", "C": "y", "D": "y", "E": "n"})
    'A=y, B=n, C=y, … and 2 more findings'
    """
    parts = []
    evidence = evidence or {}
    for name, spec in list(evidence.items())[:limit]:
        if isinstance(spec, (str, int, np.integer)):
            parts.append(f"{name}={spec}")
        else:
            parts.append(f"{name}~{np.asarray(spec, dtype=float).round(4).tolist()}")
    rest = len(evidence) - len(parts)
    if rest > 0:
        parts.append(f"… and {rest} more finding{'s' if rest > 1 else ''}")
    return ", ".join(parts)
