"""Helpers shared by the file-format readers and writers: probability rows, names, properties, assembly.

How entries and rows are judged (and repaired) is the tolerance policy of :mod:`bnstudio.io.repairs`, the same
for every reader, :mod:`bnstudio.io.project` included. Sizes a file declares are checked against
:mod:`bnstudio.io.limits` before anything is allocated.

Every format here stores a CPT as one flat list in the row-major order of our layout
``cpt[p1, ..., pk, x]``: parents in their declared order, the first slowest, and the child fastest.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any, Callable, Iterable, Protocol, Sequence

import numpy as np

from bnstudio.core.network import Network, build_network
from bnstudio.core.variable import check_name
from bnstudio.errors import BNStudioError, CycleError, FormatError
from bnstudio.io.limits import SizeBudget
from bnstudio.io.messages import shorten
from bnstudio.io.repairs import Fail, Repairs, entry_problem, untouched

# a decimal or scientific number; unambiguous (no two ways to split a run of digits), so a failed match of a
# long token costs linear time, not quadratic backtracking
NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


class StateNames(Protocol):
    """What the row helpers read of a variable's states: their number and the k-th name (a tuple or list of
    names, or a reader's stand-in that makes the names only when asked)."""

    def __len__(self) -> int: ...

    def __getitem__(self, k: int, /) -> str: ...


def probability(token: str, fail: Fail) -> float:
    """A finite number written in decimal or scientific notation (no ``nan``, ``inf``, ``1_0``), at least
    -:data:`~bnstudio.io.repairs.NEGATIVE_TOLERANCE` (tiny negatives are repaired with the table)."""
    if not NUMBER.fullmatch(token):
        raise fail(f"expected a number, found '{shorten(token, 40)}'")
    value = float(token)
    problem = entry_problem(value)
    if problem is not None:
        raise fail(f"{problem} {shorten(token, 40)}")
    return value + 0.0  # no -0.0


def row_label(parents: Sequence[tuple[str, StateNames]], row: int) -> str:
    """``(P1=a, P2=b)`` for the ``row``-th parent configuration (row-major, last parent fastest)."""
    if not parents:
        return "()"
    index = np.unravel_index(row, tuple(len(states) for _, states in parents))
    return "(" + ", ".join(f"{shorten(p)}={shorten(states[int(i)])}"
                           for (p, states), i in zip(parents, index, strict=True)) + ")"


def make_cpt(values: Sequence[float] | np.ndarray, child: str, card: int, parents: Sequence[tuple[str, StateNames]],
             fail: Fail, budget: SizeBudget | None, repairs: Repairs) -> np.ndarray:
    """The CPT of ``child`` from its flat table (child fastest), shape (|P1|, ..., |Pk|, |X|), rows checked and
    repaired (``repairs``), its size checked against ``budget`` first (None: the caller checked it)."""
    pshape = tuple(len(states) for _, states in parents)
    if budget is not None:
        budget.family(child, pshape + (card,), fail)
    n_rows = math.prod(pshape)
    entries = n_rows * card
    if len(values) != entries:
        detail = f" ({card} states x {n_rows} parent configurations)" if parents else ""
        raise fail(f"the table of '{child}' has {len(values)} values, expected {entries}{detail}")
    rows = np.array(values, dtype=float).reshape(n_rows, card)
    if untouched(rows):
        return rows.reshape(pshape + (card,))
    bad = repairs.rows(rows, lambda r: f"row {row_label(parents, r)} of '{child}'", (child, [p for p, _ in parents]))
    if bad is not None:
        raise fail(repairs.refusal(f"row {row_label(parents, bad)} of '{child}'"))
    return rows.reshape(pshape + (card,))


def first_duplicate(items: Iterable[str]) -> str | None:
    """The first item that occurs a second time (in order of the second occurrence), or None."""
    seen: set[str] = set()
    for item in items:
        if item in seen:
            return item
        seen.add(item)
    return None


def checked_name(text: str | None, what: str, fail: Fail) -> str:
    """``text`` stripped, refused (with ``what`` in the message) if empty or multi-line."""
    name = (text or "").strip()
    try:
        check_name(name, what)
    except BNStudioError as exc:
        raise fail(str(exc)) from None
    return name


# (name, states, parents, cpt) of one variable, as :func:`assemble` takes them (a None cpt is uniform)
Family = tuple[str, Sequence[str], Sequence[str], "np.ndarray | None"]


def assemble(families: Iterable[Family], name: str,
             fail_at: Callable[[str | None, str], FormatError]) -> Network:
    """:func:`build_network`, with cycles and other invariant breaks turned into :class:`FormatError`.

    ``fail_at(variable or None, message)`` locates the error (a cycle is reported at its first variable).
    """
    try:
        return build_network(families, name)
    except CycleError as exc:
        raise fail_at(exc.cycle[0] if exc.cycle else None, f"cycle {' -> '.join(exc.cycle)}") from None
    except BNStudioError as exc:
        raise fail_at(None, str(exc)) from None


def fmt(x: float) -> str:
    """Shortest text that reads back as exactly the same float."""
    return repr(float(x))


def parse_position(value: str) -> tuple[float, float] | None:
    """``(x, y)`` or ``(x y)`` as two finite floats, else None."""
    inner = value.strip()
    if not (inner.startswith("(") and inner.endswith(")")):
        return None
    parts = inner[1:-1].replace(",", " ").split()
    if len(parts) != 2 or not all(NUMBER.fullmatch(p) for p in parts):
        return None
    x, y = (float(p) for p in parts)
    return (x, y) if math.isfinite(x) and math.isfinite(y) else None


def split_property(text: str) -> tuple[str, str]:
    """``key = value`` (or ``key value``) as a stripped (key, value) pair."""
    key, sep, value = text.partition("=")
    if not sep:
        key, value = (text.split(None, 1) + ["", ""])[:2]
    return key.strip(), value.strip()


def split_properties(net: Network) -> tuple[list[tuple[str, str]], dict[str, list[tuple[str, str]]]]:
    """(network properties, {variable: [(key, value)]}): ``"V.key"`` belongs to V (the longest such V)."""
    owned: dict[str, list[tuple[str, str]]] = {v: [] for v in net.variables}
    network_props: list[tuple[str, str]] = []
    for key, value in net.properties.items():
        if not key:
            continue  # an empty key cannot be read back
        owner = max((v for v in net.variables if key.startswith(v + ".") and len(key) > len(v) + 1),
                    key=len, default=None)
        if owner is None:
            network_props.append((key, value))
        else:
            owned[owner].append((key[len(owner) + 1:], value))
    return network_props, owned


def legal_names(names: Iterable[str], legal: re.Pattern, reserved: frozenset[str] = frozenset()) -> dict[str, str]:
    """Map names to distinct names matching ``legal`` and not ``reserved``, deterministically: such names map to
    themselves; in the others each character outside ``[A-Za-z0-9_]`` becomes ``_``, an ``x`` is put in front
    when that still does not match, and ``_2``, ``_3``, ... is appended until the result is new.

    >>> legal_names(["my var", "my_var", "1", "ok"], re.compile("[A-Za-z][A-Za-z0-9_]*"))
    {'my_var': 'my_var', 'ok': 'ok', 'my var': 'my_var_2', '1': 'x1'}
    """
    names = list(names)
    out = {n: n for n in names if legal.fullmatch(n) and n not in reserved}
    taken = set(out) | set(reserved)
    for n in names:
        if n in out:
            continue
        base = re.sub(r"[^A-Za-z0-9_]", "_", n)
        base = base if legal.fullmatch(base) else "x" + base
        ident, k = base, 2
        while ident in taken:
            ident, k = f"{base}_{k}", k + 1
        out[n] = ident
        taken.add(ident)
    return out


def identifiers(names: Sequence[str]) -> dict[str, str]:
    """Map names to distinct identifiers (a letter, then letters, digits, ``_``); valid names map to themselves.

    Hugin node names and GeNIe node and state ids must be identifiers.
    """
    return legal_names(names, _IDENTIFIER)


def is_identifier(name: str) -> bool:
    return _IDENTIFIER.fullmatch(name) is not None


def json_document(text: str, path: str, error: type[FormatError] = FormatError) -> Any:
    """The parsed JSON ``text`` of file ``path``; malformed JSON, too deep nesting or too long numbers are one
    ``error`` line (with line and column where JSON says)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"invalid JSON: {exc.msg}", path=path, line=exc.lineno, column=exc.colno) from None
    except RecursionError:
        raise error("invalid JSON: nested too deeply", path=path) from None
    except ValueError as exc:  # e.g. an integer literal with more digits than Python converts
        raise error(f"invalid JSON: {exc}", path=path) from None


def json_text(doc: Any, level: int = 0) -> str:
    """Indented JSON with every array of scalars (a CPT row, a state list) on one line (floats exact, no NaN)."""
    pad, inner = "  " * level, "  " * (level + 1)
    if isinstance(doc, dict) and doc:
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {json_text(v, level + 1)}" for k, v in doc.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(doc, list) and any(isinstance(x, (dict, list)) for x in doc):
        return "[\n" + ",\n".join(inner + json_text(x, level + 1) for x in doc) + "\n" + pad + "]"
    return json.dumps(doc, ensure_ascii=False, allow_nan=False)
