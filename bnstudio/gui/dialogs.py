"""Every modal question and error dialog of the app, in one module (tests replace these functions).

:func:`install_excepthook` routes any unexpected exception to one error dialog with the details, so a bug
never fails silently; known errors (bad files, refused edits) are shown in words elsewhere.
"""
from __future__ import annotations

import datetime
import sys
import traceback
from typing import Callable

from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from bnstudio.app import file_io
from bnstudio.errors import FormatError

SAVE, DISCARD, CANCEL = "save", "discard", "cancel"


def show_error(parent: QWidget | None, title: str, summary: str, details: str = "") -> None:
    box = QMessageBox(QMessageBox.Icon.Critical, title, summary, QMessageBox.StandardButton.Ok, parent)
    if details:
        box.setInformativeText(details if len(details) < 600 else details[:600] + "…")
        box.setDetailedText(details)
    box.exec()


def show_format_error(parent: QWidget | None, exc: FormatError) -> None:
    """A parser error: the file, the line (and column) and the message."""
    summary, details = file_io.format_error_text(exc)
    show_error(parent, "Cannot open file", summary, details)


def save_changes_box(parent: QWidget | None, name: str, unsaved: list[str] | None = None) -> QMessageBox:
    """The "Save the changes to NAME?" question, listing what would be lost."""
    box = QMessageBox(QMessageBox.Icon.Warning, "Unsaved changes", f"Save the changes to {name}?",
                      QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                      | QMessageBox.StandardButton.Cancel, parent)
    box.setDefaultButton(QMessageBox.StandardButton.Save)
    if unsaved:
        box.setInformativeText("Not saved yet:\n" + "\n".join(f"• {part}" for part in unsaved))
    return box


def ask_save_changes(parent: QWidget | None, name: str, unsaved: list[str] | None = None) -> str:
    """SAVE, DISCARD or CANCEL for unsaved work on ``name``; ``unsaved`` names each part that would be lost."""
    answer = QMessageBox.StandardButton(save_changes_box(parent, name, unsaved).exec())   # exec() gives an int
    return {QMessageBox.StandardButton.Save: SAVE, QMessageBox.StandardButton.Discard: DISCARD}.get(answer, CANCEL)


def ask_normalise_before_save(parent: QWidget | None, n_rows: int, variables: list[str]) -> bool:
    """True to normalise the rows that do not sum to 1 and save; False to cancel the save."""
    names = ", ".join(variables[:8]) + ("…" if len(variables) > 8 else "")
    answer = QMessageBox.question(
        parent, "Rows do not sum to 1",
        f"{n_rows} CPT row{'s' if n_rows != 1 else ''} in {names} do not sum to 1.\n\n"
        "Normalise them (divide each row by its sum) and save, or cancel to fix them yourself?",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Yes)
    return answer == QMessageBox.StandardButton.Yes


def ask_restore(parent: QWidget | None, source: str | None, saved_at: float) -> bool:
    when = datetime.datetime.fromtimestamp(saved_at).strftime("%Y-%m-%d %H:%M") if saved_at else "an earlier session"
    what = f"unsaved changes to {source}" if source else "an unsaved network"
    answer = QMessageBox.question(
        parent, "Restore unsaved work?",
        f"BN Studio did not close properly last time. A recovery copy of {what} was saved at {when}.\n\n"
        "Restore it?", QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes)
    return answer == QMessageBox.StandardButton.Yes


def show_unexpected(exc_type, exc, tb) -> None:
    details = "".join(traceback.format_exception(exc_type, exc, tb))
    parent = QApplication.activeWindow()
    show_error(parent, "Unexpected error",
               f"Something went wrong: {exc_type.__name__}: {exc}\n\nYour network is unchanged where the "
               "operation failed. Please report this with the details below.", details)


def install_excepthook(show: Callable[..., None] | None = None) -> Callable:
    """Send uncaught exceptions (also those raised in Qt callbacks) to the error dialog; returns the old hook."""
    previous = sys.excepthook

    def hook(exc_type, exc, tb) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            previous(exc_type, exc, tb)
            return
        traceback.print_exception(exc_type, exc, tb, file=sys.stderr)
        (show or show_unexpected)(exc_type, exc, tb)

    sys.excepthook = hook
    return previous
