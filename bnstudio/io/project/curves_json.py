"""The ``"curves"`` of a learning run in a project file: what the training panel draws for a reopened run.

::

    "curves": {"test": {"states": ["yes", "no"], "auc": 0.87,
                        "roc": [{"state": "yes", "auc": 0.87, "fpr": [0.0, 0.25, 1.0], "tpr": [0.0, 0.75, 1.0]}],
                        "reliability": {"edges": [0.0, 0.1, ..., 1.0], "weight": [0, ..., 12.0],
                                        "confidence": [null, ..., 0.93], "accuracy": [null, ..., 0.9],
                                        "ece": 0.04}}}

Keyed by data part (``train``, ``validation``, ``test``): the target's states, the macro AUC (null when no state
has one), the one-vs-rest ROC of each state that has one (from (0, 0) to (1, 1), both rates non-decreasing,
thinned to at most :data:`MAX_CURVE_POINTS` points: :func:`bnstudio.evaluate.curves.thin_roc`) and the
reliability bins (edges rising over [0, 1]; per bin the case weight, and the mean confidence and share right,
null exactly where the weight is 0). Runs are otherwise free-form, so a run without ``curves`` (every run written
before they were kept) is read as it is; a run whose curves are damaged keeps everything else, its curves
dropped and said in the file's one repair report (:func:`read_runs`; a strict reading refuses them instead).
"""
from __future__ import annotations

from typing import Any

from bnstudio.io.project.network_json import check_keys
from bnstudio.io.project.schema import Checker, ProjectFormatError, child
from bnstudio.io.repairs import Repairs

#: the most points one stored curve may have: ROC points of a state, reliability bins (docs/project-format.md)
MAX_CURVE_POINTS = 512
PARTS = ("train", "validation", "test")
PART_KEYS = {"states", "auc", "roc", "reliability"}
ROC_KEYS = {"state", "auc", "fpr", "tpr"}
RELIABILITY_KEYS = {"edges", "weight", "confidence", "accuracy", "ece"}


def read_runs(check: Checker, value: Any, repairs: Repairs, where: str = "runs") -> list[dict[str, Any]]:
    """Learning-run records: a list of free-form objects whose ``curves``, when present, are checked; a run
    with damaged curves is kept without them, said once through ``repairs`` (which refuses it when strict)."""
    runs, dropped = [], []
    for k, run in enumerate(check.of(value, list, where)):
        path = child(where, k)
        run = check.of(run, dict, path)
        if "curves" in run:
            try:
                read_curves(Checker(), run["curves"], child(path, "curves"))   # the message without the file
            except ProjectFormatError as exc:
                if repairs.strict:
                    read_curves(check, run["curves"], child(path, "curves"))   # the same error, naming the file
                dropped.append(str(exc))
                run = {key: item for key, item in run.items() if key != "curves"}
        runs.append(run)
    if dropped:
        more = f" (and {len(dropped) - 1} more)" if len(dropped) > 1 else ""
        repairs.note(f"dropped the damaged ROC and reliability curves of {len(dropped)} "
                     f"run{'s' if len(dropped) > 1 else ''} (train again to see them): {dropped[0]}{more}",
                     lambda m: check.error(where, m))
    return runs


def read_curves(check: Checker, value: Any, where: str) -> dict[str, Any]:
    """A run's ``curves`` object, checked (module docstring); the first problem fails with its JSON path."""
    obj = check.of(value, dict, where)
    check_keys(check, obj, set(PARTS), where)
    for part, curves in obj.items():
        _part(check, curves, child(where, part))
    return obj


def _part(check: Checker, value: Any, where: str) -> None:
    obj = check.of(value, dict, where)
    check_keys(check, obj, PART_KEYS, where)
    states = check.strings(check.key(obj, "states", list, where), child(where, "states"))
    if len(states) < 2 or len(set(states)) != len(states):
        check.fail(child(where, "states"), "expected two or more distinct states")
    _share(check, obj.get("auc"), child(where, "auc"), nullable=True)
    rocs = check.key(obj, "roc", list, where)
    if len(rocs) > len(states):
        check.fail(child(where, "roc"), f"expected at most one curve per state ({len(states)}), got {len(rocs)}")
    seen: set[str] = set()
    for k, roc in enumerate(rocs):
        state = _roc(check, roc, child(child(where, "roc"), k))
        if state not in states or state in seen:
            check.fail(child(child(child(where, "roc"), k), "state"), f"expected one of the states not drawn yet, "
                                                                      f"got {state!r}")
        seen.add(state)
    _reliability(check, check.key(obj, "reliability", dict, where), child(where, "reliability"))


def _roc(check: Checker, value: Any, where: str) -> str:
    obj = check.of(value, dict, where)
    check_keys(check, obj, ROC_KEYS, where)
    state = check.key(obj, "state", str, where)
    _share(check, check.key(obj, "auc", float, where), child(where, "auc"))
    fpr = _rising(check, check.key(obj, "fpr", list, where), child(where, "fpr"), least=2)
    tpr = _rising(check, check.key(obj, "tpr", list, where), child(where, "tpr"), least=2)
    if len(tpr) != len(fpr):
        check.fail(child(where, "tpr"), f"expected {len(fpr)} rates (one per false positive rate), got {len(tpr)}")
    if (fpr[0], tpr[0]) != (0.0, 0.0) or (fpr[-1], tpr[-1]) != (1.0, 1.0):
        check.fail(where, "expected a curve from (0, 0) to (1, 1)")
    return state


def _reliability(check: Checker, obj: dict, where: str) -> None:
    check_keys(check, obj, RELIABILITY_KEYS, where)
    edges = _rising(check, check.key(obj, "edges", list, where), child(where, "edges"), least=2, strictly=True)
    bins = len(edges) - 1
    weight = _numbers(check, check.key(obj, "weight", list, where), child(where, "weight"), bins)
    for k, w in enumerate(weight):
        if w is None or w < 0:
            check.fail(child(child(where, "weight"), k), f"expected a case weight >= 0, got {w!r}")
    for key in ("confidence", "accuracy"):
        path = child(where, key)
        for k, (share, w) in enumerate(zip(_numbers(check, check.key(obj, key, list, where), path, bins), weight,
                                           strict=True)):
            if (share is None) != (w == 0):
                check.fail(child(path, k), "expected null exactly where the bin holds no case")
            if share is not None:
                _share(check, share, child(path, k))
    _share(check, check.key(obj, "ece", float, where), child(where, "ece"))


def _numbers(check: Checker, items: list, where: str, count: int | None = None) -> list[float | None]:
    """Finite numbers or nulls, at most :data:`MAX_CURVE_POINTS` (exactly ``count`` when given)."""
    if len(items) > MAX_CURVE_POINTS:
        check.fail(where, f"expected at most {MAX_CURVE_POINTS} points, got {len(items):,}")
    if count is not None and len(items) != count:
        check.fail(where, f"expected {count} entries (one per bin), got {len(items)}")
    return [None if x is None else check.number(x, child(where, k)) for k, x in enumerate(items)]


def _rising(check: Checker, items: list, where: str, least: int, strictly: bool = False) -> list[float]:
    """At least ``least`` numbers in [0, 1], non-decreasing (rising when ``strictly``)."""
    numbers = _numbers(check, items, where)
    if len(numbers) < least:
        check.fail(where, f"expected at least {least} points, got {len(numbers)}")
    out = [_share(check, x, child(where, k)) for k, x in enumerate(numbers)]
    for k in range(1, len(out)):
        if out[k] < out[k - 1] or (strictly and out[k] == out[k - 1]):
            check.fail(child(where, k), f"expected {'rising' if strictly else 'non-decreasing'} values, got "
                                        f"{out[k]!r} after {out[k - 1]!r}")
    return out


def _share(check: Checker, value: Any, where: str, nullable: bool = False) -> float:
    """A number in [0, 1] (or null when ``nullable``: returned as NaN)."""
    if value is None and nullable:
        return float("nan")
    number = check.number(value, where)
    if not 0.0 <= number <= 1.0:
        check.fail(where, f"expected a number in [0, 1], got {number!r}")
    return number
