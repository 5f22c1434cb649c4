"""A read-only window on a study file (``bnstudio experiment``): progress, tables, comparisons and figures; a
table cell opens that run's fitted network in the main window. :func:`open_study_dialog` is File > Open Study…"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from bnstudio.gui.study_view.view import StudyView
from bnstudio.gui.window_parts import WindowParts


def open_study(window: WindowParts, path: str | Path) -> StudyView:
    """Show the study file ``path`` in a new study window owned by ``window``; its runs open in ``window``."""
    view = StudyView(path, window)
    view.open_network.connect(lambda network, title: show_network(window, network, title))
    view.show()
    return view


def open_study_dialog(window: WindowParts) -> StudyView | None:
    """Ask for a study file (``.sqlite``) and show it."""
    path, _ = QFileDialog.getOpenFileName(window, "Open study", "",
                                          "Study results (*.sqlite);;All files (*)")
    return open_study(window, path) if path else None


def show_network(window: WindowParts, network, title: str) -> bool:
    """Edit ``network`` (a run's fitted network) in ``window`` as an unsaved document named ``title``, after
    asking about unsaved work there."""
    if not window.files.maybe_save():
        return False
    window.document.replace_network(network)
    window.document.untitled_name = title
    window.document.path_changed.emit()
    window.view.open_view()
    return True


__all__ = ["StudyView", "open_study", "open_study_dialog", "show_network"]
