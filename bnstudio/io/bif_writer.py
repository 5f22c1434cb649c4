"""Write BIF (the format read by :mod:`bnstudio.io.bif`; see its docstring for the grammar and conventions).

Each CPT row is written as ``(p1, p2) v1, v2, ...;`` at full float precision (``repr``), so reading the file
back gives an identical network. Positions are written as ``property position = (x, y) ;`` in the variable's
block and ``"V.key"`` properties go back into V's block. Variable descriptions are not stored.
"""
from __future__ import annotations

import re

import numpy as np

from bnstudio.core.network import Network
from bnstudio.io.atomic import PathLike, atomic_write_text
from bnstudio.io.common import split_properties

_BARE = re.compile(r'(?:[^\s{}()\[\];,|"/]|/(?![/*]))+')  # names the tokenizer reads back as one word
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")


def _quote(name: str, always: bool = False) -> str:
    if not always and _BARE.fullmatch(name):
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _property(key: str, value: str) -> str:
    """``property key = value ;`` when that reads back unchanged, else both sides quoted."""
    plain = value == value.strip() == value.strip(",|") and not any(
        s in value for s in (";", "}", '"', "//", "/*", "\n"))  # ',' and '|' at the ends would be dropped
    if _IDENT.fullmatch(key) and plain:
        return f"property {key} = {value} ;"
    return f"property {_quote(key, True)} = {_quote(value, True)} ;"


def _numbers(values: np.ndarray) -> str:
    return ", ".join(repr(float(x)) for x in values)


def format_bif(net: Network) -> str:
    """The BIF text of ``net``: full float precision, so reading it back gives an identical network."""
    network_props, owned = split_properties(net)
    lines = [f"network {_quote(net.name)} {{"]
    lines += [f"  {_property(k, v)}" for k, v in network_props]
    lines.append("}")
    for var in net.variables:
        states = net.states(var)
        lines.append(f"variable {_quote(var)} {{")
        lines.append(f"  type discrete [ {len(states)} ] {{ {', '.join(map(_quote, states))} }};")
        if var in net.positions:
            x, y = net.positions[var]
            lines.append(f"  property position = ({_numbers([x, y])}) ;")
        lines += [f"  {_property(k, v)}" for k, v in owned[var]]
        lines.append("}")
    for var in net.variables:
        parents, cpt = net.parents(var), net.cpt(var)
        head = _quote(var) + (" | " + ", ".join(map(_quote, parents)) if parents else "")
        lines.append(f"probability ( {head} ) {{")
        if not parents:
            lines.append(f"  table {_numbers(cpt)};")
        else:
            rows = cpt.reshape(-1, cpt.shape[-1])
            for r, index in enumerate(np.ndindex(*cpt.shape[:-1])):
                label = ", ".join(_quote(net.states(p)[i]) for p, i in zip(parents, index))
                lines.append(f"  ({label}) {_numbers(rows[r])};")
        lines.append("}")
    return "\n".join(lines) + "\n"


def write_bif(net: Network, path: PathLike) -> None:
    """Write ``net`` as BIF to ``path`` atomically (gzip-compressed if the name ends in ``.gz``)."""
    atomic_write_text(path, format_bif(net))
