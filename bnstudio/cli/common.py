"""Helpers shared by subcommands: parsing ``VAR=STATE`` evidence, reading JSON and data, writing outputs with
one-line errors, and printing JSON or tables. Light at import (every subcommand's parser imports it): the
readers it calls are imported when used."""
from __future__ import annotations

import contextlib
import gc
import json
import math
import sys
from typing import Any, Iterator, Sequence

from bnstudio.errors import EvidenceError, FormatError


def parse_evidence(items: Sequence[str] | None, what: str = "evidence") -> dict[str, Any]:
    """``["A=yes", "B~0.2,0.8"]`` -> ``{"A": "yes", "B": [0.2, 0.8]}`` (``~`` = likelihood evidence); errors
    call the items ``what`` (evidence, target)."""
    evidence: dict[str, Any] = {}
    for item in items or ():
        if "~" in item and ("=" not in item or item.index("~") < item.index("=")):
            name, _, values = item.partition("~")
            try:
                spec: Any = [float(x) for x in values.split(",")]
            except ValueError:
                raise EvidenceError(f"malformed likelihood {what} {item!r}: use VAR~0.2,0.8") from None
        else:
            name, sep, spec = item.partition("=")
            if not sep or not spec:
                raise EvidenceError(f"malformed {what} {item!r}: use VAR=STATE (or VAR~l1,l2,... for likelihoods)")
        name = name.strip()
        if not name:
            raise EvidenceError(f"malformed {what} {item!r}: missing variable name")
        if name in evidence:
            raise EvidenceError(f"{what} on '{name}' given twice")
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
    """Strict JSON on stdout, compact and written at once (json's C encoder: a 5,000-query answer takes tens of
    milliseconds); a non-finite number (e.g. log 0 = -inf) becomes null, said once on stderr."""
    try:
        text = json.dumps(payload, allow_nan=False, separators=(",", ":"))
    except ValueError:  # a non-finite float somewhere (rare): find, replace and name them
        found: list[str] = []
        payload = _finite(payload, found)
        print(f"bnstudio: warning: {len(found)} non-finite value(s) (e.g. log 0) written as null: "
              f"{', '.join(found[:3])}{' ...' if len(found) > 3 else ''}", file=sys.stderr)
        text = json.dumps(payload, allow_nan=False, separators=(",", ":"))
    sys.stdout.write(text + "\n")


def print_table(rows: Sequence[Sequence[Any]], header: Sequence[str]) -> None:
    """Left-aligned text columns."""
    cells = [list(map(str, header))] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[k]) for r in cells) for k in range(len(header))]
    for k, r in enumerate(cells):
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
        if k == 0:
            print("  ".join("-" * w for w in widths))


def add_strict_option(parser) -> None:
    """``--strict`` for a subcommand reading a network: refuse a file needing a repair instead of reading it with
    a warning (the subcommand runs in ``strict_reading(args.strict)``, see :func:`reading_as_asked`)."""
    parser.add_argument("--strict", action="store_true",
                        help="refuse a network file the reader would repair (rounded or unnormalised rows, tiny "
                             "negative probabilities, ...) instead of reading it with a warning")


@contextlib.contextmanager
def reading_as_asked(args) -> Iterator[None]:
    """Every network read in the block is strict when ``args.strict`` is set (see :mod:`bnstudio.io.repairs`);
    without it each repair is one ``bnstudio: warning:`` line."""
    from bnstudio.io.repairs import strict_reading  # light: no numerical library beyond numpy

    with strict_reading(bool(getattr(args, "strict", False))):
        yield


def load_data(net, path: str):
    """Read a table (or a folder of CSV/Parquet parts) and align it to ``net`` (its warnings, e.g. ignored
    columns, reach stderr through main)."""
    from pathlib import Path

    if Path(path).is_dir():
        from bnstudio.data.parts import open_parts
        return open_parts(path).load(net)
    from bnstudio.data import align, read_table
    return align(read_table(path), net)


def parse_json(text: str, path: str) -> Any:
    """JSON text of the file ``path``; malformed, too deeply nested or too long numbers are a FormatError."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"not valid JSON: {exc.msg}", path, exc.lineno, exc.colno) from None
    except RecursionError:
        raise FormatError("not valid JSON: nested too deeply", path) from None
    except ValueError as exc:  # e.g. an integer literal with more digits than Python converts
        raise FormatError(f"not valid JSON: {exc}", path) from None


def load_json_list(path: str) -> list[dict[str, Any]]:
    """A JSON file holding a list of objects (a queries file); errors name the file and the problem."""
    from bnstudio.io.atomic import read_text

    data = parse_json(read_text(path), path)
    if not isinstance(data, list):
        raise FormatError("expected a JSON list of queries", path)
    return data


@contextlib.contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for a short command that builds many small acyclic objects (the
    imports, thousands of query dicts read and answered): each automatic collection rescans every live object
    (about 40 ms of a 0.4 s, 5,000-query run). Reference counting still frees everything; the collector resumes
    after the block. Not for long learning runs, whose iterations could leave cycles behind."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextlib.contextmanager
def writing(path: str) -> Iterator[None]:
    """Run a write of ``path``; an operating-system failure (read-only folder, full disk) becomes one line."""
    try:
        yield
    except OSError as exc:
        raise FormatError(f"cannot write the file: {exc.strerror or exc}", path=str(path)) from None


def print_iteration(info) -> None:
    """One line per learning iteration: ``iteration  nll=...  cnll=...  (seconds)``."""
    scores = "  ".join(f"{k}={v:.6g}" for k, v in info.objectives.items() if k != "seconds")
    print(f"{info.iteration:5d}  {scores}  ({info.elapsed:.2f} s)", flush=True)
