"""Helpers shared by subcommands: parsing ``VAR=STATE`` evidence and printing JSON or tables."""
from __future__ import annotations

import json
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


def print_json(payload: Any) -> None:
    json.dump(payload, sys.stdout, indent=2, allow_nan=False)
    sys.stdout.write("\n")


def print_table(rows: Sequence[Sequence[Any]], header: Sequence[str]) -> None:
    """Left-aligned text columns."""
    cells = [list(map(str, header))] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[k]) for r in cells) for k in range(len(header))]
    for k, r in enumerate(cells):
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if k == 0:
            print("  ".join("-" * w for w in widths))
