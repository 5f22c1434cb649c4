"""The analysis panels docked in the main window and the signals that tie them together.

Data -> parameter learning and structure learning (the aligned data selection); query and compare views ->
the CPT editor (a clicked CPT row opens in it); a bagged-mp run -> the query panel's bootstrap spread; the
structure panel draws its diff on the window's canvas. Where the docks go: :mod:`bnstudio.gui.dock_layout`.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget

from bnstudio.gui.data_panel import DataPanel
from bnstudio.gui.dock_layout import make_dock
from bnstudio.gui.query_panel import QueryPanel
from bnstudio.gui.query_panel.compute import row_number
from bnstudio.gui.resources import resource_root
from bnstudio.gui.structure_panel import StructurePanel
from bnstudio.gui.training_panel import TrainingPanel
from bnstudio.gui import document_reset, wheel_guard
from bnstudio.gui.window_parts import WindowParts


DATA_FOR_EXAMPLE = {"alarm.bif": "alarm.csv", "asia.bif": "asia.csv", "child.bif": "child.csv",
                    "insurance.bif": "insurance.csv", "sachs.bif": "sachs.csv"}


def install_panels(window: WindowParts) -> None:
    """Create the four panels, dock them and connect them (called once from the window's constructor)."""
    doc = window.document
    wheel_guard.install()     # the wheel scrolls the docks; it never changes an unfocused setting
    window.data_panel = DataPanel(doc)
    window.training_panel = TrainingPanel(doc)
    window.structure_panel = StructurePanel(doc, window.scene)
    window.query_panel = QueryPanel(doc)
    for key, widget in (("data", window.data_panel), ("training", window.training_panel),
                        ("structure", window.structure_panel), ("query", window.query_panel)):
        window.docks[key] = make_dock(window, key, scrollable(widget))
    window.data_panel.selection_changed.connect(window.training_panel.set_selection)
    window.data_panel.selection_changed.connect(window.structure_panel.set_selection)
    window.query_panel.row_selected.connect(lambda var, parents: open_cpt_row(window, var, parents))
    window.training_panel.row_selected.connect(lambda var, row: open_cpt_row_index(window, var, row))
    window.training_panel.run_finished.connect(window.query_panel.set_ensemble)
    window.query_panel.learn_counts_requested.connect(lambda: learn_counts_from_data(window))
    window.docks["query"].visibilityChanged.connect(lambda shown: shown and window.query_panel.came_into_view())
    document_reset.install(window)   # opening another network clears every panel's view of the old one


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
    """The panel in a scroll area, so a dock can be smaller than the panel's own minimum (small screens)."""
    area = QScrollArea()
    area.setWidget(panel)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.NoFrame)
    return area


def open_cpt_row(window: WindowParts, variable: str, parents: dict[str, str]) -> None:
    """Select ``variable`` and the CPT row named by its parent states in the probability table."""
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
    if path.parent != (resource_root() / "networks").resolve() or path.name not in DATA_FOR_EXAMPLE:
        return False
    data = resource_root() / "data" / DATA_FOR_EXAMPLE[path.name]
    if not data.is_file():
        return False
    window.data_panel.load(data, interactive=False, with_file=True)
    return True


def shutdown_panels(window: WindowParts) -> None:
    """Stop the panels' background jobs before the window goes (docked widgets get no closeEvent)."""
    for panel in (window.data_panel, window.training_panel, window.structure_panel, window.query_panel):
        panel.shutdown()
