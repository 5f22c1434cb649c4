"""The analysis panels docked in the main window and the signals that tie them together.

Data -> parameter learning and structure learning (the aligned data selection); query and compare views ->
the CPT editor (a clicked CPT row opens in it); a bagged-mp run -> the query panel's bootstrap spread; the
structure panel draws its diff on the window's canvas. Where the docks go: :mod:`bnstudio.gui.dock_layout`.

**Built on first use.** The panels bring pandas, scipy.stats and pyqtgraph, which take longer to import than
the whole first window takes to show (issue 23). Their docks exist from the start (so menus, layouts and
saved window states know them) with an empty placeholder; the four panels are built together, and their
modules imported, the first time one of their docks comes into view, a part of the window asks for one
(``window.query_panel`` etc. are properties that call :func:`analysis_panels`), or a project that keeps
panel content (data, runs, saved queries, expert counts) is opened.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget

from bnstudio.gui import document_reset, manual, wheel_guard
from bnstudio.gui.dock_layout import make_dock
from bnstudio.gui.dock_title import HelpTitleBar
from bnstudio.gui.window_parts import WindowParts
from bnstudio.resources import bundled_data, bundled_example

DATA_FOR_EXAMPLE = {"alarm.bif": "alarm.csv", "asia.bif": "asia.csv", "child.bif": "child.csv",
                    "insurance.bif": "insurance.csv", "sachs.bif": "sachs.csv"}
ANALYSIS_DOCKS = ("data", "training", "structure", "query")
#: sections of a project that a panel shows (opening such a project builds the panels)
PANEL_SECTIONS = ("data", "runs", "queries")


def install_panels(window: WindowParts) -> None:
    """Dock the four panels' places (empty until first use) and build the panels when they are first needed
    (called once from the window's constructor)."""
    window.built_panels = None
    for key in ANALYSIS_DOCKS:
        window.docks[key] = dock = make_dock(window, key, QWidget())
        dock.visibilityChanged.connect(lambda shown: analysis_panels(window) if shown else None)
        if key in manual.CONTEXT:     # context help: "?" opens the manual at the panel's section; What's This
            dock.setTitleBarWidget(HelpTitleBar(dock, functools.partial(window.show_manual, key)))
            dock.setWhatsThis(manual.WHATS_THIS[key])
    window.document.network_replaced.connect(lambda: _open_project_in_panels(window))
    document_reset.install(window)   # opening another network clears every panel's view of the old one


def analysis_panels(window: WindowParts) -> dict[str, Any]:
    """The four panels by dock key, built (and their modules imported) on the first call."""
    if window.built_panels is None:
        window.built_panels = _build_panels(window)
        pending = getattr(window, "pending_example_data", None)
        if pending is not None:
            window.pending_example_data = None
            window.built_panels["data"].load(pending, interactive=False, with_file=True)
    return window.built_panels


def panels_built(window: WindowParts) -> bool:
    return getattr(window, "built_panels", None) is not None


def _build_panels(window: WindowParts) -> dict[str, Any]:
    from bnstudio.gui.data_panel import DataPanel
    from bnstudio.gui.query_panel import QueryPanel
    from bnstudio.gui.structure_panel import StructurePanel
    from bnstudio.gui.training_panel import TrainingPanel

    doc = window.document
    data, training = DataPanel(doc), TrainingPanel(doc)
    structure, query = StructurePanel(doc, window.scene), QueryPanel(doc)
    panels = {"data": data, "training": training, "structure": structure, "query": query}
    for key, panel in panels.items():
        placeholder = window.docks[key].widget()
        window.docks[key].setWidget(scrollable(panel))
        placeholder.deleteLater()
    data.selection_changed.connect(training.set_selection)
    data.selection_changed.connect(structure.set_selection)
    query.row_selected.connect(lambda var, parents: open_cpt_row(window, var, parents))
    training.row_selected.connect(lambda var, row: open_cpt_row_index(window, var, row))
    training.run_finished.connect(query.set_ensemble)
    query.learn_counts_requested.connect(lambda: learn_counts_from_data(window))
    query.relevance_requested.connect(lambda target: window.scene.overlay.show_relevance(target or None))
    window.docks["query"].visibilityChanged.connect(lambda shown: shown and query.came_into_view())
    if window.docks["query"].isVisible():
        query.came_into_view()
    return panels


def _open_project_in_panels(window: WindowParts) -> None:
    """A project keeping what a panel shows: build the panels, which read it (the data panel is told, as it
    only reads a project when one is opened)."""
    project = window.document.project
    if panels_built(window) or project is None:
        return
    view = getattr(project, "view", None) or {}
    if any(getattr(project, s, None) for s in PANEL_SECTIONS) or view.get("expert_ess") is not None:
        analysis_panels(window)["data"]._on_network_replaced()


def learn_counts_from_data(window: WindowParts) -> bool:
    """Fit the parameters with mp on the data panel's selection and apply them (one undoable step), so the
    network carries Dirichlet counts and the query panel can show error bars. Without data, say where to load
    them. Returns whether a run started."""
    training = window.training_panel
    if training.selection is None:
        window.show_dock("data")
        window.show_message("info", "Open a data set in the Data panel first (Learn ▸ Open Data…); then "
                                    "“Learn from data” fits the parameters with their counts.")
        return False
    training.options.set_method("mp")
    if training.run() is None:
        window.show_dock("training")
        return False

    signals = (training.run_finished, training.run_failed, training.run_cancelled)

    def ended(outcome: object = None) -> None:   # once: apply a finished run, forget a failed or cancelled one
        for signal in signals:
            signal.disconnect(ended)
        index = next((k for k, run in enumerate(training.runs) if run is outcome), None)
        if index is not None:
            training.apply_run(index)
    for signal in signals:
        signal.connect(ended)
    return True


def scrollable(panel: QWidget) -> QScrollArea:
    """The panel in a scroll area, so a dock can be smaller than the panel's own minimum (small screens); the
    wheel scrolls it and never changes an unfocused setting (:func:`bnstudio.gui.wheel_guard.protect`)."""
    area = QScrollArea()
    area.setWidget(panel)
    wheel_guard.protect(panel)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    return area


def open_cpt_row(window: WindowParts, variable: str, parents: dict[str, str]) -> None:
    """Select ``variable`` and the CPT row named by its parent states in the probability table."""
    from bnstudio.app.query.compute import row_number  # with the panels that call this (slow import)

    open_cpt_row_number(window, variable, row_number(window.document.network, variable, parents))


def open_cpt_row_index(window: WindowParts, variable: str, row: tuple[int, ...]) -> None:
    """The same for a row given as parent-state indices (row-major over the parents, as the editor shows)."""
    shape = window.document.network.family_shape(variable)[:-1]
    open_cpt_row_number(window, variable, int(np.ravel_multi_index(row, shape)) if row else 0)


def open_cpt_row_number(window: WindowParts, variable: str, row: int) -> None:
    window.scene.select_only([variable])
    editor = window.cpt_editor
    editor.table.selectRow(row)
    editor.table.scrollTo(editor.model.index(row, 0))
    window.docks["cpt"].raise_()


def load_example_data(window: WindowParts, network_path: str | Path) -> bool:
    """For a bundled example network, load its bundled data set into the data panel (in the background)."""
    path = Path(network_path).resolve()
    if path.name not in DATA_FOR_EXAMPLE or path != bundled_example(path.name).resolve():
        return False
    data = bundled_data(DATA_FOR_EXAMPLE[path.name])
    if not data.is_file():
        return False
    if panels_built(window):
        window.data_panel.load(data, interactive=False, with_file=True)
    else:   # read when the panels are first needed (pandas is not imported before)
        window.pending_example_data = data
    return True


def shutdown_panels(window: WindowParts) -> None:
    """Stop the panels' background jobs before the window goes (docked widgets get no closeEvent)."""
    for panel in (window.built_panels or {}).values():
        panel.shutdown()
