"""Crash recovery: a copy of the open network is autosaved (every minute, when it changed) to the app-data
folder; a clean exit deletes it, so a copy found at start-up means the last session did not end cleanly.

The copy is a project file (JSON) when :mod:`bnstudio.project` is available, BIF otherwise, plus a small JSON
sidecar naming the original file. The project format only holds normalised CPTs, so rows an editor left
unnormalised are kept verbatim in the sidecar and put back on restore. A :class:`QLockFile` marks the slot
as taken by a live session; a second instance running at the same time does not autosave.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QLockFile, QStandardPaths

from bnstudio.core.network import Network
from bnstudio.core.validation import unnormalised_rows
from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.gui import file_io
from bnstudio.io.atomic import atomic_write_text

SIDECAR = "autosave.json"


@dataclass
class RecoveryInfo:
    """What an autosaved copy is: its file, the file it was a copy of (None if never saved), and when."""

    path: Path
    source: str | None
    saved_at: float
    raw_tables: dict[str, Any]


def default_folder() -> Path:
    return Path(QStandardPaths.writableLocation(QStandardPaths.AppDataLocation)) / "recovery"


class Recovery:
    """The autosave slot of this session (see the module docstring)."""

    def __init__(self, folder: str | Path | None = None) -> None:
        self.folder = Path(folder) if folder is not None else default_folder()
        self.copy_path = self.folder / ("autosave" + file_io.default_save_suffix())
        self.sidecar_path = self.folder / SIDECAR
        self._lock: QLockFile | None = None

    @property
    def active(self) -> bool:
        return self._lock is not None

    def acquire(self) -> bool:
        """Take the slot (False if another live session holds it; a crashed session's lock is stale)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        lock = QLockFile(str(self.folder / "session.lock"))
        if not lock.tryLock(0):
            return False
        self._lock = lock
        return True

    def pending(self) -> RecoveryInfo | None:
        """The copy a previous session left behind, if any (only once this session holds the slot)."""
        if not self.active or not self.copy_path.exists():
            return None
        try:
            meta = json.loads(self.sidecar_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            meta = {}
        return RecoveryInfo(self.copy_path, meta.get("source"), float(meta.get("saved_at", 0.0)),
                            meta.get("raw_tables", {}))

    def save(self, net: Network, evidence: dict[str, Any], source: str | None) -> None:
        """Write the recovery copy (atomically) and its sidecar."""
        if not self.active:
            return
        copy, raw = net.copy(), {}
        for var in copy.variables:
            if unnormalised_rows(copy, var):
                raw[var] = np.asarray(copy.cpt(var)).tolist()
                copy.set_cpt(var, normalise_rows(copy.cpt(var)))
        file_io.write_file(copy, self.copy_path, evidence=evidence)
        meta = {"source": source, "saved_at": time.time(), "raw_tables": raw}
        atomic_write_text(self.sidecar_path, json.dumps(meta))

    def restore(self, info: RecoveryInfo) -> file_io.LoadedFile:
        loaded = file_io.read_file(info.path)
        for var, table in info.raw_tables.items():
            if var in loaded.network:
                loaded.network.set_cpt(var, np.array(table), check_sums=False)
        return loaded

    def discard(self) -> None:
        for path in (self.copy_path, self.sidecar_path):
            path.unlink(missing_ok=True)

    def release(self) -> None:
        """A clean exit: delete the copy and free the slot."""
        self.discard()
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None
