"""A table of cases matched to the network by its column names (docs/architecture.md §3.25).

A named table — a pandas DataFrame (any object with ``.columns`` whose ``table[name]`` is that column) or a
mapping ``{name: values}`` — becomes the engine's ``{name: (N,) codes}`` form (-1 = unobserved):

* columns are matched by name, never by position: a network variable the table lacks is unobserved in every
  case, a column that is not a variable of the network is refused in one line naming it;
* state names (text) are mapped to codes by the variable's states; an unknown state is refused in one line
  naming the column, the value and the first case holding it;
* integers are codes 0..|X|-1 — except in a DataFrame column whose variable's states are all numbers
  (``1``, ``2``, ``3``), where a number means the state of that value, as a learner reads the same DataFrame;
* None, NaN, pandas' NA and ``""`` are unobserved;
* booleans (pandas reads TRUE/FALSE in a CSV as booleans) mean the variable's true/false (or 1/0) state pair
  (:func:`bnstudio.core.variable.boolean_states`); a variable without such a pair asks for ``dtype=str``;
* in a mapping, an (N, |X|) array is a column of likelihood vectors and is kept as it is.

Only a bare array is read by position. pandas is never imported here: a DataFrame is recognised by its
``columns`` (duck typing), so the engine's import path stays free of it.
"""
from __future__ import annotations

from itertools import repeat
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from bnstudio.core.messages import listing, shorten
from bnstudio.core.variable import boolean_states
from bnstudio.errors import EvidenceError, UnknownStateError, UnknownVariableError

if TYPE_CHECKING:  # evidence.py imports this module
    from bnstudio.inference.evidence import VariableIndex

UNKNOWN = -2  # a code for "not decided by the fast path" while a column is coded


def is_named_table(cases: object) -> bool:
    """Whether ``cases`` carries its column names (a mapping or a DataFrame-like object), not a bare array."""
    return isinstance(cases, Mapping) or (not isinstance(cases, np.ndarray) and hasattr(cases, "columns"))


def case_codes(index: VariableIndex, table: Any) -> dict[str, np.ndarray]:
    """``{variable: (N,) int codes | (N, |X|) likelihoods}`` of a named table, matched by column name (see the
    module docstring); integer arrays of a mapping are returned as they are (views, nothing copied)."""
    frame = not isinstance(table, Mapping)
    names = list(getattr(table, "column_names", None) or table.columns) if frame else list(table.keys())
    seen: set = set()
    for name in names:
        if name in seen:
            raise EvidenceError(f"case table column '{shorten(str(name))}' appears twice")
        seen.add(name)
        if not isinstance(name, str) or name not in index.position:
            raise UnknownVariableError(f"case table column '{shorten(str(name))}' is not a variable of the network")
    return {name: column_codes(index, index.position[name], _column(table, name), by_value=frame) for name in names}


def _column(table: Any, name: str) -> Any:
    """``table[name]``, or a one-line error for a table that cannot give its columns by name."""
    try:
        return table[name]
    except (TypeError, KeyError, IndexError):
        raise EvidenceError(f"cannot read the column '{name}' of a {type(table).__name__} by its name: give a "
                            f"DataFrame, a mapping {{name: values}} or codes (a Dataset: align it to the network "
                            f"first, bnstudio.data.align(dataset, net).evidence())") from None


def column_codes(index: VariableIndex, var: int, values: Any, by_value: bool = False) -> np.ndarray:
    """The codes of one column of variable ``var``; ``by_value``: numbers name states whose names are numbers."""
    arr = np.asarray(values)
    name, states = index.names[var], index.states[var]
    if arr.ndim != 1:
        return arr                      # likelihood vectors (2-D) or a malformed column: batch_columns judges it
    if arr.dtype == bool:
        return _boolean_codes(arr, name, states)
    numbers = _state_numbers(states) if by_value else None
    if np.issubdtype(arr.dtype, np.integer):
        return arr if numbers is None else _value_codes(arr.astype(float), name, states, numbers)
    if np.issubdtype(arr.dtype, np.floating):
        return _float_codes(arr, name, states, numbers)
    if arr.dtype.kind in "OUS":
        return _object_codes(arr.astype(object), name, states, numbers)
    raise EvidenceError(f"case table column '{name}' holds {arr.dtype} values: give state names or codes")


def _boolean_codes(arr: np.ndarray, name: str, states: tuple[str, ...]) -> np.ndarray:
    """True/False as the variable's true/false state pair, or the one-line remedy."""
    pair = boolean_states(states)
    if pair is None:
        raise EvidenceError(f"case table column '{name}' holds booleans (True/False) but '{name}' has no true/false "
                            f"states ({listing(states, quote=False)}): read the CSV with dtype=str")
    return np.where(arr, pair[0], pair[1]).astype(np.int64)


def _state_numbers(states: tuple[str, ...]) -> np.ndarray | None:
    """The states' values when every state name is a finite number, else None."""
    try:
        numbers = np.array([float(s) for s in states])
    except ValueError:
        return None
    return numbers if np.all(np.isfinite(numbers)) else None


def _value_codes(values: np.ndarray, name: str, states: tuple[str, ...], numbers: np.ndarray) -> np.ndarray:
    """Each finite value as the one state with that numeric value; NaN unobserved."""
    codes = np.full(values.shape, -1, dtype=np.int64)
    equal = values[:, None] == numbers[None, :]
    hit = equal.sum(axis=1) == 1
    codes[hit] = equal[hit].argmax(axis=1)
    miss = np.flatnonzero(~hit & ~np.isnan(values))
    if miss.size:
        _unknown_state(name, states, values[miss[0]], int(miss[0]))
    return codes


def _float_codes(arr: np.ndarray, name: str, states: tuple[str, ...], numbers: np.ndarray | None) -> np.ndarray:
    """NaN unobserved; numbers by value (``numbers``) or whole numbers as codes (pandas makes a column of codes
    with a missing cell float)."""
    if numbers is not None:
        return _value_codes(arr, name, states, numbers)
    observed = ~np.isnan(arr)
    fractional = np.flatnonzero(observed & (arr != np.round(arr)))
    if fractional.size:
        _unknown_state(name, states, arr[fractional[0]], int(fractional[0]))
    codes = np.full(arr.shape, -1, dtype=np.int64)
    codes[observed] = arr[observed]
    return codes


def _object_codes(arr: np.ndarray, name: str, states: tuple[str, ...], numbers: np.ndarray | None) -> np.ndarray:
    """State names by a dictionary look-up in one pass; the cells it leaves (missing markers, numbers,
    booleans, unknown names) one by one."""
    position: dict[str, int] = {s: i for i, s in enumerate(states)}
    position.setdefault("", -1)
    try:    # str keys: a number, a boolean, None or NaN finds nothing here
        codes = np.fromiter(map(position.get, arr, repeat(UNKNOWN)), dtype=np.int64, count=arr.size)
    except TypeError:                   # an unhashable cell (a list...): every cell one by one
        codes = np.full(arr.size, UNKNOWN, dtype=np.int64)
    for row in np.flatnonzero(codes == UNKNOWN):
        codes[row] = _cell_code(arr[row], name, states, numbers, int(row))
    return codes


def _cell_code(value: Any, name: str, states: tuple[str, ...], numbers: np.ndarray | None, row: int) -> int:
    """The code of one cell the look-up did not decide."""
    if value is None or _is_missing(value) or (isinstance(value, str) and not value.strip()):
        return -1
    if isinstance(value, (bool, np.bool_)):
        return int(_boolean_codes(np.array([value]), name, states)[0])
    if isinstance(value, str) and numbers is not None:
        value = _number(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        if numbers is not None:
            return int(_value_codes(np.array([float(value)]), name, states, numbers)[0])
        if float(value).is_integer():
            return int(value)           # a code: batch_columns checks its range
    _unknown_state(name, states, value, row)
    return -1


def _number(text: str) -> float | str:
    """``text`` as a number when it spells one (``1.0`` names the state ``1``), else as it is."""
    try:
        return float(text)
    except ValueError:
        return text


def _is_missing(value: Any) -> bool:
    """NaN or pandas' NA (which is not equal to itself, or cannot say)."""
    try:
        return bool(value != value)
    except (TypeError, ValueError):
        return True


def _unknown_state(name: str, states: Sequence[str], value: Any, row: int) -> None:
    value = value.item() if isinstance(value, np.generic) else value
    if isinstance(value, float) and value.is_integer():
        value = int(value)              # an integer column made float by a missing cell
    shown = shorten(value if isinstance(value, str) else repr(value))
    raise UnknownStateError(f"case table column '{name}' has the value '{shown}' (first in case {row}), which is "
                            f"not a state of '{name}' (states: {listing(states, quote=False)})")
