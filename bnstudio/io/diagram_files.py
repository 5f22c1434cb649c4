"""Influence-diagram files: :func:`read_model` reads a network *or* an influence diagram, and
:func:`write_influence_diagram` writes a diagram, in the formats that have decision and utility nodes.

=============  ======================================================================================
extension      what is read and written
=============  ======================================================================================
``.net``       Hugin NET: ``decision`` and ``utility`` nodes (:mod:`bnstudio.io.hugin.net`)
``.xdsl``      GeNIe XDSL: ``<decision>`` and ``<utility>`` nodes (:mod:`bnstudio.io.genie.xdsl`)
``.xmlbif``    XMLBIF 0.3 (also ``.xml``, ``.bifxml``): ``TYPE="decision"`` / ``"utility"``, as pyAgrum
``.json``      the JSON form of :mod:`bnstudio.decision.serial` (``bnstudio-influence-diagram``)
``.bnsproj``   a project whose ``"decision"`` key holds the decision part (see ``docs/project-format.md``)
=============  ======================================================================================

Every other registered extension (BIF, UAI) has no decision nodes: :func:`read_model` reads a network there.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bnstudio.errors import BNStudioError, FormatError
from bnstudio.io.atomic import PathLike, atomic_write_text, read_text
from bnstudio.io.common import json_document, json_text, row_label
from bnstudio.io.json_tables import read_json_tables
from bnstudio.io.repairs import Repairs

if TYPE_CHECKING:
    from bnstudio.decision.model import InfluenceDiagram


def read_diagram_json(path: PathLike, strict: bool = False) -> "InfluenceDiagram":
    """The JSON form of an influence diagram; every problem is one :class:`FormatError` line naming the file.
    Chance tables are judged by the one row policy of every format (:mod:`bnstudio.io.repairs`; ``strict``
    refuses every repair)."""
    from bnstudio.decision.serial import diagram_from_dict

    text = read_text(path)
    data = read_json_tables(text)   # the tables as arrays at C speed; None: parse it all, errors located
    if data is None:
        data = json_document(text, str(path))
    del text
    repairs = Repairs(str(path), strict)
    data = _repaired_rows(data, repairs, str(path))  # its FormatError names the file once
    try:
        diagram = diagram_from_dict(data)
    except BNStudioError as exc:
        raise FormatError(str(exc), str(path)) from None
    repairs.warn(diagram)
    return diagram


def _repaired_rows(data: Any, repairs: Repairs, path: str) -> Any:
    """``data`` with every well-formed chance table's rows repaired as in every format (a malformed entry is
    left for :func:`~bnstudio.decision.serial.diagram_from_dict` to name)."""
    from bnstudio.decision.model import numeric_table

    if not isinstance(data, dict) or not isinstance(data.get("chance"), list):
        return data
    decisions = data.get("decisions")
    entries = [e for e in data["chance"] + (decisions if isinstance(decisions, list) else [])
               if isinstance(e, dict) and isinstance(e.get("name"), str)]
    states = {e["name"]: e["states"] for e in entries if isinstance(e.get("states"), list) and e["states"]
              and all(isinstance(x, str) for x in e["states"])}
    chance = []
    for k, entry in enumerate(data["chance"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            chance.append(entry)  # diagram_from_dict names the entry
            continue
        try:
            cpt = numeric_table(entry["cpt"], "cpt")
            card = len(entry["states"])
            parents = [(p, states[p]) for p in entry.get("parents", [])]
        except (TypeError, ValueError, KeyError, BNStudioError):
            chance.append(entry)
            continue
        if cpt.shape != tuple(len(p[1]) for p in parents) + (card,) or entry["name"] not in states:
            chance.append(entry)
            continue
        rows = cpt.reshape(-1, card)
        bad = repairs.rows(rows, lambda r, parents=parents, entry=entry:  # type: ignore[misc]
                           f"row {row_label(parents, r)} of '{entry['name']}'",
                           (entry["name"], [p for p, _ in parents]))
        if bad is not None:
            raise FormatError(f"chance[{k}].cpt: " + repairs.refusal(f"row {row_label(parents, bad)} of "
                                                                     f"'{entry['name']}'"), path)
        chance.append({**entry, "cpt": rows.reshape(cpt.shape)})
    return {**data, "chance": chance}


def write_diagram_json(diagram: "InfluenceDiagram", path: PathLike) -> None:
    """Write the JSON form of ``diagram`` atomically (floats exact)."""
    atomic_write_text(path, json_text(diagram.to_dict()) + "\n")
