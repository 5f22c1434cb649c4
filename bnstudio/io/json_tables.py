"""The JSON form of an influence diagram with its tables of numbers read in bulk (a bulk path of
:mod:`bnstudio.io.bulk`; docs/architecture.md §3.16).

``json.loads`` makes a Python float in a nested list for every number (about 130 bytes and a microsecond each:
a utility table of 2^22 numbers took 4.4 s and 600 MB). :func:`read_json_tables` cuts every ``"cpt"``,
``"table"`` and ``"alpha"`` value that is a regular nesting of JSON numbers out of the text, converts it with one
``numpy.fromstring`` into a float array of its shape, and parses the rest, a few kilobytes, as JSON, with a
marker where each table was (a string holding a nonce no file can guess). A value is taken in bulk only when
its text is exactly what JSON accepts (the number grammar, one number between brackets and commas, every list
of one length per level: a regular expression and a comparison with the text the shape gives) and every
number is finite; anything else stays in the text for ``json.loads`` and the reader's checks, and a skeleton
that is not JSON gives None (the caller parses the whole text and names the error at its line).
"""
from __future__ import annotations

import math
import re
import secrets
from typing import Any

import numpy as np

from bnstudio.io.bulk import bulk_enabled

#: A key whose value is a table, up to its opening bracket.
_TABLE_KEY = re.compile(r'"(?:cpt|table|alpha)"[ \t\n\r]*:[ \t\n\r]*(?=\[)')
#: The longest run from the opening bracket of what a table of numbers is made of.
_NUMERIC = re.compile(r"[\[\], \t\n\r0-9eE.+\-]*+")
_NUMBER = r"-?+(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+(?:[eE][+\-]?+[0-9]++)?+"
_BLANK = r"[ \t\n\r]*+"
#: Non-empty nested lists of JSON numbers: opening brackets, a number, then (closing brackets, one comma,
#: opening brackets, a number) repeated, then closing brackets (the shape is checked separately).
_LISTS = re.compile(rf"(?:\[{_BLANK})++{_NUMBER}(?:{_BLANK}(?:\]{_BLANK})*+,{_BLANK}(?:\[{_BLANK})*+{_NUMBER})*+"
                    rf"{_BLANK}\](?:{_BLANK}\])*+")
_NOT_STRUCTURE = {ord(c): None for c in " \t\n\r0123456789eE.+-"}
_TO_BLANKS = str.maketrans("[],", "   ")
_MARKER = '"\\u0000table {} {}"'


def read_json_tables(text: str) -> Any | None:
    """The JSON document ``text`` with every regular table of numbers a float array (see the module docstring);
    None when the bulk path is off (:func:`bnstudio.io.bulk.exact_reading`) or the rest is not JSON."""
    import json

    if not bulk_enabled():
        return None
    nonce = secrets.token_hex(8)
    tables: dict[str, np.ndarray] = {}
    pieces, done = [], 0
    for key in _TABLE_KEY.finditer(text):
        if key.start() < done:
            continue
        run = _NUMERIC.match(text, key.end())
        close = text.rfind("]", key.end(), run.end() if run else key.end())
        table = _table(text[key.end():close + 1]) if close >= 0 else None
        if table is None:
            continue
        pieces += [text[done:key.end()], _MARKER.format(nonce, len(tables))]
        tables[f"\x00table {nonce} {len(tables)}"] = table
        done = close + 1
    if not tables:
        return None
    pieces.append(text[done:])
    try:
        return _restored(json.loads("".join(pieces)), tables)
    except (ValueError, RecursionError):
        return None


def _table(span: str) -> np.ndarray | None:
    """The float array of ``span``, nested lists of JSON numbers of one shape, or None on any doubt."""
    if _LISTS.fullmatch(span) is None:
        return None
    shape = _shape(span.translate(_NOT_STRUCTURE))
    if shape is None:
        return None
    values = np.fromstring(span.translate(_TO_BLANKS), dtype=float, sep=" ")
    if values.size != math.prod(shape) or not np.isfinite(values).all():
        return None  # a number past the float range: json.loads and the reader say what it is
    return values.reshape(shape)


def _shape(structure: str) -> tuple[int, ...] | None:
    """The shape of the regular nesting whose brackets and commas are ``structure``, else None. The first list
    of each level, innermost first, gives that level's length; the text of the whole shape must then be
    ``structure``."""
    depth = len(structure) - len(structure.lstrip("["))
    shape: list[int] = []
    unit = ""   # the text of one element of the current level
    for level in range(depth, 0, -1):
        end = structure.find("]" * (depth - level + 1))
        if end < 0:
            return None
        first = structure[level - 1:end + depth - level + 1]   # the first list of this level, brackets included
        length, rest = divmod(len(first) - 1, len(unit) + 1)
        if rest or length < 1:
            return None
        shape.insert(0, length)
        unit = "[" + ",".join([unit] * length) + "]"
    return tuple(shape) if unit == structure else None


def _restored(doc: Any, tables: dict[str, np.ndarray]) -> Any:
    """``doc`` with every marker string replaced by its table."""
    if isinstance(doc, dict):
        return {k: _restored(v, tables) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_restored(v, tables) for v in doc]
    if isinstance(doc, str):
        return tables.get(doc, doc)
    return doc
