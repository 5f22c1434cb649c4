"""The JSON form of an influence diagram, and the builder file readers call.

::

    {"format": "bnstudio-influence-diagram", "schema_version": 1, "name": "oil wildcatter",
     "chance":    [{"name": "Oil", "states": ["dry", "wet", "soaking"], "parents": [], "cpt": [0.5, 0.3, 0.2],
                    "alpha": null}, ...],
     "decisions": [{"name": "Test", "states": ["yes", "no"], "parents": []}, ...],      # in the order taken
     "utilities": [{"name": "TestCost", "parents": ["Test"], "table": [-10, 0]}, ...]}

Tables are nested lists in the project's CPT layout (parents' axes in parent order; a CPT has the child's
states last, a utility table has no axis of its own). Chance parents may be chance or decision nodes.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from bnstudio.core.messages import shown
from bnstudio.core.network import build_network
from bnstudio.decision.model import DecisionNode, InfluenceDiagram, UtilityNode, numeric_table
from bnstudio.errors import ValidationError

FORMAT = "bnstudio-influence-diagram"
SCHEMA_VERSION = 1
Chance = tuple  # (name, states, parents, cpt[, alpha])


def build_influence_diagram(chance: Iterable[Chance], decisions: Iterable[tuple[str, Sequence[str], Sequence[str]]],
                            utilities: Iterable[tuple[str, Sequence[str], Any]],
                            name: str = "influence diagram") -> InfluenceDiagram:
    """Build a diagram from plain tuples — what a file reader produces.

    ``chance``: (name, states, parents, cpt[, alpha]) with cpt of shape (|P1|, ..., |Pk|, |X|);
    ``decisions``: (name, states, informational parents), in the order the decisions are taken;
    ``utilities``: (name, parents, table) with table of shape (|P1|, ..., |Pk|).
    """
    chance, decisions, utilities = list(chance), list(decisions), list(utilities)
    utility_names = {u[0] for u in utilities}
    clash = [n for n in [c[0] for c in chance] + [d[0] for d in decisions] if n in utility_names]
    if clash:
        raise ValidationError(f"utility node '{clash[0]}' has the name of a variable of the network")
    for c in chance:
        bad = [p for p in c[2] if p in utility_names]
        if bad:
            raise ValidationError(f"utility node '{bad[0]}' has a child '{c[0]}'; utility nodes cannot have children")
    families = [(d[0], d[1], (), None) for d in decisions] + [(c[0], c[1], c[2], c[3]) for c in chance]
    net = build_network(families, name=name)
    alphas = {c[0]: c[4] for c in chance if len(c) > 4 and c[4] is not None}
    if alphas:
        net.set_parameters({}, alphas)
    return InfluenceDiagram(net, [DecisionNode(d[0], tuple(d[2])) for d in decisions],
                            [UtilityNode(u[0], tuple(u[1]), u[2]) for u in utilities], name)


def diagram_to_dict(diagram: InfluenceDiagram) -> dict[str, Any]:
    """The JSON object of ``diagram`` (floats written exactly: shortest round-trip repr)."""
    return {
        "format": FORMAT, "schema_version": SCHEMA_VERSION, "name": diagram.name,
        "chance": [{"name": v, "states": list(diagram.states(v)), "parents": list(diagram.parents(v)),
                    "cpt": diagram.cpt(v).tolist(),
                    "alpha": None if (alpha := diagram.alpha(v)) is None else alpha.tolist()}
                   for v in diagram.chance_names],
        "decisions": [{"name": d.name, "states": list(diagram.states(d.name)), "parents": list(d.parents)}
                      for d in diagram.decisions],
        "utilities": [{"name": u.name, "parents": list(u.parents), "table": u.table.tolist()}
                      for u in diagram.utilities],
    }


def diagram_from_dict(data: Mapping) -> InfluenceDiagram:
    """Inverse of :func:`diagram_to_dict`; malformed input is one line naming the entry."""
    if not isinstance(data, Mapping):
        raise ValidationError("an influence diagram must be a JSON object")
    if data.get("format", FORMAT) != FORMAT:
        raise ValidationError(f"not an influence diagram: format {shown(data.get('format'))}, expected {FORMAT!r}")
    version = data.get("schema_version", SCHEMA_VERSION)
    if version != SCHEMA_VERSION:
        raise ValidationError(f"influence diagram schema_version {shown(version)} is not supported "
                              f"(this version reads {SCHEMA_VERSION})")
    name = data.get("name", "influence diagram")
    if not isinstance(name, str):
        raise ValidationError("'name' must be a string")
    chance = [(_text(c, "name", f"chance[{k}]"), _names(c, "states", f"chance[{k}]"),
               _names(c, "parents", f"chance[{k}]", default=[]), _array(c, "cpt", f"chance[{k}]"),
               _array(c, "alpha", f"chance[{k}]", optional=True))
              for k, c in enumerate(_entries(data, "chance"))]
    decisions = [(_text(d, "name", f"decisions[{k}]"), _names(d, "states", f"decisions[{k}]"),
                  _names(d, "parents", f"decisions[{k}]", default=[]))
                 for k, d in enumerate(_entries(data, "decisions"))]
    utilities = [(_text(u, "name", f"utilities[{k}]"), _names(u, "parents", f"utilities[{k}]", default=[]),
                  _array(u, "table", f"utilities[{k}]"))
                 for k, u in enumerate(_entries(data, "utilities"))]
    return build_influence_diagram(chance, decisions, utilities, name)


def _entries(data: Mapping, key: str) -> list[Mapping]:
    items = data.get(key, [])
    if not isinstance(items, list) or not all(isinstance(x, Mapping) for x in items):
        raise ValidationError(f"'{key}' must be a list of objects")
    return items


def _text(obj: Mapping, key: str, where: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise ValidationError(f"{where}: '{key}' must be a string, got {shown(value)}")
    return value


def _names(obj: Mapping, key: str, where: str, default: list | None = None) -> list[str]:
    value = obj.get(key, default)
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise ValidationError(f"{where} ({shown(obj.get('name'))}): '{key}' must be a list of names")
    return value


def _array(obj: Mapping, key: str, where: str, optional: bool = False) -> np.ndarray | None:
    value = obj.get(key)
    if value is None and optional:
        return None
    if value is None:
        raise ValidationError(f"{where} ({shown(obj.get('name'))}): '{key}' must be a nested list of numbers")
    return numeric_table(value, f"{where} ({shown(obj.get('name'))}): '{key}'")
