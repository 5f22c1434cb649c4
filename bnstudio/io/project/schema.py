"""Schema versions, migrations and the JSON-path checker shared by the project reader and writer.

Every problem found in a project file is a :class:`ProjectFormatError` whose message starts with the JSON
path of the offending value, e.g. ``network.variables[3].cpt: expected shape (2, 3) ...``.

Migrations: ``MIGRATIONS[n]`` turns a schema-``n`` document (a dict fresh from ``json.loads``) into a
schema-``n + 1`` document. :func:`migrate` applies them in order until :data:`SCHEMA_VERSION` is reached,
so a file written by any older BN Studio loads. To bump the schema: write the migration, register it
here, raise :data:`SCHEMA_VERSION`, say in :func:`version_for` which documents need it, and add the new
fixture line in ``tests/project/test_migrations.py``.

A project is written with the oldest schema that holds it (:func:`version_for`), so an older BN Studio opens
every project that uses nothing newer, and refuses the others with "written by a newer BN Studio" instead of
an unknown-key error.
"""
from __future__ import annotations

import json
import math
from typing import Any, Callable, NoReturn

from bnstudio.errors import FormatError, ValidationError
from bnstudio.io.messages import shorten, tidy

#: The newest schema version this BN Studio reads and writes (it writes older ones too: :func:`version_for`).
SCHEMA_VERSION = 3
#: The value of the top-level ``"format"`` key of every project file.
FORMAT_TAG = "bnstudio-project"


def _v1_to_v2(doc: dict) -> dict:
    """Schema 2 adds two optional keys and changes nothing else, so a schema-1 document is a schema-2 one:
    ``decision`` (an influence diagram's decision part) and a variable's ``canonical`` model. (The builds that
    introduced them wrote them under schema 1; such files read as they are.)"""
    return doc


def _v2_to_v3(doc: dict) -> dict:
    """Schema 3 adds the optional top-level ``notes`` (text notes on the drawing) and changes nothing else, so
    a schema-2 document is a schema-3 one."""
    return doc


#: ``MIGRATIONS[n]`` upgrades a schema-``n`` document to schema ``n + 1``.
MIGRATIONS: dict[int, Callable[[dict], dict]] = {1: _v1_to_v2, 2: _v2_to_v3}


def version_for(doc: dict) -> int:
    """The schema a project document is written with: the oldest that holds it, 3 when it has ``notes``, 2
    when it has a key schema 1 does not know (``decision``, or ``canonical`` on a variable), else 1."""
    if doc.get("notes"):
        return 3
    variables = doc.get("network", {}).get("variables", [])
    return 2 if "decision" in doc or any("canonical" in v for v in variables) else 1


class ProjectFormatError(FormatError):
    """A malformed project file; ``json_path`` names the offending value (``""`` for the whole document)."""

    def __init__(self, message: str, path: str | None = None, json_path: str = "",
                 line: int | None = None, column: int | None = None) -> None:
        super().__init__(f"{json_path}: {message}" if json_path else message, path=path, line=line,
                         column=column)
        self.json_path = json_path


def child(where: str, key: str | int) -> str:
    """The JSON path of ``key`` inside ``where``: ``a.b``, ``a[3]`` or ``a["odd key"]`` (a key too long to read
    is shortened: the path is for messages)."""
    if isinstance(key, int):
        return f"{where}[{key}]"
    key = shorten(key)
    if key.isidentifier():
        return f"{where}.{key}" if where else key
    return f"{where}[{json.dumps(key, ensure_ascii=False)}]"


def json_type(value: Any) -> str:
    """The JSON name of a decoded value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


_KINDS = {dict: "an object", list: "an array", str: "a string", float: "a number", bool: "a boolean"}


class Checker:
    """Type checks that fail with a :class:`ProjectFormatError` naming the JSON path and the file."""

    def __init__(self, file: str | None = None) -> None:
        self.file = file

    def error(self, where: str, message: str) -> ProjectFormatError:
        """The error :meth:`fail` raises (for helpers that raise it themselves)."""
        return ProjectFormatError(tidy(message), path=self.file, json_path=tidy(where))

    def fail(self, where: str, message: str) -> NoReturn:
        raise self.error(where, message)

    def of(self, value: Any, kind: type, where: str) -> Any:
        """``value`` if it has JSON type ``kind`` (``float`` means any number, booleans excluded)."""
        ok = (isinstance(value, (int, float)) and not isinstance(value, bool)) if kind is float \
            else isinstance(value, kind)
        if not ok:
            self.fail(where, f"expected {_KINDS[kind]}, got {json_type(value)}")
        return value

    def key(self, obj: dict, key: str, kind: type, where: str, default: Any = ...) -> Any:
        """``obj[key]`` checked against ``kind``; missing keys fail unless a ``default`` is given."""
        if key not in obj:
            if default is ...:
                self.fail(where, f"missing key '{key}'")
            return default
        return self.of(obj[key], kind, child(where, key))

    def number(self, value: Any, where: str, *, non_negative: bool = False, what: str = "number") -> float:
        """A finite number (optionally >= 0); ``what`` names it in messages ("probability", "count")."""
        try:
            number = float(self.of(value, float, where))
        except OverflowError:  # an integer literal beyond the float range
            number = math.inf
        if not math.isfinite(number):
            self.fail(where, f"expected a finite {what}, got {number}")
        if non_negative and number < 0:
            self.fail(where, f"negative {what} {value:g}")
        return number

    def strings(self, value: Any, where: str) -> list[str]:
        return [self.of(s, str, child(where, k)) for k, s in enumerate(self.of(value, list, where))]


def migrate(doc: dict, check: Checker) -> dict:
    """Upgrade a decoded document to :data:`SCHEMA_VERSION` with :data:`MIGRATIONS`, in order."""
    version = check.key(doc, "schema_version", float, "")
    if not isinstance(version, int) or version < 1:
        check.fail("schema_version", f"expected a positive integer, got {version!r}")
    if version > SCHEMA_VERSION:
        check.fail("schema_version", f"written by a newer BN Studio (schema {version}); this version reads "
                                     f"up to {SCHEMA_VERSION}")
    while version < SCHEMA_VERSION:
        if version not in MIGRATIONS:  # a bug in this module, not in the file
            raise RuntimeError(f"no migration from project schema {version} to {version + 1}")
        doc = MIGRATIONS[version](doc)
        version += 1
        doc["schema_version"] = version
    return doc


def json_safe(value: Any, where: str) -> Any:
    """A plain-JSON copy of ``value`` (numpy scalars and arrays, tuples converted); a ValidationError names
    the path of anything JSON cannot hold exactly (NaN, infinities, non-string keys, other objects)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if hasattr(value, "tolist") and not isinstance(value, (int, float)):  # numpy scalar or array
        return json_safe(value.tolist(), where)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValidationError(f"{where}: {value} cannot be stored in a project file (JSON has no NaN/infinity)")
        return float(value)
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValidationError(f"{where}: key {key!r} is not a string")
            out[key] = json_safe(item, child(where, key))
        return out
    if isinstance(value, (list, tuple)):
        return [json_safe(item, child(where, k)) for k, item in enumerate(value)]
    raise ValidationError(f"{where}: a {type(value).__name__} cannot be stored in a project file")
