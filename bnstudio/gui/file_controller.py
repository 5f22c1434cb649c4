"""File handling of the main window: new, open, save (asking to normalise rows that do not sum to 1), save as,
recent files, examples, image export, asking before losing any unsaved work (network edits, evidence, data,
runs, queries, a structure proposal: :meth:`Document.unsaved_work`), and the minute-by-minute recovery copy of
the whole session."""
from __future__ import annotations

import functools
import warnings
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QFileDialog, QMenu

from bnstudio.app import commands as cmd
from bnstudio.app import file_io
from bnstudio.app.resources import example_diagrams, example_networks, example_title, is_bundled_example
from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.core.network import Network
from bnstudio.core.validation import unnormalised_rows
from bnstudio.errors import BNStudioError, FormatError, RepairWarning
from bnstudio.gui import dialogs
from bnstudio.gui import settings as cfg
from bnstudio.gui.canvas import style as st
from bnstudio.gui.canvas.arrange import spread_overlapping
from bnstudio.gui.canvas.export_dialog import ask_image_path, export_image
from bnstudio.gui.decision_panel import show_diagram
from bnstudio.gui.document import Document
from bnstudio.gui.recovery import SLOTS, Recovery
from bnstudio.gui.time_panel.wiring import time_slices
from bnstudio.gui.window_parts import WindowParts


def open_into(document: Document, path: str | Path, node_style: str = st.BARS) -> list[str]:
    """Read ``path`` — a network file, a project or an influence diagram (NET, XDSL, XMLBIF, JSON, a project
    holding one: its decisions and utilities included) — and make it ``document``'s, with a fresh undo history.
    The one way a file is read into a document: :meth:`FileController.open_path` adds the dialogs, the recent
    list and the banner. A layout another tool drew for smaller nodes is stretched to ``node_style``'s
    (:func:`~bnstudio.gui.canvas.arrange.spread_overlapping`; a project's own layout is kept as saved).
    Returns what was repaired while reading; raises FormatError and changes nothing."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RepairWarning)
        loaded = file_io.read_file(path)
    if loaded.diagram is not None:
        show_diagram(document, loaded.diagram, path, project=loaded.project, evidence=loaded.evidence)
    else:
        if loaded.project is None:
            spread_overlapping(loaded.network, node_style)
        document.replace_network(loaded.network, path, loaded.project, loaded.evidence)
    return [str(w.message) for w in caught if issubclass(w.category, RepairWarning)]


class FileController(QObject):
    """Everything the File menu does, for one main window."""

    def __init__(self, window: WindowParts, recovery: Recovery | None = None) -> None:
        super().__init__(window)
        self.window = window
        self.document = window.document
        self.settings = window.settings
        self.recovery = recovery if recovery is not None else Recovery()
        self.recent_menu: QMenu | None = None
        self._autosaved: tuple | None = None
        self.autosave_timer = QTimer(self)
        self.autosave_timer.timeout.connect(self.autosave)
        self.document.session_changed.connect(self._on_session_changed)

    def _on_session_changed(self) -> None:
        if self.recovery.active and self._autosaved is not None and not self.document.modified:
            self.recovery.discard()   # saved (or back to the saved state): an older copy would only mislead
            self._autosaved = None

    # ------------------------------------------------------------------ new / open
    def new_file(self) -> bool:
        """An empty network at 100 % (after asking about unsaved work)."""
        if not self.maybe_save():
            return False
        self.document.replace_network(Network("untitled"))
        self.window.view.reset_view()
        return True

    def open_dialog(self) -> bool:
        if not self.maybe_save():
            return False
        path, _ = QFileDialog.getOpenFileName(self.window, "Open network", self.settings.value(cfg.LAST_DIRECTORY),
                                              file_io.open_filters())
        return bool(path) and self.open_path(path, ask=False)

    def open_path(self, path: str | Path, ask: bool = True, remember: bool = True) -> bool:
        """Open ``path``, any network file, project or influence diagram (.json included): the one way every
        file opens (File ▸ Open, recent files, Examples, the command line). A parser error is shown with the
        file, line and message, drops the file from the recent list and changes nothing; repairs are shown in
        the banner; a bundled example opens as an untitled copy."""
        if ask and not self.maybe_save():
            return False
        path = Path(path)
        try:
            repairs = open_into(self.document, path, self.window.scene.node_style)
        except FormatError as exc:
            dialogs.show_format_error(self.window, exc)
            if remember:
                self._refresh_recent(self.settings.remove_recent_file(str(path.resolve())))
            return False
        if is_bundled_example(path):  # a copy to play with: Save asks where, the example stays intact
            self.document.path = None
            self.document.untitled_name = f"{example_title(path)} (example)"
            self.document.path_changed.emit()
        elif remember:
            self._remember(path)
        if repairs:   # read the way its authoring tool would, and said so
            self.window.show_message("warning", "Opened with repairs: " + " · ".join(repairs))
        self.window.view.open_view()
        return True

    def _remember(self, path: Path) -> None:
        self.settings.set_value(cfg.LAST_DIRECTORY, str(path.resolve().parent))
        self._refresh_recent(self.settings.add_recent_file(str(path.resolve())))

    # ------------------------------------------------------------------ save
    def save(self) -> bool:
        """Save to the document's file; Save As when there is none, or when the session holds work a network
        file cannot keep (evidence, data, runs, queries) and the file is not a project."""
        path = self.document.path
        if path is None or not file_io.can_write(path) or (self.session_only_work() and not file_io.is_project(path)):
            return self.save_as()
        if self.document.decisions is not None and not file_io.can_hold_diagram(path):
            return self.save_as()
        return self.save_to(path)

    def session_only_work(self) -> list[str]:
        """Unsaved parts that only a project file keeps (an influence diagram's decisions: also a diagram file
        such as .net, .xdsl, .xmlbif, .json, when the document has one)."""
        kept = set(self.document.session.in_project())
        path = self.document.path
        if path is not None and file_io.can_hold_diagram(path):
            kept.discard("decisions")
        return [text for name, text in self.document.unsaved_parts().items() if name in kept]

    def save_as(self) -> bool:
        doc = self.document
        stem = doc.untitled_name.split(" (")[0] or (doc.path.stem if doc.path else doc.network.name)
        suffix = file_io.default_save_suffix() if doc.path is None or self.session_only_work() else doc.path.suffix
        if doc.decisions is not None and not file_io.can_hold_diagram("network" + suffix):
            suffix = file_io.default_save_suffix()     # a project keeps the diagram and the session
        folder = doc.path.parent if doc.path else Path(self.settings.value(cfg.LAST_DIRECTORY) or Path.home())
        path, selected = QFileDialog.getSaveFileName(self.window, "Save network as", str(folder / (stem + suffix)),
                                                     file_io.save_filters())
        if not path:
            return False
        return self.save_to(file_io.with_suffix_for_filter(path, selected))

    def save_to(self, path: str | Path) -> bool:
        """Save atomically; rows that do not sum to 1 are never saved silently (normalise, or cancel). A
        two-slice network saved as ``.xdsl`` is GeNIe's dynamic form with the Time panel's T slices."""
        if not self.normalise_before_save():
            return False
        try:
            self.document.save(path, view=self.window.view_options(), slices=time_slices(self.window))
        except (BNStudioError, OSError) as exc:
            dialogs.show_error(self.window, "Cannot save", f"Could not save {Path(path).name}", str(exc))
            return False
        self._remember(Path(path))
        self.window.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    def normalise_before_save(self) -> bool:
        net = self.document.network
        bad = {v: unnormalised_rows(net, v) for v in net.variables}
        bad = {v: rows for v, rows in bad.items() if rows}
        if not bad:
            return True
        if not dialogs.ask_normalise_before_save(self.window, sum(map(len, bad.values())), list(bad)):
            return False
        tables = {v: normalise_rows(np.asarray(net.cpt(v))) for v in bad}
        return self.document.execute(cmd.SetParameters(self.document, tables, text="Normalise CPTs before saving"))

    def maybe_save(self) -> bool:
        """True when it is fine to drop the document (saved, discarded, or nothing unsaved)."""
        unsaved = self.document.unsaved_work()
        if not unsaved:
            return True
        answer = dialogs.ask_save_changes(self.window, self.document.title, unsaved)
        if answer == dialogs.SAVE:
            return self.save()
        return answer == dialogs.DISCARD

    # ------------------------------------------------------------------ export
    def export_png_dialog(self) -> bool:
        """Export Image as PNG (SVG or PDF by the extension chosen; SVG first for a large network)."""
        return self._export(ask_image_path(self.window, self.window.scene, self._export_stem(), ".png"))

    def export_svg_dialog(self) -> bool:
        return self._export(ask_image_path(self.window, self.window.scene, self._export_stem(), ".svg"))

    def _export_stem(self) -> Path:
        return self.document.path if self.document.path else Path(self.document.network.name or "network")

    def _export(self, path: str) -> bool:
        if not path:
            return False
        try:
            written, message = export_image(self.window, self.window.scene, path)
        except OSError as exc:
            dialogs.show_error(self.window, "Cannot export", f"Could not write {path}", str(exc))
            return False
        self.window.statusBar().showMessage(message, 10000)
        return written

    # ------------------------------------------------------------------ menus of files
    def attach_menus(self, recent: QMenu, examples: QMenu) -> None:
        """The recent files, and the bundled examples: networks and projects, then influence diagrams."""
        self.recent_menu = recent
        self._refresh_recent(self.settings.value(cfg.RECENT_FILES))
        for path in example_networks():
            examples.addAction(example_title(path), functools.partial(self.open_path, path))
        diagrams = example_diagrams()
        if diagrams:
            examples.addSeparator()
        for path in diagrams:
            examples.addAction(f"{example_title(path)} (influence diagram)", functools.partial(self.open_path, path))
        examples.setEnabled(bool(examples.actions()))

    def _refresh_recent(self, files: list[str]) -> None:
        menu = self.recent_menu
        if menu is None:
            return
        menu.clear()
        for i, path in enumerate(files):
            menu.addAction(f"&{i + 1} {Path(path).name}", functools.partial(self.open_path, path)).setToolTip(path)
        if files:
            menu.addSeparator()
            menu.addAction("Clear Menu", lambda: self._refresh_recent(self._clear_recent()))
        menu.setEnabled(bool(files))

    def _clear_recent(self) -> list[str]:
        self.settings.set_value(cfg.RECENT_FILES, [])
        return []

    # ------------------------------------------------------------------ recovery
    def start_recovery(self) -> None:
        """Take the autosave slot, offer a copy a crashed session left, and start the autosave timer."""
        if not self.recovery.acquire():
            self.window.statusBar().showMessage(f"{SLOTS} BN Studio windows are running: no recovery copy for this one")
            return
        info = self.recovery.pending()
        if info is not None:
            if dialogs.ask_restore(self.window, info.source, info.saved_at):
                self.restore(info)
            self.recovery.discard()
        seconds = max(5, int(self.settings.value(cfg.AUTOSAVE_SECONDS)))
        self.autosave_timer.start(seconds * 1000)

    def restore(self, info) -> bool:
        try:
            loaded = self.recovery.restore(info)
        except (BNStudioError, OSError) as exc:
            dialogs.show_error(self.window, "Cannot restore", "The recovery copy could not be read", str(exc))
            return False
        # the original file's path: a project's relative data path resolves against its folder
        self.document.replace_network(loaded.network, info.source, loaded.project, loaded.evidence,
                                      decisions=loaded.decisions)
        self.document.undo_stack.resetClean()  # restored work is unsaved work ...
        self.document.mark_unsaved()           # ... all of it
        self.document.path_changed.emit()
        self.window.view.open_view()
        return True

    def autosave(self) -> bool:
        """Write the recovery copy of the session if it has unsaved work that changed since the last copy
        (True if written)."""
        doc = self.document
        key = doc.session_key()
        if not self.recovery.active or not doc.modified or self._autosaved == key:
            return False
        try:
            path = str(doc.path) if doc.path else None
            self.recovery.save(doc.network, doc.evidence, path, doc.project, self.window.view_options(),
                               doc.decisions)
        except (BNStudioError, OSError) as exc:
            self.window.statusBar().showMessage(f"Autosave failed: {exc}", 10000)
            return False
        self._autosaved = key
        return True

    def shutdown(self) -> None:
        """A clean exit: stop autosaving and delete the recovery copy."""
        self.autosave_timer.stop()
        self.recovery.release()
