"""Write Netica DNE files (the format read by :mod:`bnstudio.io.netica.dne`; see its docstring for the conventions).

What is written, for Netica and for our reader:

* the ``// ~->[DNET-1]->~`` first line, ``bnet NAME { ... };`` and the nodes in a topological order of all arcs
  (parents before children), each with ``kind``, ``discrete``, ``chance``, ``states`` and ``parents``;
* chance nodes: ``probs`` nested one level per parent with the child's distribution innermost, one row per line
  at full float precision (``repr``), so reading the file back gives an identical network; a node whose CPT is
  still its deterministic canonical model is written ``chance = DETERMIN`` with a ``functable`` of state names;
* influence diagrams (:func:`write_dne_diagram`): ``kind = DECISION`` nodes with their informational parents,
  ``kind = UTILITY`` nodes (``discrete = FALSE; measure = RATIO; chance = DETERMIN``) with their table as
  ``functable``;
* Netica names (nodes, states, the net) are identifiers of at most 30 characters (a letter, then letters, digits,
  ``_``): other names get a legal spelling (``common.legal_names``, cut to 30 characters), the original kept in
  ``title`` / ``statetitles`` (what Netica shows) and in ``user U1 { bnstudio_name = "..."; bnstudio_states =
  "[...]"; }``, which our reader reads back; descriptions go to ``comment``, positions to ``visual V1 { center =
  (x, y); }`` rounded to whole numbers. Properties, Dirichlet counts and noisy-MAX models (written as their
  expanded tables) are not stored; a discretised node's ``levels`` are not kept (its states are written).
"""
from __future__ import annotations

import json
import math
import re
from typing import TYPE_CHECKING, Sequence

import numpy as np

from bnstudio.core.canonical import Deterministic, canonical_of
from bnstudio.core.network import Network
from bnstudio.io.atomic import PathLike, atomic_write_text
from bnstudio.io.bif.writer import NAME_KEY, STATES_KEY
from bnstudio.io.bulk import number_text
from bnstudio.io.common import legal_names
from bnstudio.io.genie.dsl_syntax import escape
from bnstudio.io.influence import node_order

if TYPE_CHECKING:
    from bnstudio.decision.model import InfluenceDiagram

HEADER = "// ~->[DNET-1]->~"
MAX_NAME = 30  # Netica's limit on the length of a name
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def netica_names(names: Sequence[str]) -> dict[str, str]:
    """Map names to distinct Netica names (identifiers of at most 30 characters); legal names map to themselves.

    >>> netica_names(["Asy/Patch", "a" * 31, "ok"])["Asy/Patch"], len(netica_names(["a" * 31])["a" * 31])
    ('Asy_Patch', 30)
    """
    out = legal_names(names, _IDENTIFIER)
    taken = {v for k, v in out.items() if len(v) <= MAX_NAME and k == v}
    for name, ident in out.items():
        if len(ident) > MAX_NAME or name != ident:
            base, k = ident[:MAX_NAME], 2
            ident = base
            while ident in taken:
                suffix = f"_{k}"
                ident, k = base[:MAX_NAME - len(suffix)] + suffix, k + 1
            out[name] = ident
            taken.add(ident)
    return out


def _string(text: str) -> str:
    return f'"{escape(text)}"'


def _nested(table: np.ndarray, indent: str) -> str:
    """``table`` as nested lists (the last axis innermost), one innermost list per line."""
    if table.ndim <= 1:
        return "(" + number_text(table, ", ") + ")"
    inner = indent + " "
    return "(" + f",\n{inner}".join(_nested(sub, inner) for sub in table) + ")"


def _functable(states: np.ndarray, names: Sequence[str], indent: str) -> str:
    """A functable of state names nested by the parents (the last parent innermost)."""
    if states.ndim == 0:
        return f"({names[int(states)]})"
    if states.ndim == 1:
        return "(" + ", ".join(names[int(s)] for s in states) + ")"
    inner = indent + " "
    return "(" + f",\n{inner}".join(_functable(sub, names, inner) for sub in states) + ")"


class _Writer:
    def __init__(self, net: Network, utilities: Sequence[tuple[str, tuple[str, ...], np.ndarray]]) -> None:
        self.net = net
        self.ids = netica_names(list(net.variables) + [u[0] for u in utilities])
        self.state_ids = {v: netica_names(list(net.states(v))) for v in net.variables}

    def header(self) -> list[str]:
        name = self.net.name
        ident = netica_names([name or "network"])[name or "network"]
        lines = [HEADER, "", "// File written by BN Studio.", "", f"bnet {ident} {{", "autoupdate = TRUE;"]
        if ident != name:
            lines += [f"title = {_string(name)};", "user U1 {", f"\t{NAME_KEY} = {_string(name)};", "\t};"]
        return lines + [""]

    def node(self, name: str, kind: str, parents: Sequence[str], body: list[str]) -> list[str]:
        """The block of node ``name`` of Netica kind ``kind`` (``body``: its kind-specific fields)."""
        ident = self.ids[name]
        lines = [f"node {ident} {{", f"\tkind = {kind};"] + body
        lines.append(f"\tparents = ({', '.join(self.ids[p] for p in parents)});")
        return lines

    def texts(self, name: str, lines: list[str]) -> list[str]:
        """``title``, ``comment``, user fields and position of variable or utility ``name``, and the block's end."""
        user = []
        if self.ids[name] != name:
            lines.append(f"\ttitle = {_string(name)};")
            user.append(f"\t\t{NAME_KEY} = {_string(name)};")
        if name in self.net:
            description = self.net.variable(name).description
            if description:
                lines.append(f"\tcomment = {_string(description)};")
            states, ids = self.net.states(name), self.state_ids[name]
            if any(ids[s] != s for s in states):
                lines.append(f"\tstatetitles = ({', '.join(_string(s) for s in states)});")
                user.append(f"\t\t{STATES_KEY} = {_string(json.dumps(list(states), ensure_ascii=False))};")
        if user:
            lines += ["\tuser U1 {"] + user + ["\t\t};"]
        if name in self.net.positions and all(map(math.isfinite, self.net.positions[name])):
            x, y = (round(c) for c in self.net.positions[name])
            lines += ["\tvisual V1 {", f"\t\tcenter = ({x}, {y});", "\t\t};"]
        return lines + ["\t};", ""]

    def states(self, var: str) -> str:
        return f"\tstates = ({', '.join(self.state_ids[var][s] for s in self.net.states(var))});"

    def chance(self, var: str) -> tuple[list[str], list[str]]:
        """(kind-specific fields, table) of chance variable ``var``."""
        model = canonical_of(self.net, var)
        if isinstance(model, Deterministic):
            names = [self.state_ids[var][s] for s in self.net.states(var)]
            table = ["\tfunctable = ", "\t\t" + _functable(np.asarray(model.states), names, "\t\t") + ";"]
            return ["\tdiscrete = TRUE;", "\tchance = DETERMIN;", self.states(var)], table
        probs = ["\tprobs = ", "\t\t" + _nested(self.net.cpt(var), "\t\t") + ";"]
        return ["\tdiscrete = TRUE;", "\tchance = CHANCE;", self.states(var)], probs

    def decision(self, var: str) -> list[str]:
        return ["\tdiscrete = TRUE;", "\tchance = DETERMIN;", self.states(var)]

    def write(self, order: Sequence[str], decisions: dict[str, tuple[str, ...]],
              utilities: dict[str, tuple[tuple[str, ...], np.ndarray]]) -> str:
        lines = self.header()
        for name in order:
            if name in utilities:
                parents, table = utilities[name]
                body = ["\tdiscrete = FALSE;", "\tmeasure = RATIO;", "\tchance = DETERMIN;"]
                block = self.node(name, "UTILITY", parents, body)
                block += ["\tfunctable = ", "\t\t" + _nested(np.asarray(table, dtype=float), "\t\t") + ";"]
            elif name in decisions:
                block = self.node(name, "DECISION", decisions[name], self.decision(name))
            else:
                body, table_lines = self.chance(name)
                block = self.node(name, "NATURE", self.net.parents(name), body) + table_lines
            lines += self.texts(name, block)
        return "\n".join(lines + ["};"]) + "\n"


def format_dne(net: Network) -> str:
    """The DNE text of ``net`` (nodes in a topological order, floats at full precision)."""
    return _Writer(net, []).write(net.topological_order(), {}, {})


def format_dne_diagram(diagram: InfluenceDiagram) -> str:
    """The DNE text of an influence diagram: decision and utility nodes as Netica writes them."""
    utilities = [(u.name, u.parents, u.table) for u in diagram.utilities]
    return _Writer(diagram.network, utilities).write(
        node_order(diagram), {d.name: d.parents for d in diagram.decisions},
        {name: (parents, table) for name, parents, table in utilities})


def write_dne(net: Network, path: PathLike) -> None:
    """Write ``net`` as a Netica ``.dne`` file to ``path`` atomically."""
    atomic_write_text(path, format_dne(net))


def write_dne_diagram(diagram: InfluenceDiagram, path: PathLike) -> None:
    """Write an influence diagram as a Netica ``.dne`` file to ``path`` atomically."""
    atomic_write_text(path, format_dne_diagram(diagram))
