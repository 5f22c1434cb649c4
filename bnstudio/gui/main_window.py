"""The main window: the graph canvas with its message bar, docks for the CPT editor, the node properties and
the undo history, menus, a toolbar and a status bar. It composes the parts; the parts do the work."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QGraphicsView,
    QInputDialog,
    QLabel,
    QMessageBox,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from bnstudio.app import commands as cmd
from bnstudio.app.layout_check import DISCARDED, layout_digest, layout_problem
from bnstudio.app.session import count
from bnstudio.core.cpt_ops import normalise_rows
from bnstudio.core.network import Network
from bnstudio.core.validation import unnormalised_rows
from bnstudio.errors import BNStudioError
from bnstudio.gui import dock_layout, manual, theme
from bnstudio.gui import settings as cfg
from bnstudio.gui.actions import Actions
from bnstudio.gui.canvas import SELECT, NetworkScene, NetworkView
from bnstudio.gui.canvas import style as st
from bnstudio.gui.canvas.arrange import auto_layout_command, fill_missing_positions
from bnstudio.gui.canvas.node_list import NodeListButton
from bnstudio.gui.cpt_editor import CptEditor
from bnstudio.gui.decision_panel import decision_panel as decision_panel_of
from bnstudio.gui.decision_panel import install as install_decisions
from bnstudio.gui.document import Document
from bnstudio.gui.file_controller import FileController
from bnstudio.gui.history import HistoryView
from bnstudio.gui.icons import app_icon
from bnstudio.gui.message_bar import FloatingPlacement, MessageBar
from bnstudio.gui.panels import analysis_panels, install_panels, open_cpt_row_index, panels_built, shutdown_panels
from bnstudio.gui.properties import PropertiesPanel
from bnstudio.gui.recovery import Recovery
from bnstudio.gui.time_panel import install as install_time
from bnstudio.gui.time_panel.wiring import shutdown as shutdown_time
from bnstudio.gui.window_parts import WindowParts

if TYPE_CHECKING:   # built on first use (bnstudio.gui.panels): not imported with the window
    from bnstudio.gui.data_panel import DataPanel
    from bnstudio.gui.decision_panel.solver import DecisionSolver
    from bnstudio.gui.query_panel import QueryPanel
    from bnstudio.gui.structure_panel import StructurePanel
    from bnstudio.gui.training_panel import TrainingPanel

APP_NAME = "BN Studio"
#: pixels between a message floating over the canvas and the network fitted below it
MESSAGE_GAP = 6
HELP_TEXT = """<h3>Mouse and keyboard</h3><table cellspacing=4>
<tr><td><b>Double-click</b> empty space</td><td>add a node (or use the Add Node tool)</td></tr>
<tr><td><b>Double-click</b> a node's title, <b>F2</b></td><td>rename in place (zoomed out, a double-click
on a node zooms in to it)</td></tr>
<tr><td><b>Shift+drag</b> from node to node</td><td>add an arc (or use the Add Arc tool)</td></tr>
<tr><td><b>Click</b> a node</td><td>select it: its table and properties open (evidence never changes)</td></tr>
<tr><td><b>Double-click</b> a state's bar</td><td>set it as evidence; double-click again to clear
(or right-click ▸ Set evidence)</td></tr>
<tr><td><b>Right-click</b></td><td>node, arc (reverse, delete) and canvas menus</td></tr>
<tr><td><b>Drag</b> on empty space</td><td>select several nodes (Ctrl adds)</td></tr>
<tr><td><b>Delete</b></td><td>delete the selected nodes and arcs</td></tr>
<tr><td><b>Arrow keys</b></td><td>nudge the selection</td></tr>
<tr><td><b>Wheel</b>, Ctrl +/−</td><td>zoom; <b>Ctrl+Shift+F</b> fits the network to the view</td></tr>
<tr><td><b>Ctrl+F</b></td><td>find a node by name; right-click a node ▸ Focus on Parents and Children</td></tr>
<tr><td><b>Middle-drag</b>, Space+drag</td><td>pan</td></tr></table>"""


class MainWindow(WindowParts):
    """One document in one window; ``files`` opens and saves it, ``menu_actions`` holds the menu actions."""

    decision_solver: DecisionSolver   # set by bnstudio.gui.decision_panel.install

    def __init__(self, settings: cfg.Settings | None = None, recovery: Recovery | None = None) -> None:
        super().__init__()
        self.settings = settings or cfg.Settings()
        self.document = Document(parent=self, prepare_network=self._prepare_network)
        self.scene = NetworkScene(self.document, self)
        self.view = NetworkView(self.scene)
        self.message_bar = MessageBar()
        self.rows_notice = MessageBar()    # CPT rows that do not sum to 1: shown until they do
        self._cpt_editor: CptEditor | None = None   # built on first use: see the cpt_editor property
        self.properties = PropertiesPanel(self.document)
        self.history = HistoryView(self.document.undo_stack)
        self.toolbar = QToolBar("Toolbar")
        self.evidence_label, self.summary_label, self.zoom_label = QLabel(), QLabel(), QLabel()
        self.node_list = NodeListButton(lambda: list(self.document.network.variables))
        self.docks: dict[str, QDockWidget] = {}
        self._manual: manual.ManualWindow | None = None   # Help ▸ Manual, built when first asked for
        self._hint = ("", "")     # (node, text) of the double-click hint on show in the status bar
        self.files = FileController(self, recovery)
        choice = self.settings.value(cfg.APPEARANCE)   # light, dark or the desktop's, before anything is drawn
        self.appearance = theme.Appearance(choice if choice in dict(theme.CHOICES) else theme.SYSTEM, self)
        self._compose()
        install_decisions(self)           # influence diagrams: the Decisions dock, canvas values, examples
        install_time(self)                # two-slice networks: the Time dock (the plate is the canvas's)
        install_panels(self)
        dock_layout.place(self, self.docks)   # in their areas; tabbed by the saved layout or by arrange()
        self.dock_proportions = dock_layout.DockProportions(self, self.docks)
        self.menu_actions = Actions(self)
        self.menus = self.menu_actions.build_menus()
        self.menu_actions.fill_toolbar(self.toolbar)
        theme.PaletteFollower(self, self.menu_actions.refresh_icons)   # dark icons on a dark toolbar: drawn again
        self.files.attach_menus(self.menus["recent"], self.menus["examples"])
        actions = self.menu_actions
        self.view.background_actions = [actions.auto_layout, actions.fit, actions.clear_evidence]
        self._connect()
        self.docks_wait_for_a_node = False   # first sight: docks hidden until a node is selected
        self._restore_settings()
        self._update_title()
        self._update_status()

    def _compose(self) -> None:
        self.setWindowIcon(app_icon())
        self.setObjectName("MainWindow")
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.view, 1)
        self.message_placement = FloatingPlacement(self.message_bar, self.view)   # over the canvas, not above it
        self.rows_placement = FloatingPlacement(self.rows_notice, self.view, bottom=True)
        self.setCentralWidget(central)
        self.toolbar.setObjectName("toolbar")
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.addToolBar(self.toolbar)
        self.history.setEmptyLabel("<opened>")
        for key, widget in (("properties", self.properties), ("history", self.history), ("cpt", QWidget())):
            self.docks[key] = dock_layout.make_dock(self, key, widget)
        self.docks["cpt"].visibilityChanged.connect(lambda shown: shown and self.cpt_editor)
        for label in (self.evidence_label, self.summary_label, self.zoom_label):
            label.setContentsMargins(10, 0, 10, 0)
        for widget in (self.evidence_label, self.node_list, self.summary_label, self.zoom_label):
            self.statusBar().addPermanentWidget(widget)

    def _connect(self) -> None:
        doc = self.document
        doc.message.connect(self.show_message)
        doc.path_changed.connect(self._update_title)
        doc.session_changed.connect(self._update_title)
        doc.network_replaced.connect(self._on_network_replaced)
        doc.network_changed.connect(lambda _event: self._update_status())
        doc.evidence_changed.connect(self._update_status)
        doc.beliefs_changed.connect(self._update_status)
        doc.rows_checked.connect(self._on_rows_checked)
        doc.updates.visible = self.scene.visible_names
        self.scene.current_variable_changed.connect(self._on_current_variable)
        self.view.zoom_changed.connect(self._show_zoom)
        self.view.zoom_changed.connect(lambda _zoom: self._follow_hint())
        self.view.opened_in_part.connect(lambda: self.statusBar().showMessage(
            "Part of the network, at a size to read: Fit (Ctrl+Shift+F) shows it whole, Ctrl+F finds a node", 15000))
        self.node_list.popup.chosen.connect(self.view.go_to)

    # ------------------------------------------------------------------ settings
    def _restore_settings(self) -> None:
        s = self.settings
        geometry, state = s.value(cfg.WINDOW_GEOMETRY), s.value(cfg.WINDOW_STATE)
        problem = layout_problem(bytes(geometry), bytes(state), s.value(cfg.WINDOW_DIGEST))
        if problem is not None:   # never handed to Qt: restoreState trusts its bytes (a changed one crashed)
            geometry, state = QByteArray(), QByteArray()
            for key in (cfg.WINDOW_GEOMETRY, cfg.WINDOW_STATE, cfg.WINDOW_DIGEST):
                s.set_value(key, key.default)
            # after the first file opens (opening clears the message bar: one reset path)
            QTimer.singleShot(0, lambda: self.show_message("warning", f"{DISCARDED} ({problem})."))
        if geometry.isEmpty() or not self.restoreGeometry(geometry):
            dock_layout.first_geometry(self)
        if not state.isEmpty():   # a state of an older arrangement is ignored
            self.dock_proportions.restored = self.restoreState(state, dock_layout.LAYOUT_VERSION)
        if not self.dock_proportions.restored:   # the user's first sight: the canvas takes the window
            dock_layout.arrange(self, self.docks)
            dock_layout.collapse(self.docks)
            self.docks_wait_for_a_node = True
        style = s.value(cfg.NODE_STYLE)
        self.set_node_style(style if style in st.NODE_STYLES else st.BARS)

    def show_dock(self, key: str) -> None:
        """Show dock ``key`` (if hidden) in front of its tab group (its area at its default share if it was
        empty)."""
        dock_layout.reveal(self, self.docks, [key])

    def reset_layout(self) -> None:
        """Every dock back in its default place and size (View ▸ Reset Layout)."""
        self.docks_wait_for_a_node = False
        dock_layout.arrange(self, self.docks)

    def set_appearance(self, choice: str) -> None:
        """View ▸ Appearance: follow the desktop's colour scheme, or force light or dark (kept in the settings)."""
        self.appearance.set_choice(choice)
        self.settings.set_value(cfg.APPEARANCE, choice)
        if hasattr(self, "menu_actions"):
            self.menu_actions.appearance[choice].setChecked(True)

    def save_settings(self) -> None:
        geometry, state = self.saveGeometry(), self.saveState(dock_layout.LAYOUT_VERSION)
        self.settings.set_value(cfg.WINDOW_GEOMETRY, geometry)
        self.settings.set_value(cfg.WINDOW_STATE, state)
        self.settings.set_value(cfg.WINDOW_DIGEST, layout_digest(bytes(geometry.data()), bytes(state.data())))
        self.settings.set_value(cfg.NODE_STYLE, self.scene.node_style)
        self.settings.sync()

    def view_options(self) -> dict[str, Any]:
        """What a project file keeps about the view (and the query panel's expert counts)."""
        ess = self.query_panel.controls.ess_value() if panels_built(self) else None   # unbuilt: the default
        return {"node_style": self.scene.node_style, "expert_ess": ess}

    # the analysis panels, built on first use (bnstudio.gui.panels)
    @property
    def data_panel(self) -> DataPanel:
        return analysis_panels(self)["data"]

    @property
    def training_panel(self) -> TrainingPanel:
        return analysis_panels(self)["training"]

    @property
    def structure_panel(self) -> StructurePanel:
        return analysis_panels(self)["structure"]

    @property
    def query_panel(self) -> QueryPanel:
        return analysis_panels(self)["query"]

    decision_panel = property(decision_panel_of)   # built on first use too (bnstudio.gui.decision_panel.wiring)

    # ------------------------------------------------------------------ document
    def _prepare_network(self, net: Network) -> None:
        fill_missing_positions(net, st.BARS)  # bar-chart sizes: roomy enough for both views

    def _on_network_replaced(self) -> None:
        project = self.document.project
        style = project.view.get("node_style") if project is not None else None
        if style in st.NODE_STYLES:
            self.set_node_style(style)
        self._on_current_variable("")
        self._update_status()

    @property
    def cpt_editor(self) -> CptEditor:
        """The probability table's editor, built the first time it is shown or used (its table, toolbar and
        noisy-MAX editor took ~30 ms of a start-up that shows no table)."""
        if self._cpt_editor is None:
            self._cpt_editor = editor = CptEditor(self.document)
            placeholder = self.docks["cpt"].widget()
            self.docks["cpt"].setWidget(editor)
            placeholder.deleteLater()
            names = self.scene.selected_names()
            editor.set_variable(names[0] if len(names) == 1 else None)
        return self._cpt_editor

    def _on_current_variable(self, name: str) -> None:
        if name or self._cpt_editor is not None:
            self.cpt_editor.set_variable(name or None)
        self.properties.set_variable(name or None)
        if name and self.docks_wait_for_a_node:   # the first node selected brings its table and properties
            self.docks_wait_for_a_node = False
            # behind a panel the user opened (Query, Learn Parameters …), which keeps its place and its width
            dock_layout.reveal(self, self.docks, ["properties", "cpt"], dock_layout.NODE_FRACTION, front=False)
        if name:
            self._show_hint(name)

    def _show_hint(self, name: str) -> None:
        self._hint = (name, f"{name}: {self.double_click_hint()}")
        self.statusBar().showMessage(self._hint[1], 8000)

    def _follow_hint(self) -> None:
        """The zoom changed how the nodes are drawn: a shown hint says what a double-click does now (seen: Find
        zoomed in to the node after the hint said "double-click to zoom in", and a double-click set evidence)."""
        name, text = self._hint
        if text and self.statusBar().currentMessage() == text and f"{name}: {self.double_click_hint()}" != text:
            self._show_hint(name)

    def double_click_hint(self) -> str:
        """What a double-click on a node does as the nodes are drawn now (the status bar says it on selection)."""
        drawn = self.scene.drawn_style
        if drawn == st.BARS:
            return "double-click a state to set it as evidence (again to clear); right-click for more"
        if drawn == st.SUMMARY:
            return "double-click to zoom in to its states; right-click ▸ Set evidence"
        return "double-click its name to rename it; right-click ▸ Set evidence (View ▸ Bar Charts shows beliefs)"

    def _update_title(self, *_args) -> None:
        self.setWindowTitle(f"{self.document.title}[*] — {APP_NAME}")
        self.setWindowModified(self.document.modified)

    def _update_status(self) -> None:
        net, doc = self.document.network, self.document
        nodes, arcs = len(net), len(net.arcs())
        if doc.decisions is not None:     # utility nodes, informational and utility arcs too
            nodes, arcs = nodes + len(doc.decisions.utilities), arcs + len(doc.decisions.arcs())
        self.summary_label.setText(f"{count(nodes, '{} node', '{} nodes')} · {count(arcs, '{} arc', '{} arcs')}")
        evidence, do = doc.evidence, doc.interventions
        if not evidence and not do:
            self.evidence_label.setText("No evidence")
            return
        shown = ", ".join(f"{k}={v}" if isinstance(v, str) else f"{k}~likelihood" for k, v in
                          list(evidence.items())[:3]) + ("…" if len(evidence) > 3 else "")
        if do:   # interventions first, as in p(q | do(x), e)
            shown = "do(" + ", ".join(f"{k}={v}" for k, v in do.items()) + ")" + (f", {shown}" if shown else "")
        p_e = doc.beliefs.probability_of_evidence()
        if doc.decisions is not None:     # under the optimal policies, not with decisions taken as uniform
            latest = self.decision_solver.latest
            p_e = None if latest is None or latest.solution is None else latest.solution.probability_of_evidence
        self.evidence_label.setText(f"Evidence: {shown}" + (f"  ·  P(e) = {p_e:.4g}" if p_e is not None else ""))

    def _show_zoom(self, zoom: float) -> None:
        small = self.scene.drawn_style == st.SUMMARY
        hint = f" · summaries (all states from {st.BARS_FROM * 100:.0f}%)" if small else ""
        self.zoom_label.setText(f"Zoom {zoom * 100:.0f}%{hint}")
        self.zoom_label.setToolTip("Each node shows its most likely states while its bar chart would be too small "
                                   "to read; zoom in (or double-click a node) to see all of them" if small else "")

    def _on_rows_checked(self, rows: dict[str, list[tuple[int, ...]]]) -> None:
        """Rows that do not sum to 1 are never used silently: say which, and offer to show or normalise them."""
        if not rows:
            self.rows_notice.hide()
            return
        count = sum(map(len, rows.values()))
        names = ", ".join(list(rows)[:4]) + (f" and {len(rows) - 4} more" if len(rows) > 4 else "")
        first, row = next(iter(rows.items()))[0], next(iter(rows.values()))[0]
        self.rows_notice.show_message(
            "warning", f"{count} CPT row{'s' if count != 1 else ''} of {names} do{'es' if count == 1 else ''} not "
                       f"sum to 1; the beliefs shown use {'them' if count != 1 else 'it'} normalised.",
            [("Show", lambda: open_cpt_row_index(self, first, row)), ("Normalise all", self.normalise_all_cpts)],
            sticky=True)

    def show_message(self, level: str, text: str) -> None:
        self.message_bar.show_message(level, text)
        self.statusBar().showMessage(text, 10000)

    def open_path(self, path) -> bool:
        return self.files.open_path(path, ask=False)

    # ------------------------------------------------------------------ view and tools
    def set_node_style(self, node_style: str) -> None:
        self.scene.set_node_style(node_style)
        if hasattr(self, "menu_actions"):
            (self.menu_actions.bars if node_style == st.BARS else self.menu_actions.compact).setChecked(True)

    def set_tool(self, tool: str) -> None:
        self.scene.tool = tool
        drag = QGraphicsView.DragMode
        self.view.setDragMode(drag.RubberBandDrag if tool == SELECT else drag.NoDrag)
        self.view.viewport().setCursor(Qt.CursorShape.ArrowCursor if tool == SELECT else Qt.CursorShape.CrossCursor)

    def rename_selected(self) -> None:
        names = self.scene.selected_names() or [name for name in [self.scene.selected_utility()] if name]
        if len(names) == 1:
            self.view.start_rename(names[0])

    def auto_layout(self) -> None:
        if len(self.document.network):
            self.document.execute(auto_layout_command(self.document, self.scene.node_style))
            self.fit_view()

    def fit_view(self) -> None:
        """The whole network in the view (View ▸ Fit); while a message floats over the canvas, below it (seen:
        the bar covered the top node's title after a fit). The fitted network is centred, so it is zoomed out
        until its top clears the bar."""
        self.view.fit_to_view()
        bar, content = self.message_bar, self.scene.content_rect()
        if bar.isHidden() or content.isEmpty():
            return
        viewport = self.view.viewport()
        below = bar.geometry().bottom() + 1 - viewport.y() + MESSAGE_GAP   # the bar floats on the view
        if self.view.mapFromScene(content.topLeft()).y() >= below:
            return
        factor = (viewport.height() - 2 * below) / max(content.height() * self.view.zoom, 1.0)
        if 0 < factor < 1:
            self.view.set_zoom(self.view.zoom * factor)

    # ------------------------------------------------------------------ network-wide edits
    def normalise_all_cpts(self) -> bool:
        net = self.document.network
        tables = {v: normalise_rows(np.asarray(net.cpt(v))) for v in net.variables if unnormalised_rows(net, v)}
        if not tables:
            self.show_message("info", "Every CPT row already sums to 1.")
            return False
        return self.document.execute(cmd.SetParameters(self.document, tables, text="Normalise all CPTs"))

    def check_network(self) -> None:
        try:
            self.document.network.validate()
        except BNStudioError as exc:
            self.show_message("warning", f"Check: {exc}")
            return
        self.show_message("info", "Check: every CPT is valid and every row sums to 1.")

    def ask_ess_for_all(self) -> None:
        ess, ok = QInputDialog.getDouble(self, "Effective sample size",
                                         "Dirichlet counts of every node = CPT × ESS; ESS per row:", 10.0, 0.001,
                                         1e9, 3)
        if ok:
            self.set_ess_for_all(ess)

    def set_ess_for_all(self, ess: float) -> bool:
        net = self.document.network
        alphas: dict[str, np.ndarray | None] = {v: np.asarray(net.cpt(v)) * ess for v in net.variables}
        return self.document.execute(cmd.SetParameters(self.document, {}, alphas, f"Set ESS {ess:g} for all nodes"))

    def remove_all_counts(self) -> bool:
        net = self.document.network
        alphas: dict[str, np.ndarray | None] = {v: None for v in net.variables if net.alpha(v) is not None}
        if not alphas:
            return False
        return self.document.execute(cmd.SetParameters(self.document, {}, alphas, "Remove all Dirichlet counts"))

    # ------------------------------------------------------------------ help and closing
    def show_manual(self, context: str | None = None) -> None:
        """Help ▸ Manual (F1): the manual, at the section of ``context`` (a dock key) or of the panel that has
        the keyboard focus (context help), else at its first page."""
        if context is None:
            focus = QApplication.focusWidget()
            context = next((key for key in manual.CONTEXT if focus is not None
                            and self.docks[key].isAncestorOf(focus)), None)
        if self._manual is None:
            self._manual = manual.ManualWindow(self)
        page, heading = manual.CONTEXT.get(context or "", (manual.FIRST_PAGE, None))
        self._manual.open_page(page, heading)
        self._manual.show()
        self._manual.raise_()
        self._manual.activateWindow()

    def show_help(self) -> None:
        QMessageBox.information(self, "Mouse and keyboard", HELP_TEXT)

    def show_about(self) -> None:
        QMessageBox.about(self, f"About {APP_NAME}",
                          f"<h3>{APP_NAME}</h3><p>Build, learn and query discrete Bayesian networks.</p>")

    def closeEvent(self, event) -> None:  # Qt override
        if not self.files.maybe_save():
            event.ignore()
            return
        self.save_settings()
        shutdown_panels(self)
        self.document.updates.shutdown()
        self.decision_solver.shutdown()
        shutdown_time(self)
        self.files.shutdown()
        event.accept()
