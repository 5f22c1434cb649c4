"""The outline of an influence-diagram JSON file: its names, states and parents, read without parsing a table.

Parsing a JSON table costs about 170 bytes and a microsecond per number (Python floats in nested lists, then
the numpy array): a utility over 24 binary decisions (2^24 numbers, about 60 MB of JSON) took 25–40 s and
2.8 GB before its solution could be sized and refused. ``bnstudio decide`` reads the outline first
(:func:`read_json_outline`): every ``"cpt"``, ``"table"`` and ``"alpha"`` value made of numbers and brackets
only is cut out of the bytes at C speed (a regular expression, no Python object per number) and the rest,
a few kilobytes, is parsed as JSON into a :class:`~bnstudio.decision.outline.DiagramOutline`, which
:func:`bnstudio.decision.solve.presize` sizes as the whole diagram (docs/decisions.md, "The exact solution is
sized first"; docs/architecture.md §1: io reads, the decision layer sizes).

The outline is a shortcut, never a judge: whatever it cannot read (a table holding anything but numbers,
malformed JSON, a structure the outline doubts) gives None and the full reader says what is wrong. The numbers
cut out are not checked: a file refused for its size is refused even if one of its tables is also malformed.
"""
from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from bnstudio.errors import BNStudioError
from bnstudio.io.atomic import PathLike, read_bytes

if TYPE_CHECKING:
    from bnstudio.decision.outline import DiagramOutline

#: A key whose value is a table, up to its opening bracket (a key: a quote inside a JSON string is escaped).
_TABLE_KEY = re.compile(rb'"(?:cpt|table|alpha)"\s*:\s*(?=\[)')
#: What a table of numbers is made of: the longest run from its opening bracket.
_NUMERIC = re.compile(rb"[\[\]\s,0-9eE.+\-]*")


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
