"""The outline of an influence-diagram file: its names, states and parents, read without parsing a table.

Parsing a JSON table costs about 170 bytes and a microsecond per number (Python floats in nested lists, then
the numpy array): a utility over 24 binary decisions (2^24 numbers, about 60 MB of JSON) took 25–40 s and
2.8 GB before its solution could be sized and refused. ``bnstudio decide`` reads the outline first
(:func:`read_json_outline`): every ``"cpt"``, ``"table"`` and ``"alpha"`` value made of numbers and brackets
only is cut out of the bytes at C speed (a regular expression, no Python object per number) and the rest,
a few kilobytes, is parsed as JSON into a :class:`~bnstudio.decision.outline.DiagramOutline`, which
:func:`bnstudio.decision.solve.presize` sizes as the whole diagram (docs/decisions.md, "The exact solution is
sized first"; docs/architecture.md §1: io reads, the decision layer sizes).

:func:`read_outline` reads it from every format ``bnstudio decide`` reads with tables that can be big: the JSON form
here, Hugin NET (:mod:`bnstudio.io.hugin.net_outline`) and GeNIe XDSL (:mod:`bnstudio.io.genie.xdsl_outline`), whose
readers give the parts to :func:`outline_of`. XMLBIF, DNE and projects are read whole.

The outline is a shortcut, never a judge: whatever it cannot read (a table holding anything but numbers,
malformed JSON, a structure the outline doubts) gives None and the full reader says what is wrong. The numbers
cut out are not checked: a file refused for its size is refused even if one of its tables is also malformed.
"""
from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Sequence

from bnstudio.errors import BNStudioError
from bnstudio.io.atomic import PathLike, read_bytes

if TYPE_CHECKING:
    from bnstudio.decision.outline import DiagramOutline

#: A key whose value is a table, up to its opening bracket (a key: a quote inside a JSON string is escaped).
_TABLE_KEY = re.compile(rb'"(?:cpt|table|alpha)"\s*:\s*(?=\[)')
#: What a table of numbers is made of: the longest run from its opening bracket.
_NUMERIC = re.compile(rb"[\[\]\s,0-9eE.+\-]*")


def read_outline(path: PathLike) -> "DiagramOutline | None":
    """The outline of the influence-diagram file ``path`` (``.json``, ``.net`` or ``.xdsl``), or None for another
    format, a network, or an outline that cannot be read (then :func:`bnstudio.io.read_model` names the
    problem)."""
    suffix = str(path).lower().rpartition(".")[2]
    if suffix == "net":
        from bnstudio.io.hugin.net_outline import read_net_outline
        return read_net_outline(path)
    if suffix == "xdsl":
        from bnstudio.io.genie.xdsl_outline import read_xdsl_outline
        return read_xdsl_outline(path)
    return read_json_outline(path)


def outline_of(name: str, variables: Sequence[tuple[str, Sequence[str], Sequence[str]]], decisions: Sequence[str],
               utilities: Sequence[tuple[str, Sequence[str]]]) -> "DiagramOutline":
    """The outline of a network-file diagram: ``variables`` (name, states, parents -- a decision's informational
    parents) in network order, which of them are ``decisions``, and the ``utilities``' (name, parents); the
    decisions taken in the order :func:`bnstudio.io.influence.decision_order` gives the full reader's diagram. A
    :class:`~bnstudio.errors.ValidationError` for whatever the outline does not judge."""
    from bnstudio.decision.model import DecisionNode
    from bnstudio.decision.outline import UtilityScope, checked_outline
    from bnstudio.io.influence import decision_order

    arcs = [(p, v) for v, _, parents in variables for p in parents] + [(p, u) for u, ps in utilities for p in ps]
    parents = {v: tuple(ps) for v, _, ps in variables}
    order = decision_order([d for d in decisions if d in parents], arcs)
    return checked_outline({v: tuple(states) for v, states, _ in variables},
                           {v: ps for v, ps in parents.items() if v not in decisions},
                           [DecisionNode(d, parents[d]) for d in order],
                           [UtilityScope(u, tuple(ps)) for u, ps in utilities], name)


def read_json_outline(path: PathLike) -> "DiagramOutline | None":
    """The outline of the influence-diagram JSON file ``path``, or None when it is no ``.json`` file or the
    outline cannot be read (then :func:`bnstudio.io.read_model` names the problem)."""
    from bnstudio.decision.outline import outline_from_dict

    if not str(path).lower().endswith(".json"):
        return None
    try:
        data = json.loads(skeleton(read_bytes(path)).decode("utf-8-sig"))
        return outline_from_dict(data)
    except (BNStudioError, ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        return None


def skeleton(data: bytes) -> bytes:
    """``data`` with the value of every table key made of numbers and brackets replaced by ``null``."""
    pieces, done = [], 0
    for key in _TABLE_KEY.finditer(data):
        if key.start() < done:
            continue
        run = _NUMERIC.match(data, key.end())
        close = data.rfind(b"]", key.end(), run.end() if run else key.end())
        if close < 0:
            continue
        pieces += [data[done:key.end()], b"null"]
        done = close + 1
    pieces.append(data[done:])
    return b"".join(pieces)
