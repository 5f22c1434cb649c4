"""Checks for the sections of a project file around the network: evidence sets, queries, runs, data, view.

Evidence and queries are checked against the network (variables and states must exist), so a project never
refers to a variable it does not have; view options are free-form JSON objects, and so are runs but for their
curves (:mod:`bnstudio.io.project.curves_json`).
"""
from __future__ import annotations

from typing import Any

from bnstudio.core.network import Network
from bnstudio.io.messages import listing
from bnstudio.io.project.network_json import check_keys
from bnstudio.io.project.schema import Checker, child, json_type

DATA_KEYS = {"path", "settings"}


def read_state(check: Checker, net: Network, var: Any, state: Any, where: str) -> str:
    """A known variable's known state name."""
    if var not in net:
        check.fail(where, f"unknown variable '{var}'")
    check.of(state, str, where)
    if state not in net.states(var):
        check.fail(where, f"variable '{var}' has no state '{state}' (states: {listing(net.states(var), quote=False)})")
    return state


def read_evidence(check: Checker, net: Network, value: Any, where: str) -> dict[str, str | list[float]]:
    """``{VAR: STATE}`` (hard) or ``{VAR: [l1, ..., lk]}`` (likelihoods, >= 0, not all 0, one per state)."""
    out: dict[str, str | list[float]] = {}
    for var, spec in check.of(value, dict, where).items():
        path = child(where, var)
        if isinstance(spec, list):
            if var not in net:
                check.fail(path, f"unknown variable '{var}'")
            if len(spec) != net.cardinality(var):
                check.fail(path, f"expected {net.cardinality(var)} likelihoods (one per state of '{var}'), "
                                 f"got {len(spec)}")
            values = [check.number(x, child(path, k), non_negative=True, what="likelihood")
                      for k, x in enumerate(spec)]
            if not any(values):
                check.fail(path, "likelihoods are all zero")
            out[var] = spec
        elif isinstance(spec, str):
            out[var] = read_state(check, net, var, spec, path)
        else:
            check.fail(path, f"expected a state name or a list of likelihoods, got {json_type(spec)}")
    return out


def read_evidence_sets(check: Checker, net: Network, value: Any, where: str = "evidence_sets") -> dict:
    return {name: read_evidence(check, net, ev, child(where, name))
            for name, ev in check.of(value, dict, where).items()}


def read_query(check: Checker, net: Network, value: Any, where: str) -> dict[str, Any]:
    """``{"target": VAR or {VAR: STATE}, "evidence": {...}, "label": str}``; other keys are kept."""
    obj = check.of(value, dict, where)
    if "target" not in obj:
        check.fail(where, "missing key 'target'")
    target, path = obj["target"], child(where, "target")
    if isinstance(target, str):
        if target not in net:
            check.fail(path, f"unknown variable '{target}'")
    elif isinstance(target, dict):
        if not target:
            check.fail(path, "expected at least one VAR: STATE pair")
        for var, state in target.items():
            read_state(check, net, var, state, child(path, var))
    else:
        check.fail(path, "expected a variable name or an object {VAR: STATE}")
    evidence = read_evidence(check, net, obj.get("evidence", {}), child(where, "evidence"))
    label = check.key(obj, "label", str, where, default="")
    return {**obj, "target": target, "evidence": evidence, "label": label}


def read_queries(check: Checker, net: Network, value: Any, where: str = "queries") -> list[dict[str, Any]]:
    return [read_query(check, net, q, child(where, k)) for k, q in enumerate(check.of(value, list, where))]


def read_data(check: Checker, value: Any, where: str = "data") -> dict[str, Any] | None:
    """``null`` or ``{"path": str, "settings": {...}}`` (a relative path is relative to the project file)."""
    if value is None:
        return None
    obj = check.of(value, dict, where)
    check_keys(check, obj, DATA_KEYS, where)
    path = check.key(obj, "path", str, where)
    if not path:
        check.fail(child(where, "path"), "expected a file path, got an empty string")
    return {"path": path, "settings": check.key(obj, "settings", dict, where, default={})}
