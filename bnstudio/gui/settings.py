"""Every persistent setting of the app, declared once with its type and default (docs/architecture.md §2:
QSettings with declared keys). Read and write through :class:`Settings`; unknown keys are a programming error.

QSettings stores values as strings in some back ends (INI files on Linux), so :meth:`Settings.value`
converts back to the declared type and falls back to the default when a stored value does not convert.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

ORGANISATION = "BNStudio"
APPLICATION = "BN Studio"
MAX_RECENT_FILES = 10


@dataclass(frozen=True)
class Key:
    """A declared setting: its QSettings path, Python type and default value."""

    name: str
    type: type
    default: Any


WINDOW_GEOMETRY = Key("window/geometry", QByteArray, QByteArray())
WINDOW_STATE = Key("window/state", QByteArray, QByteArray())
#: SHA-256 of the geometry and state as the app wrote them: a layout that differs is not restored
#: (bnstudio.app.layout_check)
WINDOW_DIGEST = Key("window/digest", str, "")
RECENT_FILES = Key("files/recent", list, [])
LAST_DIRECTORY = Key("files/last_directory", str, "")
NODE_STYLE = Key("view/node_style", str, "bars")  # "bars" | "compact"; window toolbar/docks are in WINDOW_STATE
AUTOSAVE_SECONDS = Key("recovery/autosave_seconds", int, 60)
APPEARANCE = Key("view/appearance", str, "system")   # "system" (the desktop's scheme) | "light" | "dark"

KEYS: dict[str, Key] = {k.name: k for k in (WINDOW_GEOMETRY, WINDOW_STATE, WINDOW_DIGEST, RECENT_FILES,
                                             LAST_DIRECTORY, NODE_STYLE, AUTOSAVE_SECONDS, APPEARANCE)}


def _convert(key: Key, raw: Any) -> Any:
    if raw is None:
        return key.default
    if key.type is bool:
        if isinstance(raw, str):
            return raw.strip().lower() in ("1", "true", "yes")
        return bool(raw)
    if key.type is list:
        if isinstance(raw, str):  # a one-element list comes back as a plain string
            return [raw] if raw else []
        return [str(x) for x in raw]
    if key.type is QByteArray:
        return raw if isinstance(raw, QByteArray) else QByteArray(bytes(str(raw), "latin-1"))
    return key.type(raw)


class Settings:
    """Typed access to the declared keys, on the app's QSettings (or on any given QSettings)."""

    def __init__(self, qsettings: QSettings | None = None) -> None:
        self.qsettings = qsettings or QSettings(ORGANISATION, APPLICATION)

    def value(self, key: Key) -> Any:
        """The stored value of ``key`` converted to its declared type, or its default."""
        if KEYS.get(key.name) is not key:
            raise KeyError(f"undeclared setting {key.name!r}")
        try:
            return _convert(key, self.qsettings.value(key.name))
        except (TypeError, ValueError):
            return key.default

    def set_value(self, key: Key, value: Any) -> None:
        if KEYS.get(key.name) is not key:
            raise KeyError(f"undeclared setting {key.name!r}")
        self.qsettings.setValue(key.name, value)

    def add_recent_file(self, path: str) -> list[str]:
        """Put ``path`` first in the recent files (once, at most :data:`MAX_RECENT_FILES`); return the list."""
        files = [path] + [p for p in self.value(RECENT_FILES) if p != path]
        files = files[:MAX_RECENT_FILES]
        self.set_value(RECENT_FILES, files)
        return files

    def remove_recent_file(self, path: str) -> list[str]:
        files = [p for p in self.value(RECENT_FILES) if p != path]
        self.set_value(RECENT_FILES, files)
        return files

    def sync(self) -> None:
        self.qsettings.sync()
