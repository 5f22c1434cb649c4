"""Everything the main window needs for influence diagrams, in one call: ``install(window)``.

It creates the solver and the panel, docks the panel (tabbed with the query panel), feeds the solver's values
to the canvas, opens the selected utility node's table, opens clicked CPT rows in the CPT editor, and brings the
panel forward when a diagram is opened (diagram files open like every other file: File ▸ Open, Examples, recent
files, through :class:`~bnstudio.gui.file_controller.FileController`).
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget

from bnstudio.gui.decision_panel.compute import DecisionResult
from bnstudio.gui.decision_panel.panel import DecisionPanel
from bnstudio.gui.decision_panel.solver import DecisionSolver
from bnstudio.gui.dock_layout import RIGHT, make_dock, size_docks
from bnstudio.gui.panels import open_cpt_row, scrollable



def install(window) -> DecisionPanel:
    """Add the decision panel and its wiring to ``window`` (a :class:`~bnstudio.gui.main_window.MainWindow`)."""
    doc = window.document
    window.decision_solver = solver = DecisionSolver(doc, window)
    window.decision_panel = panel = DecisionPanel(doc, solver)
    window.decision_dock = dock = make_dock(window, "decisions", scrollable(panel))
    window.addDockWidget(Qt.RightDockWidgetArea, dock)
    if hasattr(window, "docks"):
        window.docks["decisions"] = dock     # View ▸ Reset Layout places it with the others
    query = getattr(window, "docks", {}).get("query")
    if query is not None:
        window.tabifyDockWidget(query, dock)
        window.docks[RIGHT[0][0]].raise_()       # the Node tab stays in front
        size_docks(window, window.docks)     # adding a dock resets the areas' shares
    solver.solved.connect(lambda result: show_on_canvas(window.scene, result))
    show_on_canvas(window.scene, solver.latest)
    window.scene.current_utility_changed.connect(panel.select_utility)
    panel.utility_selected.connect(dock.show)
    panel.utility_selected.connect(dock.raise_)
    panel.row_selected.connect(lambda var, parents: open_cpt_row(window, var, parents))
    doc.network_replaced.connect(lambda: doc.decisions is not None and _raise(dock))
    return panel


def show_on_canvas(scene, result: DecisionResult | None) -> None:
    solution = None if result is None else result.solution
    scene.show_decision_values(None if solution is None else solution.options,
                               None if solution is None else result.utilities,
                               None if solution is None else result.beliefs)


def _raise(dock: QDockWidget) -> None:
    dock.show()
    dock.raise_()
