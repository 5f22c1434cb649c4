"""The graph view: zoom (wheel, with limits), pan (middle button, or Space + drag), fit to view, rubber-band
selection, rename in place, keyboard edits and the context menus."""
from __future__ import annotations

import functools

from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QTransform, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QInputDialog, QLineEdit, QMenu

from bnstudio.app import commands as cmd
from bnstudio.app.commands import diagram_edits as diagram
from bnstudio.app.commands.findings import DO
from bnstudio.app.relevance import BLANKET
from bnstudio.gui.canvas import style as st
from bnstudio.gui.canvas.arc_item import ArcItem
from bnstudio.gui.canvas.find_bar import FindBar
from bnstudio.gui.canvas.node_item import NodeItem
from bnstudio.gui.canvas.note_item import NoteItem
from bnstudio.gui.canvas.scene import FIT_FRAME, NetworkScene
from bnstudio.gui.canvas.utility_item import UtilityItem

MIN_ZOOM, MAX_ZOOM = 0.1, 4.0
#: first sight shows bar charts (every state, whole names): a network is fitted if bar charts are still drawn at
#: the fit's zoom (from COMPACT_BELOW up, coming from 100 %), else opened in part at BARS_FROM (where a summary
#: turns back into bars)
FIT_DOWN_TO, FIRST_SIGHT_ZOOM = st.COMPACT_BELOW, st.BARS_FROM
WHEEL_STEP = 1.15
NUDGE = 10.0


class NetworkView(QGraphicsView):
    """Shows a :class:`NetworkScene`; ``zoom_changed`` carries the scale (1.0 = 100%)."""

    zoom_changed = Signal(float)
    opened_in_part = Signal()   # a network too large to read whole opened at a readable zoom, its top shown

    def __init__(self, scene: NetworkScene, parent=None) -> None:
        super().__init__(scene, parent)
        self.background_actions: list = []  # window actions offered on empty space (layout, fit, ...)
        self._pan_from: QPoint | None = None
        self._space_down = False
        self._editor: QLineEdit | None = None
        self._editing: str | None = None
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        for policy in (self.setHorizontalScrollBarPolicy, self.setVerticalScrollBarPolicy):
            # none while the network fits (the scene shrinks to the fitted view)
            policy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        scene.rename_requested.connect(self.start_rename)
        scene.focus_requested.connect(self.go_to)
        scene.context_menu_requested.connect(self._show_context_menu)
        scene.note_edit_requested.connect(self.edit_note)
        self.find_bar = FindBar(self)
        self.find_bar.found.connect(self.go_to)

    @property
    def network_scene(self) -> NetworkScene:
        scene = self.scene()
        assert isinstance(scene, NetworkScene)   # the view is made for one (__init__)
        return scene

    # ------------------------------------------------------------------ zoom and pan
    @property
    def zoom(self) -> float:
        return self.transform().m11()

    def min_zoom(self) -> float:
        """MIN_ZOOM, or lower when the whole network needs it to fit (any network can be seen whole)."""
        rect = self.network_scene.content_rect()
        if rect.isEmpty():
            return MIN_ZOOM
        return min(MIN_ZOOM, self.fit_zoom(rect.adjusted(-FIT_FRAME, -FIT_FRAME, FIT_FRAME, FIT_FRAME)))

    def set_zoom(self, factor: float) -> None:
        factor = min(MAX_ZOOM, max(self.min_zoom(), factor))
        self.setTransform(QTransform.fromScale(factor, factor))   # exactly ``factor``: no drift from scaling by ratios
        self.network_scene.set_zoom(self.zoom)
        self.zoom_changed.emit(self.zoom)

    def zoom_in(self) -> None:
        self.set_zoom(self.zoom * WHEEL_STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self.zoom / WHEEL_STEP)

    def focus_on(self, names: list[str], zoom: float | None = None) -> None:
        """Bring the nodes ``names`` into view: all of them, at ``zoom`` or the largest zoom that shows them
        (at most 100 %)."""
        items = [self.network_scene.nodes[n] for n in names if n in self.network_scene.nodes]
        if not items:
            return
        rect = items[0].sceneBoundingRect()
        for item in items[1:]:
            rect = rect.united(item.sceneBoundingRect())
        rect = rect.adjusted(-40, -40, 40, 40)
        self.set_zoom(zoom if zoom is not None else min(self.fit_zoom(rect), 1.0))
        self.centerOn(rect.center())

    def go_to(self, name: str) -> None:
        """Select ``name`` and show it at 100 % (bars readable), centred."""
        self.network_scene.select_only([name])
        self.focus_on([name], zoom=max(self.zoom, 1.0))

    def focus_neighbourhood(self, name: str) -> None:
        """Show ``name`` with its parents and children, selected, as large as fits."""
        net = self.network_scene.document.network
        family = [name, *net.parents(name), *net.children(name)]
        self.network_scene.select_only(family)
        self.focus_on(family)

    def open_find(self) -> None:
        """Ctrl+F: the find bar over the canvas."""
        self.find_bar.open(list(self.network_scene.document.network.variables))

    def reset_view(self) -> None:
        """100 %, centred on the scene's origin (a new, empty network)."""
        self.set_zoom(1.0)
        self.centerOn(0.0, 0.0)

    def fit_to_view(self) -> None:
        """The whole network in the view (at most 150 %), however small that makes it, without scroll bars:
        the zoom fits the viewport as it is without them, and the scene becomes exactly what the view shows.
        The zoom can switch the nodes between compact and bars (another size), so the fit is repeated on the
        nodes as then drawn."""
        scene = self.network_scene
        rect = QRectF()
        for _ in range(3):
            rect = scene.content_rect()
            if rect.isEmpty():
                self.set_zoom(1.0)
                return
            rect = rect.adjusted(-FIT_FRAME, -FIT_FRAME, FIT_FRAME, FIT_FRAME)
            self.set_zoom(min(self.fit_zoom(rect), 1.5))
            if scene.content_rect().adjusted(-FIT_FRAME, -FIT_FRAME, FIT_FRAME, FIT_FRAME) == rect:
                break
        size = self.maximumViewportSize()
        shown = QRectF(0.0, 0.0, (size.width() - 1) / self.zoom, (size.height() - 1) / self.zoom)
        shown.moveCenter(rect.center())
        scene.setSceneRect(shown.united(rect))
        for policy in (self.setHorizontalScrollBarPolicy, self.setVerticalScrollBarPolicy):
            policy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)   # lays the scroll bars out now (they go), not later
        self.centerOn(rect.center())

    def fit_zoom(self, rect: QRectF) -> float:
        """The zoom at which ``rect`` (scene units) just fits the viewport (as it is without scroll bars)."""
        viewport = self.maximumViewportSize()   # less a pixel: rounding never makes a fitted scene need a bar
        return min((viewport.width() - 1) / max(rect.width(), 1.0), (viewport.height() - 1) / max(rect.height(), 1.0))

    def open_view(self) -> bool:
        """A freshly opened network, readable before touching the zoom (issue 38: every state of every node and
        whole names at first sight): fitted to the view when the fit still draws bar charts (its zoom at least
        :data:`FIT_DOWN_TO`; the nodes are bars before it, and stay bars down to there); otherwise at
        :data:`FIRST_SIGHT_ZOOM`, its top shown (the roots: where reading a network starts), centred across,
        and :attr:`opened_in_part` emitted. Fit to View (Ctrl+Shift+F) shows the whole, Find Node (Ctrl+F) and
        the node list bring any node into view. Returns whether it is shown whole."""
        if self.network_scene.content_rect().isEmpty():
            self.reset_view()
            return True
        self.set_zoom(1.0)      # bar charts drawn, whatever the last network's zoom was
        rect = self.network_scene.content_rect().adjusted(-FIT_FRAME, -FIT_FRAME, FIT_FRAME, FIT_FRAME)
        if min(self.fit_zoom(rect), 1.5) >= FIT_DOWN_TO:
            self.fit_to_view()
            return True
        self.set_zoom(FIRST_SIGHT_ZOOM)
        self.network_scene.update_scene_rect()
        height = self.viewport().rect().height() / self.zoom
        self.centerOn(rect.center().x(), rect.top() + height / 2)
        self.opened_in_part.emit()
        return False

    def wheelEvent(self, event: QWheelEvent) -> None:  # Qt override
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.set_zoom(self.zoom * WHEEL_STEP ** steps)
        event.accept()

    def _pan_start(self, event: QMouseEvent) -> bool:
        button = event.button()
        if button == Qt.MouseButton.MiddleButton or (button == Qt.MouseButton.LeftButton and self._space_down):
            self._pan_from = event.position().toPoint()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            return True
        return False

    def mousePressEvent(self, event: QMouseEvent) -> None:  # Qt override
        self.commit_rename()
        if self._pan_start(event):
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # Qt override
        if self._pan_from is not None:
            delta = event.position().toPoint() - self._pan_from
            self._pan_from = event.position().toPoint()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # Qt override
        if self._pan_from is not None:
            self._pan_from = None
            self.viewport().unsetCursor()
            return
        super().mouseReleaseEvent(event)

    # ------------------------------------------------------------------ keyboard
    def keyPressEvent(self, event: QKeyEvent) -> None:  # Qt override
        scene = self.network_scene
        key = event.key()
        if key == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_down = True
        elif key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            scene.delete_selection()
        elif key == Qt.Key.Key_F2 and len(scene.selected_names()) == 1:
            self.start_rename(scene.selected_names()[0])
        elif key == Qt.Key.Key_F2 and scene.selected_utility():
            self.start_rename(scene.selected_utility())
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down) and scene.selected_names():
            self.nudge(Qt.Key(key))
        else:
            super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # Qt override
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_down = False
        super().keyReleaseEvent(event)

    def nudge(self, key: Qt.Key) -> None:
        """Move the selection by a few pixels; repeated nudges merge into one undo step."""
        dx = {Qt.Key.Key_Left: -NUDGE, Qt.Key.Key_Right: NUDGE}.get(key, 0.0)
        dy = {Qt.Key.Key_Up: -NUDGE, Qt.Key.Key_Down: NUDGE}.get(key, 0.0)
        scene = self.network_scene
        for name in scene.selected_names():
            scene.nodes[name].moveBy(dx, dy)
        scene.commit_moves(mergeable=True)

    # ------------------------------------------------------------------ rename in place
    def start_rename(self, name: str) -> None:
        """Show a line editor over the node's title; Enter (or leaving it) renames, Escape cancels."""
        scene = self.network_scene
        item = scene.nodes.get(name) or scene.utility_items.get(name)
        if item is None:
            return
        self.commit_rename()
        self.centerOn(item)
        title = item.header_rect() if isinstance(item, NodeItem) else item.title_rect()
        rect = self.mapFromScene(item.mapRectToScene(title)).boundingRect()
        editor = self._editor = QLineEdit(name, self.viewport())
        self._editing = name
        editor.setGeometry(rect.adjusted(1, 1, -1, -1) if rect.height() >= 18 else
                           QRectF(rect.x(), rect.y(), max(rect.width(), 120), 22).toRect())
        editor.selectAll()
        editor.returnPressed.connect(self.commit_rename)
        editor.editingFinished.connect(self.commit_rename)
        editor.installEventFilter(self)
        editor.show()
        editor.setFocus()

    def eventFilter(self, obj, event) -> bool:  # Qt override
        if obj is self._editor and event.type() == event.Type.KeyPress and event.key() == Qt.Key.Key_Escape:
            self.cancel_rename()
            return True
        return super().eventFilter(obj, event)

    def commit_rename(self) -> None:
        editor, old = self._editor, self._editing
        if editor is None:
            return
        self._editor = self._editing = None
        new = editor.text().strip()
        editor.hide()
        editor.deleteLater()
        scene = self.network_scene
        if new and new != old and (old in scene.nodes or old in scene.utility_items):
            scene.document.execute(diagram.rename_node(scene.document, old, new))
        self.setFocus()

    def cancel_rename(self) -> None:
        if self._editor is not None:
            self._editor.setText(self._editing or "")
            self.commit_rename()

    # ------------------------------------------------------------------ context menus
    def _show_context_menu(self, item, event) -> None:
        menu = QMenu(self)
        if isinstance(item, NodeItem):
            self._node_menu(menu, item)
        elif isinstance(item, UtilityItem):
            self._utility_menu(menu, item)
        elif isinstance(item, ArcItem):
            self._arc_menu(menu, item)
        elif isinstance(item, NoteItem):
            self._note_menu(menu, item)
        else:
            menu.addAction("Add node here", functools.partial(self.network_scene.add_node_at, event.scenePos()))
            menu.addAction("Add note here…", functools.partial(self.add_note, event.scenePos()))
            if self.background_actions:
                menu.addSeparator()
                menu.addActions(self.background_actions)
        menu.exec(event.screenPos())

    def _node_menu(self, menu: QMenu, item: NodeItem) -> None:
        scene, doc, name = self.network_scene, self.network_scene.document, item.name
        if not item.isSelected():
            scene.select_only([name])
        evidence = menu.addMenu("Set evidence")
        for state in item.states:
            action = evidence.addAction(state, functools.partial(doc.set_evidence, name, state))
            action.setCheckable(True)
            action.setChecked(doc.evidence.get(name) == state)
        clear = menu.addAction("Clear evidence", lambda: doc.set_evidence(name, None))
        clear.setEnabled(name in doc.evidence)
        self._intervention_menu(menu, item)
        menu.addSeparator()
        overlay = scene.overlay
        if overlay.mode == BLANKET and overlay.subject == name:
            menu.addAction("Clear Markov Blanket Highlight", overlay.clear)
        else:
            menu.addAction("Highlight Markov Blanket", lambda: overlay.show_blanket(name))
        menu.addAction("Focus on Parents and Children", lambda: self.focus_neighbourhood(name))
        menu.addAction("Rename…", lambda: self.start_rename(name))
        menu.addAction("Delete", scene.delete_selection)
        menu.addSeparator()
        if item.kind == "decision":
            menu.addAction("Make Chance Node", lambda: doc.execute(diagram.make_chance(doc, name)))
        else:
            menu.addAction("Make Decision Node", lambda: doc.execute(diagram.make_decision(doc, name)))

    def _intervention_menu(self, menu: QMenu, item: NodeItem) -> None:
        """Set by intervention do(X = x) (a finding of its own kind, one undo step) and clear it."""
        doc, name = self.network_scene.document, item.name
        setting = menu.addMenu("Set by intervention (do)")
        for state in item.states:
            action = setting.addAction(state, functools.partial(doc.set_finding, name, state, DO))
            action.setCheckable(True)
            action.setChecked(doc.interventions.get(name) == state)
        clear = menu.addAction("Clear intervention", lambda: doc.set_finding(name, None, DO))
        clear.setEnabled(name in doc.interventions)

    def _select_for_menu(self, item) -> None:
        """A right-click on an item not selected selects it alone (its menu acts on it)."""
        if not item.isSelected():
            self.network_scene.clearSelection()
            item.setSelected(True)

    def _utility_menu(self, menu: QMenu, item: UtilityItem) -> None:
        self._select_for_menu(item)
        menu.addAction("Rename…", lambda: self.start_rename(item.name))
        menu.addAction("Delete", self.network_scene.delete_selection)

    def _note_menu(self, menu: QMenu, item: NoteItem) -> None:
        self._select_for_menu(item)
        menu.addAction("Edit note…", lambda: self.edit_note(item.index))
        menu.addAction("Delete note", self.network_scene.delete_selection)

    # ------------------------------------------------------------------ notes
    def ask_note_text(self, title: str, text: str = "") -> str | None:
        """The text of a note, from a dialog (None: cancelled)."""
        text, ok = QInputDialog.getMultiLineText(self, title, "Text of the note:", text)
        return text if ok else None

    def add_note(self, pos: QPointF) -> bool:
        """Add a note at ``pos`` (scene) with the text the user types (nothing when empty or cancelled)."""
        text = self.ask_note_text("Add Note")
        if text is None or not text.strip():
            return False
        return self.network_scene.add_note_at(pos, text)

    def edit_note(self, index: int) -> bool:
        """Edit note ``index``'s text in a dialog (an empty text deletes the note)."""
        scene = self.network_scene
        text = self.ask_note_text("Edit Note", self.network_scene.document.notes[index].text)
        if text is None:
            return False
        if not text.strip():
            scene.clearSelection()
            scene.note_items[index].setSelected(True)
            scene.delete_selection()
            return True
        return scene.edit_note(index, text)

    def _arc_menu(self, menu: QMenu, item: ArcItem) -> None:
        doc = self.network_scene.document
        parent, child = item.key
        if isinstance(item.target, NodeItem) and item.target.kind == "chance":   # a network arc
            menu.addAction(f"Reverse {parent} → {child}",
                           lambda: doc.execute(diagram.checked(doc, lambda: cmd.ReverseArc(doc, parent, child))))
        menu.addAction("Delete arc", lambda: doc.execute(diagram.remove_arc(doc, parent, child)))
