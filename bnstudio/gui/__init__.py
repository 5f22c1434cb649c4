"""The BN Studio desktop app (PySide6). The only package allowed to import Qt, pyqtgraph or matplotlib.

Layout: :mod:`~bnstudio.gui.document` holds the network, the undo stack and the evidence;
:mod:`~bnstudio.gui.commands` are the undoable edits (one command = one core mutation);
:mod:`~bnstudio.gui.canvas`, :mod:`~bnstudio.gui.cpt_editor` and :mod:`~bnstudio.gui.properties` are adapters
that redraw on the network's events and write back only through commands; :mod:`~bnstudio.gui.main_window`
composes them. Start the app with :func:`bnstudio.gui.app.run`.
"""
from bnstudio.gui import compat  # noqa: E402,F401 - binding work-arounds first (see compat)
