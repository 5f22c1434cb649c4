"""What the main window offers the parts it is composed of (file handling, menus and toolbar, the docked panels'
glue). Those parts are typed against this description and never import the window, so imports run one way:
``main_window`` imports its parts; a part can be read, and tested, on its own.

:class:`WindowParts` is the window's base class rather than a ``Protocol``: the parts hand the window to Qt as a
parent widget, which a protocol cannot promise (docs/gui.md, "Imports run one way").
"""
from __future__ import annotations

from abc import abstractmethod
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QDockWidget, QMainWindow, QToolBar

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


class WindowParts(QMainWindow):
    """The main window as its parts see it: a QMainWindow with these parts (implemented by
    :class:`bnstudio.gui.main_window.MainWindow`; the annotations are set there, the abstract members defined)."""

    document: Document
    settings: Settings
    scene: NetworkScene
    view: NetworkView
    toolbar: QToolBar
    docks: dict[str, QDockWidget]
    files: Any                      # its FileController
    message_bar: MessageBar         # over the canvas
    appearance: Any                 # its bnstudio.gui.theme.Appearance (light, dark or the desktop's)
    # kept here by the parts themselves
    built_panels: dict[str, Any] | None = None     # bnstudio.gui.panels: the analysis panels once built
    pending_example_data: Path | None = None       # bnstudio.gui.panels: an example's data, read on first use
    stale_messages: Any                            # bnstudio.gui.document_reset.StaleMessages

    # built on first use (reading the property builds it)
    @property
    @abstractmethod
    def cpt_editor(self) -> CptEditor: ...
    @property
    @abstractmethod
    def data_panel(self) -> DataPanel: ...
    @property
    @abstractmethod
    def training_panel(self) -> TrainingPanel: ...
    @property
    @abstractmethod
    def structure_panel(self) -> StructurePanel: ...
    @property
    @abstractmethod
    def query_panel(self) -> QueryPanel: ...

    # window behaviour the menus call
    @abstractmethod
    def show_message(self, level: str, text: str) -> None: ...
    @abstractmethod
    def show_dock(self, key: str) -> None: ...
    @abstractmethod
    def view_options(self) -> dict[str, Any]: ...
    @abstractmethod
    def set_node_style(self, node_style: str) -> None: ...
    @abstractmethod
    def set_tool(self, tool: str) -> None: ...
    @abstractmethod
    def rename_selected(self) -> None: ...
    @abstractmethod
    def auto_layout(self) -> None: ...
    @abstractmethod
    def fit_view(self) -> None: ...
    @abstractmethod
    def normalise_all_cpts(self) -> bool: ...
    @abstractmethod
    def check_network(self) -> None: ...
    @abstractmethod
    def ask_ess_for_all(self) -> None: ...
    @abstractmethod
    def remove_all_counts(self) -> bool: ...
    @abstractmethod
    def reset_layout(self) -> None: ...
    @abstractmethod
    def set_appearance(self, choice: str) -> None: ...
    @abstractmethod
    def show_help(self) -> None: ...
    @abstractmethod
    def show_manual(self, context: str | None = None) -> None: ...
    @abstractmethod
    def show_about(self) -> None: ...
