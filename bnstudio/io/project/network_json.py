"""The ``"network"`` object of a project file: variables in order, states, ordered parents, CPTs, alpha.

Tables are nested JSON arrays in the core CPT layout (parents' axes in parent order, the child's states
last), written with Python's shortest round-trip float repr, so a save/load cycle is exact for rows summing to
1 up to float rounding. Rows are judged as in every other format (:mod:`bnstudio.io.repairs`): rescaled within
1e-3 of 1 (with one :class:`~bnstudio.errors.RepairWarning` per file for rows off by more than 1e-5), refused
beyond (a strict reading refuses every repair); sizes are checked against :mod:`bnstudio.io.limits` before the
tables are read.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import networkx as nx
import numpy as np

from bnstudio.core.canonical import Canonical, canonical_from_json, canonical_of
from bnstudio.core.network import Network
from bnstudio.core.variable import Variable, check_name
from bnstudio.errors import ValidationError
from bnstudio.io.common import row_label
from bnstudio.io.limits import SizeBudget
from bnstudio.io.project.schema import Checker, child, json_type
from bnstudio.io.repairs import Repairs, entry_problem

NETWORK_KEYS = {"name", "properties", "variables"}
VARIABLE_KEYS = {"name", "states", "parents", "description", "position", "cpt", "alpha", "canonical"}


def network_to_json(net: Network) -> dict[str, Any]:
    """The JSON object (plain dicts, lists, strings and floats) describing ``net``."""
    variables = []
    for v in net.variables:
        alpha = net.alpha(v)
        position = net.positions.get(v)
        variables.append({
            "name": v,
            "states": list(net.states(v)),
            "parents": list(net.parents(v)),
            "description": net.variable(v).description,
            "position": None if position is None else [float(position[0]), float(position[1])],
            "cpt": net.cpt(v).tolist(),
            "alpha": None if alpha is None else alpha.tolist(),
        })
        model = canonical_of(net, v)
        if model is not None:  # the few parameters the CPT was expanded from (bnstudio.core.canonical)
            variables[-1]["canonical"] = model.to_json()
    return {"name": net.name, "properties": dict(net.properties), "variables": variables}


def check_keys(check: Checker, obj: dict, allowed: set[str], where: str) -> None:
    """Fail on the first key of ``obj`` that the schema does not define (usually a typo)."""
    for key in obj:
        if key not in allowed:
            check.fail(child(where, key), f"unknown key (expected one of: {', '.join(sorted(allowed))})")


def _shape_of(value: Any) -> tuple[int, ...]:
    dims = []
    while isinstance(value, list):
        dims.append(len(value))
        value = value[0] if value else None
    return tuple(dims)


def read_table(check: Checker, value: Any, shape: tuple[int, ...], where: str, family: str, *,
               probabilities: bool, parents: Sequence[tuple[str, list[str]]] = (), variable: str = "",
               repairs: Repairs | None = None) -> np.ndarray:
    """A nested array of finite numbers of exactly ``shape``, non-negative for counts; CPT rows
    (``probabilities``) are checked and repaired with ``repairs`` (see the module docstring).

    ``parents`` ((name, states) in parent order) and ``variable`` label the rows in messages.
    """
    given = _shape_of(value)
    if given != shape:  # judged from the first entry at each depth; ragged arrays are caught by walk()
        got = f"shape {given}" if given else json_type(value)
        check.fail(where, f"expected shape {shape} ({family}), got {got}")
    noun = "probability" if probabilities else "count"
    flat: list[float] = []

    def walk(item: Any, depth: int, path: str) -> None:
        if depth == len(shape):
            value = check.number(item, path, non_negative=not probabilities, what=noun)
            if probabilities and entry_problem(value):
                check.fail(path, f"negative {noun} {value:g}")
            flat.append(value)
            return
        check.of(item, list, path)
        if len(item) != shape[depth]:
            check.fail(path, f"expected {shape[depth]} entries (shape {shape}: {family}), got {len(item)}")
        for k, sub in enumerate(item):
            walk(sub, depth + 1, child(path, k))

    walk(value, 0, where)
    table = np.array(flat, dtype=float).reshape(shape)
    if probabilities:
        rows = table.reshape(-1, shape[-1])  # a view: rescaled in place
        repairs = repairs if repairs is not None else Repairs(check.file or "<project>")
        bad = repairs.rows(rows, lambda r: f"row {row_label(parents, r)} of '{variable}'",
                           (variable, [p for p, _ in parents]) if variable else None)
        if bad is not None:
            index = np.unravel_index(bad, shape[:-1]) if len(shape) > 1 else ()
            path = where + "".join(f"[{int(i)}]" for i in index)
            check.fail(path, repairs.refusal(f"row {row_label(parents, bad)}"))
    return table


def _position(check: Checker, value: Any, where: str) -> tuple[float, float] | None:
    if value is None:
        return None
    pair = check.of(value, list, where)
    if len(pair) != 2:
        check.fail(where, f"expected [x, y], got an array of {len(pair)}")
    return check.number(pair[0], child(where, 0)), check.number(pair[1], child(where, 1))


def _read_variable(check: Checker, value: Any, where: str, budget: SizeBudget) -> dict[str, Any]:
    obj = check.of(value, dict, where)
    check_keys(check, obj, VARIABLE_KEYS, where)
    name = check.key(obj, "name", str, where)
    states = check.strings(check.key(obj, "states", list, where), child(where, "states"))
    parents = check.strings(check.key(obj, "parents", list, where), child(where, "parents"))
    budget.states(name, len(states), lambda m: check.error(child(where, "states"), m))
    budget.parents(name, len(parents), lambda m: check.error(child(where, "parents"), m))
    try:
        check_name(name, "variable")
    except ValidationError as exc:
        check.fail(child(where, "name"), str(exc))
    try:
        Variable(name, tuple(states))
    except ValidationError as exc:
        check.fail(child(where, "states"), str(exc))
    return {"name": name, "states": states, "parents": parents,
            "description": check.key(obj, "description", str, where, default=""),
            "position": _position(check, obj.get("position"), child(where, "position")),
            "cpt": check.key(obj, "cpt", list, where), "alpha": obj.get("alpha"),
            "canonical": _canonical(check, obj.get("canonical"), child(where, "canonical"))}


def _canonical(check: Checker, value: Any, where: str) -> Canonical | None:
    """An optional canonical model (kept beside the CPT only while it gives the CPT)."""
    if value is None:
        return None
    try:
        return canonical_from_json(check.of(value, dict, where))
    except ValidationError as exc:
        check.fail(where, str(exc))


def _check_parents(check: Checker, specs: list[dict[str, Any]], where: str) -> None:
    """Unknown, repeated or self parents, then cycles, each named by the JSON path of the parent list."""
    known = {s["name"] for s in specs}
    graph = nx.DiGraph()
    for i, spec in enumerate(specs):
        path = child(child(where, i), "parents")
        for j, parent in enumerate(spec["parents"]):
            if parent not in known:
                check.fail(child(path, j), f"unknown parent '{parent}' of '{spec['name']}'")
            if parent == spec["name"]:
                check.fail(child(path, j), f"'{parent}' cannot be its own parent")
            if spec["parents"].index(parent) != j:
                check.fail(child(path, j), f"parent '{parent}' of '{spec['name']}' is listed twice")
            graph.add_edge(parent, spec["name"])
    try:
        cycle = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        return
    position = {s["name"]: i for i, s in enumerate(specs)}
    nodes = [u for u, _ in cycle] + [cycle[0][0]]
    check.fail(child(child(where, position[cycle[0][1]]), "parents"),
               f"the arcs form the cycle {' -> '.join(nodes)}")


def network_from_json(check: Checker, value: Any, where: str = "network", strict: bool = False,
                      repairs: Repairs | None = None) -> Network:
    """Decode and validate the ``"network"`` object; every problem fails with its JSON path (``strict``: every
    repair too, see :mod:`bnstudio.io.repairs`). The repairs are reported once the network is read, or recorded
    in ``repairs`` when given (the caller reports them with the rest of the file's)."""
    obj = check.of(value, dict, where)
    check_keys(check, obj, NETWORK_KEYS, where)
    name = check.key(obj, "name", str, where)
    properties = check.key(obj, "properties", dict, where, default={})
    for key, text in properties.items():
        check.of(text, str, child(child(where, "properties"), key))
    vars_path = child(where, "variables")
    budget, report = SizeBudget(), repairs is None
    repairs = Repairs(check.file or "<project>", strict) if repairs is None else repairs
    variables = check.key(obj, "variables", list, where)
    budget.variables(len(variables), lambda m: check.error(vars_path, m))
    specs = [_read_variable(check, v, child(vars_path, i), budget) for i, v in enumerate(variables)]
    seen: dict[str, int] = {}
    for i, spec in enumerate(specs):
        if spec["name"] in seen:
            check.fail(child(child(vars_path, i), "name"),
                       f"duplicate variable name '{spec['name']}' (also {child(vars_path, seen[spec['name']])})")
        seen[spec["name"]] = i
    _check_parents(check, specs, vars_path)
    cards = {s["name"]: len(s["states"]) for s in specs}
    for i, spec in enumerate(specs):  # every size, before any table is read
        shape = [cards[p] for p in spec["parents"]] + [cards[spec["name"]]]
        fail = lambda m, i=i: check.error(child(child(vars_path, i), "cpt"), m)  # noqa: E731
        budget.family(spec["name"], shape, fail)
        if spec["alpha"] is not None:
            budget.table(spec["name"], math.prod(shape), fail)
    net = Network(name)
    for spec in specs:
        net.add_variable(spec["name"], spec["states"], description=spec["description"], position=spec["position"])
    for i, spec in enumerate(specs):
        path = child(vars_path, i)
        table_shape = tuple(cards[p] for p in spec["parents"]) + (cards[spec["name"]],)
        family = f"parents {spec['parents']} then '{spec['name']}'"
        labels = [(p, specs[seen[p]]["states"]) for p in spec["parents"]]
        cpt = read_table(check, spec["cpt"], table_shape, child(path, "cpt"), family, probabilities=True,
                         parents=labels, variable=spec["name"], repairs=repairs)
        alpha = None if spec["alpha"] is None else read_table(check, spec["alpha"], table_shape, child(path, "alpha"),
                                                              family, probabilities=False)
        net.set_parents(spec["name"], spec["parents"], cpt, alpha)
        if spec["canonical"] is not None:
            net.canonical[spec["name"]] = spec["canonical"]
    net.properties = dict(properties)
    if report:
        repairs.warn(net)
    return net
