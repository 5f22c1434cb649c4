"""Everything the main window needs for influence diagrams, in one call: ``install(window)``.

It creates the solver and the Decisions dock (tabbed with the query panel; the panel in it is built on first
use), feeds the solver's values to the canvas, opens the selected utility node's table, opens clicked CPT rows
in the CPT editor, and brings the panel forward when a diagram is opened (diagram files open like every other file: File ▸ Open, Examples, recent
files, through :class:`~bnstudio.gui.file_controller.FileController`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QWidget

from bnstudio.app.decisions.compute import DecisionResult
from bnstudio.gui.decision_panel.solver import DecisionSolver
from bnstudio.gui.dock_layout import RIGHT, make_dock, size_docks
from bnstudio.gui.panels import open_cpt_row, scrollable

if TYPE_CHECKING:
    from bnstudio.gui.decision_panel.panel import DecisionPanel
    from bnstudio.gui.document import Document



def install(window) -> None:
    """Add the decision solver, the Decisions dock and their wiring to ``window`` (a
    :class:`~bnstudio.gui.main_window.MainWindow`). The panel itself is built on first use
    (:func:`decision_panel`: the dock shown, a utility node selected, a diagram opened)."""
    doc: Document = window.document
    window.decision_solver = solver = DecisionSolver(doc, window)
    window.decision_dock = dock = make_dock(window, "decisions", QWidget())
    window.built_decision_panel = None
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    if hasattr(window, "docks"):
        window.docks["decisions"] = dock     # View ▸ Reset Layout places it with the others
    query = getattr(window, "docks", {}).get("query")
    if query is not None:
        window.tabifyDockWidget(query, dock)
        window.docks[RIGHT[0][0]].raise_()       # the Node tab stays in front
        size_docks(window, window.docks)     # adding a dock resets the areas' shares
    solver.solved.connect(lambda result: show_on_canvas(window.scene, result))
    show_on_canvas(window.scene, solver.latest)
    window.scene.current_utility_changed.connect(
        lambda name: decision_panel(window).select_utility(name) if name else None)
    dock.visibilityChanged.connect(lambda shown: decision_panel(window) if shown else None)
    doc.network_replaced.connect(lambda: _raise(dock) if doc.decisions is not None else None)


def decision_panel(window) -> "DecisionPanel":
    """The window's decision panel, built into its dock on the first call."""
    from bnstudio.gui.decision_panel.panel import DecisionPanel

    if window.built_decision_panel is None:
        window.built_decision_panel = panel = DecisionPanel(window.document, window.decision_solver)
        dock = window.decision_dock
        placeholder = dock.widget()
        dock.setWidget(scrollable(panel))
        placeholder.deleteLater()
        panel.utility_selected.connect(dock.show)
        panel.utility_selected.connect(dock.raise_)
        panel.row_selected.connect(lambda var, parents: open_cpt_row(window, var, parents))
    return window.built_decision_panel


def show_on_canvas(scene, result: DecisionResult | None) -> None:
    solution = None if result is None else result.solution
    if result is None or solution is None:
        scene.show_decision_values(None, None, None)
    else:
        scene.show_decision_values(solution.options, result.utilities, result.beliefs)


def _raise(dock: QDockWidget) -> None:
    dock.show()
    dock.raise_()
