"""Crash recovery: a copy of the open session is autosaved (every minute, when it changed) to the app-data
folder; a clean exit deletes it, so a copy found at start-up means the last session did not end cleanly.

The copy is a project file (JSON) when :mod:`bnstudio.io.project` is available, BIF otherwise, plus a small JSON
sidecar naming the original file. A project copy keeps the whole session: the network, the evidence, the data
set's file and preparation, training runs and saved queries. The project format only holds normalised CPTs,
so rows an editor left unnormalised are kept verbatim in the sidecar and put back on restore. The decision part
of an influence diagram (decisions in order, utility nodes, their tables and positions; its decision variables
are network variables of the copy) is kept in the sidecar too and restored with the network.

Each running window takes a slot — the recovery folder itself, then ``slot-1`` ... ``slot-7`` — marked by a
:class:`QLockFile` (a crashed session's lock is stale, so its slot is free again). A session whose own slot has
no copy adopts the newest copy left in a slot no live session holds, so a crash of any window is offered at the
next start.
"""
from __future__ import annotations

import dataclasses
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QLockFile, QStandardPaths

from bnstudio.app import file_io
from bnstudio.app.commands.decisions import DecisionPart
from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.core.network import Network
from bnstudio.core.validation import unnormalised_rows
from bnstudio.errors import BNStudioError
from bnstudio.io.atomic import atomic_write_text

SIDECAR = "autosave.json"


@dataclass
class RecoveryInfo:
    """What an autosaved copy is: its file, the file it was a copy of (None if never saved), and when."""

    path: Path
    source: str | None
    saved_at: float
    raw_tables: dict[str, Any]
    decisions: dict[str, Any] | None = None      # DecisionPart.to_json() of an influence diagram


def default_folder() -> Path:
    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)) / "recovery"


SLOTS = 8


class Recovery:
    """The autosave slot of this session (see the module docstring)."""

    def __init__(self, folder: str | Path | None = None) -> None:
        self.folder = Path(folder) if folder is not None else default_folder()
        self.slot = self.folder
        self._lock: QLockFile | None = None

    @property
    def copy_path(self) -> Path:
        return self.slot / ("autosave" + file_io.default_save_suffix())

    @property
    def sidecar_path(self) -> Path:
        return self.slot / SIDECAR

    @property
    def active(self) -> bool:
        return self._lock is not None

    def _slots(self) -> list[Path]:
        return [self.folder] + [self.folder / f"slot-{n}" for n in range(1, SLOTS)]

    def acquire(self) -> bool:
        """Take the first free slot (False if live sessions hold all of them)."""
        for slot in self._slots():
            slot.mkdir(parents=True, exist_ok=True)
            lock = QLockFile(str(slot / "session.lock"))
            if lock.tryLock(0):
                self._lock, self.slot = lock, slot
                return True
        return False

    def pending(self) -> RecoveryInfo | None:
        """The copy a previous session left behind, if any (only once this session holds a slot)."""
        if not self.active:
            return None
        if not self.copy_path.exists():
            self._adopt_orphan()
        if not self.copy_path.exists():
            return None
        try:
            meta = json.loads(self.sidecar_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            meta = {}
        return RecoveryInfo(self.copy_path, meta.get("source"), float(meta.get("saved_at", 0.0)),
                            meta.get("raw_tables", {}), meta.get("decisions"))

    def _adopt_orphan(self) -> None:
        """Move the newest copy from a slot no live session holds into this session's slot."""
        name = self.copy_path.name
        found: list[tuple[float, Path]] = []
        locks = []
        for slot in self._slots():
            if slot == self.slot or not (slot / name).exists():
                continue
            lock = QLockFile(str(slot / "session.lock"))
            if lock.tryLock(0):      # nobody alive owns this copy
                locks.append(lock)
                found.append(((slot / name).stat().st_mtime, slot))
        try:
            if found:
                _, slot = max(found)
                for file in (name, SIDECAR):
                    if (slot / file).exists():
                        os.replace(slot / file, self.slot / file)
        finally:
            for lock in locks:
                lock.unlock()

    def save(self, net: Network, evidence: dict[str, Any], source: str | None, project: Any = None,
             view: dict[str, Any] | None = None, decisions: DecisionPart | None = None) -> None:
        """Write the recovery copy (atomically) and its sidecar; ``project`` (not changed) gives the other
        sections of the session (runs, queries, data), ``view`` the window's view options, ``decisions`` the
        decision part (by default the attached document's)."""
        if not self.active:
            return
        copy, raw = net.copy(), {}
        for var in copy.variables:
            if unnormalised_rows(copy, var):
                raw[var] = np.asarray(copy.cpt(var)).tolist()
                copy.set_cpt(var, normalise_rows(copy.cpt(var)))
        if project is not None and file_io.is_project(self.copy_path):
            project = dataclasses.replace(project, network=copy, evidence_sets=dict(project.evidence_sets))
        file_io.write_file(copy, self.copy_path, project, evidence, view)
        meta = {"source": source, "saved_at": time.time(), "raw_tables": raw,
                "decisions": None if decisions is None else decisions.to_json()}
        atomic_write_text(self.sidecar_path, json.dumps(meta))

    def restore(self, info: RecoveryInfo) -> file_io.LoadedFile:
        loaded = file_io.read_file(info.path)
        for var, table in info.raw_tables.items():
            if var in loaded.network:
                loaded.network.set_cpt(var, np.array(table), check_sums=False)
        loaded.decisions = self.decision_part(info, loaded.network)
        return loaded

    @staticmethod
    def decision_part(info: RecoveryInfo, net: Network) -> DecisionPart | None:
        """The copy's decision part, if it had one that is valid over ``net`` (the restored network)."""
        if not info.decisions:
            return None
        try:
            part = DecisionPart.from_json(info.decisions)
            part.diagram(net)
        except (BNStudioError, KeyError, TypeError, ValueError):
            return None      # a damaged sidecar: the network is still restored
        return part

    def discard(self) -> None:
        for path in (self.copy_path, self.sidecar_path):
            path.unlink(missing_ok=True)

    def release(self) -> None:
        """A clean exit: delete the copy and free the slot."""
        self.discard()
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None
