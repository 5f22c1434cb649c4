"""Write Hugin NET files in the classic syntax that :mod:`bnstudio.io.hugin.net` reads (its docstring gives the
conventions): floats at full precision, one CPT row per line, names made identifiers, ``'`` for ``"``."""
from __future__ import annotations

import functools
import math
import re
from typing import TYPE_CHECKING

import numpy as np

from bnstudio.core.network import Network
from bnstudio.io.atomic import PathLike, atomic_write_text
from bnstudio.io.bulk import number_rows, tables_rows
from bnstudio.io.common import identifiers, split_properties
from bnstudio.io.hugin.net import NET_RESERVED, NODE_RESERVED

if TYPE_CHECKING:
    from bnstudio.decision.model import InfluenceDiagram


def _quote(s: str) -> str:
    """A NET string others read too: pyAgrum's reader refuses ``\\"``, so a ``"`` inside is written as ``'``."""
    return '"' + s.replace("\\", "\\\\").replace('"', "'").replace("\n", "\\n") + '"'


def format_net(net: Network) -> str:
    """The Hugin NET text of ``net`` in the classic syntax, floats at full precision.

    One CPT row per line and no ``%`` comments inside ``data`` (pgmpy's NET reader does not accept them).
    """
    return _format(net, {}, [])


def format_net_diagram(diagram: InfluenceDiagram) -> str:
    """The Hugin NET text of an influence diagram: ``decision`` nodes with their informational parents as an
    empty potential ``potential (D | P1 P2) { }``, ``utility`` nodes with ``data`` over their parents."""
    return _format(diagram.network, {d.name: d.parents for d in diagram.decisions},
                   [(u.name, u.parents, u.table) for u in diagram.utilities])


def _format(net: Network, decisions: dict[str, tuple[str, ...]],
            utilities: list[tuple[str, tuple[str, ...], np.ndarray]]) -> str:
    ids = identifiers(list(net.variables) + [u[0] for u in utilities])
    network_props, owned = split_properties(net)
    lines = ["net", "{", "    node_size = (80 40);", f"    name = {_quote(net.name)};"]
    lines += [f"    {k} = {_quote(v)};" for k, v in network_props if _is_attr(k, NET_RESERVED)]
    lines.append("}")
    for var in net.variables:
        keyword = "decision" if var in decisions else "node"
        lines += ["", f"{keyword} {ids[var]}", "{", f"    label = {_quote(net.variable(var).description or var)};"]
        if var in net.positions and all(map(math.isfinite, net.positions[var])):
            x, y = net.positions[var]
            lines.append(f"    position = ({round(x)} {round(y)});")
        lines.append(f"    states = ({' '.join(map(_quote, net.states(var)))});")
        lines += [f"    {k} = {_quote(v)};" for k, v in owned[var] if _is_attr(k, NODE_RESERVED)]
        lines.append("}")
    for name, _, _ in utilities:
        lines += ["", f"utility {ids[name]}", "{", f"    label = {_quote(name)};", "}"]
    rows = dict(zip(net.variables, tables_rows([net.cpt(v) for v in net.variables]), strict=True))
    for var in net.variables:
        parents = decisions[var] if var in decisions else net.parents(var)
        head = ids[var] + (" | " + " ".join(ids[p] for p in parents) if parents else "")
        lines += ["", f"potential ( {head} )", "{"]
        if var not in decisions:
            lines += _data_lines(net.cpt(var), rows[var])
        lines.append("}")
    for name, parents, table in utilities:
        head = ids[name] + (" | " + " ".join(ids[p] for p in parents) if parents else "")
        lines += ["", f"potential ( {head} )", "{"] + _data_lines(table.reshape(table.shape or (1,))) + ["}"]
    return "\n".join(lines) + "\n"


def _data_lines(table: np.ndarray, rows: list[str] | None = None) -> list[str]:
    """``data = ( ... );`` nested by the leading axes, one innermost row (the last axis) per line (``rows``: the
    rows' texts, :func:`~bnstudio.io.bulk.number_rows` of ``table``, when made already)."""
    rows = number_rows(table) if rows is None else rows
    prefixes, opens, closes = _nesting_marks(table.shape[:-1])
    ends = [""] * (len(rows) - 1) + [";"]
    return [f"{prefix}{'(' * o} {row} {')' * c}{end}"
            for prefix, o, row, c, end in zip(prefixes, opens, rows, closes, ends, strict=True)]


@functools.lru_cache(maxsize=256)
def _nesting_marks(shape: tuple[int, ...]) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
    """For each row of a table whose leading axes are ``shape``: its line's indent, and how many parentheses it
    opens and closes (one more for each trailing parent index at its first, resp. last, state)."""
    if shape:
        index = np.indices(shape).reshape(len(shape), -1).T[:, ::-1]  # the last parent first
        opens = tuple((1 + np.cumprod(index == 0, axis=1).sum(axis=1)).tolist())
        closes = tuple((1 + np.cumprod(index == np.array(shape[::-1]) - 1, axis=1).sum(axis=1)).tolist())
    else:
        opens = closes = (1,)
    return ("    data = ",) + tuple(" " * (12 + len(shape) - o) for o in opens[1:]), opens, closes


def _is_attr(key: str, reserved: set[str]) -> bool:
    return re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) is not None and key not in reserved


def write_net(net: Network, path: PathLike) -> None:
    """Write ``net`` as a Hugin NET file to ``path`` atomically."""
    atomic_write_text(path, format_net(net))


def write_net_diagram(diagram: InfluenceDiagram, path: PathLike) -> None:
    """Write an influence diagram as a Hugin NET file to ``path`` atomically."""
    atomic_write_text(path, format_net_diagram(diagram))
