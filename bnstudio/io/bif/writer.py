"""Write BIF (the format read by :mod:`bnstudio.io.bif.reader`; see its docstring for the grammar and conventions).

The output is read by pyAgrum and pgmpy as well as by us (``tests/io/test_bif_interop.py``):

* every name is a bare identifier those readers take: a variable or network name is ``[A-Za-z_][A-Za-z0-9_]*``,
  a state ``[A-Za-z_][A-Za-z0-9_]*`` or an integer, and none is a BIF keyword. Other names get a deterministic
  legal spelling (:func:`bif_names`: ``my var`` -> ``my_var``, ``Asy/Patch`` -> ``Asy_Patch``, ``1.5`` ->
  ``x1_5``, clashes numbered ``_2``, ``_3``...) and the original is kept in the block as ``property
  bnstudio_name = "...";`` (variables, the network) or ``property bnstudio_states = "[...]";`` (the state names
  as a JSON list), which :mod:`bnstudio.io.bif.reader` reads back; an unnamed network is written as ``unnamed``;
* a property is ``property key = "value" ;`` with the key an identifier (pyAgrum refuses others, quoted or not:
  such a property is written as ``property bnstudio_property_<n> = "[key, value]" ;``, a JSON pair numbered
  within its block, read back as the original) and the value a one-line quoted string:
  ``\\"``, ``\\\\``, ``\\n``, ``\\r``, ``\\t`` and ``\\x3b`` (for ``;``, which pyAgrum's reader refuses in a string)
  are escaped.

Each CPT row is written as ``(p1, p2) v1, v2, ...;`` at full float precision (``repr``), so reading the file
back gives an identical network. Positions are written as ``property position = (x, y) ;`` in the variable's
block and ``"V.key"`` properties go back into V's block. Variable descriptions are not stored.
"""
from __future__ import annotations

import itertools
import json
import re
from typing import Sequence

import numpy as np

from bnstudio.core.network import Network
from bnstudio.io.atomic import PathLike, atomic_write_text
from bnstudio.io.bulk import number_text, tables_rows
from bnstudio.io.common import legal_names, split_properties

KEYWORDS = frozenset({"network", "variable", "probability", "property", "type", "discrete", "table", "default"})
NAME_KEY, STATES_KEY = "bnstudio_name", "bnstudio_states"  # where renamed names keep their original spelling
PROPERTY_KEY = "bnstudio_property_"  # + n: a property whose key is not an identifier, as a JSON [key, value]
UNNAMED = "unnamed"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STATE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", ";": "\\x3b"}
_TO_ESCAPE = re.compile(r'[\\"\n\r\t;]')


def quoted(text: str) -> str:
    """``text`` as a one-line BIF string (escapes in the module docstring)."""
    return '"' + _TO_ESCAPE.sub(lambda m: _ESCAPES[m.group()], text) + '"'


def bif_names(net: Network) -> tuple[str, dict[str, str], dict[str, tuple[str, ...]]]:
    """(network name, {variable: BIF name}, {variable: BIF state names}) as written (see the module docstring)."""
    name = legal_names([net.name], _NAME, KEYWORDS)[net.name] if net.name and net.name != "network" else UNNAMED
    names = legal_names(net.variables, _NAME, KEYWORDS)
    states = {}
    for var in net.variables:
        ids = legal_names(net.states(var), _STATE, KEYWORDS)
        states[var] = tuple(ids[s] for s in net.states(var))
    return name, names, states


def _property(key: str, value: str) -> str:
    """``property key = "value" ;`` for an identifier ``key`` (see :func:`_properties` for the others)."""
    return f"property {key} = {quoted(value)} ;"


def _properties(items: list[tuple[str, str]]) -> list[str]:
    """The property lines of one block (see the module docstring)."""
    lines, n = [], 0
    for key, value in items:
        if key in (NAME_KEY, STATES_KEY) or key.startswith(PROPERTY_KEY):
            continue  # ours: written from the network itself
        if _KEY.fullmatch(key):
            lines.append(f"  {_property(key, value)}")
        else:
            n += 1
            lines.append(f"  {_property(f'{PROPERTY_KEY}{n}', json.dumps([key, value], ensure_ascii=False))}")
    return lines


def _numbers(values: np.ndarray | Sequence[float]) -> str:
    return number_text(values, ", ")


def format_bif(net: Network) -> str:
    """The BIF text of ``net``: full float precision, so reading it back gives an identical network."""
    network_props, owned = split_properties(net)
    name, names, states = bif_names(net)
    lines = [f"network {name} {{"]
    if name != net.name:
        lines.append(f"  {_property(NAME_KEY, net.name)}")
    lines += _properties(network_props)
    lines.append("}")
    for var in net.variables:
        lines.append(f"variable {names[var]} {{")
        lines.append(f"  type discrete [ {len(states[var])} ] {{ {', '.join(states[var])} }};")
        if names[var] != var:
            lines.append(f"  {_property(NAME_KEY, var)}")
        if states[var] != net.states(var):
            lines.append(f"  {_property(STATES_KEY, json.dumps(list(net.states(var)), ensure_ascii=False))}")
        if var in net.positions:
            x, y = net.positions[var]
            lines.append(f"  property position = ({_numbers([x, y])}) ;")
        lines += _properties(owned[var])
        lines.append("}")
    for var, rows in zip(net.variables, tables_rows([net.cpt(v) for v in net.variables], ", "), strict=True):
        parents = net.parents(var)
        head = names[var] + (" | " + ", ".join(names[p] for p in parents) if parents else "")
        lines.append(f"probability ( {head} ) {{")
        if not parents:
            lines.append(f"  table {rows[0]};")
        else:  # rows in row-major order: the last parent fastest, as itertools.product runs
            lines += [f"  ({', '.join(label)}) {row};"
                      for label, row in zip(itertools.product(*(states[p] for p in parents)), rows, strict=True)]
        lines.append("}")
    return "\n".join(lines) + "\n"


def write_bif(net: Network, path: PathLike) -> None:
    """Write ``net`` as BIF to ``path`` atomically (gzip-compressed if the name ends in ``.gz``)."""
    atomic_write_text(path, format_bif(net))
