"""What the main window offers the parts it is composed of (file handling, menus and toolbar, the docked panels'
glue). Those parts are typed against this description and never import the window, so imports run one way:
``main_window`` imports its parts; a part can be read, and tested, on its own.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtWidgets import QDockWidget, QMenuBar, QStatusBar, QStyle, QToolBar

from bnstudio.gui.canvas import NetworkScene, NetworkView
from bnstudio.gui.cpt_editor import CptEditor
from bnstudio.gui.document import Document
from bnstudio.gui.message_bar import MessageBar
from bnstudio.gui.settings import Settings

if TYPE_CHECKING:   # the analysis panels are built on first use (bnstudio.gui.panels): importing them is slow
    from bnstudio.gui.data_panel import DataPanel
    from bnstudio.gui.query_panel import QueryPanel
    from bnstudio.gui.structure_panel import StructurePanel
    from bnstudio.gui.training_panel import TrainingPanel


class WindowParts(Protocol):
    """The main window as its parts see it (implemented by :class:`bnstudio.gui.main_window.MainWindow`)."""

    document: Document
    settings: Settings
    scene: NetworkScene
    view: NetworkView
    cpt_editor: CptEditor
    toolbar: QToolBar
    docks: dict[str, QDockWidget]
    files: Any                      # its FileController
    data_panel: "DataPanel"            # built on first use (reading the attribute builds it)
    training_panel: "TrainingPanel"
    structure_panel: "StructurePanel"
    query_panel: "QueryPanel"
    message_bar: MessageBar         # over the canvas

    # window behaviour the menus call
    def show_message(self, level: str, text: str) -> None: ...
    def show_dock(self, key: str) -> None: ...
    def view_options(self) -> dict[str, Any]: ...
    def set_node_style(self, node_style: str) -> None: ...
    def set_tool(self, tool: str) -> None: ...
    def rename_selected(self) -> None: ...
    def auto_layout(self) -> None: ...
    def normalise_all_cpts(self) -> bool: ...
    def check_network(self) -> None: ...
    def ask_ess_for_all(self) -> None: ...
    def remove_all_counts(self) -> bool: ...
    def reset_layout(self) -> None: ...
    def show_help(self) -> None: ...
    def show_about(self) -> None: ...

    # what QMainWindow provides
    def statusBar(self) -> QStatusBar: ...
    def menuBar(self) -> QMenuBar: ...
    def style(self) -> QStyle: ...
    def close(self) -> bool: ...
