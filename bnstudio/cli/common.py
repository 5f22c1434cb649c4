"""Helpers shared by subcommands: parsing ``VAR=STATE`` evidence and printing JSON or tables."""
from __future__ import annotations

import json
import math
import sys
from typing import Any, Sequence

from bnstudio.errors import EvidenceError


def parse_evidence(items: Sequence[str] | None) -> dict[str, Any]:
    """``["A=yes", "B~0.2,0.8"]`` -> ``{"A": "yes", "B": [0.2, 0.8]}`` (``~`` = likelihood evidence)."""
    evidence: dict[str, Any] = {}
    for item in items or ():
        if "~" in item and ("=" not in item or item.index("~") < item.index("=")):
            name, _, values = item.partition("~")
            try:
                spec: Any = [float(x) for x in values.split(",")]
            except ValueError:
                raise EvidenceError(f"malformed likelihood evidence {item!r}: use VAR~0.2,0.8") from None
        else:
            name, sep, spec = item.partition("=")
            if not sep or not spec:
                raise EvidenceError(f"malformed evidence {item!r}: use VAR=STATE (or VAR~l1,l2,... for likelihoods)")
        name = name.strip()
        if not name:
            raise EvidenceError(f"malformed evidence {item!r}: missing variable name")
        if name in evidence:
            raise EvidenceError(f"evidence on '{name}' given twice")
        evidence[name] = spec.strip() if isinstance(spec, str) else spec
    return evidence


def _finite(value: Any, found: list[str], path: str = "") -> Any:
    """A copy with infinite or NaN floats replaced by null (their paths collected in ``found``)."""
    if isinstance(value, float) and not math.isfinite(value):
        found.append(path or "value")
        return None
    if isinstance(value, dict):
        return {k: _finite(v, found, f"{path}.{k}" if path else str(k)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v, found, f"{path}[{i}]") for i, v in enumerate(value)]
    return value


def print_json(payload: Any) -> None:
    """Strict JSON on stdout; a non-finite number (e.g. log 0 = -inf) becomes null, said once on stderr."""
    found: list[str] = []
    clean = _finite(payload, found)
    if found:
        print(f"bnstudio: warning: {len(found)} non-finite value(s) (e.g. log 0) written as null: "
              f"{', '.join(found[:3])}{' ...' if len(found) > 3 else ''}", file=sys.stderr)
    json.dump(clean, sys.stdout, indent=2, allow_nan=False)
    sys.stdout.write("\n")


def print_table(rows: Sequence[Sequence[Any]], header: Sequence[str]) -> None:
    """Left-aligned text columns."""
    cells = [list(map(str, header))] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[k]) for r in cells) for k in range(len(header))]
    for k, r in enumerate(cells):
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if k == 0:
            print("  ".join("-" * w for w in widths))


def load_data(net, path: str):
    """Read a table and align it to ``net``; data warnings (ignored columns) go to stderr as one line each."""
    import warnings

    from bnstudio.data import align, read_table
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        aligned = align(read_table(path), net)
    for w in caught:
        print(f"bnstudio: warning: {w.message}", file=sys.stderr)
    return aligned


def load_json_list(path: str) -> list[dict[str, Any]]:
    """A JSON file holding a list of objects (a queries file); errors name the file and the problem."""
    from bnstudio.errors import FormatError
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        raise FormatError("no such file", path) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise FormatError(f"not valid JSON ({exc})", path) from None
    if not isinstance(data, list):
        raise FormatError("expected a JSON list of queries", path)
    return data


def print_iteration(info) -> None:
    """One line per learning iteration: ``iteration  nll=...  cnll=...  (seconds)``."""
    scores = "  ".join(f"{k}={v:.6g}" for k, v in info.objectives.items() if k != "seconds")
    print(f"{info.iteration:5d}  {scores}  ({info.elapsed:.2f} s)", flush=True)
