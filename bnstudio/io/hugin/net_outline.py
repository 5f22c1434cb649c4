"""The outline of a Hugin NET influence diagram: names, states, parents and node kinds, read without a table.

Every ``data = ...;`` value made of numbers, blanks and parentheses only is cut out of the file's bytes by a
regular expression (no token or Python object per number) and the rest, a few kilobytes, is parsed by the NET
parser (:func:`bnstudio.io.hugin.net.net_parts`); :func:`bnstudio.io.diagram_outline.outline_of` makes the
:class:`~bnstudio.decision.outline.DiagramOutline` that ``bnstudio decide`` sizes before reading the file
(docs/decisions.md, "The exact solution is sized first"; docs/architecture.md §1: io reads).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bnstudio.errors import BNStudioError
from bnstudio.io.atomic import PathLike, read_bytes

if TYPE_CHECKING:
    from bnstudio.decision.outline import DiagramOutline

#: A ``data`` value of numbers and parentheses up to its ';' (a word ending in "data" is another attribute).
_DATA = re.compile(rb"(?<![\w.\-])data\s*=[\s()0-9.eE+\-]*+(?=;)")


def read_net_outline(path: PathLike) -> "DiagramOutline | None":
    """The outline of the NET file ``path``, or None when it holds no decision or utility node or the outline
    cannot be read (the full reader then names the problem)."""
    from bnstudio.io.diagram_outline import outline_of
    from bnstudio.io.hugin.net import net_parts

    try:
        text = _DATA.sub(b"data = ()", read_bytes(path)).decode("utf-8-sig")
        name, nodes, potentials = net_parts(text, str(path))
        kinds = {v: kind for v, (kind, _) in nodes.items()}
        if all(kind == "chance" for kind in kinds.values()) or not set(potentials) <= set(kinds) \
                or any(v not in potentials for v, kind in kinds.items() if kind != "decision"):
            return None  # a network, or a potential missing or for no node: the reader's line
        variables = [(v, states or (), potentials.get(v, [])) for v, (kind, states) in nodes.items()
                     if kind != "utility"]
        return outline_of(name, variables, [v for v, k in kinds.items() if k == "decision"],
                          [(v, potentials.get(v, [])) for v, k in kinds.items() if k == "utility"])
    except (BNStudioError, ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None
