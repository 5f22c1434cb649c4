"""The BN Studio desktop app (PySide6). The only package allowed to import Qt, pyqtgraph or matplotlib.

Layout: the application model is :mod:`bnstudio.app`, free of Qt (docs/architecture.md §7);
:mod:`~bnstudio.gui.document` wraps its document (the network, the undo history, the evidence) as a QObject
whose signals re-emit the model's notices, and the edits are :mod:`bnstudio.app.commands` (one command = one core
mutation); :mod:`~bnstudio.gui.canvas`, :mod:`~bnstudio.gui.cpt_editor` and :mod:`~bnstudio.gui.properties` are
adapters that redraw on the network's events and write back only through commands; :mod:`~bnstudio.gui.main_window`
composes them. Start the app with :func:`bnstudio.gui.app.run`.

The core the window uses (numpy, networkx, the readers, inference, influence diagrams, projects) is imported
before PySide6: once PySide6 is loaded, its import hook inspects the source of every module imported after it
(looking for ``__feature__`` switches), which made the app's start-up ~0.15 s slower (issue 23;
``benchmarks/startup_bench.py``). None of these imports scipy.stats, pandas or plotting (a test pins it).
"""
import bnstudio.decision  # the core the window uses, before Qt: see below
import bnstudio.io
import bnstudio.io.project  # noqa: F401
from bnstudio.gui import compat  # noqa: F401 - binding work-arounds first (see compat)
