"""The main window's actions, menus and toolbar (File, Edit, View, Network, Learn, Query, Help).

Every action is wired to something that works; nothing is a placeholder.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QIcon, QKeySequence
from PySide6.QtWidgets import QMenu, QStyle, QToolBar, QWhatsThis
from shiboken6 import isValid

from bnstudio.gui import icons, printing, theme, wheel_guard
from bnstudio.gui.canvas import ADD_ARC, ADD_DECISION, ADD_NODE, ADD_UTILITY, SELECT, tool_icons
from bnstudio.gui.canvas import style as st
from bnstudio.gui.window_parts import WindowParts


class Actions:
    """Named QActions of one main window."""

    def __init__(self, window: WindowParts) -> None:
        self.window = window
        self.drawn_icons: list[tuple[QAction, Callable[[], QIcon]]] = []   # drawn again when the palette changes
        w, files, view, scene = window, window.files, window.view, window.scene
        standard = w.style().standardIcon
        keys, pixmaps = QKeySequence.StandardKey, QStyle.StandardPixmap
        self.new = self._make("&New", files.new_file, keys.New, standard(pixmaps.SP_FileIcon))
        self.open = self._make("&Open…", files.open_dialog, keys.Open,
                               standard(pixmaps.SP_DialogOpenButton))
        self.open_study = self._make("Open S&tudy…", self._open_study)
        self.save = self._make("&Save", files.save, keys.Save, standard(pixmaps.SP_DialogSaveButton))
        self.save_as = self._make("Save &As…", files.save_as, keys.SaveAs)
        self.export_png = self._make("Export Image as &PNG…", files.export_png_dialog)
        self.export_svg = self._make("Export Image as S&VG…", files.export_svg_dialog)
        self.export_pdf = self._make("Export as P&DF…", lambda: printing.export_pdf_dialog(w))
        self.print = self._make("&Print…", lambda: printing.print_network(w), keys.Print)
        self.print_panel = {panel: self._make(f"Print the {text}…", lambda panel=panel: printing.print_panel_dialog(
            w, panel)) for panel, text in printing.PANELS.items()}
        self.export_panel_pdf = {panel: self._make(f"Export the {text} as PDF…", lambda panel=panel:
                                                   printing.export_panel_pdf_dialog(w, panel))
                                 for panel, text in printing.PANELS.items()}
        self.quit = self._make("&Quit", w.close, keys.Quit)
        self.reset_layout = self._make("&Reset Layout", w.reset_layout)
        self.appearances = QActionGroup(w)
        self.appearance = {choice: self._make(text, lambda choice=choice: w.set_appearance(choice), checkable=True,
                                              group=self.appearances) for choice, text in theme.CHOICES}
        self.appearance[w.appearance.choice].setChecked(True)

        stack = w.document.undo_stack
        self.undo = stack.createUndoAction(w, "&Undo")
        self.undo.setShortcut(keys.Undo)
        self.undo.setIcon(icons.undo())
        self.undo.setIconText("Undo")  # the toolbar keeps a short label; the menu shows what will be undone
        self.redo = stack.createRedoAction(w, "&Redo")
        self.redo.setShortcut(keys.Redo)
        self.redo.setIcon(icons.redo())
        self.redo.setIconText("Redo")
        self.drawn_icons += [(self.undo, icons.undo), (self.redo, icons.redo)]
        self.delete = self._make("&Delete", scene.delete_selection, keys.Delete)
        self.rename = self._make("Re&name Node", w.rename_selected, "F2")
        self.select_all = self._make("Select &All", self._select_all, keys.SelectAll)

        self.node_styles = QActionGroup(w)
        self.bars = self._make("&Bar Charts", lambda: w.set_node_style(st.BARS), "Ctrl+B", icons.bars,
                               checkable=True, group=self.node_styles)
        self.compact = self._make("&Compact Nodes", lambda: w.set_node_style(st.COMPACT), "Ctrl+Shift+B",
                                  icons.compact, checkable=True, group=self.node_styles)
        self.bars.setIconText("Bars")
        self.compact.setIconText("Compact")
        self.zoom_in = self._make("Zoom &In", view.zoom_in, keys.ZoomIn)
        self.zoom_out = self._make("Zoom &Out", view.zoom_out, keys.ZoomOut)
        self.zoom_reset = self._make("&Actual Size", lambda: view.set_zoom(1.0), "Ctrl+0")
        self.fit = self._make("&Fit to View", w.fit_view, "Ctrl+Shift+F", icons.fit)
        self.find = self._make("&Find Node…", view.open_find, keys.Find)

        self.tools = QActionGroup(w)
        self.tool_select = self._make("&Select", lambda: w.set_tool(SELECT), "S", icons.select,
                                      checkable=True, group=self.tools)
        self.tool_node = self._make("Add &Node", lambda: w.set_tool(ADD_NODE), "N", icons.add_node,
                                    checkable=True, group=self.tools)
        self.tool_arc = self._make("Add &Arc", lambda: w.set_tool(ADD_ARC), "A", icons.add_arc,
                                   checkable=True, group=self.tools)
        self.tool_decision = self._make("Add &Decision Node", lambda: w.set_tool(ADD_DECISION), "D",
                                        tool_icons.add_decision, checkable=True, group=self.tools)
        self.tool_utility = self._make("Add &Utility Node", lambda: w.set_tool(ADD_UTILITY), "U",
                                       tool_icons.add_utility, checkable=True, group=self.tools)
        self.tool_decision.setIconText("Decision")
        self.tool_utility.setIconText("Utility")
        self.tool_decision.setToolTip("Click on empty space to add a decision (taken after the others); the "
                                      "network becomes an influence diagram")
        self.tool_utility.setToolTip("Click on empty space to add a utility node; draw arcs into it with Add Arc")
        self.tool_select.setChecked(True)
        for action in (self.delete, self.rename, self.select_all, self.tool_select, self.tool_node, self.tool_arc,
                       self.tool_decision, self.tool_utility):
            # keys that mean something else in the table and the text fields work on the canvas only
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            view.addAction(action)
        self.tool_node.setToolTip("Click on empty space to add a node (or double-click anywhere)")
        self.tool_arc.setToolTip("Drag from a parent to a child (or Shift+drag with any tool)")
        self.auto_layout = self._make("Automatic &Layout", w.auto_layout, "Ctrl+L", icons.layout)
        self.normalise_all = self._make("&Normalise All CPTs", w.normalise_all_cpts)
        self.check = self._make("&Check Network", w.check_network)

        self.open_data = self._make("Open &Data…", self._open_data,
                                    "Ctrl+Shift+D")
        self.learn_parameters = self._make("Learn &Parameters…", lambda: w.show_dock("training"), "Ctrl+Shift+P")
        self.learn_structure = self._make("Learn &Structure…", lambda: w.show_dock("structure"),
                                     "Ctrl+Shift+L")   # Ctrl+Shift+S is Save As
        self.query_panel = self._make("&Query and Error Bars…", lambda: w.show_dock("query"), "Ctrl+Shift+Q")
        self.set_ess = self._make("Set &Effective Sample Size for All Nodes…", w.ask_ess_for_all)
        self.set_ess.setToolTip("Dirichlet counts = CPT × ESS for every node (priors for learning and error bars)")
        self.remove_counts = self._make("&Remove All Dirichlet Counts", w.remove_all_counts)

        self.clear_evidence = self._make("&Clear All Evidence", w.document.clear_evidence, "Ctrl+E",
                                         icons.clear_evidence)
        self.manual = self._make("&Manual", w.show_manual, keys.HelpContents)   # F1, in a panel: its part
        self.whats_this = QWhatsThis.createAction(w)      # Shift+F1, then a click on a panel
        self.whats_this.setShortcut(keys.WhatsThis)
        self.help_mouse = self._make("&Mouse and Keyboard", w.show_help)
        self.about = self._make("&About BN Studio", w.show_about)

    def _open_data(self) -> None:
        """Open Data…: the Data dock in front, then its file dialog."""
        self.window.show_dock("data")
        self.window.data_panel.open_file()

    def _make(self, text: str, slot, shortcut=None, icon: QIcon | Callable[[], QIcon] | None = None,
              checkable: bool = False, group: QActionGroup | None = None) -> QAction:
        """An action; ``icon`` a drawing function (drawn again in a dark window: :meth:`refresh_icons`) or a
        QIcon (the style's)."""
        action = QAction(text, self.window)
        action.triggered.connect(lambda _checked=False: slot())
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if callable(icon):
            self.drawn_icons.append((action, icon))
            icon = icon()
        if icon is not None:
            action.setIcon(icon)
        action.setCheckable(checkable)
        if group is not None:
            group.addAction(action)
        return action

    def refresh_icons(self) -> None:
        """Draw the toolbar's icons again in the ink of the palette now (light or dark)."""
        for action, draw in self.drawn_icons:
            action.setIcon(draw())

    def _open_study(self) -> None:
        from bnstudio.gui.study_view import open_study_dialog  # on use: the app starts without the study code

        view = open_study_dialog(self.window)
        if view is not None:
            wheel_guard.protect(view)   # its settings, like the docks', ignore an unfocused wheel

    def _select_all(self) -> None:
        for item in self.window.scene.nodes.values():
            item.setSelected(True)

    # ------------------------------------------------------------------ menus and toolbar
    def build_menus(self) -> dict[str, QMenu]:
        w, bar = self.window, self.window.menuBar()
        menus = {name: bar.addMenu(title) for name, title in (
            ("file", "&File"), ("edit", "&Edit"), ("view", "&View"), ("network", "&Network"),
            ("learn", "&Learn"), ("query", "&Query"), ("help", "&Help"))}
        m = menus["file"]
        m.addActions([self.new, self.open])
        menus["recent"] = m.addMenu("Open &Recent")
        menus["examples"] = m.addMenu("E&xamples")
        m.addAction(self.open_study)
        m.addSeparator()
        m.addActions([self.save, self.save_as])
        m.addSeparator()
        m.addActions([self.export_png, self.export_svg, self.export_pdf, *self.export_panel_pdf.values()])
        m.addAction(self.print)
        m.addActions(list(self.print_panel.values()))
        m.addSeparator()
        m.addAction(self.quit)
        menus["edit"].addActions([self.undo, self.redo])
        menus["edit"].addSeparator()
        menus["edit"].addActions([self.delete, self.rename, self.select_all])
        menus["edit"].addSeparator()
        menus["edit"].addAction(self.find)
        m = menus["view"]
        m.addActions([self.bars, self.compact])
        m.addSeparator()
        m.addActions([self.zoom_in, self.zoom_out, self.zoom_reset, self.fit])
        m.addSeparator()
        for key, dock in w.docks.items():
            toggle = dock.toggleViewAction()
            # a dock shown from the menu comes to the front of its tab group (seen: View ▸ Data added a tab
            # behind Learn Parameters)
            toggle.triggered.connect(lambda checked, key=key: w.show_dock(key) if checked else None)
            m.addAction(toggle)
        m.addAction(w.toolbar.toggleViewAction())
        m.addAction(self.reset_layout)
        m.addSeparator()
        m.addMenu("A&ppearance").addActions(list(self.appearance.values()))
        m = menus["network"]
        m.addActions([self.tool_select, self.tool_node, self.tool_decision, self.tool_utility, self.tool_arc])
        m.addSeparator()
        m.addActions([self.auto_layout, self.normalise_all, self.check])
        menus["learn"].addActions([self.open_data, self.learn_parameters, self.learn_structure])
        menus["learn"].addSeparator()
        menus["learn"].addActions([self.set_ess, self.remove_counts])
        menus["query"].addActions([self.query_panel, self.clear_evidence])
        menus["help"].addActions([self.manual, self.whats_this, self.help_mouse])
        menus["help"].addSeparator()
        menus["help"].addAction(self.about)
        return menus

    def fill_toolbar(self, toolbar: QToolBar) -> None:
        # shorter toolbar labels (menus keep the full text) so the whole bar fits a 1366-px-wide window
        self.auto_layout.setIconText("Layout")
        self.fit.setIconText("Fit")
        self.clear_evidence.setIconText("Clear Evidence")
        toolbar.addActions([self.new, self.open, self.save])
        toolbar.addSeparator()
        toolbar.addActions([self.undo, self.redo])
        toolbar.addSeparator()
        toolbar.addActions([self.tool_select, self.tool_node, self.tool_decision, self.tool_utility, self.tool_arc])
        toolbar.addSeparator()
        toolbar.addActions([self.auto_layout, self.fit])
        toolbar.addSeparator()
        toolbar.addActions([self.bars, self.compact])
        toolbar.addSeparator()
        toolbar.addAction(self.clear_evidence)
        for action in toolbar.actions():
            name_shortcut(action)
            # Undo's text follows the stack (and changes while the window goes: then the action may be gone)
            action.changed.connect(lambda action=action: name_shortcut(action) if isValid(action) else None)


def plain_text(text: str) -> str:
    """A menu text as a tooltip shows it: no mnemonic ampersands, no ellipsis."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip(".…")


def name_shortcut(action: QAction) -> None:
    """The action's tooltip names its shortcut: "Add Node (N) — click on empty space …" (Qt shows the text
    alone). A tooltip of its own is kept after the name."""
    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    if not keys or action.isSeparator():
        return
    name = plain_text(action.text())
    own = action.property("own_tip")
    if own is None:      # the first call: what the tooltip says besides Qt's default (the text)
        tip = action.toolTip()
        own = "" if plain_text(tip) == name else tip
        action.setProperty("own_tip", own)
    action.setToolTip(f"{name} ({keys})" + (f" — {own}" if own else ""))
