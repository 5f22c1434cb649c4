"""The ``"decision"`` object of a project file: what makes the project's network an influence diagram.

::

    "decision": {"decisions": [{"name": "Test", "parents": []},
                               {"name": "Drill", "parents": ["Test", "Result"]}],
                 "utilities": [{"name": "Payoff", "parents": ["Drill", "Oil"], "table": [[-70, 50, 200], [0, 0, 0]]}]}

The decisions are listed in the order they are taken, each a (parentless) variable of ``network`` with its
informational parents; a utility table is nested by its parents in order (no axis of its own). The key is
absent for a Bayesian network, so projects written before it existed open unchanged. Every problem is a
:class:`~bnstudio.io.project.schema.ProjectFormatError` naming the JSON path.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from bnstudio.core.network import Network
from bnstudio.errors import BNStudioError
from bnstudio.io.limits import SizeBudget
from bnstudio.io.project.network_json import check_keys
from bnstudio.io.project.schema import Checker, ProjectFormatError, child

if TYPE_CHECKING:
    from bnstudio.decision.model import InfluenceDiagram

DECISION_KEYS = {"decisions", "utilities"}
NODE_KEYS = {"name", "parents"}
UTILITY_KEYS = {"name", "parents", "table"}


def decision_to_json(diagram: "InfluenceDiagram") -> dict[str, Any]:
    """The ``"decision"`` object of ``diagram`` (floats as shortest round-trip repr)."""
    return {"decisions": [{"name": d.name, "parents": list(d.parents)} for d in diagram.decisions],
            "utilities": [{"name": u.name, "parents": list(u.parents), "table": u.table.tolist()}
                          for u in diagram.utilities]}


def decision_from_json(check: Checker, value: Any, net: Network, where: str = "decision") -> "InfluenceDiagram":
    """The influence diagram of ``net`` and a ``"decision"`` object, checked."""

    obj = check.of(value, dict, where)
    check_keys(check, obj, DECISION_KEYS, where)
    try:
        return _diagram(check, obj, net, where)
    except BNStudioError as exc:
        if isinstance(exc, ProjectFormatError):
            raise
        check.fail(where, str(exc))


def _diagram(check: Checker, obj: dict, net: Network, where: str) -> "InfluenceDiagram":
    from bnstudio.decision.model import DecisionNode, InfluenceDiagram, UtilityNode

    decisions = []
    for k, d in enumerate(check.key(obj, "decisions", list, where, [])):
        path = child(child(where, "decisions"), k)
        check_keys(check, check.of(d, dict, path), NODE_KEYS, path)
        decisions.append(DecisionNode(check.key(d, "name", str, path),
                                      tuple(check.strings(d.get("parents", []), child(path, "parents")))))
    budget = SizeBudget()
    utilities = []
    for k, u in enumerate(check.key(obj, "utilities", list, where, [])):
        path = child(child(where, "utilities"), k)
        check_keys(check, check.of(u, dict, path), UTILITY_KEYS, path)
        name = check.key(u, "name", str, path)
        parents = tuple(check.strings(u.get("parents", []), child(path, "parents")))
        unknown = [p for p in parents if p not in net]
        if unknown:
            check.fail(child(path, "parents"), f"unknown parent '{unknown[0]}' of '{name}'")
        utilities.append(UtilityNode(name, parents, _table(check, u.get("table"), net, name, parents,
                                                           child(path, "table"), budget)))
    return InfluenceDiagram(net, decisions, utilities, net.name)


def _table(check: Checker, value: Any, net: Network, name: str, parents: tuple[str, ...], where: str,
           budget: SizeBudget) -> np.ndarray:
    """A finite nested table of shape (|P1|, ..., |Pk|), its size checked before it is read."""
    shape = tuple(net.cardinality(p) for p in parents)
    budget.family(name, shape + (1,), lambda m: check.error(where, m))
    flat: list[float] = []

    def walk(item: Any, depth: int, path: str) -> None:
        if depth == len(shape):
            flat.append(check.number(item, path, what="utility"))
            return
        items = check.of(item, list, path)
        if len(items) != shape[depth]:
            check.fail(path, f"expected {shape[depth]} entries (states of '{parents[depth]}'), got {len(items)}")
        for i, x in enumerate(items):
            walk(x, depth + 1, child(path, i))

    walk(value, 0, where)
    return np.array(flat, dtype=float).reshape(shape)
