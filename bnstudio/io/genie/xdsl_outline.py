"""The outline of a GeNIe XDSL influence diagram: names, states, parents and node kinds, read without a table.

The text of every ``<probabilities>`` and ``<utilities>`` element made of numbers and blanks only is cut out of
the file's bytes by a regular expression (no string or Python object per number) and the rest, a few kilobytes,
is parsed as XML; :func:`bnstudio.io.diagram_outline.outline_of` makes the
:class:`~bnstudio.decision.outline.DiagramOutline` that ``bnstudio decide`` sizes before reading the file
(docs/decisions.md, "The exact solution is sized first"; docs/architecture.md §1: io reads). Only what the
XDSL reader (:mod:`bnstudio.io.genie.xdsl`) reads as an influence diagram is outlined: ``cpt``, canonical,
``decision`` and ``utility`` nodes of a static network.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bnstudio.errors import BNStudioError
from bnstudio.io.atomic import PathLike, read_bytes

if TYPE_CHECKING:
    from bnstudio.decision.outline import DiagramOutline

#: The numbers of a table element, between its tags.
_TABLE = re.compile(rb"(<(probabilities|utilities)>)[\s0-9.eE+\-]*+(?=</\2>)")


def read_xdsl_outline(path: PathLike) -> "DiagramOutline | None":
    """The outline of the XDSL file ``path``, or None when it holds no decision or utility node or the outline
    cannot be read (the full reader then names the problem)."""
    from bnstudio.io.diagram_outline import outline_of
    from bnstudio.io.genie.xdsl import network_name
    from bnstudio.io.genie.xdsl_canonical import TAGS as CANONICAL_TAGS
    from bnstudio.io.genie.xdsl_dynamic import is_dynamic
    from bnstudio.io.repairs import Repairs
    from bnstudio.io.xml.xmltree import parse_xml, text

    try:
        root = parse_xml(_TABLE.sub(rb"\1", read_bytes(path)), str(path), Repairs(str(path))).root
        nodes = root.findall("nodes")
        if root.tag != "smile" or len(nodes) != 1 or is_dynamic(root):
            return None
        kinds = {n.get("id", ""): n.tag for n in nodes[0]}
        if len(kinds) != len(nodes[0]) or "utility" not in kinds.values() and "decision" not in kinds.values() \
                or not set(kinds.values()) <= {"cpt", "decision", "utility", *CANONICAL_TAGS}:
            return None  # a network, a repeated id or a node the reader refuses: the reader's line
        parents = {n.get("id", ""): [p for el in n.findall("parents") for p in text(el).split()] for n in nodes[0]}
        variables = [(n.get("id", ""), tuple(s.get("id", "") for s in n.findall("state")), parents[n.get("id", "")])
                     for n in nodes[0] if n.tag != "utility"]
        return outline_of(network_name(root), variables, [v for v, k in kinds.items() if k == "decision"],
                          [(v, parents[v]) for v, k in kinds.items() if k == "utility"])
    except (BNStudioError, ValueError, RecursionError):
        return None
