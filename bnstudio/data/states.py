"""State naming, ordering and matching for categorical columns.

Rules (applied to the distinct values of a column, never row by row):

* Values are compared after stripping surrounding blanks; values in the ``missing`` set (default ``""``, ``?``,
  ``NA``, ``NaN``, ``nan``, ``N/A``) are missing (code -1).
* **Numeric columns** (every non-missing value parses as a number, e.g. ``1``, ``2.5``, ``-3e2``): states are
  sorted by value. Spellings of the same number (``1``, ``1.0``, ``01``) are one state, named by the shortest
  spelling (ties: the first in string order). "The same number" is exact: integers beyond 2**53 that one float
  cannot tell apart (``9007199254740992``, ``9007199254740993``) are different states.
* **Other columns**: states are sorted in string (code point) order, so the order does not depend on row order.
* Columns that are already categorical (pandas ``category`` dtype) keep their category order.
* ``state_order`` overrides the order; every value present must then match one of the listed states.

Matching a value to a list of states (:func:`match_states`, used for ``state_order`` and by
:func:`~bnstudio.data.align.align`): an exact string match wins; otherwise a numeric value matches the one state
with the same numeric value, exactly (data ``1.0`` matches state ``1``); several such states, or none, is no match;
a value reading true or false in any case (pandas makes TRUE/FALSE in a CSV booleans, ``True``/``False``) matches
the variable's true/false or 1/0 state pair (:func:`bnstudio.core.variable.boolean_states`).
"""
from __future__ import annotations

from decimal import Decimal
from typing import Sequence

import numpy as np

from bnstudio.core.variable import boolean_states

DEFAULT_MISSING: tuple[str, ...] = ("", "?", "NA", "NaN", "nan", "N/A")


def label_text(value: object) -> str:
    """The state name for one distinct value: strings as they are, integral floats without ``.0``."""
    if isinstance(value, str):
        return value
    if isinstance(value, (float, np.floating)) and np.isfinite(value) and float(value).is_integer():
        return str(int(value))
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    return str(value)


def numeric_values(labels: Sequence[str]) -> np.ndarray:
    """Float value of each label, NaN where a label is not a number (vectorised)."""
    if len(labels) == 0:
        return np.zeros(0)
    import pandas as pd  # the study workers' start-up imports this module; few of them need pandas

    values = pd.to_numeric(pd.Series(np.asarray(labels, dtype=object)), errors="coerce")
    return np.asarray(values, dtype=float)


def exact_value(label: str) -> object:
    """The exact number a label spells (a Decimal; a float for what only pandas parses), for telling apart labels
    whose float values coincide."""
    try:
        return Decimal(label)
    except ArithmeticError:
        return float(numeric_values([label])[0])


def match_states(labels: Sequence[str], states: Sequence[str]) -> np.ndarray:
    """For each label, the index of the matching state (exact, else unique numeric equal), -1 if none."""
    position = {s: i for i, s in enumerate(states)}
    out = np.array([position.get(label, -1) for label in labels], dtype=np.int64)
    unmatched = np.flatnonzero(out < 0)
    if unmatched.size:
        wanted = numeric_values([labels[int(i)] for i in unmatched])
        offered = numeric_values(list(states))
        order = np.argsort(offered, kind="stable")  # NaN (no number) sorts last and never equals anything
        ranked = offered[order]
        first = np.searchsorted(ranked, wanted, side="left")
        unique = (np.searchsorted(ranked, wanted, side="right") - first == 1) & ~np.isnan(wanted)
        for i, k in zip(unmatched[unique], order[first[unique]], strict=True):   # equal as floats; equal exactly?
            if exact_value(str(labels[int(i)]).strip()) == exact_value(str(states[int(k)]).strip()):
                out[i] = k
    return _boolean_matches(labels, states, out)


def _boolean_matches(labels: Sequence[str], states: Sequence[str], out: np.ndarray) -> np.ndarray:
    """``out`` with the labels still unmatched that read true/false (any case: pandas reads TRUE/FALSE in a CSV
    as booleans, shown ``True``/``False``) given the variable's true/false (or 1/0) state pair, if it has one."""
    pair = boolean_states(tuple(states))
    if pair is not None:
        for i in np.flatnonzero(out < 0):
            folded = str(labels[int(i)]).strip().lower()
            if folded in ("true", "false"):
                out[i] = pair[0] if folded == "true" else pair[1]
    return out


def _exact_groups(values: list[str], ordering: np.ndarray, first: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``ordering`` with each run of float-equal labels (``first`` False after its start) sorted by exact value,
    then length and text, and ``first`` marking where an exact value starts."""
    ordering, first = ordering.copy(), first.copy()
    starts = np.flatnonzero(first)
    for a, b in zip(starts, np.r_[starts[1:], len(ordering)], strict=True):
        if b - a > 1:
            run = sorted(ordering[a:b], key=lambda i: (exact_value(values[i]), len(values[i]), values[i]))
            ordering[a:b] = run
            exact = [exact_value(values[i]) for i in run]
            first[a + 1:b] = [x != y for x, y in zip(exact[1:], exact[:-1], strict=True)]
    return ordering, first


def encode_labels(labels: Sequence[str], *, missing: Sequence[str] = DEFAULT_MISSING,
                  order: Sequence[str] | None = None, keep_order: bool = False
                  ) -> tuple[tuple[str, ...], np.ndarray, list[str]]:
    """Decide the states of a column from its distinct raw values.

    Parameters
    ----------
    labels : sequence of str
        The distinct raw values (as text) of one column.
    missing : sequence of str
        Values that mean "missing" (compared after stripping blanks).
    order : sequence of str, optional
        Explicit states (``state_order``); values are matched with :func:`match_states`.
    keep_order : bool
        Keep the given order of ``labels`` (categorical input) instead of sorting.

    Returns
    -------
    states : tuple of str
        The ordered state names.
    lookup : ndarray, shape (len(labels) + 1,), int64
        State code of each label, -1 for missing ones; the extra last entry is -1 so that ``lookup[raw]``
        maps the raw missing code -1 to -1.
    unmatched : list of str
        With ``order``: present values that match none of the listed states (the caller reports them).
    """
    text = np.array([str(label).strip() for label in labels], dtype=object)
    present = ~np.isin(text, np.array([m.strip() for m in missing], dtype=object))
    lookup = np.full(len(text) + 1, -1, dtype=np.int64)
    idx = np.flatnonzero(present)
    values = list(text[idx])
    if order is not None:
        states = tuple(str(s) for s in order)
        matched = match_states(values, states)
        lookup[idx] = matched
        return states, lookup, [v for v, m in zip(values, matched, strict=True) if m < 0]
    if keep_order:
        states = tuple(dict.fromkeys(values))
        lookup[idx] = match_states(values, states)
        return states, lookup, []
    numbers = numeric_values(values)
    if len(values) and not np.isnan(numbers).any():
        lengths = np.array([len(v) for v in values])
        ordering = np.lexsort((np.array(values, dtype=str), lengths, numbers))  # by value, then shortest
        sorted_numbers = numbers[ordering]
        first = np.r_[True, sorted_numbers[1:] != sorted_numbers[:-1]]
        if not first.all():     # labels equal as floats: group them by their exact values
            ordering, first = _exact_groups(values, ordering, first)
        states = tuple(values[i] for i in ordering[first])
        group = np.cumsum(first) - 1
        lookup[idx[ordering]] = group
        return states, lookup, []
    names, inverse = np.unique(np.array(values, dtype=str), return_inverse=True)
    lookup[idx] = inverse.reshape(-1)
    return tuple(str(n) for n in names), lookup, []
